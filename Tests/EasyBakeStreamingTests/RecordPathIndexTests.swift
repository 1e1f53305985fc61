import EasyBake
import EasyBakeJSON
import EasyBakeXML
import EasyBakeYAML
import Testing

/// Indexes in a record path: from the start they find the records the whole
/// tree finds there; from the end they are refused, since records are given
/// before their array's end is known. Until they were refused, every element
/// of such an array was given out as a record (`users[-1]` gave them all).
@Suite("Indexes in record paths")
struct RecordPathIndexTests {
    struct Item: Decodable, Equatable { let id: Int }

    static let document: Ingredients = [
        "root": ["item": [["id": 1], ["id": 2], ["id": 3]], "other": ["id": 9]]
    ]

    static let formats: [(String, any IngredientFormat)] = [
        ("json", JSONFormat()), ("yaml", YAMLFormat()), ("xml", XMLFormat()),
    ]

    /// The records at `each`, streamed from `format`'s text of the document.
    static func streamed(_ each: String, _ format: any IngredientFormat) throws -> [Int] {
        let text = try format.write(document)
        let source = AnyIngredientSource(try format.makeSource(for: .bytes(Array(text))))
        return try Baker().bakeEach(Item.self, from: source, each: each).map { try $0.get().id }
    }

    @Test(
        "an index from the start finds what the whole tree finds, in every format",
        arguments: ["root.item[0]", "root.item[1]", "root.item[2]", "root.item[3]", "root[0].item[2]", "root.other[0]"])
    func fromTheStart(each: String) throws {
        for (name, format) in Self.formats {
            let tree = try format.read(.bytes(Array(try format.write(Self.document))))
            let expected = try tree.resolve(each).map { [try Baker().bake(Item.self, from: $0).id] } ?? []
            #expect(try Self.streamed(each, format) == expected, "\(name) \(each)")
        }
    }

    @Test(
        "an index from the end is refused, naming the step, in every format and on every road",
        arguments: [
            ("root.item[-1]", "root.item[-1]"), ("root.item[-3].id", "root.item[-3]"),
            ("root[-1].item[*]", "root[-1]"), ("root.item[*].tags[-2]", "root.item[*].tags[-2]"),
        ])
    func fromTheEnd(each: String, step: String) throws {
        for (name, format) in Self.formats {
            let error = #expect(throws: EasyBakeError.self, "\(name) \(each)") {
                try Self.streamed(each, format)
            }
            #expect(error?.code == .unsupported)
            #expect(error?.path?.description == each)
            #expect(error?.message.contains("cannot count from the end (\(step))") == true, "\(error?.message ?? "")")
            let text = try format.write(Self.document)
            #expect(throws: EasyBakeError.self, "\(name) \(each), jobs") {
                try Baker().bakeEach(
                    Item.self, from: AnyIngredientSource(try format.makeSource(for: .bytes(Array(text)))), each: each,
                    jobs: 2
                ) { _ in }
            }
            #expect(throws: EasyBakeError.self, "\(name) \(each), records") {
                try RecordReader(
                    source: AnyIngredientSource(try format.makeSource(for: .bytes(Array(text)))), each: each)
            }
        }
    }
}
