import EasyBake
import EasyBakeTestSupport
import EasyBakeYAML
import Foundation
import Testing

/// Streamed YAML records read by the native scanner (issue 29) must be what
/// libyaml's events give — records, their places, errors with line and
/// column — whatever the payload holds: common block YAML, which the scanner
/// reads to the end, and anything it hands to the events, at any record.
@Suite("Streaming YAML through the native scanner agrees with the events")
struct YAMLNativeStreamingTests {
    typealias Probe = StreamingPropertyTests.Probe

    static func source(
        _ input: IngredientInput, natively: Bool, documents: YAMLReadingOptions.Documents = .single
    ) throws -> YAMLIngredientSource {
        let source = try YAMLIngredientSource(input, options: YAMLReadingOptions(documents: documents))
        source.readsRecordsNatively = natively
        return source
    }

    /// The records at `each`, read into indexes as `bakeEach` reads them,
    /// as trees with their numbers, paths and locations; or the error.
    static func records(_ source: YAMLIngredientSource, each: IngredientPath) -> [String] {
        var described: [String] = []
        do {
            var reader = try RecordReader(source: source, each: each)
            var index = IngredientIndex()
            while let record = try reader.nextRecord(into: &index, keeping: nil) {
                let location = record.mark.location
                described.append(
                    "\(record.index) \(record.path) \(location.line):\(location.column) \(try Ingredients(index: index))"
                )
            }
        } catch {
            described.append(
                "error \(error.code) \(error.message) at \(error.path?.description ?? "") \(error.location?.line ?? 0):\(error.location?.column ?? 0)"
            )
        }
        return described
    }

    /// Bakes the records both ways, with one job and two.
    static func compareBakes(_ input: IngredientInput, each: String, recipe: Recipe, context: String) throws {
        for materialization in [Baker.RecordMaterialization.automatic, .wholeRecords, .recipePaths] {
            let native = Array(
                try Baker().bakeEach(
                    Probe.self, from: try source(input, natively: true), each: each, recipe: recipe,
                    materialization: materialization))
            let events = Array(
                try Baker().bakeEach(
                    Probe.self, from: try source(input, natively: false), each: each, recipe: recipe,
                    materialization: materialization))
            compare(native, events, pruned: materialization != .wholeRecords, context: "\(materialization) \(context)")
        }
        let events = Array(
            try Baker().bakeEach(Probe.self, from: try source(input, natively: false), each: each, recipe: recipe))
        let parallel = Array(
            try Baker().bakeEach(
                Probe.self, from: try source(input, natively: true), each: each, recipe: recipe, jobs: 2))
        compare(parallel, events, pruned: true, context: "jobs 2 \(context)")
    }

