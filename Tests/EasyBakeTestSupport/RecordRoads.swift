import EasyBake

/// Streamed records against the whole document: the records a record path
/// finds in a whole document's index of elements (XML's), each baked where
/// it lies, as the streaming roads must bake it — the same model, or the
/// same error at the same line and column.
public enum RecordRoads {
    /// The positions of the records at `steps` in an index whose
    /// dictionaries are elements, in order, as the record reader finds them
    /// (a lone element is one record, a null none). `nil` for a path with an
    /// index step, which the tests' record paths do not have.
    public static func positions(
        in index: IngredientIndex, at steps: ArraySlice<IngredientPath.Step>, from position: Int = 0
    ) -> [Int]? {
        guard let step = steps.first else { return [position] }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            guard index.kind(at: position) == .dictionary else { return [] }
            var member = position + 1
            while member < index.end(of: position) {
                if index.string(at: member) == key { return positions(in: index, at: rest, from: member + 1) }
                member = index.end(of: member + 1)
            }
            return []
        case .everyElement:
            switch index.kind(at: position) {
            case .array:
                var found: [Int] = []
                var element = position + 1
                while element < index.end(of: position) {
                    guard let more = positions(in: index, at: rest, from: element) else { return nil }
                    found += more
                    element = index.end(of: element)
                }
                return found
            case .null:
                return []
            default:
                return positions(in: index, at: rest, from: position)
            }
        case .index:
            return nil
        }
    }

    /// Each record at `each` of the document `index` holds, baked where it
    /// lies: what streaming must give for it. An error that names no value
    /// of the document (one about a value the bake made, such as the array
    /// a `[*]` gathers) names the record's place, as a streamed record's
    /// does. `nil` when the path has an index step.
    public static func wholeDocumentResults<Model: Decodable>(
        _ type: Model.Type, from index: inout IngredientIndex, each: IngredientPath, recipe: Recipe?,
        baker: Baker = Baker()
    ) -> [Result<Model, EasyBakeError>]? {
        guard let found = positions(in: index, at: each.steps[...]) else { return nil }
        return found.map { position in
            do throws(EasyBakeError) {
                return .success(try baker.bakeReporting(type, from: &index, at: position, recipe: recipe).value)
            } catch {
                var located = error
                if located.location == nil { located.location = index.mark(at: position)?.location }
                return .failure(located)
            }
        }
    }

    /// How a streamed record's result differs from the whole document's
    /// for the same record (number `number`), or `nil` when they agree: the
    /// same model (as `describe` writes it), or the same error code, baking
    /// details, path (the record's before the error's), message (after
    /// `record n: `) and line and column.
    public static func mismatch<Model>(
        streamed: Result<Model, EasyBakeError>, whole: Result<Model, EasyBakeError>, number: Int,
        describe: (Model) -> String
    ) -> String? {
        switch (streamed, whole) {
        case (.success(let a), .success(let b)):
            return describe(a) == describe(b) ? nil : "record \(number): streamed \(describe(a)), whole \(describe(b))"
        case (.failure(let a), .failure(let b)):
            let wholeText = "\(a.code) record \(number): \(b.message) \(place(b.location))"
            let streamedText = "\(a.code) \(a.message) \(place(a.location))"
            if a.code != b.code || a.baking != b.baking || streamedText != wholeText
                || !(a.path?.description ?? "").hasSuffix(b.path?.description ?? "")
            {
                return
                    "record \(number): streamed \(streamedText) at \(a.path?.description ?? "-"), whole \(wholeText) at \(b.path?.description ?? "-")"
            }
            return nil
        default:
            return "record \(number): streamed \(streamed), whole \(whole)"
        }
    }

    /// A location as `line:column`.
    public static func place(_ location: SourceLocation?) -> String {
        location.map { "\($0.line):\($0.column)" } ?? "-"
    }
}
