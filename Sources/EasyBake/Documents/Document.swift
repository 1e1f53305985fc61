/// A payload read into a tree, remembering where it came from so that errors
/// found later — while baking, say — can name the line and column of the
/// offending value.
///
/// A tree's nodes keep no positions. Its baking errors are located by the
/// index the format read it into, which the tree keeps (see ``Ingredients``);
/// any other error that names an ingredient path — a bake of a changed
/// tree, say — the document locates by reading its input again to find
/// where that path begins. Errors are rare; the second read is paid only
/// then.
///
/// ```swift
/// let document = try Document(reading: .file("users.json"), format: .json)
/// let user = try Baker().bake(User.self, from: document, recipe: recipe)
/// // error: type mismatch: User.age: expected Int, found "forty" (string)
/// //  --> users.json:3:10
/// ```
///
/// `.json` is `JSONFormat()` from `EasyBakeJSON`; to choose the format by
/// the file's extension, pass the formats to choose from:
/// `Document(reading: .file(path), formats: FormatRegistry([.json, .yaml]))`.
public struct Document: Sendable {
    /// The payload's tree.
    public let tree: Ingredients
    /// Where it was read from; standard input is kept as bytes so that it
    /// can be read again.
    public let input: IngredientInput
    /// The format it was read in.
    public let format: any IngredientFormat

    /// Reads `input` in `format`.
    ///
    /// - Throws: I/O errors, or the source's errors with their location.
    public init(reading input: IngredientInput, format: some IngredientFormat) throws(EasyBakeError) {
        let rereadable = try input.rereadable()
        self.input = rereadable
        self.format = format
        tree = try format.read(rereadable)
    }

    /// Reads `input` in the format that `formats` has for its file extension.
    ///
    /// - Throws: ``EasyBakeError/Code/unknownFormat``, I/O errors, or the
    ///   source's errors with their location.
    public init(reading input: IngredientInput, formats: FormatRegistry) throws(EasyBakeError) {
        try self.init(reading: input, format: try formats.format(for: input))
    }

    /// A document over an already-built tree and the input it came from.
    public init(tree: Ingredients, input: IngredientInput, format: any IngredientFormat) {
        self.tree = tree
        self.input = input
        self.format = format
    }

    /// Where the value at `path` begins in the input, or where its deepest
    /// present ancestor begins when the path leads nowhere. `nil` when the
    /// input can no longer be read.
    public func location(of path: IngredientPath) -> SourceLocation? {
        var steps = path.steps
        while true {
            if let found = try? PathLocator.locate(IngredientPath(steps), in: input, format: format) { return found }
            if steps.isEmpty { return nil }
            steps.removeLast()
        }
    }

    /// `path` with the first of its keys the payload does not have replaced
    /// by the nearest key the payload has there (`user[*]` → `users[*]`,
    /// `users[0].nmae` → `users[0].name`), for a "did you mean …?"; `nil`
    /// when the path is found, breaks at an index, or no key is near.
    ///
    /// It reads the input again up to the dictionary where the path breaks,
    /// skipping values, and looks at its first 10,000 keys.
    public func suggestion(for path: IngredientPath) -> IngredientPath? {
        var found = 0
        while found < path.steps.count,
            (try? PathLocator.locate(IngredientPath(Array(path.steps.prefix(found + 1))), in: input, format: format))
                != nil
        {
            found += 1
        }
        guard found < path.steps.count, case .key(let missing) = path.steps[found],
            let source = try? format.makeSource(for: input),
            var members = try? RecordReader(
                source: AnyIngredientSource(source),
                each: IngredientPath(Array(path.steps.prefix(found)) + [.everyElement]))
        else { return nil }
        var keys: [String] = []
        while keys.count < 10_000,
            let member = try? members.nextRecord(reading: { (first, source) throws(EasyBakeError) in
                switch first {
                case .beginArray, .beginDictionary: try source.skipRestOfContainer()
                default: break
                }
            })
        {
            if let key = member.path.lastKey { keys.append(key) }
        }
        guard let near = NearestName.nearest(to: missing, among: keys) else { return nil }
        var steps = path.steps
        steps[found] = .key(near)
        return IngredientPath(steps)
    }

