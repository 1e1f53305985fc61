import EasyBake
import Testing

/// A source of a fixed tree that declares the traits it is given: how a
/// format of elements (as XML) tells the core how to read its values.
private struct TraitsSource: IngredientSource {
    var base: IngredientTreeSource
    let traits: IngredientTraits

    init(_ tree: Ingredients, traits: IngredientTraits) {
        base = IngredientTreeSource(tree)
        self.traits = traits
    }

    mutating func next() throws(EasyBakeError) -> IngredientEvent? { try base.next() }
    var location: SourceLocation { base.location }
}

/// A source written before traits: it says its dictionaries are elements
/// through the older property alone, which the default traits still read.
private struct OlderElementsSource: IngredientSource {
    var base: IngredientTreeSource
    let dictionariesAreElements: Bool

    mutating func next() throws(EasyBakeError) -> IngredientEvent? { try base.next() }
    var location: SourceLocation { base.location }
}

/// A format that reads every input as `{"item": {"name": "Ada"}}` through
/// a source of the given traits: its index is built from the source's events.
private struct TraitsFormat: IngredientFormat {
    let traits: IngredientTraits
    var name: String { "traits" }
    var fileExtensions: [String] { [] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        TraitsSource(["item": ["name": "Ada"]], traits: traits)
    }
}

/// A format that reads every input as `tree` through a source of `traits`.
private struct TreeFormat: IngredientFormat {
    let tree: Ingredients
    let traits: IngredientTraits
    var name: String { "tree" }
    var fileExtensions: [String] { [] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        TraitsSource(tree, traits: traits)
    }
}

/// A number its own `init(from:)` asks of its single-value container: a
/// probe, whose scalar converts only where the format's scalars are text.
private struct Count: Decodable {
    let value: Int
    init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }
}

/// The same value written through ``IngredientIndex/Writer`` with the given
/// traits: `item` at 0, `name` at 5, `Ada` at 10.
private struct WrittenTraitsFormat: IngredientFormat {
    let traits: IngredientTraits
    var name: String { "written-traits" }
    var fileExtensions: [String] { [] }

    func makeSource(for input: IngredientInput) throws(EasyBakeError) -> any IngredientSource {
        TraitsSource(["item": ["name": "Ada"]], traits: traits)
    }

    func readIndex(_ input: IngredientInput, into index: inout IngredientIndex) throws(EasyBakeError) {
        try index.write(input: try input.loadBytes(), sourceName: "t", traits: traits) {
            (writer) throws(EasyBakeError) in
            try writer.beginDictionary(at: 0)
            try writer.key(bytesAt: 0, count: 4)
            try writer.beginDictionary(at: 5)
            try writer.key(bytesAt: 5, count: 4)
            try writer.string(bytesAt: 10, count: 3)
            try writer.endDictionary()
            try writer.endDictionary()
        }
    }
}

/// ``IngredientTraits`` is one value a source declares and its indexes
/// keep: the core reads a format's values by it.
@Suite("Traits: how a source's values differ from JSON's")
struct IngredientTraitsTests {
    static let input = IngredientInput.text("item name Ada")

