import EasyBake
import EasyBakeTestSupport
import Foundation
import Testing

/// An update starts from the model's own values: a one-way transformer is
/// not applied to its own output again (issue 19, item 3).
@Suite("Updates and one-way transformers")
struct OneWayUpdateTests {
    struct Product: Dough {
        let id: Int
        let title: String
        let cents: Int
        let role: String?
        static let bakingRecipe: Recipe? = try? Recipe(
            name: "Product",
            mapping: ["id": "id", "title": "title", "cents": "price", "role": "role"],
            transformers: [
                "cents": .instance(
                    ClosureTransformer { value in value?.doubleValue.map { .integer(Int64($0 * 100)) } }),
                "role": .spec(["lookup": ["A": "admin", "B": "admin", "U": "user"]]),
            ])
    }

    @Test("updating another property twice keeps a one-way value, and the second update changes nothing")
    func oneWayKeepsItsValue() throws {
        let center = NotificationCenter()
        let posted = Counter()
        let observer = center.addObserver(forName: Product.didUpdateNotification, object: nil, queue: nil) { _ in
            posted.add()
        }
        defer { center.removeObserver(observer) }
        let bread = try Baker().bake(Product.self, from: ["id": 1, "title": "Loaf", "price": 2.5, "role": "A"])
        #expect(bread.cents == 250)
        let renamed = try bread.updated(with: ["title": "Bread"], notificationCenter: center)
        #expect(renamed.cents == 250)
        #expect(renamed.title == "Bread")
        let again = try renamed.updated(with: ["title": "Bread"], notificationCenter: center)
        #expect(again.cents == 250)
        #expect(posted.value == 1)
    }

    @Test("a lookup with two keys for one value does not make later updates throw")
    func ambiguousLookup() throws {
        let bread = try Baker().bake(Product.self, from: ["id": 1, "title": "Loaf", "price": 2.5, "role": "B"])
        #expect(bread.role == "admin")
        let renamed = try bread.updated(with: ["title": "Bread"])
        #expect(renamed.role == "admin")
    }

    @Test("a property the update names is transformed as in any bake")
    func namedIsTransformed() throws {
        let bread = try Baker().bake(Product.self, from: ["id": 1, "title": "Loaf", "price": 2.5, "role": "U"])
        #expect(try bread.updated(with: ["price": 3]).cents == 300)
        #expect(try bread.updated(with: ["cents": 4]).cents == 400)
        #expect(try bread.updated(with: ["role": "A"]).role == "admin")
    }
}

/// A count that notification observers on any thread can add to.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A type's recipe that cannot be made fails every road that needs it,
/// naming the type, rather than vanishing into implicit matching (issue 31).
@Suite("A broken type recipe on the roads beside baking")
struct BrokenTypeRecipeTests {
    struct Loaf: Dough {
        let id: Int
        let title: String
        static var bakingRecipe: Recipe? {
            get throws { try Recipe(name: "Loaf", mapping: ["title": "name[", "id": "id"]) }
        }
    }

    @Test("an update of a model whose recipe cannot be made is an invalid recipe error")
    func updateNamesTheRecipe() throws {
        let loaf = Loaf(id: 1, title: "Rye")
        #expect {
            try loaf.updated(with: ["title": "Spelt"], notificationCenter: NotificationCenter())
        } throws: { error in
            let error = error as! EasyBakeError
            return error.code == .invalidRecipe && error.message.hasPrefix("Loaf.bakingRecipe: ")
        }
    }

    @Test("streaming such a model is refused before any record")
    func streamingNamesTheRecipe() throws {
        let source = EventListSource([.beginArray, .endArray])
        #expect {
            _ = try Baker().bakeEach(Loaf.self, from: source, each: "[*]")
        } throws: { error in
            (error as! EasyBakeError).code == .invalidRecipe
                && (error as! EasyBakeError).message.hasPrefix("Loaf.bakingRecipe: ")
        }
    }
}
