import EasyBake
import EasyBakeXML
import Foundation
import Testing
import EasyBakeTestSupport

@Suite("XML encodings")
struct XMLEncodingTests {
    static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> [UInt8] {
        var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test("UTF-16 with a byte order mark is read", arguments: [false, true])
    func utf16WithBOM(bigEndian: Bool) throws {
        let xml = #"<?xml version="1.0" encoding="UTF-16"?><a x="ü">héllo € 😀</a>"#
        let tree = try xmlTree(bytes: Self.utf16(xml, bigEndian: bigEndian, bom: true))
        #expect(tree == ["a": ["@x": "ü", "#text": "héllo € 😀"]])
        let undeclared = try xmlTree(bytes: Self.utf16("<a>ok</a>", bigEndian: bigEndian, bom: true))
        #expect(undeclared == ["a": "ok"])
    }

    @Test("a UTF-16 document larger than one chunk is read")
    func largeUTF16() throws {
        let xml = "<r>" + String(repeating: "<i>ünïcödé</i>", count: 10_000) + "</r>"
        let tree = try xmlTree(bytes: Self.utf16(xml, bigEndian: false, bom: true))
        guard case .array(let items)? = tree["r"]?["i"] else {
            Issue.record("expected an array")
            return
        }
        #expect(items.count == 10_000)
        #expect(items[9_999] == "ünïcödé")
    }

    @Test("ISO-8859-1 declared in the XML declaration becomes UTF-8")
    func latin1() throws {
        let bytes =
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><a x=""#.utf8) + [0xE9]
            + Array("\">caf".utf8) + [0xE9, 0xA0, 0xBD] + Array("</a>".utf8)
        #expect(try xmlTree(bytes: bytes) == ["a": ["@x": "é", "#text": "café\u{A0}½"]])
    }

    @Test("a UTF-8 byte order mark is skipped")
    func utf8BOM() throws {
        #expect(try xmlTree(bytes: [0xEF, 0xBB, 0xBF] + Array("<a>ü</a>".utf8)) == ["a": "ü"])
    }

    @Test("a declared encoding that contradicts the bytes is rejected")
    func contradictions() throws {
        let utf16DeclaredUTF8 = Self.utf16(#"<?xml version="1.0" encoding="UTF-8"?><a/>"#, bigEndian: false, bom: true)
        #expect(xmlError(bytes: utf16DeclaredUTF8)?.code == .syntax)
        let utf8DeclaredUTF16 = Array(#"<?xml version="1.0" encoding="UTF-16"?><a/>"#.utf8)
        #expect(xmlError(bytes: utf8DeclaredUTF16)?.code == .syntax)
        let bomDeclaredLatin1 = [0xEF, 0xBB, 0xBF] + Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><a/>"#.utf8)
        let error = try #require(xmlError(bytes: bomDeclaredLatin1))
        #expect(error.code == .syntax)
        #expect(error.message.contains("ISO-8859-1"))
        #expect(error.location?.line == 1)
    }

    @Test("bytes invalid in the declared encoding are rejected")
    func invalidBytes() {
        let bytes = Array(#"<?xml version="1.0" encoding="UTF-8"?><a>"#.utf8) + [0xE9] + Array("</a>".utf8)
        #expect(xmlError(bytes: bytes)?.code == .syntax)
    }

    @Test("an unknown encoding is reported as unsupported")
    func unknownEncoding() {
        let error = xmlError(#"<?xml version="1.0" encoding="X-NO-SUCH-ENCODING"?><a/>"#)
        #expect(error?.code == .unsupportedEncoding)
    }
}

@Suite("XML input kinds")
struct XMLInputTests {
    @Test("a lone surrogate in UTF-16 is rejected")
    func loneSurrogate() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<a>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        bytes += [0x00, 0xD8]  // U+D800 without its low half
        for unit in "x</a>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(xmlError(bytes: bytes) != nil)
    }

    @Test("a file is read in chunks through the format")
    func fileInput() throws {
        let path = TestFiles.directory.appendingPathComponent("easybake-\(UUID()).rss").path
        var xml = "<rss><channel>"
        for i in 0..<30_000 { xml += "<item><title>T\(i)</title><guid>\(i)</guid></item>\n" }
        xml += "</channel></rss>"
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tree = try XMLFormat().read(.file(path))
        #expect(try tree.resolve("rss.channel.item[-1].guid") == "29999")
        #expect(try tree.resolve("rss.channel.item[12345].title") == "T12345")
    }
}