    /// Native results against the events': the same models and the same
    /// errors — code, path, message and place. Two differences are the
    /// native index's, as in the whole document's bake through it: an error
    /// about a value inside a record names that value's own line and column
    /// (an index built from events knows only where the record begins, and
    /// names that), and a record the events read pruned describes itself
    /// as pruned in an error about the record as a whole, where the native
    /// record is whole.
    static func compare(
        _ native: [Result<Probe, EasyBakeError>], _ events: [Result<Probe, EasyBakeError>], pruned: Bool,
        context: String
    ) {
        #expect(native.count == events.count, "\(context)")
        for (got, want) in zip(native, events) {
            switch (got, want) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(context)")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code, "\(context)")
                #expect(a.path == b.path, "\(context)")
                #expect(a.baking?.property == b.baking?.property, "\(context)")
                if !pruned || a.baking?.property != "" {
                    #expect(a.message == b.message, "\(context)")
                }
                let (at, wanted) = (a.location, b.location)
                #expect(at?.sourceName == wanted?.sourceName, "\(context)")
                if at?.line != wanted?.line || at?.column != wanted?.column {
                    // Only an error inside the record, placed after its beginning.
                    #expect(a.path != nil && (a.path?.steps.count ?? 0) > 1, "\(a) against \(b); \(context)")
                    #expect(
                        (at?.line ?? 0, at?.column ?? 0) >= (wanted?.line ?? 0, wanted?.column ?? 0),
                        "\(a) against \(b); \(context)")
                }
            default:
                Issue.record("native \(got), events \(want); \(context)")
            }
        }
    }

    /// Changes a line of block YAML so that the scanner hands the rest to
    /// the events, or the payload turns wrong: an anchor, a tag, a flow
    /// collection, a tab, a line indented otherwise, a second document, a
    /// block scalar, a comment.
    static func mutate(_ text: String, using random: inout SeededGenerator) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > 1 else { return text }
        let at = Int.random(in: 0..<(lines.count - 1), using: &random)
        var line = lines[at]
        switch Int.random(in: 0..<9, using: &random) {
        case 0: line = line.replacingFirst(": ", with: ": &anchor ")
        case 1: line = line.replacingFirst(": ", with: ": !!str ")
        case 2: line = line.replacingFirst(": ", with: ": [") + (line.contains(": ") ? "]" : "")
        case 3: line = line.replacingFirst(" ", with: "\t")
        case 4: line = " " + line
        case 5: line = String(line.dropFirst())
        case 6:
            lines.append("---")
            lines.append("a: 1")
        case 7: line = line.replacingFirst(": ", with: ": |\n" + String(repeating: " ", count: 8))
        default: line += " # note"
        }
        lines[at] = line
        return lines.joined(separator: "\n")
    }

    @Test("random payloads, record paths and recipes: the same records and bakes both ways, mutated or not")
    func randomPayloads() throws {
        var random = SeededGenerator(seed: 0x9A71_0029)
        var native = 0, mutated = 0, failures = 0
        for round in 0..<300 {
            let written = RandomTrees.tree(depth: 4, using: &random, xmlFriendly: false)
            guard let bytes = try? YAMLFormat().write(written) else { continue }
            var text = String(decoding: bytes, as: UTF8.self)
            if round % 2 == 1 {
                text = Self.mutate(text, using: &random)
                mutated += 1
            }
            let input = IngredientInput.text(text, name: "random.yaml")
            let tree = try? YAMLFormat().read(input)
            let each = RandomTrees.recordPath(in: tree ?? written, using: &random)
            let context = "\(each) in \(text.debugDescription)"
            let nativeSource = try Self.source(input, natively: true)
            let records = Self.records(nativeSource, each: each)
            #expect(records == Self.records(try Self.source(input, natively: false), each: each), "\(context)")
            if nativeSource.readAllRecordsNatively { native += 1 }
            if records.last?.hasPrefix("error") == true { failures += 1 }

            let sample = tree?.resolve(each)?.arrayValue?.first ?? .null
            guard
                let recipe = try? Recipe(
                    name: "Probe",
                    orderedMapping: (0..<3).map { ("p\($0)", RandomTrees.path(in: sample, using: &random).description) }
                )
            else { continue }
            try Self.compareBakes(input, each: each.description, recipe: recipe, context: context)
            // The whole document's bake, record by record, where it reads.
            if round % 2 == 0, let tree, !RandomTrees.matchesNothing(each, in: tree, elements: false) {
                let expected = RandomTrees.values(at: each.steps[...], in: tree).map { record in
                    Result { () throws(EasyBakeError) -> Probe in
                        try Baker().bake(Probe.self, from: record, recipe: recipe)
                    }
                }
                let streamed = Array(
                    try Baker().bakeEach(
                        Probe.self, from: try Self.source(input, natively: true), each: each.description,
                        recipe: recipe,
                        materialization: .wholeRecords))
                #expect(streamed.count == expected.count, "\(context)")
                for (got, want) in zip(streamed, expected) {
                    switch (got, want) {
                    case (.success(let a), .success(let b)): #expect(a == b, "\(context)")
                    case (.failure(let a), .failure(let b)):
                        #expect(a.code == b.code, "\(context)")
                        #expect(a.baking == b.baking, "\(context)")
                    default: Issue.record("streamed \(got), tree \(want); \(context)")
                    }
                }
            }
        }
        #expect(native > 30, "records read natively to the end: \(native)")
        #expect(mutated > 100 && failures > 20, "mutated \(mutated), failed \(failures)")
    }

    static let users = """
        # exported
        meta:
          count: 3
          tags: []
        users:
          - id: 1
            name: Ada
            roles:
              - admin
              - dev
          - id: 2
            name: "Grace Hopper"
            address:
              city: 'New York'
            roles: []
          - id: 3
            name: Linus
        done: true

        """

    @Test("common block YAML is read natively to its end, with the events' records and places")
    func commonBlockYAML() throws {
        for (text, each, count) in [
            (Self.users, "users[*]", 3),
            (Self.users.replacingOccurrences(of: "\n  ", with: "\n"), "users[*]", 3),  // entries at the key's column
            ("- a: 1\n  b: 2\n- - x\n  - y\n- 7\n- 'q'\n", "[*]", 4),
            ("data:\n  items:\n  - {}\n  - n: 1\n\n    # between\n    m: 2\n", "data.items[*]", 2),
        ] {
            let input = IngredientInput.text(text, name: "users.yaml")
            let source = try Self.source(input, natively: true)
            let records = Self.records(source, each: try IngredientPath(parsing: each))
            #expect(source.readAllRecordsNatively, "\(text)")
            #expect(records.count == count, "\(records)")
            #expect(
                records
                    == Self.records(try Self.source(input, natively: false), each: try IngredientPath(parsing: each)))
        }
    }

    @Test("what the scanner does not read, at any record, goes to the events with the same records and errors")
    func fallingBack() throws {
        let cases: [(String, String)] = [
            (Self.users.replacingOccurrences(of: "name: Linus", with: "name: &n Linus"), "anchor in the last record"),
            (
                Self.users.replacingOccurrences(of: "name: Linus", with: "name: Linus\n   bad: indentation"),
                "bad indentation"
            ),
            (Self.users + "---\nsecond: document\n", "a second document"),
            (
                Self.users.replacingOccurrences(of: "done: true", with: "done: [true"),
                "an unclosed flow sequence after the records"
            ),
            (Self.users.replacingOccurrences(of: "users:", with: "users: !!seq"), "a tag on the records"),
            ("users:\n  -\n    id: 1\n", "a record below its dash"),
            // libyaml reads a token ahead: a wrong line just after a record
            // stops the events before that record (found by the fuzzer).
            (
                Self.users.replacingOccurrences(of: "done: true", with: "done true"),
                "a wrong line after the last record"
            ),
            ("users:\n- 1\n- 'two'\nwrong line\n", "a wrong line after scalar records"),
            ("users:\n  a: 1\n", "records in a mapping"),
            ("user:\n  - a: 1\n", "a path that matches nothing"),
        ]
        for (text, what) in cases {
            let input = IngredientInput.text(text, name: "users.yaml")
            let source = try Self.source(input, natively: true)
            let each = try IngredientPath(parsing: "users[*]")
            let records = Self.records(source, each: each)
            #expect(!source.readAllRecordsNatively, "\(what)")
            #expect(records == Self.records(try Self.source(input, natively: false), each: each), "\(what)")
        }
    }

    @Test(
        "a byte libyaml does not read, after records the scanner would give, stops the records where the events stop them"
    )
    func badByteAhead() throws {
        // libyaml checks a whole chunk's characters before it parses any of
        // it: the events give no record before the error (found by the fuzzer).
        var bytes = Array(Self.users.utf8)
        bytes.insert(0x9A, at: bytes.count - 2)
        let stream = Array("role: user\n---\nid: 7\nname: x".utf8) + [0x9A, 0x0A]
        for (input, documents) in [
            (IngredientInput.bytes(bytes, name: "users.yaml"), YAMLReadingOptions.Documents.single),
            (.bytes(stream, name: "stream.yaml"), .all),
        ] {
            let source = try Self.source(input, natively: true, documents: documents)
            let records = Self.records(
                source, each: try IngredientPath(parsing: documents == .all ? "[*]" : "users[*]"))
            #expect(records.count == 1 && records[0].hasPrefix("error unsupported"), "\(records)")
            #expect(
                records
                    == Self.records(
                        try Self.source(input, natively: false, documents: documents),
                        each: try IngredientPath(parsing: documents == .all ? "[*]" : "users[*]")))
        }
    }

    @Test(
        "a byte libyaml does not read, far after many records, stops the records where the events stop them, and not before"
    )
    func badByteFarAhead() throws {
        // The characters are checked a window ahead of the scanner, not all
        // before the first record: no record may be given that the events,
        // which check a 16 KiB chunk at a time, would not give.
        var text = "users:\n"
        for number in 0..<3_500 { text += "  - id: \(number)\n    name: user \(number)\n" }
        let clean = Array(text.utf8)
        for (offset, bad) in [
            (clean.count - 3, UInt8(0x01)), (85_000, 0x9A), (30_000, 0x07), (45_001, 0x7F), (60_003, 0x1B),
        ] {
            var bytes = clean
            bytes.insert(bad, at: offset)
            let input = IngredientInput.bytes(bytes, name: "users.yaml")
            let each = try IngredientPath(parsing: "users[*]")
            let events = Self.records(try Self.source(input, natively: false), each: each)
            let native = Self.records(try Self.source(input, natively: true), each: each)
            #expect(events.last?.hasPrefix("error") == true, "byte \(bad) at \(offset)")
            #expect(events.count > 100, "byte \(bad) at \(offset): \(events.count) records")
            let same = native == events
            #expect(
                same,
                "byte \(bad) at \(offset): \(native.count) records natively, \(events.count) from the events, ending \(native.last ?? "") and \(events.last ?? "")"
            )
        }
    }

    @Test("a bake error in a native record names its line and column in the whole file, as the events do")
    func bakeErrorLocation() throws {
        struct User: Decodable, Equatable {
            let id: Int
            let name: String
        }
        let text = Self.users.replacingOccurrences(of: "id: 2", with: "id: two")
        let input = IngredientInput.text(text, name: "users.yaml")
        let native = Array(
            try Baker().bakeEach(User.self, from: try Self.source(input, natively: true), each: "users[*]"))
        let events = Array(
            try Baker().bakeEach(User.self, from: try Self.source(input, natively: false), each: "users[*]"))
        guard case .failure(let error) = native[1] else {
            Issue.record("\"two\" baked as an Int")
            return
        }
        #expect(error.location?.line == 11)
        #expect(error.location?.column == 9)
        #expect(error.path?.description == "users[1].id")
        guard case .failure(let eventError) = events[1] else {
            Issue.record("\"two\" baked as an Int through the events")
            return
        }
        #expect(error.message == eventError.message)
        // The events' index knows where the record begins, the native one
        // where the value stands.
        #expect(eventError.location?.line == 11)
        #expect(eventError.location?.column == 5)
        #expect(try native[0].get() == User(id: 1, name: "Ada"))
        #expect(try native[2].get() == User(id: 3, name: "Linus"))
    }
}

