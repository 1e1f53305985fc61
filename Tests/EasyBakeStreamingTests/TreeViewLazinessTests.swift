@testable import EasyBake
import EasyBakeJSON
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Testing

/// A tree read by a format makes its nodes from its index only when asked,
/// one container at a time (issue 31, item 7): reading it costs the index,
/// baking it reads the index and makes no node, and whatever order a tree
/// is walked in, changed in or walked from several threads at once, it is
/// the tree the format's events build.
@Suite("A tree read by a format makes its nodes on first access")
struct TreeViewLazinessTests {
    /// The tree the format's events build, every node made: the reference.
    static func eager(_ input: IngredientInput, _ format: some IngredientFormat) throws -> Ingredients {
        var source = try format.makeSource(for: input)
        return try Ingredients(reading: &source)
    }

    /// The same payload in each format: a dictionary holding two
    /// containers, one of them nested (in XML, the root element's).
    static let payloads: [(String, any IngredientFormat, root: String?)] = [
        (#"{"a": {"b": [1, {"c": 2}]}, "d": [3, 4], "e": "x"}"#, JSONFormat(), nil),
        ("a:\n  b:\n    - 1\n    - c: 2\nd:\n  - 3\n  - 4\ne: x\n", YAMLFormat(), nil),
        ("<r><a><b>1</b><b><c>2</c></b></a><d><f>3</f><f>4</f></d><e>x</e></r>", XMLFormat(), "r"),
    ]

    @Test("a container makes its nodes when first asked, its children stay views", arguments: 0..<3)
    func lazyUntilAsked(payload: Int) throws {
        let (text, format, rootName) = Self.payloads[payload]
        let input = IngredientInput.text(text)
        let tree = try format.read(input)
        #expect(tree.indexOrigin != nil)
        #expect(!tree.nodesAreMade)
        // Baking reads the index: no node is made.
        _ = try Baker().bake(AnyJSON.self, from: tree)
        #expect(!tree.nodesAreMade)

        let top = try #require(rootName.map { tree[$0] } ?? tree)
        #expect(!top.nodesAreMade)
        #expect(tree.nodesAreMade == (rootName != nil))
        let containers = try #require(top.dictionaryValue).values.filter(\.isContainer)
        #expect(top.nodesAreMade)
        try #require(containers.count == 2)
        #expect(containers.allSatisfy { !$0.nodesAreMade })
        // Asking one child makes its nodes alone.
        let first = containers[0]
        let grandchildren = (first.dictionaryValue?.values ?? first.arrayValue?.elements ?? [])
        #expect(first.nodesAreMade && !containers[1].nodesAreMade)
        #expect(grandchildren.filter(\.isContainer).allSatisfy { !$0.nodesAreMade })
        // A copy of the tree shares the made nodes.
        let copy = tree
        #expect(copy.dictionaryValue?.values.first?.nodesAreMade == true)
        #expect(tree == (try Self.eager(input, format)))
        // A scalar root keeps no index; a tree built in code has its nodes.
        #expect(try JSONFormat().read(.text("7")).nodesAreMade)
        #expect(Ingredients.array([1, [2]]).nodesAreMade)
    }

    /// Walks `view` and `reference` side by side, in the order `order`
    /// says (0: depth first, last child first; 1: breadth first; 2: at
    /// random), reaching children by position, by key or by iteration at
    /// random, and now and then comparing a whole subtree first.
    static func walk(
        _ view: Ingredients, against reference: Ingredients, order: Int, using random: inout SeededGenerator,
        _ label: String
    ) {
        var pending: [(Ingredients, Ingredients)] = [(view, reference)]
        while !pending.isEmpty {
            let (a, b) =
                switch order {
                case 0: pending.removeLast()
                case 1: pending.removeFirst()
                default: pending.remove(at: Int.random(in: 0..<pending.count, using: &random))
                }
            #expect(a.kind == b.kind, "\(label)")
            if Int.random(in: 0..<6, using: &random) == 0 {
                #expect(a == b, "\(label)")
                #expect(a.hashValue == b.hashValue, "\(label)")
            }
            switch (a, b) {
            case (.array(let x), .array(let y)):
                #expect(x.count == y.count, "\(label)")
                guard x.count == y.count else { continue }
                if Bool.random(using: &random) {
                    for i in (0..<x.count).shuffled(using: &random) { pending.append((x[i], y[i])) }
                } else {
                    pending.append(contentsOf: zip(x, y).map { ($0, $1) })
                }
            case (.dictionary(let x), .dictionary(let y)):
                #expect(x.keys == y.keys, "\(label)")
                #expect(x.isElement == y.isElement, "\(label)")
                for key in y.keys.shuffled(using: &random) {
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: pending.append((x[key] ?? .null, y[key]!))
                    case 1: pending.append((x[x.index(forKey: key) ?? 0].value, y[key]!))
                    default: #expect(x.contains(key: key), "\(label)")
                    }
                }
            default:
                #expect(a == b, "\(label)")
            }
        }
    }

    @Test("in any order of access, a tree's values are those its events build", arguments: 0..<3)
    func everyOrder(formatIndex: Int) throws {
        let (name, format, _) = StreamingPropertyTests.formats[formatIndex]
        var random = SeededGenerator(seed: 0x1A2_0031 + UInt64(formatIndex))
        var checked = 0
        for round in 0..<60 {
            guard let (input, _) = try StreamingPropertyTests.payload(formatIndex, using: &random) else { continue }
            let reference = try Self.eager(input, format)
            for order in 0..<3 {
                let view = try format.read(input)
                Self.walk(view, against: reference, order: order, using: &random, "\(name) \(round) order \(order)")
                #expect(view == reference && reference == view, "\(name) \(round)")
                #expect(view.description == reference.description, "\(name) \(round)")
                #expect(TreeViewTests.sameMarks(view, reference), "\(name) \(round)")
            }
            checked += 1
        }
        #expect(checked > 40)
    }

