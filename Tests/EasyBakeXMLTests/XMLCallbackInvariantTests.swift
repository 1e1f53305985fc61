@testable import EasyBakeXML
import Testing

/// The check the SAX callbacks assert in debug builds (issue 31, item 6):
/// it must refuse the attribute arrays libxml2 promises never to hand over,
/// or the assert would check nothing.
@Suite("XML callback invariants")
struct XMLCallbackInvariantTests {
    /// Runs `body` with libxml2's layout of attributes: 5 pointers each
    /// (local name, prefix, URI, value, value end) into `text`, changed by
    /// `change` first.
    private func withAttributes(
        _ count: Int, change: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, UnsafePointer<UInt8>) -> Void = { _, _ in },
        _ body: (UnsafeMutablePointer<UnsafePointer<UInt8>?>) -> Bool
    ) -> Bool {
        let text = Array("name\0value".utf8)
        return text.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress!
            let pointers = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 5 * max(count, 1))
            defer { pointers.deallocate() }
            for i in 0..<count {
                pointers[5 * i] = base
                pointers[5 * i + 1] = nil
                pointers[5 * i + 2] = nil
                pointers[5 * i + 3] = base + 5
                pointers[5 * i + 4] = base + 10
            }
            change(pointers, base)
            return body(pointers)
        }
    }

    @Test("well-formed attributes pass; none pass with or without an array")
    func wellFormed() {
        #expect(withAttributes(3) { XMLParserDriver.libxml2Attributes($0, count: 3) })
        #expect(XMLParserDriver.libxml2Attributes(nil, count: 0))
        #expect(withAttributes(0) { XMLParserDriver.libxml2Attributes($0, count: 0) })
        // An empty value: its end is its start.
        #expect(
            withAttributes(2, change: { p, base in p[8] = base + 5 }) {
                XMLParserDriver.libxml2Attributes($0, count: 2)
            })
    }

    @Test("a value ending before it begins, a missing name, value or end, or a missing array fail")
    func malformed() {
        #expect(!XMLParserDriver.libxml2Attributes(nil, count: 1))
        #expect(!XMLParserDriver.libxml2Attributes(nil, count: -1))
        // The second attribute's value ends before it begins.
        #expect(
            !withAttributes(2, change: { p, base in p[9] = base + 4 }) {
                XMLParserDriver.libxml2Attributes($0, count: 2)
            })
        for missing in [0, 3, 4] {
            #expect(
                !withAttributes(2, change: { p, _ in p[5 + missing] = nil }) {
                    XMLParserDriver.libxml2Attributes($0, count: 2)
                })
        }
    }
}
