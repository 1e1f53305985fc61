@testable import EasyBake
import EasyBakeTestSupport
@testable import EasyBakeYAML
import Foundation
import Testing

/// The native YAML index (`YAMLIndexScanner`) against the event path (libyaml
/// through `YAMLIngredientSource`): for every input, the native scanner either
/// builds exactly the index the event path builds, or bails out — and it
/// never succeeds where the event path fails.
@Suite("YAML native index")
struct YAMLNativeIndexTests {
    /// What comparing the two paths on one input found.
    enum Verdict: Equatable {
        /// Native and event path built the same index.
        case native
        /// The native scanner bailed out (the event path read it, or failed).
        case bailed
        /// A difference: the test fails with this description.
        case mismatch(String)
    }

    /// Runs both paths on `bytes` and compares them.
    static func verdict(_ bytes: [UInt8], _ options: YAMLReadingOptions = .init()) -> Verdict {
        let input = IngredientInput.bytes(bytes, name: "differential.yaml")
        var native = IngredientIndex()
        let wentNative = YAMLFormat(options: options).readIndexNatively(input, into: &native)
        var events = IngredientIndex()
        var eventError: EasyBakeError?
        do {
            var source = try YAMLIngredientSource(input, options: options)
            try events.read(single: &source)
        } catch {
            eventError = error
        }
        guard wentNative else {
            return native.count == 0 ? .bailed : .mismatch("a bail-out left \(native.count) entries")
        }
        if let eventError { return .mismatch("native succeeded where the event path failed: \(eventError)") }
        if let difference = difference(native, events) { return .mismatch(difference) }
        // What a reader of the index sees: the tree of each.
        guard let nativeTree = try? Ingredients(index: native), let eventTree = try? Ingredients(index: events),
            same(nativeTree, eventTree)
        else { return .mismatch("the trees differ") }
        return .native
    }

    /// The first difference between two indexes, entry by entry: kinds,
    /// spans, element counts, strings and scalar values (numbers by value:
    /// the event path holds them resolved, the native path as JSON literals
    /// where they are ones, classified by the same function when read).
    static func difference(_ a: IngredientIndex, _ b: IngredientIndex) -> String? {
        guard a.count == b.count else { return "\(a.count) entries natively, \(b.count) by events" }
        for position in 0..<a.count {
            let (kindA, kindB) = (a.kind(at: position), b.kind(at: position))
            let numeric: Set<IngredientIndex.Kind> = [.integer, .float]
            guard kindA == kindB || (numeric.contains(kindA) && numeric.contains(kindB)) else {
                return "entry \(position): \(kindA) natively, \(kindB) by events"
            }
            guard a.end(of: position) == b.end(of: position),
                a.elementCount(at: position) == b.elementCount(at: position)
            else {
                return "entry \(position): spans or counts differ"
            }
            guard a.string(at: position) == b.string(at: position),
                same(a.scalar(at: position) ?? .null, b.scalar(at: position) ?? .null)
            else {
                return "entry \(position): \(String(describing: a.scalar(at: position))) natively, "
                    + "\(String(describing: b.scalar(at: position))) by events"
            }
            // Strings byte for byte (`String` equality would forgive a
            // different normalization).
            if kindA == .string {
                let bytesA = a.withUTF8(at: position) { Array($0) }
                let bytesB = b.withUTF8(at: position) { Array($0) }
                guard bytesA == bytesB else { return "entry \(position): string bytes differ" }
            }
        }
        return nil
    }

    /// Tree equality, with NaN equal to itself and numbers compared exactly.
    static func same(_ a: Ingredients, _ b: Ingredients) -> Bool {
        switch (a, b) {
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: a == b
        }
    }

    /// Tallies verdicts and records mismatches with their inputs.
    struct Tally {
        var native = 0
        var bailed = 0
        var mismatches: [String] = []

