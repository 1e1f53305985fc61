import Foundation
import Testing
import EasyBake
import EasyBakeTestSupport
import EasyBakeTesting

// Models used across these specifications.

struct PostalAddress: Codable, Equatable, Sendable {
    let city: String
    let zip: String?
}

struct Account: Dough {
    let id: Int
    let name: String
    let unreadMessages: Int
    let joined: Date
    let homepage: URL?
    let balance: Decimal
    let tags: [String]
    let address: PostalAddress?

    static let recipe = try! Recipe(
        name: "Account",
        mapping: [
            "id": "account_id",
            "name": "profile.name",
            "unreadMessages": "stats.unread",
            "joined": "profile.joined",
            "homepage": "profile.links.home",
            "balance": "balance",
            "tags": "labels[*].text",
            "address": "profile.address",
        ],
        transformers: ["joined": "rfc822"],
        nested: ["address": try! Recipe(mapping: ["city": "town", "zip": "postcode"])]
    )
}

/// A model whose type names its recipe, used nested without an explicit one.
struct Pet: Dough {
    let id: String
    let species: String
    static let bakingRecipe: Recipe? = try! Recipe(mapping: ["id": "pet_id", "species": "kind"])
}

struct Owner: Dough {
    let id: Int
    let pets: [Pet]
}

extension Account {
    static func random(using generator: inout SeededGenerator) -> Account {
        let letters = Array("abcdefghijklmnopqrstuvwxyz äöü-_")
        func word() -> String {
            String(
                (0..<Int.random(in: 1...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
        }
        return Account(
            id: Int.random(in: 1...1_000_000, using: &generator),
            name: word(),
            unreadMessages: Int.random(in: 0...10_000, using: &generator),
            // RFC 822 keeps whole seconds.
            joined: Date(
                timeIntervalSince1970: TimeInterval(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))),
            homepage: Bool.random(using: &generator)
                ? URL(string: "https://example.com/\(Int.random(in: 0...99, using: &generator))") : nil,
            balance: Decimal(
                string:
                    "\(Int.random(in: -99999...99999, using: &generator)).\(Int.random(in: 10...99, using: &generator))"
            )!,
            tags: (0..<Int.random(in: 0...4, using: &generator)).map { _ in word() },
            address: Bool.random(using: &generator)
                ? PostalAddress(city: word(), zip: Bool.random(using: &generator) ? word() : nil) : nil)
    }
}

@Suite("Decomposing models")
struct DecomposingTests {
    @Test("decomposition places each property at its recipe path, reverse-transformed")
    func shape() throws {
        let account = Account(
            id: 7, name: "Ada", unreadMessages: 3, joined: Date(timeIntervalSince1970: 1_031_356_801),
            homepage: URL(string: "https://ada.example"), balance: Decimal(string: "12.50")!,
            tags: ["a", "b"], address: PostalAddress(city: "London", zip: nil))
        let tree = try Baker().decompose(account, recipe: Account.recipe)
        #expect(tree["account_id"] == 7)
        #expect(try tree.resolve("profile.name") == "Ada")
        #expect(try tree.resolve("profile.joined") == "Sat, 07 Sep 2002 00:00:01 GMT")
        #expect(try tree.resolve("profile.links.home") == "https://ada.example")
        #expect(try tree.resolve("labels") == [["text": "a"], ["text": "b"]])
        #expect(try tree.resolve("profile.address") == ["town": "London"])
        #expect(try tree.resolve("stats.unread") == 3)
    }

    @Test("baking a decomposition gives an equal model, over many generated models")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let account = Account.random(using: &generator)
            let tree = try Baker().decompose(account, recipe: Account.recipe)
            let baked = try Baker().bake(Account.self, from: tree, recipe: Account.recipe)
            #expect(baked.hasSameContents(as: account), "\(tree)")
        }
    }

    @Test("without a recipe, decomposition is a dictionary keyed by property names")
    func noRecipe() throws {
        let tree = try Baker().decompose(PostalAddress(city: "Paris", zip: "75001"))
        #expect(tree == ["city": "Paris", "zip": "75001"])
    }

