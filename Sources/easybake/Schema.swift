import ArgumentParser
import EasyBake
import EasyBakeJSON

/// `easybake schema --recipe R`
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the schema of what bake prints for a recipe, as JSON.",
        discussion: """
            One field per mapped property, in the recipe's order, with its type: string, number, boolean,
            timestamp (ISO 8601 text), json (unknown: any JSON value), {"array": T} or {"struct": [fields]}.
            A type comes from the property's transformer, else its nested recipe, else its default; every
            field is nullable. For an engine that needs the columns first, such as Spark.
            Example: easybake schema --recipe Fixtures/recipes/users.json
            """
    )

    @OptionGroup var recipe: RecipeChoice
    @OptionGroup var output: OutputOptions

    func run() throws {
        try reportingErrors { () throws(EasyBakeError) in
            let schema = RecipeSchema(try recipe.chosen())
            Output.standard.writeLine(try JSONFormat().write(schema.ingredients, options: output.writingOptions))
        }
    }
}

/// `--recipe FILE` and `--recipe-name NAME`: the recipe a command uses.
struct RecipeChoice: ParsableArguments {
    @Option(name: .long, help: "The recipe file (JSON or YAML).")
    var recipe: String

    @Option(name: .long, help: "Which recipe of the file to use, when it holds several.")
    var recipeName: String?

    /// The recipe named, or the file's only one.
    ///
    /// - Throws: the file's errors; ``EasyBakeError/Code/recipeNotFound``
    ///   for an unknown name, ``EasyBakeError/Code/invalidRecipe`` when the
    ///   file holds several and none is named.
    func chosen() throws(EasyBakeError) -> Recipe {
        let recipes = try RecipeFile.load(.file(recipe), formats: Formats.all)
        if let recipeName {
            guard let found = recipes.first(where: { $0.name == recipeName }) else {
                throw EasyBakeError(
                    .recipeNotFound,
                    "no recipe named \(recipeName.debugDescription) in \(recipe); it has: \(recipes.compactMap(\.name).joined(separator: ", "))"
                )
            }
            return found
        }
        guard recipes.count == 1, let only = recipes.first else {
            throw EasyBakeError(
                .invalidRecipe,
                "\(recipe) holds \(recipes.count) recipes; choose one with --recipe-name (\(recipes.compactMap(\.name).joined(separator: ", ")))"
            )
        }
        return only
    }
}
