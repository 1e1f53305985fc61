import EasyBake
import EasyBakeJSON

/// Turns a ``PathSurvey`` of sample records into a Swift model and the recipe
/// file that bakes it: the engine of `easybake scaffold`.
///
/// Three steps, each a pure function of the one before:
/// 1. ``Shape``: the survey's paths as a tree, with XML's two ways of writing
///    one thing folded together (a lone element and repeated ones; text alone
///    and text with attributes).
/// 2. ``TypePlan``: Swift types, property names, optionality and transformers.
/// 3. Text: ``swiftSource(for:request:)`` and ``recipeJSON(for:)``.
///
/// ```swift
/// let scaffold = try ModelScaffold.make(from: survey, request: .init(name: "User", each: "users[*]"))
/// print(scaffold.swiftSource, scaffold.recipeJSON)
/// ```
enum ModelScaffold {
    /// What to generate, and what the header comment says about it.
    struct Request {
        /// The model's type name.
        var name: String
        /// The record path the survey was taken at, if any.
        var each: String?
        /// The payload as named on the command line.
        var inputName = "payload.json"
        /// The payload's format name (`json`, `xml`, `yaml`), for the usage lines.
        var formatName = "json"
        /// For YAML read with other than the default options: the Swift
        /// of the `YAMLReadingOptions` arguments chosen (`documents: .all`,
        /// `documents: .document(2), unknownTags: .wrap`).
        var yamlArguments: String?
        /// For XML read with other than the default options: the Swift of
        /// the `XMLReadingOptions` arguments chosen
        /// (`acceptsNamespaceErrors: true, markupElements: ["summary"]`).
        var xmlArguments: String?
        /// The command's reading options chosen (` --documents all`), which
        /// the usage line's command repeats.
        var readingFlags = ""

        /// The YAML options argument the usage lines pass, if any.
        var yamlOptions: String {
            yamlArguments.map { ", options: YAMLReadingOptions(\($0))" } ?? ""
        }

        /// The XML options argument the usage lines pass, if any.
        var xmlOptions: String {
            xmlArguments.map { ", options: XMLReadingOptions(\($0))" } ?? ""
        }
    }

    /// The generated files and what the user should know about them.
    struct Result {
        let plan: TypePlan
        let swiftSource: String
        let recipeJSON: String
        /// Things the samples left undecided, also written as comments.
        let notes: [String]
    }

    /// Plans the model for the records `survey` saw and writes both files.
    ///
    /// - Throws: ``EasyBakeError/Code/unsupported`` when the records are not
    ///   dictionaries (the message suggests `--each`), or
    ///   ``EasyBakeError/Code/invalidValue`` for a name that is not a Swift type name.
    static func make(from survey: PathSurvey, request: Request) throws(EasyBakeError) -> Result {
        guard SwiftNames.isValidTypeName(request.name) else {
            let suggestion = SwiftNames.typeName(request.name)
            throw EasyBakeError(
                .invalidValue,
                "the model name \(request.name.debugDescription) is not a Swift type name; try --name \(suggestion)")
        }
        let root = Shape.tree(survey.entries)
        try checkRoot(root, survey: survey, each: request.each)
        var planner = Planner()
        planner.stringsAreTyped = request.formatName != "xml"
        let plan = planner.plan(root, name: request.name, key: nil)
        return Result(
            plan: plan,
            swiftSource: swiftSource(for: plan, request: request, records: survey.documents),
            recipeJSON: recipeJSON(for: plan),
            notes: planner.notes)
    }

    /// The survey's root must hold dictionaries: a struct is made of keys.
    static func checkRoot(_ root: Shape, survey: PathSurvey, each: String?) throws(EasyBakeError) {
        let kinds = root.nonNullKinds
        if kinds == [.dictionary] && root.count(of: .null) == 0 { return }
        let what =
            each == nil ? "the payload's root must be a dictionary" : "the records at \(each!) must be dictionaries"
        var found = root.kindCounts.keys.sorted { $0.rawValue < $1.rawValue }.map(\.description).joined(separator: ", ")
        if found.isEmpty { found = "nothing" }
        var message = "\(what) to make a struct of, found \(found)"
        if kinds.contains(.array) {
            let suggestion = (each ?? "") + "[*]"
            message += "; to scaffold each element, add --each '\(suggestion)'"
        }
        throw EasyBakeError(.unsupported, message)
    }

    /// A hint for a payload surveyed whole whose records are plainly at one
    /// array of dictionaries (`users[*]` in `{"meta": …, "users": [ … ]}`).
    static func recordPathHint(_ survey: PathSurvey) -> String? {
        let entries = survey.entries
        let candidates = entries.filter { entry in
            guard !entry.path.isRoot, entry.count(of: .array) > 0,
                entry.path.steps.allSatisfy({ if case .key = $0 { true } else { false } })
            else { return false }
            let element = entry.path.appending(.everyElement)
            return entries.contains { $0.path == element && $0.count(of: .dictionary) > 0 }
        }
        guard candidates.count == 1, let only = candidates.first else { return nil }
        return only.path.appending(.everyElement).description
    }
}
