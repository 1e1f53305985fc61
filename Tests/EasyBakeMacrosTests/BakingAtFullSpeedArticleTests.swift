import EasyBakeJSON
import EasyBakeMacros
import EasyBakeTestSupport
import EasyBakeXML
import EasyBakeYAML
import Foundation
import Testing

// The code of the "Baking at full speed" article, line for line
// (`shownCode` checks it).

@Bakeable
struct Order: Codable, Equatable {
    var sku: String
    var quantity: Int
    var placedAt: Date
}

@Bakeable
struct Customer: Codable, Equatable {
    @Ingredient("profile.name") var name: String
    @Ingredient("contact.email") var email: String?
    @Default(0) var loyaltyPoints: Int
    var orders: [Order]
}

@Bakeable
struct CustomerFeed: Codable, Equatable {
    var customer: Customer
}

@Suite("The Baking at full speed article")
struct BakingAtFullSpeedArticleTests {
    @Test("the article shows the code these tests run")
    func shownCode() throws {
        let check = try DocumentationExamples.checkSwiftListings(
            in: try DocumentationExamples.article("EasyBake", "BakingAtFullSpeed"), runBy: #filePath)
        #expect(check.listings == 3)
        #expect(check.notRun == [])
    }

    @Test("a @Bakeable model bakes from every format")
    func bakesFromEveryFormat() throws {
        let json = """
            {"profile": {"name": "Ann"}, "contact": {"email": "ann@example.com"},
             "orders": [{"sku": "A-1", "quantity": 2, "placedAt": "2024-05-06T07:08:09Z"}]}
            """
        let customer = try Baker().bake(Customer.self, from: .text(json), format: .json)
        // `customer.name` is "Ann", `customer.loyaltyPoints` 0 (the default).
        #expect(customer.name == "Ann")
        #expect(customer.email == "ann@example.com")
        #expect(customer.loyaltyPoints == 0)
        #expect(customer.orders.map(\.quantity) == [2])

        let yaml = """
            profile: {name: Ann}
            contact: {email: ann@example.com}
            orders:
              - {sku: A-1, quantity: 2, placedAt: "2024-05-06T07:08:09Z"}
            """
        let fromYAML = try Baker().bake(Customer.self, from: .text(yaml), format: .yaml)
        #expect(fromYAML == customer)

        let xml = """
            <customer><profile><name>Ann</name></profile><contact><email>ann@example.com</email></contact>
            <orders><sku>A-1</sku><quantity>2</quantity><placedAt>2024-05-06T07:08:09Z</placedAt></orders></customer>
            """
        let feed = try Baker().bake(CustomerFeed.self, from: .text(xml), format: .xml)
        #expect(feed.customer == customer)
    }

    @Test("records stream through the same initializer, on every job")
    func streams() throws {
        let lines = (0..<500).map { index in
            "{\"profile\": {\"name\": \"n\(index)\"}, \"orders\": []}"
        }.joined(separator: "\n")
        let source = try JSONLinesIngredientSource(.text(lines))
        var names: [String] = []
        try Baker().bakeEach(Customer.self, from: source, each: "[*]", jobs: 2) { result in
            names.append(try result.get().name)
        }
        #expect(names == (0..<500).map { "n\($0)" })
    }

    @Test("an error names the property, the path and the place")
    func errors() throws {
        let json =
            #"{"profile": {"name": "Ann"}, "orders": [{"sku": "A-1", "quantity": "two", "placedAt": "2024-05-06T07:08:09Z"}]}"#
        do {
            _ = try Baker().bake(Customer.self, from: .text(json), format: .json)
            Issue.record("baked a quantity of \"two\"")
        } catch {
            // Customer.orders[0].quantity: expected Int, found "two" (string)
            #expect(error.path?.description == "orders[0].quantity")
            #expect(error.message.contains("Customer.orders[0].quantity: expected Int"))
            #expect(error.location?.line == 1)
        }
    }
}
