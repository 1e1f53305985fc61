import EasyBake
import Testing

/// ``IngredientIndex/Writer`` is the public way a format writes the index:
/// it must hold every write to what the index's readers rely on, and say
/// where a write went wrong.
@Suite("Writing an index through the public writer")
struct IndexWriterTests {
    /// The index `body` writes over `text`, or the error.
    static func written(
        _ text: String, limits: IngredientLimits = .default,
        _ body: (inout IngredientIndex.Writer) throws(EasyBakeError) -> Void
    ) -> Result<Ingredients, EasyBakeError> {
        Result { () throws(EasyBakeError) -> Ingredients in
            var index = IngredientIndex()
            try index.write(input: try IngredientInput.text(text).loadBytes(), sourceName: "t", limits: limits, body)
            return try Ingredients(index: index)
        }
    }

    @Test("containers, keys and every kind of scalar read back as written")
    func everyKind() throws {
        //              0         1         2         3
        //              0123456789012345678901234567890123456
        let text = #"{name: Ada, n: -12.5e1, list: [true]}"#
        let tree = try Self.written(text) { (writer) throws(EasyBakeError) in
            try writer.beginDictionary(at: 0)
            try writer.key(bytesAt: 1, count: 4)
            try writer.string(bytesAt: 7, count: 3)
            try writer.key("n", at: 12)
            try writer.number(literalAt: 15, count: 7)
            try writer.key(bytesAt: 24, count: 4)
            try writer.beginArray(at: 30)
            try writer.bool(true, at: 31)
            try writer.null(at: 31)
            try writer.number(Int64(7), at: 31)
            try writer.number(2.5, at: 31)
            try writer.string("décodé", at: 31)
            try writer.endArray()
            try writer.endDictionary()
        }.get()
        #expect(
            tree == [
                "name": "Ada", "n": .float(-125), "list": [true, .null, .integer(7), .float(2.5), "décodé"],
            ])
    }

    @Test("a value's offset is where an error about it points")
    func locations() throws {
        let text = "a:\n  nope"
        var index = IngredientIndex()
        try index.write(input: try IngredientInput.text(text).loadBytes(), sourceName: "m.txt") {
            (writer) throws(EasyBakeError) in
            try writer.beginDictionary(at: 0)
            try writer.key(bytesAt: 0, count: 1)
            try writer.string(bytesAt: 5, count: 4)
            try writer.endDictionary()
        }
        let location = index.mark(at: 2)?.location
        #expect(location?.line == 2)
        #expect(location?.column == 3)
        #expect(location?.sourceName == "m.txt")
    }

    @Test(
        "a write the index cannot hold is an error, and leaves the index empty",
        arguments: [
            ("a key outside a dictionary", "key"), ("a value where a key is expected", "value"),
            ("a container closed by the other kind", "kind"), ("a container left open", "open"),
            ("a second value", "second"), ("bytes outside the input", "outside"),
            ("a number's text that is no number", "number"), ("bytes that are not UTF-8", "utf8"),
            ("a dictionary closed after a key", "dangling"),
        ])
    func misuse(_ what: String, _ name: String) {
        let result = Self.written("ab\u{FF}12") { (writer) throws(EasyBakeError) in
            switch name {
            case "key": try writer.key("k", at: 0)
            case "value":
                try writer.beginDictionary(at: 0)
                try writer.null(at: 0)
            case "kind":
                try writer.beginArray(at: 0)
                try writer.endDictionary()
            case "open": try writer.beginArray(at: 0)
            case "second":
                try writer.null(at: 0)
                try writer.null(at: 1)
            case "outside": try writer.string(bytesAt: 3, count: 9)
            case "number": try writer.number(literalAt: 0, count: 2)
            case "utf8": try writer.string(bytesAt: 2, count: 1)
            default:
                try writer.beginDictionary(at: 0)
                try writer.key("k", at: 0)
                try writer.endDictionary()
            }
        }
        guard case .failure(let error) = result else {
            Issue.record("\(what): written as \(result)")
            return
        }
        #expect(error.code == .syntax, "\(what): \(error)")
        #expect(!error.message.isEmpty)
    }

    @Test("the limits given hold: depth, nodes, string length, number length")
    func limits() {
        var limits = IngredientLimits.default
        limits.maximumDepth = 2
        limits.maximumNodes = 3
        limits.maximumStringBytes = 2
        limits.maximumNumberLength = 1
        let deep = Self.written("[[[", limits: limits) { (writer) throws(EasyBakeError) in
            for offset in 0..<3 { try writer.beginArray(at: offset) }
        }
        let many = Self.written("1111", limits: limits) { (writer) throws(EasyBakeError) in
            try writer.beginArray(at: 0)
            for _ in 0..<3 { try writer.null(at: 1) }
        }
        let long = Self.written("abc", limits: limits) { (writer) throws(EasyBakeError) in
            try writer.string(bytesAt: 0, count: 3)
        }
        let number = Self.written("12", limits: limits) { (writer) throws(EasyBakeError) in
            try writer.number(literalAt: 0, count: 2)
        }
        for (name, result) in [("depth", deep), ("nodes", many), ("string", long), ("number", number)] {
            guard case .failure(let error) = result else {
                Issue.record("\(name): no error")
                continue
            }
            #expect(error.code == .limitExceeded, "\(name): \(error)")
            #expect(error.location?.line == 1, "\(name)")
        }
    }
}