    /// `error` with the location of its ingredient path filled in, when it
    /// has a path and no location yet.
    public func locating(_ error: EasyBakeError) -> EasyBakeError {
        guard error.location == nil, let path = error.path, let location = location(of: path) else { return error }
        var located = error
        located.location = location
        return located
    }
}

/// Finds where a concrete path begins by replaying a source's events.
enum PathLocator {
    /// One open container while replaying.
    private struct Frame {
        var isArray: Bool
        var nextIndex = 0
        var key: String?
        var occurrences = KeyOccurrences()
        /// How many target steps were matched when entering this container,
        /// or nil when this container is off the path.
        var matched: Int?
    }

    static func locate(_ path: IngredientPath, in input: IngredientInput, format: any IngredientFormat) throws
        -> SourceLocation?
    {
        var source = try format.makeSource(for: input)
        return try locate(path, in: &source)
    }

    static func locate(_ path: IngredientPath, in source: inout some IngredientSource) throws -> SourceLocation? {
        let target = path.steps
        let policy = source.duplicateKeyPolicy
        let collects = policy == .collect
        // Under lastWins the tree holds a repeated key's last occurrence: a
        // match is kept until a later one replaces it, and the scan goes on
        // to the end.
        var lastMatch: SourceLocation?
        var stack: [Frame] = []
        var rootMatched: Int? = 0

        /// How many target steps the next value matches, given the step that
        /// leads to it; nil when it is off the path.
        func matchedSteps(for frame: Frame, key: String?, index: Int, occurrence: Int) -> Int? {
            guard var consumed = frame.matched else { return nil }
            if frame.isArray {
                guard consumed < target.count, case .index(let wanted) = target[consumed], wanted == index else {
                    return nil
                }
                consumed += 1
            } else {
                guard consumed < target.count, case .key(let wanted) = target[consumed], wanted == key else {
                    return nil
                }
                consumed += 1
                // A repeated key (XML siblings) is an array whose elements
                // are its occurrences.
                if collects, consumed < target.count, case .index(let wanted) = target[consumed] {
                    guard wanted == occurrence else { return nil }
                    consumed += 1
                } else if occurrence > 0 && policy != .lastWins {
                    // The tree keeps the first occurrence (firstWins, and a
                    // collected key's path without an index).
                    return nil
                }
            }
            return consumed
        }

        /// A single value read as a one-element array: `[0]` still finds it.
        func skippingSingleIndex(_ consumed: Int, beginsArray: Bool) -> Int {
            var consumed = consumed
            while !beginsArray, consumed < target.count, case .index(let i) = target[consumed],
                IngredientPath.findsLoneValue(i)
            {
                consumed += 1
            }
            return consumed
        }

        var pendingMatch: Int? = rootMatched
        while let event = try source.next() {
            switch event {
            case .key(let key):
                let occurrence = stack[stack.count - 1].occurrences.record(key)
                pendingMatch = matchedSteps(for: stack[stack.count - 1], key: key, index: 0, occurrence: occurrence)
                // A later occurrence on the path replaces the one a match
                // was found in.
                if occurrence > 0, pendingMatch != nil { lastMatch = nil }
                continue
            case .endArray, .endDictionary:
                stack.removeLast()
                if stack.isEmpty { return lastMatch }
                continue
            case .beginArray, .beginDictionary, .scalar:
                break
            }
            // A value begins: find how much of the target it matches.
            var matched = pendingMatch
            if let top = stack.last, top.isArray {
                matched = matchedSteps(for: top, key: nil, index: top.nextIndex, occurrence: 0)
                stack[stack.count - 1].nextIndex += 1
            }
            if let consumed = matched {
                let resolved = skippingSingleIndex(consumed, beginsArray: event == .beginArray)
                if resolved == target.count {
                    guard policy == .lastWins else { return source.location }
                    lastMatch = source.location
                }
                matched = resolved
            }
            switch event {
            case .beginArray: stack.append(Frame(isArray: true, matched: matched))
            case .beginDictionary: stack.append(Frame(isArray: false, matched: matched))
            default: if stack.isEmpty { return lastMatch }
            }
            pendingMatch = nil
            rootMatched = nil
        }
        return lastMatch
    }
}
