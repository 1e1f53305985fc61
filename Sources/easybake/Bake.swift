import ArgumentParser
import EasyBake
import EasyBakeJSON

/// `easybake bake --recipe R INPUT [--each PATH]`
struct Bake: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Bake a payload with a recipe file; print one JSON line per record.",
        discussion: """
            Each record is printed as the recipe's processed ingredients: a dictionary of the
            recipe's properties, with paths resolved, defaults applied and transformers run.
            Example: easybake bake --recipe Fixtures/recipes/users.json --each 'users[*]' Fixtures/json/users.json
            """
    )

    @Option(name: .long, help: "The recipe file (JSON or YAML).")
    var recipe: String

    @Option(name: .long, help: "Which recipe of the file to use, when it holds several.")
    var recipeName: String?

    @Option(name: .long, help: "A path to the records to bake, e.g. 'users[*]'. Default: the whole payload is one record.")
    var each: String?

    @OptionGroup var input: InputOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            Formats.registerAll()
            let recipe = try chooseRecipe()
            let document = try input.document()
            var records: [(Ingredients, IngredientPath)] = [(document.tree, IngredientPath())]
            if let each {
                let path = try IngredientPath(parsing: each)
                records = try Self.records(at: path, in: document.tree)
            }
            let json = JSONFormat()
            for (record, path) in records {
                let processed: IngredientDictionary
                do throws(EasyBakeError) {
                    processed = try recipe.process(record)
                } catch {
                    var located = error
                    located.path = path.appending(error.path ?? IngredientPath())
                    throw document.locating(located)
                }
                Output.standard.writeLine(try json.write(.dictionary(processed), options: output.writingOptions))
            }
        }
    }

    private func chooseRecipe() throws(EasyBakeError) -> Recipe {
        let recipes = try RecipeFile.load(.file(recipe))
        if let recipeName {
            guard let found = recipes.first(where: { $0.name == recipeName }) else {
                throw EasyBakeError(
                    .recipeNotFound,
                    "no recipe named \(recipeName.debugDescription) in \(recipe); it has: \(recipes.compactMap(\.name).joined(separator: ", "))")
            }
            return found
        }
        guard recipes.count == 1, let only = recipes.first else {
            throw EasyBakeError(
                .invalidRecipe,
                "\(recipe) holds \(recipes.count) recipes; choose one with --recipe-name (\(recipes.compactMap(\.name).joined(separator: ", ")))")
        }
        return only
    }

    /// The values a path with `[*]` steps finds, each with its own concrete path.
    static func records(at path: IngredientPath, in tree: Ingredients) throws(EasyBakeError) -> [(Ingredients, IngredientPath)] {
        var found: [(Ingredients, IngredientPath)] = [(tree, IngredientPath())]
        for step in path.steps {
            var next: [(Ingredients, IngredientPath)] = []
            for (value, at) in found {
                switch step {
                case .everyElement:
                    switch value {
                    case .array(let elements):
                        for (index, element) in elements.enumerated() { next.append((element, at.appending(index: index))) }
                    case .null: break
                    default: next.append((value, at))  // a lone value is a one-element array
                    }
                default:
                    if let child = value.resolve(IngredientPath([step])) { next.append((child, at.appending(step))) }
                }
            }
            found = next
        }
        if found.isEmpty, !path.hasWildcard {
            throw EasyBakeError(.valueNotFound, "no value at \(path)", path: path)
        }
        return found
    }
}