    /// The offsets of every container from the root (`[]` for the root).
    static func containerPaths(_ tree: Ingredients) -> [[Int]] {
        var paths: [[Int]] = []
        var pending: [(Ingredients, [Int])] = [(tree, [])]
        while let (value, path) = pending.popLast() {
            switch value {
            case .array(let array):
                paths.append(path)
                for (i, element) in array.enumerated() { pending.append((element, path + [i])) }
            case .dictionary(let dictionary):
                paths.append(path)
                for (i, entry) in dictionary.enumerated() { pending.append((entry.value, path + [i])) }
            default: continue
            }
        }
        return paths
    }

    /// `value` with the container at `path` changed: an element or an entry
    /// added, and its first element or entry replaced.
    static func changed(_ value: Ingredients, along path: ArraySlice<Int>) -> Ingredients {
        switch value {
        case .array(var array):
            if let i = path.first {
                array[i] = changed(array[i], along: path.dropFirst())
            } else {
                array.append("added")
                if !array.isEmpty { array[0] = 42 }
            }
            return .array(array)
        case .dictionary(var dictionary):
            if let i = path.first {
                let key = dictionary[i].key
                dictionary[key] = changed(dictionary[i].value, along: path.dropFirst())
            } else {
                if let key = dictionary.keys.first { dictionary[key] = 42 }
                dictionary["added"] = "added"
            }
            return .dictionary(dictionary)
        default:
            return value
        }
    }

    @Test("a change after some nodes were made changes a copy: the original stays as read", arguments: 0..<3)
    func mutationAfterPartialAccess(formatIndex: Int) throws {
        let (name, format, _) = StreamingPropertyTests.formats[formatIndex]
        var random = SeededGenerator(seed: 0x3C0_0031 + UInt64(formatIndex))
        var checked = 0
        for round in 0..<60 {
            guard let (input, _) = try StreamingPropertyTests.payload(formatIndex, using: &random) else { continue }
            let reference = try Self.eager(input, format)
            let paths = Self.containerPaths(reference)
            guard let path = paths.randomElement(using: &random) else { continue }
            let view = try format.read(input)
            // Some nodes made, in no particular order, before the change.
            var touched = [view]
            while let value = touched.popLast() {
                guard Int.random(in: 0..<3, using: &random) != 0 else { continue }
                touched.append(contentsOf: value.arrayValue?.elements ?? value.dictionaryValue?.values ?? [])
            }
            let label = "\(name) \(round) at \(path)"
            let changedView = Self.changed(view, along: path[...])
            let changedReference = Self.changed(reference, along: path[...])
            #expect(changedView == changedReference, "\(label)")
            #expect(changedView.description == changedReference.description, "\(label)")
            #expect(view == reference, "\(label): the original changed")
            #expect(changedView != view, "\(label)")
            // The changed tree bakes as the changed tree built from events.
            let a = Result { () throws(EasyBakeError) in try Baker().bake(AnyJSON.self, from: changedView) }
            let b = Result { () throws(EasyBakeError) in try Baker().bake(AnyJSON.self, from: changedReference) }
            switch (a, b) {
            case (.success(let x), .success(let y)): #expect(x == y, "\(label)")
            case (.failure(let x), .failure(let y)): #expect(x.message == y.message, "\(label)")
            default: Issue.record("\(label): the view \(a), the reference \(b)")
            }
            checked += 1
        }
        #expect(checked > 25)
    }

    @Test("several tasks asking a fresh tree's nodes at once see the same tree", arguments: 0..<3)
    func concurrentFirstAccess(formatIndex: Int) async throws {
        let files = ["json/benchmark-users.json", "xml/podcast.rss", "yaml/users.yaml"]
        let (name, format, _) = StreamingPropertyTests.formats[formatIndex]
        let input = IngredientInput.file(TestPaths.fixture(files[formatIndex]).path)
        let reference = try Self.eager(input, format)
        for round in 0..<4 {
            let view = try format.read(input)
            let walks = try await withThrowingTaskGroup(of: Bool.self) { group in
                for task in 0..<6 {
                    group.addTask {
                        var random = SeededGenerator(seed: UInt64(round * 16 + task))
                        // Half compare as they walk, half compare whole.
                        if task.isMultiple(of: 2) {
                            Self.walk(view, against: reference, order: task % 3, using: &random, "\(name) task \(task)")
                            return true
                        }
                        return view == reference && view.description == reference.description
                    }
                }
                var all: [Bool] = []
                for try await walked in group { all.append(walked) }
                return all
            }
            #expect(walks == Array(repeating: true, count: 6), "\(name) round \(round)")
            #expect(view == reference)
        }
    }

    @Test("a deep tree read by a format is walked and freed without recursion")
    func deep() throws {
        var limits = IngredientLimits.default
        limits.maximumDepth = 300_000
        let depth = 200_000
        let text = String(repeating: "[", count: depth) + "7" + String(repeating: "]", count: depth)
        let format = JSONFormat(options: .init(limits: limits))
        // Half its levels made, then freed.
        do {
            let tree = try format.read(.text(text))
            var node = tree
            for _ in 0..<(depth / 2) { node = node[0]! }
            #expect(node.arrayValue?.count == 1)
            #expect(!(node[0]?.nodesAreMade ?? true))
        }
        // Every level made (through the writer), then freed.
        do {
            let tree = try format.read(.text(text))
            #expect(try JSONFormat().write(tree).count == text.utf8.count)
        }
    }
}
