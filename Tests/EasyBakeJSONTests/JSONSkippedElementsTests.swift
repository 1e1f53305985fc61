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
                try expectSame(index, as: read, "\(array)")
            }
            try expectEvents(of: &source, are: expected.after, "\(array)")
        }
    }

    /// `index` holds the value `reference` holds, from the same place.
    private static func expectSame(_ index: IngredientIndex, as reference: IngredientIndex, _ name: String) throws {
        #expect(try Ingredients(index: index) == Ingredients(index: reference), "\(name)")
        #expect(index.mark(at: 0)?.location == reference.mark(at: 0)?.location, "\(name)")
    }

    /// The events left in `source` are `expected`.
    private static func expectEvents(
        of source: inout JSONIngredientSource, are expected: [IngredientEvent], _ name: String
    ) throws {
        var events: [IngredientEvent] = []
        while let event = try source.next() { events.append(event) }
        #expect(events == expected, "\(name)")
    }

    @Test("elements skipped many at a time leave the source where reading them would, after the start or an element")
    func skippedElements() throws {
        for array in Self.arrays {
            let text = #"{"items": \#(array), "after": [1]}"#
            let expected = try Self.readInPlace(text)
            for level in Self.vectorLevels {
                for readFirst in [false, true] where !readFirst || !expected.elements.isEmpty {
                    for wanted in [1, 2, 3, 7, 1000, Int.max] {
                        try Self.checkSkipping(
                            text, level: level, readFirst: readFirst, wanted: wanted, expected: expected, name: array)
                    }
                }
            }
        }
    }

    /// Skips `wanted` elements of the array of `text` at `level`, after its
    /// first element (`readFirst`) or its start, then one more when two are
    /// left, and reads the rest: against what reading it in place gives.
    private static func checkSkipping(
        _ text: String, level: Int32, readFirst: Bool, wanted: Int,
        expected: (elements: [IngredientIndex], after: [IngredientEvent]), name array: String
    ) throws {
        let total = expected.elements.count
        var source = try JSONIngredientSource(.text(text))
        source.structuralLevel = level
        for _ in 0..<3 { _ = try source.next() }
        var done = 0
        if readFirst {
            let first = try #require(try source.next())
            var index = IngredientIndex()
            try source.readValue(startingWith: first, into: &index)
            done = 1
        }
        let skipped = try #require(try source.skipElements(wanted), "\(array) \(wanted)")
        let remaining = total - done
        #expect(skipped.skipped == min(wanted, remaining), "\(array) \(wanted)")
        #expect(skipped.endedArray == (wanted >= remaining), "\(array) \(wanted)")
        done += skipped.skipped
        if !skipped.endedArray, total - done >= 2 {
            // From where a skip stopped (just past a comma), again.
            let again = try #require(try source.skipElements(1), "\(array) \(wanted)")
            #expect(again.skipped == 1 && !again.endedArray, "\(array) \(wanted)")
            done += 1
        }
        var rest: [IngredientIndex] = []
        if !skipped.endedArray {
            while let first = try source.next(), first != .endArray {
                var index = IngredientIndex()
                try source.readValue(startingWith: first, into: &index)
                rest.append(index)
            }
        }
        #expect(rest.count == total - done, "\(array) \(wanted)")
        for (read, reference) in zip(rest, expected.elements[done...]) {
            try expectSame(read, as: reference, "\(array) \(wanted)")
        }
        try expectEvents(of: &source, are: expected.after, "\(array) \(wanted)")
    }

    @Test("a pruned tree that passes its node limit fails at the same element and place, skipping many at a time")
    func nodeLimit() throws {
        let big = "[" + (0..<1500).map { #"{"i": \#($0)}"# }.joined(separator: ",") + "]"
        let text = #"{"f": \#(big)}"#
        let options = JSONReadingOptions(limits: IngredientLimits(maximumNodes: 1000))
        var errors: [EasyBakeError?] = []
        for level in JSONStructuralPass.machineLevels {
            var source = try JSONIngredientSource(.text(text), options: options)
            source.structuralLevel = level
            errors.append(#expect(throws: EasyBakeError.self) { try PathMatcher(["f[1234].i"]).resolve(from: &source) })
        }
        #expect(errors.first??.code == .limitExceeded)
        for error in errors.dropFirst() {
            #expect(error?.message == errors[0]?.message)
            #expect(error?.location == errors[0]?.location)
        }
    }

    @Test("without a vector pass, or at a byte range's array, nothing moves")
    func declines() throws {
        var scalar = try JSONIngredientSource(.text(#"{"items": [{"a": 1}, 2]}"#))
        scalar.structuralLevel = 0
        for _ in 0..<3 { _ = try scalar.next() }
        #expect(try scalar.skipElementsForLater(keepingLast: 1) == nil)
        #expect(try scalar.skipElements(1) == nil)
        #expect(try scalar.next() == .beginDictionary)

        let whole = #"[{"a": 1}, {"a": 2}]"#
        var range = try JSONIngredientSource(.text(whole), byteRange: 0..<whole.utf8.count)
        _ = try range.next()
        #expect(try range.skipElementsForLater(keepingLast: 1) == nil)
        #expect(try range.skipElements(1) == nil)
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
                    if try skipping.skipElements(.max) != nil {
                        Issue.record("a malformed array's elements were skipped: \(malformed)")
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

    @Test("indexes from either end resolve as on the tree, at every level of the pass")
    func paths() throws {
        let big = "[" + (0..<1500).map { #"{"i": \#($0)}"# }.joined(separator: ",") + "]"
        let text =
            #"{"a": [[1, [2]], {"k": [3]}], "b": {"c": [{"x": 1}, [4, [5]], {"x": 2}]}, "d": [], "e": [7], "f": \#(big)}"#
        let tree = try JSONFormat().read(.text(text))
        for paths in [
            ["a[-1]", "b.c[-2]", "b.c[-1].x", "d[-1]", "e[-1]", "a[-2][-1]", "e[-2]", "f[-1].i", "f[-700]"],
            ["a[1]", "b.c[2].x", "d[3]", "e[0]", "e[1]", "a[0][1][0]", "f[1234].i", "f[1499]", "f[1500]", "f[3].i"],
        ] {
            let matcher = try PathMatcher(paths)
            for level in JSONStructuralPass.machineLevels {
                var source = try JSONIngredientSource(.text(text))
                source.structuralLevel = level
                let found = try matcher.resolve(from: &source)
                for (path, value) in zip(matcher.paths, found.values) {
                    #expect(value == tree.resolve(path), "\(path) at level \(level)")
                }
            }
        }
    }
}