    @Test("the value: none by default, each trait, XML's markup, their description")
    func value() {
        let none: IngredientTraits = []
        #expect(none.isEmpty)
        #expect(!none.contains(.dictionariesAreElements))
        let elements: IngredientTraits = [.dictionariesAreElements]
        #expect(elements.contains(.dictionariesAreElements))
        #expect(elements == IngredientTraits(rawValue: 1))
        #expect(IngredientTraits.scalarsAreText == IngredientTraits(rawValue: 2))
        #expect(IngredientTraits.markup == [.dictionariesAreElements, .scalarsAreText])
        #expect(none.description == "[]")
        #expect(elements.description == "[.dictionariesAreElements]")
        #expect(IngredientTraits.markup.description == "[.dictionariesAreElements, .scalarsAreText]")
        #expect(
            IngredientTraits(rawValue: 0b101).description == "[.dictionariesAreElements, IngredientTraits(rawValue: 4)]"
        )
    }

    @Test("a source declares none unless it says otherwise; a type-erased source and a tree's source forward theirs")
    func declared() {
        #expect(IngredientTreeSource(["a": 1]).traits == [])
        #expect(TraitsSource(["a": 1], traits: .dictionariesAreElements).traits == .dictionariesAreElements)
        let elements = TraitsSource(["a": 1], traits: .dictionariesAreElements)
        #expect(AnyIngredientSource(elements).traits == .dictionariesAreElements)
        #expect(AnyIngredientSource(IngredientTreeSource(["a": 1])).traits == [])
        var element: IngredientDictionary = ["a": 1]
        element.isElement = true
        // A tree of elements is taken for XML's: its scalars are text.
        #expect(IngredientTreeSource(.dictionary(element)).traits == .markup)
    }

    @Test("a source that declares only the older dictionariesAreElements keeps its meaning")
    func olderDeclaration() throws {
        let tree: Ingredients = ["item": ["name": "Ada"]]
        for elements in [false, true] {
            var source = OlderElementsSource(base: IngredientTreeSource(tree), dictionariesAreElements: elements)
            // Before traits, elements meant XML's: scalars that are text too.
            let traits: IngredientTraits = elements ? .markup : []
            #expect(source.traits == traits)
            #expect(AnyIngredientSource(source).traits == traits)
            let read = try Ingredients.read(from: &source)
            try expectRead(#require(read), traits: traits)
        }
    }

    @Test(
        "an index keeps its source's traits, and paths read its dictionaries by them",
        arguments: [IngredientTraits(), .dictionariesAreElements])
    func indexFromEvents(_ traits: IngredientTraits) throws {
        var index = IngredientIndex()
        try TraitsFormat(traits: traits).readIndex(Self.input, into: &index)
        #expect(index.traits == traits)
        try expectRead(TraitsFormat(traits: traits).read(Self.input), traits: traits)
        var tree = TraitsSource(["item": ["name": "Ada"]], traits: traits)
        let read = try Ingredients.read(from: &tree)
        try expectRead(#require(read), traits: traits)
        index.removeAll()
        #expect(index.traits == [])
    }

    @Test(
        "an index written through the writer keeps the traits given, and is read by them",
        arguments: [IngredientTraits(), .dictionariesAreElements])
    func indexWritten(_ traits: IngredientTraits) throws {
        var index = IngredientIndex()
        try WrittenTraitsFormat(traits: traits).readIndex(Self.input, into: &index)
        #expect(index.traits == traits)
        try expectRead(WrittenTraitsFormat(traits: traits).read(Self.input), traits: traits)
        // A write that fails leaves the index empty, with no traits.
        #expect(throws: EasyBakeError.self) {
            try index.write(traits: .dictionariesAreElements) { (writer) throws(EasyBakeError) in
                try writer.beginArray(at: 0)
            }
        }
        #expect(index.traits == [] && index.count == 0)
    }

    @Test("a bake reads a recipe's [*] by the index's traits")
    func baking() throws {
        struct Names: Decodable { let names: [String] }
        let recipe = try Recipe(mapping: ["names": "item[*]"])
        // As elements, the lone `item` is one element (a dictionary, no
        // String); otherwise `[*]` gives the dictionary's values.
        let plain = try Baker().bake(
            Names.self, from: Self.input, format: WrittenTraitsFormat(traits: []), recipe: recipe)
        #expect(plain.names == ["Ada"])
        #expect(throws: EasyBakeError.self) {
            try Baker().bake(
                Names.self, from: Self.input, format: WrittenTraitsFormat(traits: .dictionariesAreElements),
                recipe: recipe)
        }
    }

    @Test(
        "a custom init(from:) gets text converted to the scalar it asks for only where scalars are text",
        arguments: [IngredientTraits(), .dictionariesAreElements, .scalarsAreText, .markup])
    func probes(_ traits: IngredientTraits) throws {
        struct Counted: Decodable { let count: Count }
        let format = TreeFormat(tree: ["count": "42"], traits: traits)
        if traits.contains(.scalarsAreText) {
            #expect(try Baker().bake(Counted.self, from: Self.input, format: format).count.value == 42)
        } else {
            // As JSONDecoder: a string is no Int to a probe.
            let error = #expect(throws: EasyBakeError.self) {
                try Baker().bake(Counted.self, from: Self.input, format: format)
            }
            #expect(error?.code == .typeMismatch, "\(String(describing: error))")
        }
        // A declared property converts either way.
        struct Declared: Decodable { let count: Int }
        #expect(try Baker().bake(Declared.self, from: Self.input, format: format).count == 42)
    }

    @available(*, deprecated, message: "reads the deprecated dictionariesAreElements")
    @Test("the built-in sources answer the older dictionariesAreElements as their traits say")
    func olderPropertyOfBuiltIns() {
        var element: IngredientDictionary = ["a": 1]
        element.isElement = true
        let tree = IngredientTreeSource(.dictionary(element))
        #expect(tree.dictionariesAreElements && AnyIngredientSource(tree).dictionariesAreElements)
        #expect(!IngredientTreeSource(["a": 1]).dictionariesAreElements)
        #expect(!AnyIngredientSource(IngredientTreeSource(["a": 1])).dictionariesAreElements)
        // A source that declares traits alone leaves the older property at its default.
        #expect(!TraitsSource(["a": 1], traits: .dictionariesAreElements).dictionariesAreElements)
    }

    /// Checks `tree` against `{"item": {"name": "Ada"}}` read with `traits`.
    private func expectRead(_ tree: Ingredients, traits: IngredientTraits) throws {
        guard case .dictionary(let root) = tree, case .dictionary(let item)? = root["item"] else {
            Issue.record("expected a dictionary of a dictionary, found \(tree)")
            return
        }
        let elements = traits.contains(.dictionariesAreElements)
        #expect(root.isElement == elements)
        #expect(item.isElement == elements)
        // `[*]` takes an element as one element, and a plain dictionary's values.
        #expect(try tree.resolve("item[*]") == (elements ? [["name": "Ada"]] : ["Ada"]))
    }
}
