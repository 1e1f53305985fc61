/// A set of ingredient paths compiled once into an automaton that streaming
/// readers run over an event stream.
///
/// The paths form a trie of steps; the matcher turns it into a deterministic
/// automaton whose states are the sets of trie nodes a value can be reached
/// by. A state knows, for each key, each array index and each repeated key,
/// which state the value there is read in, or that nothing needs it — so the
/// reader skips it through the source's native skip without building it.
///
/// Lookups keep `Ingredients.resolve` semantics: a lone value stands in for a
/// one-element array (`channel.item[0]` finds a single `<item>`), `[*]` on a
/// missing element leaves it out, `null` reads as an empty array for `[*]`,
/// and `[*]` on a dictionary gives its values — unless the source's
/// dictionaries are XML elements (``IngredientTraits/dictionariesAreElements``),
/// each one element. The states that serve those rules are built here, not
/// at run time.
///
/// A matcher is immutable and `Sendable`: compile it once and share it.
///
/// ```swift
/// let matcher = try PathMatcher(["users[*].name", "meta.count"])
/// var source = try JSONIngredientSource(.file("users.json"))
/// let found = try matcher.resolve(from: &source)
/// found["meta.count"]   // the value, or nil when missing
/// ```
public struct PathMatcher: Sendable {
    /// The paths the matcher was made from, in order.
    public let paths: [IngredientPath]

    let states: [State]

    /// The state of the root value, or `nil` when no path needs anything.
    let rootState: Int?

    /// Whether every path can be resolved before the end of the input:
    /// no `[*]` and no negative index, which need every element.
    let resolvesEarly: Bool

    /// The states flat, for a source that picks members as it indexes
    /// (``picking(for:)``).
    let picking: Picking

    /// A matcher for `paths`.
    public init(_ paths: [IngredientPath]) {
        self.paths = paths
        var trie = Trie()
        for path in paths { trie.insert(path) }
        var compiler = Compiler(trie: trie)
        rootState = paths.isEmpty ? nil : compiler.state(for: [0])
        states = compiler.states
        picking = Picking(states, root: rootState)
        resolvesEarly = paths.allSatisfy { path in
            !path.steps.contains { step in
                switch step {
                case .everyElement: true
                case .index(let index): index < 0
                case .key: false
                }
            }
        }
    }

    /// A matcher for paths given as text.
    ///
    /// - Throws: ``EasyBakeError/Code/invalidPath`` for a path that does not parse.
    public init(_ paths: [String]) throws(EasyBakeError) {
        var parsed: [IngredientPath] = []
        for text in paths { parsed.append(try IngredientPath(parsing: text)) }
        self.init(parsed)
    }

    /// The matcher that keeps the whole value: one empty path.
    public static let wholeValue = PathMatcher([.root])
}

extension PathMatcher {
    /// One automaton state: what to do with a value reached by a set of trie nodes.
    struct State: Sendable {
        /// A path ends here: the whole value is kept.
        var isTerminal = false
        /// The state a dictionary value is read in when dictionaries are
        /// elements: this state together with the element states a lone
        /// value stands in for.
        var dictionaryState = 0
        /// The state a dictionary value is read in when they are not: this
        /// state with the states of `[0]` and `[-1]`, where each member's
        /// value is also reached by `[*]`.
        var memberDictionaryState = 0
        /// In a ``memberDictionaryState``: the state of the value of a key
        /// no path names, which `[*]` reaches; `nil` when nothing does.
        var otherKeys: Int?
        /// The keys some path needs here, and the state of each one's value.
        var wantedKeys = WantedKeys([])
        var keyTargets: [Int] = []
        /// Explicit array index → the state of that element.
        var elements: [Int: Int] = [:]
        /// The state of every other element (`[*]` and negative indexes).
        var otherElements: Int?
        /// When the only indexes here are negative (no `[*]`, no index from
        /// the start): how many elements from the end some path reads, the
        /// only ones a tree of the array must hold whole.
        var trailingElements: Int?
        /// Elements no path needs still take a place in the kept array, so
        /// that indexes count as in the full array.
        var keepsPositions = false
        /// For a repeated key under ``DuplicateKeyPolicy/collect``: the
        /// state of its *n*th occurrence (n ≥ 1), which the gathered array
        /// holds as element *n*. `nil`: no path reads it, but it still turns
        /// the key's value into an array, so it is kept as `null`.
        var occurrences: [Int: Int] = [:]
        var otherOccurrences: Int?

