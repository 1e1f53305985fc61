import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// `maximumNodes` bounds every tree: one read whole, and each streamed record.
@Suite("The node limit")
struct NodeLimitTests {
    static var ten: IngredientLimits {
        var limits = IngredientLimits.default
        limits.maximumNodes = 10
        return limits
    }

    /// Eleven values: the dictionary, the array and nine numbers.
    static let json = #"{"a": [1, 2, 3, 4, 5, 6, 7, 8, 9]}"#

    static func sources(_ text: String? = nil) throws -> [(String, AnyIngredientSource)] {
        let xml = "<a>" + (1...10).map { "<n>\($0)</n>" }.joined() + "</a>"  // a, its array, 10 strings
        let yaml = "a: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
        return [
            (
                "json",
                AnyIngredientSource(
                    try JSONIngredientSource(.text(text ?? json, name: "t.json"), options: .init(limits: ten)))
            ),
            ("xml", AnyIngredientSource(try XMLIngredientSource(.text(xml), options: .init(limits: ten)))),
            ("yaml", AnyIngredientSource(try YAMLIngredientSource(.text(yaml), options: .init(limits: ten)))),
        ]
    }

    @Test("a tree of more values than the limit fails with a limit error naming it")
    func tree() throws {
        for (name, var source) in try Self.sources() {
            let error = #expect(throws: EasyBakeError.self, "\(name)") { try Ingredients(reading: &source) }
            #expect(error?.code == .limitExceeded, "\(name)")
            #expect(error?.message == "maximumNodes limit of 10 exceeded", "\(name)")
            #expect(error?.location != nil, "\(name)")
        }
        var fits = try JSONIngredientSource(
            .text(#"{"a": [1, 2, 3, 4, 5, 6, 7, 8]}"#), options: .init(limits: Self.ten))
        #expect(try Ingredients(reading: &fits)["a"]?.arrayValue?.count == 8)
    }

    @Test("streaming counts what it builds: pruned values and each record on its own")
    func streaming() throws {
        // Three values of eleven are kept (the dictionary, the array and
        // its first number): within the limit.
        var source = try JSONIngredientSource(.text(Self.json), options: .init(limits: Self.ten))
        #expect(try PathMatcher(["a[0]"]).resolve(from: &source)["a[0]"] == 1)
        // The last element needs every place kept (as null) until the end.
        var last = try JSONIngredientSource(.text(Self.json), options: .init(limits: Self.ten))
        let error = #expect(throws: EasyBakeError.self) { try PathMatcher(["a[-1]"]).resolve(from: &last) }
        #expect(error?.code == .limitExceeded)
        let records = #"{"r": [[1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [1]]}"#
        var reader = try RecordReader(
            source: try JSONIngredientSource(.text(records), options: .init(limits: Self.ten)), each: "r[*]")
        #expect(try reader.next()?.ingredients == [1, 2, 3])
        let recordError = #expect(throws: EasyBakeError.self) { try reader.next() }
        #expect(recordError?.message == "maximumNodes limit of 10 exceeded")
    }
}
