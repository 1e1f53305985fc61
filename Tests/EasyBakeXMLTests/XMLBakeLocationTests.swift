import EasyBake
import EasyBakeTestSupport
import EasyBakeXML
import Foundation
import Testing

/// A bake error on XML has the value's line and column, as JSON's and
/// YAML's do (issue 27): the XML index keeps each value's position.
@Suite("XML bake errors have a line and column")
struct XMLBakeLocationTests {
    struct User: Decodable {
        let name: String
        let age: Int
    }

    struct Users: Decodable { let user: [User] }
    struct Document: Decodable { let users: Users }

    static let users = """
        <users>
          <user><name>Ada</name><age>36</age></user>
          <user>
            <name>Grace</name>
            <age>eighty</age>
          </user>
        </users>
        """

    @Test("a whole document: the failing value's line and column")
    func wholeDocument() throws {
        let error = try #require(
            #expect(throws: EasyBakeError.self) {
                try Baker().bake(Document.self, from: .text(Self.users, name: "users.xml"), format: XMLFormat())
            })
        #expect(error.location?.line == 5, "\(error)")
        #expect(error.location?.sourceName == "users.xml", "\(error)")
        // Where libxml2 reports the value: the end of its element.
        #expect(error.location?.column == 22, "\(error)")
        #expect(error.description.contains(" --> users.xml:5:22"), "\(error)")
        // The line is read again for the caret, as JSON's and YAML's errors show it.
        #expect(error.location?.lineText == "    <age>eighty</age>", "\(error)")
        #expect(error.description.contains("5 |     <age>eighty</age>"), "\(error)")
    }

    @Test("from a file too; standard input, read once, has the line and column without the line")
    func fromAFile() throws {
        let file = TestFiles.directory.appendingPathComponent(
            "xml-location-\(UUID().uuidString).xml")
        try Data(Self.users.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = try #require(
            #expect(throws: EasyBakeError.self) {
                try Baker().bake(Document.self, from: .file(file.path), format: XMLFormat())
            })
        #expect(error.location?.line == 5)
        #expect(error.location?.lineText == "    <age>eighty</age>")
    }
}
