import EasyBake
import EasyBakeJSON
import Testing

/// `skipElementsForLater(keepingLast:)`: a whole array skipped over the
/// structural pass, its last elements kept for reading later, held to
/// reading the same array element by element.
@Suite("JSON arrays skipped whole for their last elements")
struct JSONSkippedElementsTests {
    /// What reading `text`'s array (the value of `items`) element by element
    /// gives: every element, read in place, and the events after the array.
    private static func readInPlace(_ text: String) throws -> (elements: [IngredientIndex], after: [IngredientEvent]) {
        var source = try JSONIngredientSource(.text(text))
        for _ in 0..<3 { _ = try source.next() }
        var elements: [IngredientIndex] = []
        while let first = try source.next(), first != .endArray {
            var index = IngredientIndex()
            try source.readValue(startingWith: first, into: &index)
            elements.append(index)
        }
        var after: [IngredientEvent] = []
        while let event = try source.next() { after.append(event) }
        return (elements, after)
    }

    private static let arrays = [
        "[]", "[ ]", "[1]", "[1, 2, 3]", #"["a,b", ",", "]"]"#,
        #"[ {"a": [1, {"b": ","}]} , "x,y" ,[ [], {} ], null, -2.5e3, "\u00e9", true, "é"]"#,
        "[\n\t{\"id\": 1},\n\t{\"id\": 2}\r\n]",
        // More elements than one call of the skip marks, and numbers it
        // leaves to the Swift checks (exponents).
        "[" + (0..<1500).map { $0 % 7 == 0 ? "\($0)e1" : "\($0)" }.joined(separator: ",") + "]",
        "["
            + (0..<300).map { #"{"k": [\#($0), "\#(String(repeating: "x", count: $0 % 90))"]}"# }
            .joined(separator: ", ") + "]",
    ]

    /// The vector levels of the structural pass this machine runs (set on
    /// each source, so that `EASYBAKE_SCALAR` does not take them away).
    private static let vectorLevels = JSONStructuralPass.machineLevels.dropFirst()

    @Test("the last elements read as in place, the count is every element's, the events after are the same")
    func lastElements() throws {
        for array in Self.arrays {
            let text = #"{"items": \#(array), "after": [1]}"#
            let expected = try Self.readInPlace(text)
            for level in Self.vectorLevels {
                try Self.check(text, level: level, expected: expected, name: array)
            }
        }
    }

    /// Skips the array of `text` at `level`, keeping 1, 2, 5 and 2,000 of
    /// its elements, against what reading it in place gives.
    private static func check(
        _ text: String, level: Int32, expected: (elements: [IngredientIndex], after: [IngredientEvent]),
        name array: String
    ) throws {
        for keeping in [1, 2, 5, 2000] {
            var source = try JSONIngredientSource(.text(text))
            source.structuralLevel = level
            for _ in 0..<3 { _ = try source.next() }
            let skipped = try #require(try source.skipElementsForLater(keepingLast: keeping), "\(array)")
            #expect(skipped.count == expected.elements.count, "\(array)")
            let last = expected.elements.suffix(keeping)
            #expect(skipped.last.count == last.count, "\(array)")
            for (later, read) in zip(skipped.last, last) {
                var index = IngredientIndex()
                #expect(try later.read(into: &index, keeping: nil))
                #expect(try Ingredients(index: index) == Ingredients(index: read), "\(array)")
                #expect(index.mark(at: 0)?.location == read.mark(at: 0)?.location, "\(array)")
            }
            var after: [IngredientEvent] = []
            while let event = try source.next() { after.append(event) }
            #expect(after == expected.after, "\(array)")
        }
    }

    @Test("without a vector pass, or at a byte range's array, nothing moves")
    func declines() throws {
        var scalar = try JSONIngredientSource(.text(#"{"items": [{"a": 1}, 2]}"#))
        scalar.structuralLevel = 0
        for _ in 0..<3 { _ = try scalar.next() }
        #expect(try scalar.skipElementsForLater(keepingLast: 1) == nil)
        #expect(try scalar.next() == .beginDictionary)

        let whole = #"[{"a": 1}, {"a": 2}]"#
        var range = try JSONIngredientSource(.text(whole), byteRange: 0..<whole.utf8.count)
        _ = try range.next()
        #expect(try range.skipElementsForLater(keepingLast: 1) == nil)
        #expect(try range.next() == .beginDictionary)
    }

    @Test("what is wrong in a skipped array is the same error, at the same place, as reading it")
    func errors() throws {
        let limits = JSONReadingOptions(limits: IngredientLimits(maximumDepth: 4))
        for malformed in [
            #"[{"id": 1,}, 2]"#, #"[[1, 02], 2]"#, #"[{"a": "\x"}, 2]"#, #"[{"a": tru}, 2]"#, "[[1, 2}, 3]",
            "[{\"a\": \"\u{1}\"}]", #"[{"a": [[[[1]]]]}]"#, "[1, 2,]", "[1 2]", "[1, 2", #"[{"a": 1}, 1e]"#,
            "[" + (0..<900).map(String.init).joined(separator: ", ") + ", -]",
        ] {
            var reading = try JSONIngredientSource(.text(malformed), options: limits)
            _ = try reading.next()
            let expected = #expect(throws: EasyBakeError.self, "\(malformed)") {
                while let first = try reading.next(), first != .endArray {
                    var index = IngredientIndex()
                    try reading.readValue(startingWith: first, into: &index)
                }
            }
            for level in Self.vectorLevels {
                var skipping = try JSONIngredientSource(.text(malformed), options: limits)
                skipping.structuralLevel = level
                _ = try skipping.next()
                let error = #expect(throws: EasyBakeError.self, "\(malformed)") {
                    // Declined, the array is read element by element from where it began.
                    if try skipping.skipElementsForLater(keepingLast: 1) != nil {
                        Issue.record("a malformed array was skipped: \(malformed)")
                    }
                    while let first = try skipping.next(), first != .endArray {
                        var index = IngredientIndex()
                        try skipping.readValue(startingWith: first, into: &index)
                    }
                }
                #expect(error?.message == expected?.message, "\(malformed)")
                #expect(error?.location == expected?.location, "\(malformed)")
            }
        }
    }

    @Test("negative indexes resolve as on the tree, at every level of the pass")
    func paths() throws {
        let text = #"{"a": [[1, [2]], {"k": [3]}], "b": {"c": [{"x": 1}, [4, [5]], {"x": 2}]}, "d": [], "e": [7]}"#
        let tree = try JSONFormat().read(.text(text))
        let matcher = try PathMatcher(["a[-1]", "b.c[-2]", "b.c[-1].x", "d[-1]", "e[-1]", "a[-2][-1]", "e[-2]"])
        for level: Int32 in [0, 1, 2] {
            var source = try JSONIngredientSource(.text(text))
            source.structuralLevel = level
            let found = try matcher.resolve(from: &source)
            for (path, value) in zip(matcher.paths, found.values) {
                #expect(value == tree.resolve(path), "\(path) at level \(level)")
            }
        }
    }
}
