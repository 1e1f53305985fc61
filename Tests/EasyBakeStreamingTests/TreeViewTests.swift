import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

/// A tree read by a format keeps the index it was read into, and baking it
/// bakes that index (issue 31, item 7): the same models, warnings and errors
/// as baking straight from the bytes, a number's text for a `String`, and a
/// tree that is in every other way the tree the format's events build.
@Suite("A tree read by a format is a view of its index")
struct TreeViewTests {
    /// Every scalar of a dictionary as text: a number gives its literal.
    struct Texts: Decodable, Equatable {
        let values: [String: String]

        init(from decoder: any Decoder) throws {
            values = try decoder.singleValueContainer().decode([String: String].self)
        }
    }

    /// The same tree, rebuilt node by node through the public API: a tree
    /// built by hand, which keeps no index.
    static func handBuilt(_ value: Ingredients) -> Ingredients {
        switch value {
        case .array(let array): .array(IngredientArray(array.map(handBuilt)))
        case .dictionary(let dictionary):
            .dictionary(
                {
                    var copy = IngredientDictionary(dictionary.map { (key: $0.key, value: handBuilt($0.value)) })
                    copy.isElement = dictionary.isElement
                    return copy
                }())
        default: value
        }
    }

    /// Whether two trees are the same, element marks included (equality
    /// leaves them out).
    static func sameMarks(_ a: Ingredients, _ b: Ingredients) -> Bool {
        switch (a, b) {
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { sameMarks($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            x.isElement == y.isElement && x.count == y.count
                && zip(x, y).allSatisfy { $0.key == $1.key && sameMarks($0.value, $1.value) }
        default: a == b
        }
    }

    /// Bakes `type` from the bytes and from `tree`, and expects the same
    /// value and warnings, or the same error (its location too).
    static func expectSameBake<Model: Decodable & Equatable>(
        _ type: Model.Type, _ input: IngredientInput, _ tree: Ingredients, format: some IngredientFormat,
        _ label: String
    ) {
        let fromBytes = Result { () throws(EasyBakeError) in
            try Baker().bakeReporting(type, from: input, format: format)
        }
        let fromTree = Result { () throws(EasyBakeError) in try Baker().bakeReporting(type, from: tree) }
        switch (fromBytes, fromTree) {
        case (.success(let a), .success(let b)):
            #expect(a.value == b.value, "\(label)")
            #expect(a.warnings.map(\.description) == b.warnings.map(\.description), "\(label)")
        case (.failure(let a), .failure(let b)):
            #expect(a.message == b.message && a.path == b.path && a.code == b.code, "\(label)")
            // A container bakes from its index, which knows where the error
            // is; a lone scalar keeps no index (it is an enum's payload).
            if tree.isContainer { #expect(a.description == b.description, "\(label)") }
        default:
            Issue.record("\(label): from bytes \(fromBytes), from the tree \(fromTree)")
        }
    }

    /// The checks every read tree passes: it is the tree the format's events
    /// build (values, order, element marks, description, hash), it equals its
    /// copy built by hand, and it bakes as its bytes do.
    static func check(_ input: IngredientInput, format: some IngredientFormat, _ label: String) throws {
        let tree = try format.read(input)
        var source = try format.makeSource(for: input)
        let built = try Ingredients(reading: &source)
        #expect(tree == built, "\(label)")
        #expect(sameMarks(tree, built), "\(label): element marks")
        #expect(tree.description == built.description, "\(label)")
        #expect(tree.hashValue == built.hashValue, "\(label)")
        let byHand = handBuilt(tree)
        #expect(tree == byHand && byHand == tree, "\(label)")
        expectSameBake(AnyJSON.self, input, tree, format: format, label)
        expectSameBake(Texts.self, input, tree, format: format, label)
        // Every container of the tree bakes as its copy built by hand (no
        // number text differs for these models: a number is probed as one).
        // Not an XML array: a tree marks only dictionaries as elements, so
        // an array's copy is no XML (whose text is probed for numbers and
        // booleans), where the view reads the XML index it comes from.
        let isXML = tree.dictionaryValue?.isElement ?? false
        var stack = [tree]
        var baked = 0
        while let value = stack.popLast(), baked < 200 {
            switch value {
            case .array(let array): stack.append(contentsOf: array)
            case .dictionary(let dictionary): stack.append(contentsOf: dictionary.values)
            default: continue
            }
            baked += 1
            if isXML, value.arrayValue != nil { continue }
            let fromView = Result { () throws(EasyBakeError) in try Baker().bake(AnyJSON.self, from: value) }
            let fromHand = Result { () throws(EasyBakeError) in try Baker().bake(AnyJSON.self, from: handBuilt(value)) }
            switch (fromView, fromHand) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(label): \(value)")
            case (.failure(let a), .failure(let b)): #expect(a.message == b.message && a.path == b.path, "\(label)")
            default: Issue.record("\(label): the view \(fromView), by hand \(fromHand)")
            }
        }
    }

    @Test("the shipped fixtures read as trees bake as their bytes do, in each format")
    func fixtures() throws {
        let files: [(String, any IngredientFormat)] = [
            ("json/users.json", JSONFormat()), ("json/benchmark-users.json", JSONFormat()),
            ("xml/atom-xhtml.xml", XMLFormat()), ("xml/atom.xml", XMLFormat()), ("xml/feed.rss", XMLFormat()),
            ("xml/media.rss", XMLFormat()), ("xml/podcast.rss", XMLFormat()),
            ("yaml/members.yaml", YAMLFormat()), ("yaml/users.yaml", YAMLFormat()),
            ("yaml/user-records.yaml", YAMLFormat()),
        ]
        for (name, format) in files {
            try Self.check(.file(TestPaths.fixture(name).path), format: format, name)
        }
    }

    @Test("random payloads read as trees bake as their bytes do", arguments: 0..<3)
    func random(formatIndex: Int) throws {
        let (name, format, _) = StreamingPropertyTests.formats[formatIndex]
        var random = SeededGenerator(seed: 0x7EE_0031 + UInt64(formatIndex))
        var checked = 0
        for round in 0..<150 {
            guard let (input, _) = try StreamingPropertyTests.payload(formatIndex, using: &random) else { continue }
            try Self.check(input, format: format, "\(name) round \(round)")
            checked += 1
        }
        #expect(checked > 100)
    }

    struct Numbers: Decodable, Equatable {
        let text: String
        let list: [String]
        let inner: Inner
        struct Inner: Decodable, Equatable { let zip: String }
    }

    @Test(
        "a String baked from a tree gets a number's literal, as from the bytes",
        arguments: [
            (#"{"text": 1e2, "list": [1.10, -0.0], "inner": {"zip": 1234}}"#, "json", true),
            ("text: 1e2\nlist:\n  - 1.10\n  - +12\ninner:\n  zip: 01234\n", "yaml", true),
            // A flow collection is read through libyaml's events, from the
            // bytes too: a number's text is its value's either way.
            ("text: 1e2\nlist: [1.10, 0x1F]\ninner:\n  zip: 01234\n", "yaml", false),
        ])
    func numberText(payload: String, formatName: String, keepsText: Bool) throws {
        let format: any IngredientFormat = formatName == "json" ? JSONFormat() : YAMLFormat()
        let input = IngredientInput.text(payload)
        let direct = try Baker().bake(Numbers.self, from: input, format: format)
        let tree = try format.read(input)
        #expect(try Baker().bake(Numbers.self, from: tree) == direct)
        // The literal, not the value's text.
        #expect(direct.text == (keepsText ? "1e2" : "100.0"))
        #expect(direct.list.first == (keepsText ? "1.10" : "1.1"))
        // A subtree bakes from its place in the index.
        let inner = try Baker().bake(Numbers.Inner.self, from: tree["inner"]!)
        #expect(inner == direct.inner)
        if formatName == "yaml" { #expect(inner.zip == (keepsText ? "01234" : "1234")) }
        // Through a document, as the README reads.
        let document = try Document(reading: input, format: format)
        #expect(try Baker().bake(Numbers.self, from: document) == direct)
        // A tree built by hand has no literal: its number's text is its value's.
        #expect(try Baker().bake(Numbers.self, from: Self.handBuilt(tree)).text == "100.0")
    }

    @Test("a changed view is its nodes: copy on write keeps the original, the change bakes")
    func mutation() throws {
        let tree = try JSONFormat().read(.text(#"{"text": 1e2, "list": [1.10], "inner": {"zip": 1234}}"#))
        let original = try Baker().bake(Numbers.self, from: tree)

        // A copy changed through a shared storage.
        var changed = tree.dictionaryValue!
        changed["text"] = "changed"
        var list = changed["list"]!.arrayValue!
        list.append(7)
        changed["list"] = .array(list)
        let bakedChange = try Baker().bake(Numbers.self, from: .dictionary(changed))
        #expect(bakedChange.text == "changed")
        // The changed tree is indexed from its nodes: a number's text is its value's.
        #expect(bakedChange.list == ["1.1", "7"])
        #expect(bakedChange.inner.zip == "1234")
        // The original is untouched, and still bakes from its index.
        #expect(try Baker().bake(Numbers.self, from: tree) == original)
        #expect(original.text == "1e2" && original.list == ["1.10"])
        #expect(tree["text"] == .float(100) && tree["list"]?.arrayValue?.count == 1)
        #expect(Ingredients.dictionary(changed) != tree)

        // A view changed in place (its storage held by nothing else).
        var unique = try JSONFormat().read(.text(#"{"text": 1e2, "list": [2.50], "inner": {"zip": 5}}"#))
            .dictionaryValue!
        unique["extra"] = true
        let bakedUnique = try Baker().bake(Numbers.self, from: .dictionary(unique))
        #expect(bakedUnique.text == "100.0")
        #expect(bakedUnique.list == ["2.5"])
        #expect(Ingredients.dictionary(unique)["extra"] == true)

        // An array view changed in place, through MutableCollection.
        var elements = try JSONFormat().read(.text("[1e2, 3]")).arrayValue!
        elements[1] = 4
        #expect(try Baker().bake([String].self, from: .array(elements)) == ["100.0", "4"])
        #expect(try Baker().bake([String].self, from: try JSONFormat().read(.text("[1e2, 3]"))) == ["1e2", "3"])

        // Marking a view's dictionary an element changes how paths read it: it is a change.
        var marked = try JSONFormat().read(.text(#"{"text": 1e2, "list": [], "inner": {"zip": 1}}"#)).dictionaryValue!
        marked.isElement = true
        #expect(try Baker().bake(Numbers.self, from: .dictionary(marked)).text == "100.0")
    }

    @Test("a view and a tree built by hand are equal, hash alike and read alike")
    func equality() throws {
        let view = try JSONFormat().read(.text(#"{"id": 7, "tags": ["a", "b"], "score": 2.5, "none": null}"#))
        let literal: Ingredients = ["id": 7, "tags": ["a", "b"], "score": 2.5, "none": .null]
        #expect(view == literal && literal == view)
        #expect(view.hashValue == literal.hashValue)
        #expect(view.description == literal.description)
        #expect(view["tags"]?[1] == "b")
        #expect(
            view.resolve(try IngredientPath(parsing: "tags[-1]"))
                == literal.resolve(try IngredientPath(parsing: "tags[-1]")))
        let yaml = try YAMLFormat().read(.text("id: 7\ntags: [a, b]\nscore: 2.5\nnone: ~\n"))
        #expect(yaml == view)
        let xml = try XMLFormat().read(.text("<user><id>7</id></user>"))
        #expect(xml.dictionaryValue?.isElement == true)
        #expect(Self.sameMarks(xml, Self.handBuilt(xml)))
    }

    @Test("a bake error from a view names the value's line and column, as from the bytes")
    func errorLocation() throws {
        struct User: Decodable { let name: String; let age: Int }
        struct Users: Decodable { let users: [User] }
        let input = IngredientInput.bytes(
            Array("{\"users\": [\n  {\"name\": \"Ada\", \"age\": \"forty\"}\n]}".utf8), name: "users.json")
        let fromBytes = #expect(throws: EasyBakeError.self) {
            try Baker().bake(Users.self, from: input, format: JSONFormat())
        }
        let tree = try JSONFormat().read(input)
        let fromTree = #expect(throws: EasyBakeError.self) { try Baker().bake(Users.self, from: tree) }
        #expect(fromTree?.location?.line == 2)
        #expect(fromTree?.description == fromBytes?.description)
        // A record of the tree: its path starts at the record, its location is the file's.
        let fromRecord = #expect(throws: EasyBakeError.self) {
            try Baker().bake(User.self, from: tree["users"]![0]!)
        }
        #expect(fromRecord?.path == IngredientPath([.key("age")]))
        #expect(fromRecord?.location?.line == 2 && fromRecord?.location?.column == fromTree?.location?.column)
    }

    @Test(
        "a repeated key reads as each policy says, in small and large dictionaries",
        arguments: [DuplicateKeyPolicy.firstWins, .lastWins, .collect])
    func repeatedKeys(policy: DuplicateKeyPolicy) throws {
        struct Record: Decodable, Equatable { let a: [Int]; let k30: Int? }
        // A JSON index under first wins keeps every member: the view keeps the first.
        let small = #"{"a": [1], "b": 2, "a": [3]}"#
        let large = "{" + (0..<30).map { "\"k\($0)\": \($0), " }.joined() + #""a": [1], "k3": 99, "a": [3]}"#
        let format = JSONFormat(options: .init(duplicateKeys: policy))
        for text in [small, large] {
            let input = IngredientInput.text(text)
            var source = try format.makeSource(for: input)
            let built = try Ingredients(reading: &source)
            let tree = try format.read(input)
            #expect(tree == built, "\(policy) \(text)")
            #expect(tree.dictionaryValue?.keys == built.dictionaryValue?.keys)
            Self.expectSameBake(AnyJSON.self, input, tree, format: format, "\(policy)")
            Self.expectSameBake(Record.self, input, tree, format: format, "\(policy)")
        }
        #expect(try format.read(.text(large))["k3"] == (policy == .firstWins ? 3 : policy == .lastWins ? 99 : [3, 99]))
    }

    @Test("a record of a view bakes from a copy of its entries: escapes, [*] and number text as from the bytes")
    func records() throws {
        struct User: Decodable, Equatable { let name: String; let tags: [String]; let age: String }
        let text =
            #"{"users": [{"name": "A\u00e9\n", "tags": ["x", "y\"z"], "age": 1e1}, {"name": "B", "tags": [], "age": 2}]}"#
        let recipe = try Recipe(name: "User", orderedMapping: [("name", "name"), ("tags", "tags[*]"), ("age", "age")])
        let tree = try JSONFormat().read(.text(text))
        let users = try #require(tree["users"]?.arrayValue)
        for _ in 0..<2 {
            let first = try Baker().bake(User.self, from: users[0], recipe: recipe)
            #expect(first == User(name: "A\u{e9}\n", tags: ["x", "y\"z"], age: "1e1"))
            #expect(try Baker().bake(User.self, from: users[1], recipe: recipe) == User(name: "B", tags: [], age: "2"))
        }
        // Baking appended to a copy: the tree and its index are as read.
        #expect(tree == (try JSONFormat().read(.text(text))))
        struct Users: Decodable, Equatable { let users: [User] }
        #expect(
            try Baker().bake(Users.self, from: tree)
                == (try Baker().bake(Users.self, from: .text(text), format: JSONFormat())))
    }

    @Test("views of one tree bake on several threads at once")
    func concurrentBakes() async throws {
        let tree = try JSONFormat().read(.file(TestPaths.fixture("json/benchmark-users.json").path))
        let expected = try Baker().bake(AnyJSON.self, from: tree)
        try await withThrowingTaskGroup(of: AnyJSON.self) { group in
            for _ in 0..<4 { group.addTask { try Baker().bake(AnyJSON.self, from: tree) } }
            for try await baked in group { #expect(baked == expected) }
        }
    }
}