        mutating func add(_ bytes: [UInt8], _ options: YAMLReadingOptions = .init(), label: String = "") {
            switch YAMLNativeIndexTests.verdict(bytes, options) {
            case .native: native += 1
            case .bailed: bailed += 1
            case .mismatch(let why):
                mismatches.append(
                    "\(label) \(why)\n---input---\n\(String(decoding: bytes, as: UTF8.self).debugDescription)")
            }
        }

        mutating func add(_ text: String, _ options: YAMLReadingOptions = .init(), label: String = "") {
            add(Array(text.utf8), options, label: label)
        }
    }

    // MARK: - Hand-written inputs

    /// Inputs the native scanner must read itself (and agree on).
    static let nativeCases: [String] = [
        "", "# only a comment\n", "---\n", "--- # a comment\n\n",
        "a: 1\n", "a: 1", "a: 1\nb: two\nc: 3.5\nd: true\ne: null\nf: ~\ng:\n",
        "  a: 1\n  b: 2\n", "a:    spaced   \n",
        "a: \"double\"\nb: 'single'\nc: \"\"\nd: ''\n",
        "a: \"esc \\\" \\\\ \\/ \\n \\t \\r \\0 \\a \\b \\v \\f \\e \\  \\N \\_ \\L \\P\"\n",
        "a: \"\\x41\\u00e9\\U0001F600\\u2028\"\n", "a: 'it''s'\n", "'it''s': x\n", "\"k\\ty\": v\n",
        "a: b # comment\n# line comment\n  # indented comment\nc: d\n",
        "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
        "a:\n- 1\n- 2\nb:\n  - x\n  - y\n",
        "- a\n- b\n-\n- \n- c # comment\n",
        "- a: 1\n  b: 2\n- c: 3\n-   d: 4\n    e: 5\n",
        "- - a\n  - b\n- - - c\n",
        "-\n  a: 1\n-\n  - x\n",
        "users:\n- id: 1\n  name: \"Ann\"\n  tags:\n  - \"x\"\n  - \"y\"\n  orders:\n  - id: 7\n    shipped: true\n- id: 2\n",
        "a: []\nb: {}\n- x\n".replacingOccurrences(of: "- x\n", with: ""), "[]\n", "{}\n", "- []\n- {}\n",
        "plain root\n", "\"quoted root\"\n", "42\n", "null\n",
        "yes: no\non: off\ny: n\n", "a: yes\nb: No\nc: ON\nd: off\ne: Y\n",
        "a: 0x1F\nb: 0o17\nc: +12\nd: .5\ne: 1.\nf: 007\ng: .inf\nh: -.Inf\ni: .nan\nj: 1e3\nk: -0\nl: 1_000\n",
        "a: 123456789012345678901234567890\nb: 1.5e400\nc: -9223372036854775808\n",
        "a: b:c\nd: e#f\ng: h - i\nj: k [l] {m}\nn: -5\no: ---\np: a,b\nq: x:\"y\"\n",
        "1: one\ntrue: t\nnull: n\n~: tilde\n\"2\": two\n",
        "naïve: café\nkey: \"日本語\"\nemoji: 😀\n",
        "a: 1\n\n\n   \nb: 2\n",
        "a:\n\n  b: 1\n",
        "k:\n  # comment before the value\n  v: 1\n",
        "a: b\n...x: 1\n".replacingOccurrences(of: "...x: 1\n", with: "c: d\n"),
        "a: \"x\" # c\nb: 'y'   \n",
        "<<x: 1\n\"<<\": 2\n", "a:#x\n",
        "a:\n  hello\nb: 2\n",
        "a: -1\nb: -1.5\nc: -\"x\"\n".replacingOccurrences(of: "c: -\"x\"\n", with: ""),
    ]

