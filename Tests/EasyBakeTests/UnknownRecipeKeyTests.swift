@testable import EasyBake
import Foundation
import Testing

/// The recipe checks the model: every key a recipe names must be a property
/// of the model it bakes (the seeds' rule), found out while baking.
@Suite("Recipes check the model: unknown recipe keys")
struct UnknownRecipeKeyTests {
    struct Member: Decodable, Equatable {
        let id: Int
        let name: String
        let email: String?
    }

    struct Address: Decodable, Equatable {
        let city: String
    }

    struct Person: Decodable, Equatable {
        let name: String
        let address: Address?
        let previous: [Address]
    }

    struct Tagged: Bakeable, Equatable {
        let label: String
        static var bakingRecipe: Recipe? {
            get throws { try Recipe(name: "Tagged", mapping: ["label": "l", "colour": "c"]) }
        }
    }

    static let tree: Ingredients = ["member_id": 7, "full_name": "Ada", "mail": "ada@example.com"]

    @Test("a mistyped key is an error naming the unknown keys, the model and its properties")
    func typoIsAnError() throws {
        let recipe = try Recipe(name: "Member", mapping: ["id": "member_id", "name": "full_name", "emial": "mail"])
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().bake(Member.self, from: Self.tree, recipe: recipe)
        }
        #expect(error?.code == .unknownRecipeKey)
        #expect(error?.baking?.modelType == "Member")
        #expect(
            error?.message
                == #"recipe "Member" names a key that is not a property of Member: "emial" (did you mean "email"?); Member's properties: id, name, email"#
        )
    }

    @Test("every unknown key is listed, whether mapped, defaulted or nested")
    func everyKindOfKey() throws {
        let recipe = try Recipe(
            mapping: ["id": "member_id", "name": "full_name", "nickname": "nick"],
            nested: ["badge": try Recipe(mapping: ["x": "y"])],
            defaults: ["email": "none", "age": 3])
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().bake(Member.self, from: Self.tree, recipe: recipe)
        }
        #expect(error?.code == .unknownRecipeKey)
        #expect(error?.message.contains(#""nickname", "age", "badge"; Member's properties: id, name, email"#) == true)
    }

    @Test("a recipe whose keys are all properties bakes, with or without every property mapped")
    func knownKeysBake() throws {
        let recipe = try Recipe(mapping: ["id": "member_id", "name": "full_name"], defaults: ["email": "none"])
        #expect(
            try Baker().bake(Member.self, from: Self.tree, recipe: recipe) == Member(id: 7, name: "Ada", email: "none"))
        let reported = try Baker().bakeReporting(Member.self, from: Self.tree, recipe: recipe)
        #expect(reported.warnings.isEmpty)
    }

    @Test("a nested recipe's unknown key names the nested model and where it was applied")
    func nestedRecipe() throws {
        let recipe = try Recipe(
            mapping: ["name": "n", "address": "home", "previous": "old"],
            nested: [
                "address": try Recipe(name: "Address", mapping: ["city": "town", "zip": "postcode"]),
                "previous": try Recipe(mapping: ["city": "town"]),
            ])
        let tree: Ingredients = ["n": "Ada", "home": ["town": "London"], "old": [["town": "Paris"], ["town": "Rome"]]]
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Person.self, from: tree, recipe: recipe) }
        #expect(error?.code == .unknownRecipeKey)
        #expect(error?.baking?.modelType == "Address")
        #expect(error?.baking?.property == "address")
        #expect(
            error?.message
                == #"recipe "Address" names a key that is not a property of Address (at Person.address): "zip"; Address's properties: city"#
        )
    }

    @Test("a nested recipe that is never applied (the value is absent) is not judged")
    func unappliedNestedRecipe() throws {
        let recipe = try Recipe(
            mapping: ["name": "n", "address": "home", "previous": "old"],
            nested: [
                "address": try Recipe(mapping: ["city": "town", "zip": "postcode"]),
                "previous": try Recipe(mapping: ["city": "town"]),
            ])
        let person = try Baker().bake(Person.self, from: ["n": "Ada", "old": [["town": "Paris"]]], recipe: recipe)
        #expect(person == Person(name: "Ada", address: nil, previous: [Address(city: "Paris")]))
    }

    @Test("several recipes with unknown keys are one error listing each")
    func severalRecipes() throws {
        let recipe = try Recipe(
            name: "Person", mapping: ["name": "n", "address": "home", "previous": "old", "age": "a"],
            nested: [
                "address": try Recipe(mapping: ["city": "town", "zip": "postcode"]),
                "previous": try Recipe(mapping: ["city": "town"]),
            ])
        let tree: Ingredients = ["n": "Ada", "home": ["town": "London"], "old": []]
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Person.self, from: tree, recipe: recipe) }
        #expect(error?.code == .unknownRecipeKey)
        #expect(error?.problems.count == 2)
        #expect(error?.problems.map { $0.baking?.modelType } == ["Person", "Address"])
    }

    @Test("a streamed bake fails each record with the error and the record's path")
    func streamed() throws {
        let recipe = try Recipe(name: "Member", mapping: ["id": "member_id", "name": "full_name", "emial": "mail"])
        let records: Ingredients = [Self.tree, Self.tree]
        let results = Array(
            try Baker().bakeEach(Member.self, from: IngredientTreeSource(records), each: "[*]", recipe: recipe))
        #expect(results.count == 2)
        for (index, result) in results.enumerated() {
            guard case .failure(let error) = result else {
                Issue.record("record \(index) should fail")
                continue
            }
            #expect(error.code == .unknownRecipeKey)
            #expect(error.path?.description == "[\(index)]")
            #expect(error.message.hasPrefix("record \(index): recipe \"Member\" names a key"))
        }
        let ignoring = Baker(options: .init(unknownRecipeKeys: .ignore))
        let baked = try ignoring.bakeEach(Member.self, from: IngredientTreeSource(records), each: "[*]", recipe: recipe)
            .map { try $0.get() }
        #expect(baked == [Member(id: 7, name: "Ada", email: nil), Member(id: 7, name: "Ada", email: nil)])
    }

    @Test("a streamed bake judges a nested recipe in the first record that applies it")
    func streamedNestedLater() throws {
        let recipe = try Recipe(
            mapping: ["name": "n", "address": "home", "previous": "old"],
            nested: [
                "address": try Recipe(name: "Address", mapping: ["city": "town", "zip": "postcode"]),
                "previous": try Recipe(mapping: ["city": "town"]),
            ])
        let records: Ingredients = [
            ["n": "Ada", "old": []], ["n": "Bo", "old": [], "home": ["town": "Oslo"]], ["n": "Cy", "old": []],
        ]
        let results = Array(
            try Baker().bakeEach(Person.self, from: IngredientTreeSource(records), each: "[*]", recipe: recipe))
        #expect(results.count == 3)
        #expect((try? results[0].get()) == Person(name: "Ada", address: nil, previous: []))
        guard case .failure(let error) = results[1] else {
            Issue.record("record 1 applies the nested recipe and should fail")
            return
        }
        #expect(error.code == .unknownRecipeKey)
        #expect(error.baking?.modelType == "Address")
        #expect((try? results[2].get()) == Person(name: "Cy", address: nil, previous: []))
    }

    @Test("the warning option bakes and reports; ignore bakes silently")
    func warningAndIgnore() throws {
        let recipe = try Recipe(mapping: ["id": "member_id", "name": "full_name", "emial": "mail"])
        let warned = try Baker(options: .init(unknownRecipeKeys: .warning)).bakeReporting(
            Member.self, from: Self.tree, recipe: recipe)
        #expect(warned.value == Member(id: 7, name: "Ada", email: nil))
        #expect(warned.warnings.map(\.code) == [.unknownRecipeKey])
        #expect(warned.warnings.first?.message.contains(#""emial" (did you mean "email"?)"#) == true)
        let ignored = try Baker(options: .init(unknownRecipeKeys: .ignore)).bakeReporting(
            Member.self, from: Self.tree, recipe: recipe)
        #expect(ignored.warnings.isEmpty)
    }

    @Test("a type's own recipe is checked too")
    func typeRecipe() throws {
        let error = #expect(throws: EasyBakeError.self) { try Baker().bake(Tagged.self, from: ["l": "a", "c": "red"]) }
        #expect(error?.code == .unknownRecipeKey)
        #expect(
            error?.message.contains(#"recipe "Tagged" names a key that is not a property of Tagged: "colour""#) == true)
    }

    @Test("a model that reads every key (a dictionary) accepts any recipe key")
    func dictionaryModel() throws {
        let recipe = try Recipe(mapping: ["anything": "member_id", "else": "full_name"])
        let baked = try Baker().bake([String: String].self, from: Self.tree, recipe: recipe)
        #expect(baked["anything"] == "7" && baked["else"] == "Ada")
    }

    @Test("a recipe file's typos fail the bake, each with a suggestion")
    func recipeFile() throws {
        let file: Ingredients = [
            "name": "Member", "mapping": ["id": "member_id", "e-mail": "mail", "Name": "full_name"],
        ]
        let recipes = try RecipeFile.recipes(in: file)
        let tree: Ingredients = ["member_id": 7, "full_name": "Ada", "mail": "ada@example.com", "name": "A."]
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().bake(Member.self, from: tree, recipe: recipes[0])
        }
        #expect(error?.message.contains(#""e-mail" (did you mean "email"?), "Name" (did you mean "name"?)"#) == true)
    }

    @Test("a property left without a value by a mistyped key says which key was meant")
    func missingValueNamesTheTypo() throws {
        let recipe = try Recipe(name: "Member", mapping: ["id": "member_id", "nmae": "full_name"])
        let error = #expect(throws: EasyBakeError.self) {
            try Baker().bake(Member.self, from: Self.tree, recipe: recipe)
        }
        #expect(error?.code == .valueNotFound)
        #expect(error?.baking?.property == "name")
        #expect(
            error?.message.hasSuffix(#"; recipe "Member" maps "nmae", which is no property: did you mean "name"?"#)
                == true)
    }

    @Test("suggestions: case and punctuation, then up to two edits, and none for short or distant keys")
    func suggestions() throws {
        func suggest(_ key: String) throws -> String? {
            let recipe = try Recipe(mapping: [
                "id": "member_id", "name": "full_name", KeyValuePairs<String, String>.Element(key, "x").0: "x",
            ])
            let error = #expect(throws: EasyBakeError.self) {
                try Baker().bake(Member.self, from: Self.tree, recipe: recipe)
            }
            guard let message = error?.message, let range = message.range(of: "did you mean \"") else { return nil }
            return String(message[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(try suggest("EMAIL") == "email")
        #expect(try suggest("emal") == "email")
        #expect(try suggest("nmae") == "name")
        #expect(try suggest("phone") == nil)
        #expect(try suggest("ix") == nil)
    }
}

/// The recipe-key tally holds the decoders that applied recipes, and they hold
/// the bake's context: nothing of a bake may outlive it.
@Suite("A bake leaves nothing behind")
struct BakeLifetimeTests {
    struct Member: Decodable {
        let id: Int
        let name: String
    }

    @Test("the ingredients are uniquely referenced again after a bake, a failed one and a warned one")
    func nothingRetained() throws {
        var dictionary: IngredientDictionary = ["member_id": 7, "full_name": "Ada"]
        let recipe = try Recipe(mapping: ["id": "member_id", "name": "full_name"])
        _ = try Baker().bake(Member.self, from: .dictionary(dictionary), recipe: recipe)
        #expect(isKnownUniquelyReferenced(&dictionary.storage))
        let typo = try Recipe(mapping: ["id": "member_id", "nmae": "full_name"])
        _ = try? Baker().bake(Member.self, from: .dictionary(dictionary), recipe: typo)
        #expect(isKnownUniquelyReferenced(&dictionary.storage))
        let extra = try Recipe(mapping: ["id": "member_id", "name": "full_name", "age": "age"])
        _ = try Baker(options: .init(unknownRecipeKeys: .warning)).bakeReporting(
            Member.self, from: .dictionary(dictionary), recipe: extra)
        #expect(isKnownUniquelyReferenced(&dictionary.storage))
    }
}