    @Test("nested models decompose through their type's recipe")
    func typeRecipes() throws {
        let owner = Owner(id: 1, pets: [Pet(id: "p1", species: "cat"), Pet(id: "p2", species: "dog")])
        let tree = try Baker().decompose(owner)
        #expect(tree == ["id": 1, "pets": [["pet_id": "p1", "kind": "cat"], ["pet_id": "p2", "kind": "dog"]]])
        let baked = try Baker().bake(Owner.self, from: tree)
        #expect(baked.pets.map(\.species) == ["cat", "dog"])
    }

    @Test("an array-rooted recipe decomposes into an array")
    func arrayRoot() throws {
        struct Pair: Codable { let first: String; let second: Int }
        let recipe = try Recipe(mapping: ["first": "[0]", "second": "[1]"])
        let tree = try Baker().decompose(Pair(first: "x", second: 2), recipe: recipe)
        #expect(tree == ["x", 2])
        #expect(try Baker().bake(Pair.self, from: tree, recipe: recipe).second == 2)
    }

    @Test("a reverse transformer that fails names the property")
    func reverseFailure() throws {
        struct Stamp: Codable { let at: String }
        let recipe = try Recipe(mapping: ["at": "at"], transformers: ["at": "rfc822"])
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().decompose(Stamp(at: "not a date"), recipe: recipe)
        }
        #expect(error?.code == .transformFailed)
        #expect(error?.message.contains("\"at\"") == true)
    }

    @Test("non-finite numbers cannot be decomposed")
    func nonFinite() {
        struct Measure: Codable { let value: Double }
        #expect(throws: EasyBakeError.self) { try Ingredients(encoding: Measure(value: .infinity)) }
    }
}

@Suite("Identity and updates", .serialized)
struct UpdateTests {
    let original = Account(
        id: 1, name: "Ada", unreadMessages: 0, joined: Date(timeIntervalSince1970: 0), homepage: nil,
        balance: 0, tags: [], address: nil)

    @Test("models are equal and hash alike by identifier")
    func identity() {
        let renamed = Account(
            id: 1, name: "Other", unreadMessages: 5, joined: Date(), homepage: nil, balance: 1, tags: ["x"],
            address: nil)
        #expect(renamed == original)
        #expect(renamed.hashValue == original.hashValue)
        #expect(!renamed.hasSameContents(as: original))
        #expect(Set([renamed, original]).count == 1)
    }

    @Test("an update yields a new value with the same identifier and posts notifications")
    func update() throws {
        let center = NotificationCenter()
        let received = Locked<[Notification]>([])
        let typed = center.addObserver(forName: Account.didUpdateNotification, object: nil, queue: nil) { note in
            received.mutate { $0.append(note) }
        }
        let generic = center.addObserver(forName: DoughUpdates.didUpdateNotification, object: nil, queue: nil) { note in
            received.mutate { $0.append(note) }
        }
        defer { center.removeObserver(typed); center.removeObserver(generic) }

        let next = try original.updated(
            with: ["stats": ["unread": 4]], recipe: Account.recipe, notificationCenter: center)
        #expect(next.id == original.id)
        #expect(next.unreadMessages == 4)
        #expect(next.name == "Ada")
        let notes = received.value
        #expect(notes.map(\.name) == [Account.didUpdateNotification, DoughUpdates.didUpdateNotification])
        #expect(notes.first?.userInfo?[DoughUpdates.identifierKey] as? Int == 1)
        #expect((notes.first?.userInfo?[DoughUpdates.updatedKey] as? Account)?.unreadMessages == 4)
    }

    @Test("an update that changes nothing returns the same value and posts nothing")
    func unchangedUpdate() throws {
        let center = NotificationCenter()
        let count = Locked(0)
        let observer = center.addObserver(forName: nil, object: nil, queue: nil) { _ in count.mutate { $0 += 1 } }
        defer { center.removeObserver(observer) }
        let same = try original.updated(
            with: ["profile": ["name": "Ada"]], recipe: Account.recipe, notificationCenter: center)
        #expect(same.hasSameContents(as: original))
        #expect(count.value == 0)
    }

    @Test("null in an update clears an optional value")
    func clearing() throws {
        let withHome = try original.updated(
            with: ["profile": ["links": ["home": "https://a.example"]]], recipe: Account.recipe)
        #expect(withHome.homepage?.absoluteString == "https://a.example")
        let cleared = try withHome.updated(with: ["profile": ["links": ["home": .null]]], recipe: Account.recipe)
        #expect(cleared.homepage == nil)
    }