extension YAMLNativeStreamingTests {
    @Test("the documents of a stream stream natively, one record each, as the events give them")
    func documents() throws {
        var random = SeededGenerator(seed: 0xD0C5_0029)
        var native = 0
        for round in 0..<120 {
            var text = round % 3 == 0 ? "# a stream\n" : ""
            for number in 0..<Int.random(in: 1...5, using: &random) {
                let tree = RandomTrees.tree(depth: 3, using: &random, xmlFriendly: false)
                guard let bytes = try? YAMLFormat().write(tree) else { continue }
                if number > 0 || round % 2 == 0 { text += "---\n" }
                text += String(decoding: bytes, as: UTF8.self)
            }
            if round % 4 == 1 { text = Self.mutate(text, using: &random) }
            let input = IngredientInput.text(text, name: "stream.yaml")
            let source = try Self.source(input, natively: true, documents: .all)
            let records = Self.records(source, each: try IngredientPath(parsing: "[*]"))
            #expect(
                records
                    == Self.records(
                        try Self.source(input, natively: false, documents: .all),
                        each: try IngredientPath(parsing: "[*]")),
                "\(text.debugDescription)")
            if source.readAllRecordsNatively { native += 1 }
            let recipe = try Recipe(name: "Probe", orderedMapping: [("p0", "a"), ("p1", "b.c"), ("p2", "d")])
            for jobs in [1, 2] {
                let streamed = Array(
                    try Baker().bakeEach(
                        Probe.self, from: try Self.source(input, natively: true, documents: .all), each: "[*]",
                        recipe: recipe, jobs: jobs))
                let events = Array(
                    try Baker().bakeEach(
                        Probe.self, from: try Self.source(input, natively: false, documents: .all), each: "[*]",
                        recipe: recipe))
                Self.compare(streamed, events, pruned: true, context: "jobs \(jobs) \(text.debugDescription)")
            }
        }
        #expect(native > 40, "streams read natively to the end: \(native)")
    }
}

