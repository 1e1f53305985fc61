import EasyBake
import EasyBakeJSON

// MARK: - Shapes

extension ModelScaffold {
    /// What the samples held at one path, with the paths below it.
    final class Shape {
        var kindCounts: [PathSurvey.ValueKind: Int] = [:]
        /// Values seen; for a dictionary key, in how many dictionaries it was present.
        var count = 0
        var dateStyles: Set<PathSurvey.DateStyle> = []
        /// Date-like strings in more than one style were seen.
        var mixedDateStyles = false
        var integersAreZeroOrOne = true
        /// The most digits after the point of the fractional numbers seen.
        var fractionDigits = 0
        var example: Ingredients?
        private(set) var fields: [(key: String, shape: Shape)] = []
        var fieldIndex: [String: Int] = [:]
        var element: Shape?
        /// The dictionary holds XML text (`#text`) and attributes, and was
        /// sometimes written as the text alone.
        var isTextWithAttributes = false
        /// Non-dictionary values that were folded into a dictionary shape
        /// with no place for them (a warning).
        var unplacedKinds: [PathSurvey.ValueKind] = []

        func count(of kind: PathSurvey.ValueKind) -> Int { kindCounts[kind] ?? 0 }

        var nonNullKinds: Set<PathSurvey.ValueKind> {
            Set(kindCounts.filter { $0.key != .null && $0.value > 0 }.keys)
        }

        var scalarKinds: Set<PathSurvey.ValueKind> { nonNullKinds.subtracting([.array, .dictionary]) }

        func field(_ key: String) -> Shape? { fieldIndex[key].map { fields[$0].shape } }

        func fieldCreating(_ key: String) -> Shape {
            if let existing = field(key) { return existing }
            let shape = Shape()
            fieldIndex[key] = fields.count
            fields.append((key, shape))
            return shape
        }

        /// In how many of this shape's dictionaries `key` was absent.
        func missing(_ key: String) -> Int {
            max(0, count(of: .dictionary) - (field(key)?.count ?? 0))
        }

        /// The survey's entries as a tree of shapes, XML's variants folded.
        static func tree(_ entries: [PathSurvey.Entry]) -> Shape {
            let root = Shape()
            for entry in entries {
                var shape = root
                for step in entry.path.steps {
                    switch step {
                    case .key(let key): shape = shape.fieldCreating(key)
                    case .everyElement, .index:
                        if shape.element == nil { shape.element = Shape() }
                        shape = shape.element!
                    }
                }
                shape.record(entry)
            }
            root.fold()
            return root
        }

        func record(_ entry: PathSurvey.Entry) {
            for (kind, count) in entry.kinds { kindCounts[kind, default: 0] += count }
            count += entry.count
            if let style = entry.dateStyle { dateStyles.insert(style) }
            if entry.count(of: .dateString) > 0 && entry.dateStyle == nil { mixedDateStyles = true }
            integersAreZeroOrOne = integersAreZeroOrOne && entry.integersAreZeroOrOne
            fractionDigits = max(fractionDigits, entry.fractionDigits)
            if example == nil { example = entry.example }
        }

        /// Adds what `other` saw to this shape, recursively.
        func merge(_ other: Shape) {
            for (kind, count) in other.kindCounts { kindCounts[kind, default: 0] += count }
            count += other.count
            dateStyles.formUnion(other.dateStyles)
            mixedDateStyles = mixedDateStyles || other.mixedDateStyles
            integersAreZeroOrOne = integersAreZeroOrOne && other.integersAreZeroOrOne
            fractionDigits = max(fractionDigits, other.fractionDigits)
            if example == nil { example = other.example }
            for (key, shape) in other.fields { fieldCreating(key).merge(shape) }
            if let otherElement = other.element {
                if let element { element.merge(otherElement) } else { element = otherElement }
            }
        }

        /// Folds XML's variants, depth first:
        /// - a path seen both as a single value and as an array (a lone and a
        ///   repeated element) is an array whose elements include the lone values;
        /// - a dictionary of `#text` and `@attributes` sometimes written as
        ///   bare text holds that text under `#text`.
        func fold() {
            let singles = nonNullKinds.subtracting([.array])
            if count(of: .array) > 0, !singles.isEmpty {
                let lone = Shape()
                for kind in singles {
                    lone.kindCounts[kind] = kindCounts[kind]
                    kindCounts[kind] = nil
                }
                lone.count = singles.reduce(0) { $0 + lone.count(of: $1) }
                lone.dateStyles = dateStyles
                lone.mixedDateStyles = mixedDateStyles
                lone.integersAreZeroOrOne = integersAreZeroOrOne
                lone.fractionDigits = fractionDigits
                lone.example = example
                for (key, shape) in fields { lone.fieldCreating(key).merge(shape) }
                fields = []
                fieldIndex = [:]
                kindCounts[.array, default: 0] += lone.count
                if let element { element.merge(lone) } else { element = lone }
            }
            let scalars = scalarKinds
            if count(of: .dictionary) > 0, !scalars.isEmpty {
                let scalarCount = scalars.reduce(0) { $0 + count(of: $1) }
                let isXMLText =
                    !fields.isEmpty && fields.allSatisfy { $0.key == "#text" || $0.key.hasPrefix("@") }
                    || fields.isEmpty
                if isXMLText {
                    let text = fieldCreating("#text")
                    for kind in scalars { text.kindCounts[kind, default: 0] += count(of: kind) }
                    text.count += scalarCount
                    text.dateStyles.formUnion(dateStyles)
                    text.mixedDateStyles = text.mixedDateStyles || mixedDateStyles
                    text.integersAreZeroOrOne = text.integersAreZeroOrOne && integersAreZeroOrOne
                    text.fractionDigits = max(text.fractionDigits, fractionDigits)
                    if text.example == nil { text.example = example }
                    isTextWithAttributes = true
                } else {
                    unplacedKinds = scalars.sorted { $0.rawValue < $1.rawValue }
                }
                for kind in scalars { kindCounts[kind] = nil }
                kindCounts[.dictionary, default: 0] += scalarCount
            }
            for (_, shape) in fields { shape.fold() }
            element?.fold()
        }
    }
}