        package func element(_ index: Int) -> Int? { elements[index] ?? otherElements }

        /// How many elements from `index` on no path needs (`Int.max`: none
        /// after it is needed).
        func unneededElements(from index: Int) -> Int {
            if otherElements != nil || elements[index] != nil { return 0 }
            var next = Int.max
            for wanted in elements.keys where wanted >= index && wanted < next { next = wanted }
            return next == Int.max ? .max : next - index
        }

        /// The state a dictionary that begins in this state reads its
        /// members in.
        package func dictionary(elements: Bool) -> Int { elements ? dictionaryState : memberDictionaryState }
        func occurrence(_ index: Int) -> Int? { occurrences[index] ?? otherOccurrences }
    }

    /// The paths as a trie of steps; node 0 is the root.
    struct Trie {
        struct Node {
            var keys: [String: Int] = [:]
            var indexes: [Int: Int] = [:]
            var every: Int?
            var isTerminal = false
        }
        var nodes = [Node()]

        mutating func insert(_ path: IngredientPath) {
            var current = 0
            for step in path.steps {
                let existing: Int? =
                    switch step {
                    case .key(let key): nodes[current].keys[key]
                    case .index(let index): nodes[current].indexes[index]
                    case .everyElement: nodes[current].every
                    }
                let next = existing ?? nodes.count
                if existing == nil {
                    nodes.append(Node())
                    switch step {
                    case .key(let key): nodes[current].keys[key] = next
                    case .index(let index): nodes[current].indexes[index] = next
                    case .everyElement: nodes[current].every = next
                    }
                }
                current = next
            }
            nodes[current].isTerminal = true
        }
    }

    /// Subset construction over the trie, memoized by node set.
    struct Compiler {
        let trie: Trie
        var states: [State] = []
        private var ids: [[Int]: Int] = [:]
        private var memberDictionaryIDs: [[Int]: Int] = [:]

        init(trie: Trie) { self.trie = trie }

        /// The nodes a lone (non-array) value at `nodes` is also reached by:
        /// the children of the indexes that find one
        /// (``IngredientPath/loneValueIndexes``) and (unless `throughEvery` is
        /// false, for a dictionary whose values `[*]` gives) `[*]`, and theirs
        /// in turn.
        func loneClosure(_ nodes: [Int], throughEvery: Bool = true) -> [Int] {
            var result = Set(nodes)
            var pending = nodes
            while let node = pending.popLast() {
                let trieNode = trie.nodes[node]
                var children = IngredientPath.loneValueIndexes.compactMap { trieNode.indexes[$0] }
                if throughEvery, let every = trieNode.every { children.append(every) }
                for child in children where result.insert(child).inserted {
                    pending.append(child)
                }
            }
            return result.sorted()
        }