    /// Inputs outside the subset: the native scanner must bail.
    static let bailCases: [String] = [
        "a:\tb\n", "\ta: 1\n", "a: 1\r\nb: 2\r\n", "\u{FEFF}a: 1\n",
        "a: &x 1\nb: *x\n", "a: !tag b\n", "<<: {}\n", "? a\n: b\n",
        "a: |\n  text\n", "a: >\n  text\n", "a: hello\n  world\n", "a: \"multi\n  line\"\n", "a: 'multi\n  line'\n",
        "a: [1, 2]\n", "a: {b: 1}\n", "%YAML 1.2\n---\na: 1\n", "a: 1\n---\nb: 2\n", "a: 1\n...\n",
        "a: b: c\n", "a: b # c: d\n".replacingOccurrences(of: "a: b # c: d\n", with: "a: \"b\": c\n"),
        "a: 1\nb\n", "a: 1\n  b: 2\n", "a:\n    b: 1\n  c: 2\n", "- a\nb: 1\n", "a: 1\n- b\n",
        "a: - b\n", "a: ?x\n", "a: :x\n", "a: ,x\n", "a: @x\n", "a: `x\n", "a: %x\n", "a: ]\n", "a: }\n",
        "a: \"x\" y\n", "a: 'x'y\n", "a: b\u{7F}\n", "a: b\u{1}\n", "a: \u{85}\n", "a: \u{2028}\n",
        "a: 1\na: 2\n", "- a: 1\n  a: 2\n", "a:\n  b: 1\n  b: 1\n",
        "a: \"\\q\"\n", "a: \"\\xZZ\"\n", "a: \"\\uD800\"\n", "a: \"x\\\n  y\"\n",
        "[a]: 1\n", "{}: 1\n", "a: []x\n", "a: \"x\"#c\n", "b\n  c\n", "x\ny: 1\n",
        "a: 1\n b: 2\n",
        String(repeating: "k", count: 1_100) + ": v\n",
    ]

    @Test("common block YAML is indexed natively, exactly as the event path indexes it")
    func nativeCasesAgree() {
        for text in Self.nativeCases {
            #expect(Self.verdict(Array(text.utf8)) == .native, "\(text.debugDescription)")
        }
    }

    @Test("input outside the subset bails out to the event path")
    func bailCasesBail() {
        for text in Self.bailCases {
            #expect(Self.verdict(Array(text.utf8)) == .bailed, "\(text.debugDescription)")
        }
    }

    /// Shapes of issue 28: anchors and tags on a key's line above flow
    /// content, `-` as a key, closing brackets at their block collection's
    /// column — read by the event path or refused by it.
    static let keyLineShapes: [String] = [
        "on:\n  push: &a\n    branches: [ main ]\n  pull_request: *a\n", "defaults: &d\n  k: [1, 2]\n",
        "Value: !Join\n  - \"\"\n  - [a, b]\n", "k: &a\n- [a,\n b]\n", "k: &a\n- [a,\nb]\n", "--- &r\nk: [x,\n y]\n",
        "defaults: &d\n  k: [1,\n  2]\n", "{-: 1}\n", "[-: 1]\n", "[-]\n", "{a: -}\n",
        "a:\n  test: [\n      \"x\"\n  ]\n", "a:\n  test: [\n      \"x\"\n   ]\n", "key: [\n  a\n]\n", "- [\n]\n",
    ]

    /// `-` as a plain key: the native scanner reads it as the event path does.
    static let dashKeys: [String] = ["-: x\n", "- -: x\n  y: 2\n", "a:\n  -: 1\n  b: 2\n", "-:\n  - x\n", "-: -x\n"]

    @Test("issue 28's shapes: native and event paths agree; a \"-\" key is read natively")
    func keyLineShapesAgree() {
        var tally = Tally()
        for text in Self.keyLineShapes + Self.dashKeys {
            for schema in YAMLReadingOptions.Schema.allCases {
                tally.add(text, .init(schema: schema), label: "issue 28")
            }
            tally.add(text, .init(unknownTags: .wrap), label: "issue 28, wrapped tags")
        }
        #expect(tally.mismatches == [])
        for text in Self.keyLineShapes {
            #expect(Self.verdict(Array(text.utf8)) == .bailed, "\(text.debugDescription)")
        }
        for text in Self.dashKeys {
            #expect(Self.verdict(Array(text.utf8)) == .native, "\(text.debugDescription)")
        }
    }