extension String {
    /// The string with its first `target` replaced (unchanged without one).
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}

extension YAMLNativeStreamingTests {
    /// `users[*]` over `count` records of block YAML, each a few lines.
    static func manyUsers(_ count: Int) -> String {
        var text = "# exported\nusers:\n"
        for number in 0..<count {
            text += "  - id: \(number)\n    name: user \(number)\n"
            if number % 3 == 0 { text += "    # a comment at the record's column\n  # and one before it\n\n" }
            text += "    roles:\n      - admin\n"
        }
        return text + "done: true\n"
    }

    @Test("records left to jobs: the jobs read them natively, and the bakes are one job's and the events'")
    func deferredRecords() throws {
        let recipe = try Recipe(name: "Probe", orderedMapping: [("p0", "id"), ("p1", "name"), ("p2", "roles[0]")])
        // More records than a job's batch, so that records of later batches
        // are read ahead when one fails to read natively.
        let clean = Self.manyUsers(700)
        var cases: [(String, String)] = [(clean, "clean")]
        for record in [0, 1, 255, 256, 257, 699] {
            let id = "id: \(record)\n"
            let damages: [(String, String, String)] = [
                ("name: user \(record)\n", "name: &a user \(record)\n", "an anchor in record"),
                (id, "id: [\(record)]\n", "a flow sequence in record"),
                (id, id + "   bad: indentation\n", "a wrong line in record"),
                (id, "id: \"\(record)\n     continued\"\n", "a quoted scalar over two lines in record"),
                ("  - " + id, "  - " + id + " wrong\n", "a wrong line between records after record"),
            ]
            for (target, damaged, what) in damages {
                cases.append((clean.replacingOccurrences(of: target, with: damaged), "\(what) \(record)"))
            }
        }
        cases.append((clean.replacingOccurrences(of: "done: true", with: "done true"), "a wrong line at the end"))
        for (text, what) in cases {
            let input = IngredientInput.text(text, name: "users.yaml")
            let events = Array(
                try Baker().bakeEach(
                    Probe.self, from: try Self.source(input, natively: false), each: "users[*]", recipe: recipe))
            for jobs in [2, 3] {
                let source = try Self.source(input, natively: true)
                let parallel = Array(
                    try Baker().bakeEach(Probe.self, from: source, each: "users[*]", recipe: recipe, jobs: jobs))
                Self.compare(parallel, events, pruned: true, context: "jobs \(jobs), \(what)")
                if what == "clean" {
                    // `bakeEach` reads a record or two in place before its
                    // jobs begin; the rest are left to the jobs.
                    #expect(source.recordsDeferred >= 698, "jobs \(jobs): \(source.recordsDeferred) records left")
                    #expect(source.readAllRecordsNatively)
                } else if what.hasPrefix("a ") && what.contains(" in record") {
                    #expect(!source.readAllRecordsNatively, "jobs \(jobs), \(what)")
                }
            }
        }
    }
}