        /// The state a dictionary that is no element reads its members in,
        /// at `nodes` (closed under `[0]` and `[-1]`, and holding some `[*]`,
        /// or the element's own state would do): each named key's value is
        /// reached by its key and by every `[*]` here, any other key's by
        /// the `[*]`s alone.
        mutating func memberDictionaryState(for nodes: [Int]) -> Int {
            let every = Set(nodes.compactMap { trie.nodes[$0].every })
            if let id = memberDictionaryIDs[nodes] { return id }
            let id = states.count
            memberDictionaryIDs[nodes] = id
            states.append(State())
            var state = State()
            state.dictionaryState = id
            state.memberDictionaryState = id
            let trieNodes = nodes.map { trie.nodes[$0] }
            state.isTerminal = trieNodes.contains { $0.isTerminal }
            if state.isTerminal {
                state.otherOccurrences = id
                states[id] = state
                return id
            }
            var keyTargets: [String: Set<Int>] = [:]
            for node in trieNodes { for (key, child) in node.keys { keyTargets[key, default: every].insert(child) } }
            for key in keyTargets.keys.sorted() { state.keyTargets.append(self.state(for: keyTargets[key]!.sorted())!) }
            state.wantedKeys = WantedKeys(keyTargets.keys.sorted())
            state.otherKeys = self.state(for: every.sorted())
            states[id] = state
            return id
        }

        /// The nodes that element `index` (nil: an element no index names) is reached by.
        func elementNodes(of nodes: [Int], at index: Int?) -> [Int] {
            var result = Set<Int>()
            for node in nodes {
                let trieNode = trie.nodes[node]
                if let index, let child = trieNode.indexes[index] { result.insert(child) }
                if let every = trieNode.every { result.insert(every) }
                for (childIndex, child) in trieNode.indexes where childIndex < 0 { result.insert(child) }
            }
            return result.sorted()
        }

        mutating func state(for nodeSet: [Int]) -> Int? {
            guard !nodeSet.isEmpty else { return nil }
            if let id = ids[nodeSet] { return id }
            let id = states.count
            ids[nodeSet] = id
            states.append(State())
            var state = State()
            let nodes = nodeSet.map { trie.nodes[$0] }
            state.isTerminal = nodes.contains { $0.isTerminal }
            if state.isTerminal {
                // The whole value is kept: nothing below needs a state, and
                // every occurrence of a repeated key is kept whole too.
                state.dictionaryState = id
                state.memberDictionaryState = id
                state.otherOccurrences = id
                states[id] = state
                return id
            }
            // The root's elements keep their places too: a value read whole
            // or pruned then has as many, so that an error about it (an
            // array where a recipe reads keys) describes it alike.
            state.keepsPositions = nodeSet == [0] || nodes.contains { !$0.indexes.isEmpty }

            let lone = loneClosure(nodeSet)
            if lone == nodeSet {
                state.dictionaryState = id
                var keyTargets: [String: Set<Int>] = [:]
                for node in nodes { for (key, child) in node.keys { keyTargets[key, default: []].insert(child) } }
                for key in keyTargets.keys.sorted() {
                    // Every key's target holds at least the child it came from.
                    state.keyTargets.append(self.state(for: keyTargets[key]!.sorted())!)
                }
                state.wantedKeys = WantedKeys(keyTargets.keys.sorted())
            } else {
                state.dictionaryState = self.state(for: lone)!
            }
            let members = loneClosure(nodeSet, throughEvery: false)
            state.memberDictionaryState = members == lone ? state.dictionaryState : memberDictionaryState(for: members)

            let indexes = Set(nodes.flatMap { $0.indexes.keys.filter { $0 >= 0 } })
            if indexes.isEmpty, !nodes.contains(where: { $0.every != nil }),
                let deepest = nodes.flatMap({ $0.indexes.keys }).min(), deepest < 0
            {
                state.trailingElements = Int(clamping: deepest.magnitude)
            }
            for index in indexes { state.elements[index] = self.state(for: elementNodes(of: nodeSet, at: index)) }
            state.otherElements = self.state(for: elementNodes(of: nodeSet, at: nil))
            for index in indexes where index > 0 {
                state.occurrences[index] = self.state(for: loneClosure(nodeSet + elementNodes(of: nodeSet, at: index)))
            }
            let other = elementNodes(of: nodeSet, at: nil)
            state.otherOccurrences = other.isEmpty ? nil : self.state(for: loneClosure(nodeSet + other))
            states[id] = state
            return id
        }
    }
}