    @Test("every indicator at the start of a value, a key, or after a dash")
    func indicators() {
        var tally = Tally()
        let indicators = [
            "-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`", "~", "<<",
            ".",
        ]
        for indicator in indicators {
            for rest in ["", "x", " x", "x: 1", " ", "-", "'", "\""] {
                for shape in [
                    "a: \(indicator)\(rest)\n", "\(indicator)\(rest): 1\n", "- \(indicator)\(rest)\n",
                    "\(indicator)\(rest)\n", "a:\n  \(indicator)\(rest)\n", "- a: \(indicator)\(rest)\n  b: 1\n",
                ] {
                    tally.add(shape, label: "indicator")
                }
            }
        }
        #expect(tally.mismatches == [])
        #expect(tally.native > 100)
    }

    @Test("each schema, each duplicate key policy, each limit")
    func options() {
        var tally = Tally()
        let texts =
            Self.nativeCases + Self.bailCases + [
                "a: 1\nb:\n  c: [ ]\n".replacingOccurrences(of: "[ ]", with: "[]"),
                "a:\n  b:\n    c:\n      d:\n        e: 1\n", "- - - - - x\n",
                "a: \(String(repeating: "9", count: 40))\n",
                "a: \(String(repeating: "x", count: 40))\n", "\"\(String(repeating: "k", count: 40))\": 1\n",
                "a: '\(String(repeating: "q", count: 30))''\(String(repeating: "q", count: 30))'\n",
            ]
        var variants: [YAMLReadingOptions] = []
        for schema in YAMLReadingOptions.Schema.allCases {
            for policy in DuplicateKeyPolicy.allCases { variants.append(.init(schema: schema, duplicateKeys: policy)) }
        }
        for depth in [1, 2, 3, 4] { var o = YAMLReadingOptions(); o.limits.maximumDepth = depth; variants.append(o) }
        for nodes in [0, 1, 2, 3, 5, 8] {
            var o = YAMLReadingOptions(); o.limits.maximumNodes = nodes; variants.append(o)
        }
        for bytes in [0, 1, 3, 10, 35] {
            var o = YAMLReadingOptions(); o.limits.maximumStringBytes = bytes; variants.append(o)
        }
        for length in [1, 3, 20] {
            var o = YAMLReadingOptions(); o.limits.maximumNumberLength = length; variants.append(o)
        }
        for input in [5, 20] { var o = YAMLReadingOptions(); o.limits.maximumInputBytes = input; variants.append(o) }
        for documents in [YAMLReadingOptions.Documents.all, .each, .document(0)] {
            variants.append(YAMLReadingOptions(documents: documents))
        }
        variants.append(YAMLReadingOptions(unknownTags: .wrap))
        variants.append(YAMLReadingOptions(unknownTags: .reject))
        for options in variants {
            for text in texts { tally.add(text, options, label: "\(options)") }
        }
        #expect(tally.mismatches == [])
        #expect(tally.native >= 1_000)
    }