    @Test("an update carrying another identifier is rejected")
    func identifierMismatch() {
        let error = #expect(throws: EasyBakeError.self) {
            try original.updated(with: ["account_id": 2], recipe: Account.recipe)
        }
        #expect(error?.code == .identifierMismatch)
    }

    @Test("updates are observable as an AsyncSequence")
    func asyncUpdates() async throws {
        let stream = Account.updates(of: 1)
        let next = try original.updated(with: ["balance": "10.25"], recipe: Account.recipe)
        var iterator = stream.makeAsyncIterator()
        let observed = await iterator.next()
        #expect(observed?.balance == next.balance)
        #expect(observed?.balance == Decimal(string: "10.25"))
    }

    @Test("isEqual(toIngredients:) compares contents through the recipe")
    func equalToIngredients() throws {
        let tree = try Baker().decompose(original, recipe: Account.recipe)
        #expect(original.isEqual(toIngredients: tree, recipe: Account.recipe))
        #expect(
            !original.isEqual(
                toIngredients: tree.setting("Eve", at: try IngredientPath(parsing: "profile.name")),
                recipe: Account.recipe))
    }
}

@Suite("Differences")
struct DifferenceTests {
    @Test("tree differences list each differing path with both values")
    func trees() {
        let a: Ingredients = ["name": "Ada", "tags": ["x"], "meta": ["a": 1, "b": 2]]
        let b: Ingredients = ["name": "Eve", "tags": ["x", "y"], "meta": ["a": 1], "new": true]
        let differences = a.difference(to: b)
        #expect(differences.map(\.path.description).sorted() == ["meta.b", "name", "new", "tags[1]"])
        #expect(differences.first { $0.path.description == "meta.b" }?.new == nil)
        #expect(differences.first { $0.path.description == "name" }?.old == "Ada")
        #expect(a.difference(to: a).isEmpty)
    }

    @Test("model differences use the recipe's paths")
    func models() throws {
        let a = Account(
            id: 1, name: "Ada", unreadMessages: 1, joined: Date(timeIntervalSince1970: 0), homepage: nil, balance: 0,
            tags: [], address: nil)
        let b = Account(
            id: 1, name: "Ada", unreadMessages: 2, joined: Date(timeIntervalSince1970: 0), homepage: nil, balance: 0,
            tags: [], address: nil)
        let differences = try a.difference(to: b, recipe: Account.recipe)
        #expect(
            differences == [IngredientDifference(path: try IngredientPath(parsing: "stats.unread"), old: 1, new: 2)])
    }

    @Test("a 100,000-deep difference does not overflow the stack")
    func deep() {
        var a: Ingredients = 1
        var b: Ingredients = 2
        for _ in 0..<100_000 { a = [a]; b = [b] }
        #expect(a.difference(to: b).count == 1)
    }
}

@Suite("Model factory")
struct FactoryTests {
    @Test("overrides by path replace defaults; null clears")
    func overrides() throws {
        let factory = try ModelFactory(
            Account.self,
            defaults: [
                "account_id": 1,
                "profile": [
                    "name": "Ada", "joined": "Sat, 07 Sep 2002 00:00:01 GMT", "links": ["home": "https://a.example"],
                ],
                "stats": ["unread": 0], "balance": 0, "labels": [],
            ],
            recipe: Account.recipe)
        let plain = try factory.make()
        #expect(plain.homepage != nil)
        let custom = try factory.make([
            "account_id": 2, "profile.name": "Bob", "profile.links.home": .null, "labels[1].text": "second",
        ])
        #expect(custom.id == 2)
        #expect(custom.name == "Bob")
        #expect(custom.homepage == nil)
        #expect(custom.tags == ["second"])  // labels[0] is null, and [*] skips what has no text
        let many = try factory.make(count: 3) { [(path: "account_id", value: .integer(Int64($0 + 10)))] }
        #expect(many.map(\.id) == [10, 11, 12])
    }

    @Test("defaults that do not bake fail where the factory is made")
    func brokenDefaults() {
        #expect(throws: EasyBakeError.self) {
            try ModelFactory(Account.self, defaults: ["account_id": "x"], recipe: Account.recipe)
        }
    }
}

/// A value shared with observer closures in tests.
final class Locked<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}