    @Test("a repeated key bails out under every policy, and the event path applies the policy")
    func duplicateKeys() {
        let texts = [
            "a: 1\na: 2\n", "a: 1\nb: 2\na: 3\n", "\"a\": 1\na: 2\n", "'a': 1\n\"\\x61\": 2\n",
            // canonically equivalent keys are equal Strings: the event path finds them repeated
            "\"\\u00e9\": 1\n\"e\\u0301\": 2\n", "\u{212A}: 1\nK: 2\n",
            (0..<60).map { "k\($0): \($0)\n" }.joined() + "k7: again\n",
            (0..<60).map { "k\($0): \($0)\n" }.joined() + "\u{212A}: 1\nK: 2\n",
        ]
        for text in texts {
            for policy in DuplicateKeyPolicy.allCases {
                #expect(
                    Self.verdict(Array(text.utf8), .init(duplicateKeys: policy)) == .bailed, "\(text.debugDescription)")
            }
        }
        // Many distinct keys (past the linear search) and non-ASCII keys that only look alike stay native.
        let distinct = (0..<200).map { "key\($0): \($0)\n" }.joined() + "é: 1\ne: 2\n"
        #expect(Self.verdict(Array(distinct.utf8)) == .native)
    }

    @Test("depth: the native path holds the same limit as the event path")
    func depth() {
        var tally = Tally()
        for depth in 1...6 {
            var options = YAMLReadingOptions()
            options.limits.maximumDepth = depth
            for nesting in 1...7 {
                let mapping =
                    (0..<nesting).map { String(repeating: "  ", count: $0) + "k\($0):" }.joined(separator: "\n")
                    + " v\n"
                let sequence = String(repeating: "- ", count: nesting) + "x\n"
                tally.add(mapping, options, label: "depth \(depth)")
                tally.add(sequence, options, label: "depth \(depth)")
                tally.add(sequence + "- []\n", options, label: "depth \(depth)")
            }
        }
        #expect(tally.mismatches == [])
        #expect(tally.native > 20)
        // Very deep nesting on one line is a loop, not a recursion.
        var deep = YAMLReadingOptions()
        deep.limits.maximumDepth = 10_000
        #expect(Self.verdict(Array((String(repeating: "- ", count: 2_000) + "x\n").utf8), deep) == .native)
    }

    @Test("corners of block structure: indentation, empty values, entries at a key's column")
    func structureCorners() {
        var tally = Tally()
        let texts = [
            "a:\n-\n b: 1\n", "a:\n-\n - x\n", "- a\n -b\n", "key:    # comment\n  - x\n", "a:\n  \"x\"\nb: 1\n",
            "a:\n  \"x\"\n  b: 1\n", "a:\n  'x' # c\n", "a:\n  x\n  y\n", "a:\n  []\n", "- a:\n  - x\n- b\n",
            "- a:\n- x\n", "-\n-\n", "- - \n  - \n", "a:\n  - b:\n    - c\n", "a:\n- b:\n  - c\n  d: 1\n",
            "a:\n  - x\n  b: 1\n", "a:\n- x\n  b: 1\n", "a:\n - x\nb:\n- y\n", "  - x\n  - y\n", "  - x\n - y\n",
            "- x\n  # c\n- y\n", "a: 1 # c\n  # c\nb: 2\n", "a:\n   \n  b: 1\n", "a: b\n\n\n", "a: b\n   ",
            "---\na: 1\n", "--- \n- x\n", "---a: 1\n", "...a: 1\n", "a: ...\n", "a: --- x\n", " ---\n", "--- x\n",
            "a: \"\\u00e9\"\n\"\\u00e9\": 2\n", "a: \"\\x7f\\x85\\xff\"\n", "a: \"\\U00110000\"\n", "a: \"\\uDFFF\"\n",
            "a: \"\\'\"\n", "a: \"\\\t\"\n", "a: 'x''", "a: \"x", "a: 'x\\'\n", "- 'a': 1\n  \"b\": 2\n",
            "a: x:y:z\nb: x :y\nc: x: \n", "a b c: d e f\n", "a  : b\n", "'a'  : b\n", "\"a\":b\n", "a:b\n",
            "- a: 1\n   b: 2\n", "- a: 1\n b: 2\n", "-  a: 1\n   b: 2\n", "-   - x\n    - y\n",
            "a:\n  b: 1\n c: 2\n", "a: 1\n\tb: 2\n", "a: [] # c\nb: {} \n", "- [] \n- {}#c\n",
        ]
        for text in texts {
            for schema in YAMLReadingOptions.Schema.allCases { tally.add(text, .init(schema: schema), label: "corner") }
        }
        #expect(tally.mismatches == [])
        #expect(tally.native >= 40)
    }

    struct Located: Decodable {
        var id: Int
        var name: String
    }

    @Test("a bake error from a native index names the line and column of the value at fault")
    func bakeErrorLocations() throws {
        for (text, line, column) in [
            ("id: 1\nname: []\n", 2, 7), ("name: x\nid: abc\n", 2, 5), ("name: x\nid: \"7x\"\n", 2, 5),
            ("- 1\n", 1, 1),
        ] {
            var index = IngredientIndex()
            #expect(YAMLFormat().readIndexNatively(.text(text), into: &index))
            do {
                _ = try Baker().bake(Located.self, from: .text(text, name: "user.yaml"), format: YAMLFormat())
                Issue.record("\(text.debugDescription) baked")
            } catch {
                #expect(
                    error.location?.line == line && error.location?.column == column,
                    "\(text.debugDescription): \(error)")
                #expect(error.location?.sourceName == "user.yaml")
            }
        }
    }

    @Test("a regular file is indexed natively; a missing file gets the event path's error")
    func files() throws {
        let path = TestFiles.directory.appendingPathComponent(
            "native-index-\(UUID().uuidString).yaml"
        ).path
        try Data("users:\n- id: 1\n  name: Ann\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var index = IngredientIndex()
        #expect(YAMLFormat().readIndexNatively(.file(path), into: &index))
        #expect(index.sourceName == path)
        let missing = path + ".missing"
        #expect(!YAMLFormat().readIndexNatively(.file(missing), into: &index))
        #expect(throws: EasyBakeError.self) { try YAMLFormat().readIndex(.file(missing), into: &index) }
        // Standard input can be read once: it is left to the event path.
        #expect(!YAMLFormat().readIndexNatively(.standardInput, into: &index))
    }

    // MARK: - yaml-test-suite

    @Test("every case of yaml-test-suite", .enabled(if: TestPaths.corpus("yaml-test-suite") != nil))
    func yamlTestSuite() throws {
        let root = try #require(TestPaths.corpus("yaml-test-suite"))
        var tally = Tally()
        for id in YAMLTestSuiteTests.cases(in: root) {
            let file = root.appendingPathComponent(id).appendingPathComponent("in.yaml")
            guard let bytes = FileManager.default.contents(atPath: file.path) else { continue }
            for schema in YAMLReadingOptions.Schema.allCases {
                tally.add(Array(bytes), .init(schema: schema), label: id)
            }
        }
        print("yaml-test-suite, native index: \(tally.native) native, \(tally.bailed) bailed")
        #expect(tally.mismatches == [])
        #expect(tally.native >= 80)
    }

    // MARK: - Random documents

    /// The tests' seeded generator, with the draws the documents are made of.
    typealias Random = SeededGenerator

    static let plainScalars = [
        "x", "hello world", "42", "-7", "3.25", "-0.5", "1e10", "0x1F", "0o17", "+3", ".5", "007", ".inf", "-.inf",
        ".nan",
        "true", "False", "yes", "No", "on", "OFF", "y", "n", "null", "Null", "~", "a:b", "a#b", "x - y", "naïve", "😀",
        "2001-12-14", "12:30", "a,b", "x[y]", "x{y}", "a ' b", "a \" b", "back\\slash", "http://x.org/?a=1&b=2",
        "99999999999999999999", "1.5e400", "-x", "--x", "<<",
    ]
    static let quotedScalars = [
        "\"x\"", "\"\"", "''", "'x'", "\"a \\\" b\"", "\"tab\\tnew\\n\"", "'it''s'", "\"\\u00e9\\x41\"",
        "\"\\U0001F600\"",
        "\"#not a comment\"", "'a: b'", "\"naïve\"",
    ]
    /// Scalars outside the subset or wrong: rarer, so that most documents stay native.
    static let riskyScalars = [
        "[x]", "{y}", "---", "-", "a: b", "a #b", "?x", ":x", "&a", "*a", "!t", "|", ">", "@x", "%x", "`x", "x ", " x",
        "a\tb", "\"\\q\"", "\"open", "'open", "\"a\"b", "\"\\\"",
    ]

    static func scalar(_ random: inout Random) -> String {
        if random.chance(3) { return random.pick(riskyScalars) }
        return random.chance(50) ? random.pick(plainScalars) : random.pick(quotedScalars)
    }

    static func key(_ random: inout Random, _ index: Int) -> String {
        switch random.below(10) {
        case 0: "\"k\(index)\""
        case 1: "'k \(index)'"
        case 2: random.pick(["1", "true", "null", "~", "a b", "é", random.chance(20) ? "<<" : "k"])
        default: "key\(index)"
        }
    }

    /// Appends a random block node at `indent`, after `prefix` (a key's `:`
    /// or a `-`) on the current line.
    static func node(_ random: inout Random, depth: Int, indent: Int, into lines: inout [String], prefix: String) {
        let comment = random.chance(10) ? " # note" : ""
        if depth >= 4 || random.chance(35) {
            let value = random.chance(5) ? random.pick(["[]", "{}", ""]) : scalar(&random)
            lines.append(prefix + (value.isEmpty ? "" : " " + value) + comment)
            return
        }
        let step = random.pick([2, 2, 4, 1, 3])
        if random.chance(50) {
            // A mapping below the prefix, or compact after a `-`.
            let count = 1 + random.below(4)
            let compact = prefix.hasSuffix("-") && random.chance(60)
            // After `-` and one or two spaces, or on the lines below.
            let keyIndent = compact ? prefix.count + 1 + random.below(2) : indent + step
            if !compact { lines.append(prefix + comment) }
            for i in 0..<count {
                let start =
                    (compact && i == 0)
                    ? prefix + String(repeating: " ", count: keyIndent - prefix.count)
                    : String(repeating: " ", count: keyIndent)
                node(&random, depth: depth + 1, indent: keyIndent, into: &lines, prefix: start + key(&random, i) + ":")
            }
        } else {
            // A sequence: indentless under a key sometimes, else indented.
            let count = 1 + random.below(4)
            let indentless = prefix.hasSuffix(":") && random.chance(50)
            let dashIndent = indentless ? indent : indent + step
            lines.append(prefix + comment)
            for _ in 0..<count {
                node(
                    &random, depth: depth + 1, indent: dashIndent + 2, into: &lines,
                    prefix: String(repeating: " ", count: dashIndent) + "-")
            }
        }
        if random.chance(10) { lines.append(random.pick(["", "# comment", "   "])) }
    }

    static func document(_ random: inout Random) -> String {
        var lines: [String] = []
        if random.chance(10) { lines.append("---") }
        if random.chance(50) {
            for i in 0..<(1 + random.below(5)) {
                node(&random, depth: 1, indent: 0, into: &lines, prefix: key(&random, i) + ":")
            }
        } else {
            for _ in 0..<(1 + random.below(5)) { node(&random, depth: 1, indent: 2, into: &lines, prefix: "-") }
        }
        return lines.joined(separator: "\n") + (random.chance(90) ? "\n" : "")
    }

    static func mutate(_ text: String, _ random: inout Random) -> String {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return text }
        for _ in 0..<(1 + random.below(3)) {
            let at = random.below(bytes.count)
            switch random.below(6) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(bytes[at], at: at)
            case 2: bytes.insert(random.pick(Array(" :-#\"'\n[]{}&*!|>?\t,\\x1".utf8)), at: at)
            case 3:
                // Change the indentation of a line.
                var lineStart = at
                while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
                if random.chance(50) {
                    bytes.insert(
                        contentsOf: Array(repeating: UInt8(ascii: " "), count: 1 + random.below(3)), at: lineStart)
                } else if lineStart < bytes.count, bytes[lineStart] == UInt8(ascii: " ") {
                    bytes.remove(at: lineStart)
                }
            case 4:
                // Duplicate a line.
                var lineStart = at
                while lineStart > 0, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
                var lineEnd = at
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                bytes.insert(contentsOf: bytes[lineStart..<min(lineEnd + 1, bytes.count)], at: lineStart)
            default:
                bytes[at] = UInt8(truncatingIfNeeded: random.next())
            }
            if bytes.isEmpty { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A document of random lines: indentation, dashes, keys, values and
    /// comments in any order, most of them wrong, to probe what the block
    /// structure allows.
    static func lineSoup(_ random: inout Random) -> String {
        var lines: [String] = []
        for _ in 0..<(1 + random.below(8)) {
            var line = String(repeating: " ", count: random.pick([0, 0, 1, 2, 2, 3, 4, 6]))
            for _ in 0..<random.below(3) { line += random.pick(["- ", "-  ", "-"]) }
            switch random.below(6) {
            case 0: line += key(&random, random.below(3)) + ":"
            case 1, 2: line += key(&random, random.below(3)) + ": " + scalar(&random)
            case 3: line += scalar(&random)
            case 4: line += random.pick(["# c", "", "---", "...", "[]", "{}", "- ", ":", "? x"])
            default:
                line +=
                    key(&random, random.below(3)) + random.pick([":", ": ", ":  "])
                    + random.pick(["", " # c", "[]", "{}"])
            }
            if random.chance(10) { line += random.pick([" # c", "  ", " :", ": x"]) }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + (random.chance(80) ? "\n" : "")
    }

    @Test("random lines of block structure")
    func randomLines() {
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["YAML_NATIVE_INDEX_ROUNDS"].flatMap(Int.init) ?? 3_000
        var random = Random(seed: (environment["YAML_NATIVE_INDEX_SEED"].flatMap(UInt64.init) ?? 42) &+ 1)
        var tally = Tally()
        for round in 0..<rounds {
            let text = Self.lineSoup(&random)
            tally.add(text, label: "soup \(round)")
            tally.add(
                text, .init(schema: .yaml11, duplicateKeys: .lastWins), label: "soup \(round), YAML 1.1, last wins")
        }
        print("random lines: \(tally.native) native, \(tally.bailed) bailed")
        #expect(tally.mismatches.prefix(5).map { $0 } == [])
        #expect(tally.native >= rounds / 5)
    }

    @Test("random block documents and mutations of them")
    func randomDocuments() {
        // More rounds, and another seed, on request: YAML_NATIVE_INDEX_ROUNDS=20000 YAML_NATIVE_INDEX_SEED=7.
        let environment = ProcessInfo.processInfo.environment
        let rounds = environment["YAML_NATIVE_INDEX_ROUNDS"].flatMap(Int.init) ?? 600
        var random = Random(seed: environment["YAML_NATIVE_INDEX_SEED"].flatMap(UInt64.init) ?? 42)
        var documents = Tally()
        var mutations = Tally()
        for round in 0..<rounds {
            let text = Self.document(&random)
            documents.add(text, label: "document \(round)")
            for _ in 0..<4 { mutations.add(Self.mutate(text, &random), label: "mutation of \(round)") }
            // Raw bytes too: a mutation may leave invalid UTF-8.
            var bytes = Array(text.utf8)
            if !bytes.isEmpty { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
            mutations.add(bytes, label: "byte mutation of \(round)")
        }
        print(
            "random documents: \(documents.native) native, \(documents.bailed) bailed; "
                + "mutations: \(mutations.native) native, \(mutations.bailed) bailed")
        #expect(documents.mismatches == [])
        #expect(mutations.mismatches.prefix(5).map { $0 } == [])
        #expect(documents.native >= rounds / 4)
        #expect(mutations.native >= rounds / 2)
    }
}

extension SeededGenerator {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
