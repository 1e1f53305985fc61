/// What a payload holds at each of its paths, gathered from events in one
/// pass: the shape a recipe is written against.
///
/// Array indexes are generalised to `[*]`, so the hundred thousand users of
/// a feed make one set of paths (`users[*].address.city`), each with the kinds
/// of value seen there, how often, and one example:
///
/// ```swift
/// var survey = PathSurvey()
/// var source = try JSONIngredientSource(.file("users.json"))
/// try survey.add(from: &source)
/// for entry in survey.entries {
///     print(entry.path, entry.kinds, entry.count)
/// }
/// ```
///
/// Memory follows the number of distinct paths, never the size of the input:
/// nothing but the statistics is kept, and past ``maximumPaths`` distinct
/// paths new ones are skipped unread and counted in ``unrecordedValues``.
///
/// Under ``DuplicateKeyPolicy/collect`` (XML's repeated elements) a key that
/// repeats within one dictionary is an array of its values, as in the tree:
/// its entry reads `item` (an array) and its values `item[*]`. A key seen only
/// once per parent stays a single value; the path `item[*]` finds it too.
public struct PathSurvey: Sendable {
    /// The kind of a value, with strings told apart by what they look like.
    public enum ValueKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
        /// `null` (an empty XML element, a YAML `~`).
        case null
        /// `true` or `false`, as the format writes booleans.
        case bool
        /// A whole number, as the format writes numbers.
        case integer
        /// A number with a fraction or exponent, as the format writes numbers.
        case float
        /// A string that looks like none of the kinds below.
        case string
        /// A string that reads as an ISO 8601 or RFC 822 date (see ``PathSurvey/DateStyle``).
        case dateString = "date-like string"
        /// A string that reads as an absolute URL (`https://…`).
        case urlString = "URL-like string"
        /// A string of a whole number (`"42"`): what numbers are in XML.
        case integerString = "integer-like string"
        /// A string of a number with a fraction or exponent (`"4.5"`).
        case floatString = "float-like string"
        /// The string `true` or `false`.
        case boolString = "bool-like string"
        /// An array (or, under `collect`, a repeated key).
        case array
        /// A dictionary.
        case dictionary

        /// The kind as `paths` prints it: `date-like string`.
        public var description: String { rawValue }

        /// Whether values of this kind are strings.
        public var isString: Bool {
            switch self {
            case .string, .dateString, .urlString, .integerString, .floatString, .boolString: true
            default: false
            }
        }
    }

    /// How a date-like string is written, which decides the transformer that
    /// reads it.
    public enum DateStyle: String, Sendable, Hashable, Codable {
        /// `2024-03-01`, `2024-03-01T12:30:05Z`: what ``Baker`` coerces by default.
        case iso8601
        /// `Sat, 07 Sep 2002 00:00:01 GMT`: RSS dates, for the `rfc822` transformer.
        case rfc822
    }

    /// What the survey found at one path.
    public struct Entry: Sendable, Hashable {
        /// The path, with every array index generalised to `[*]`.
        public let path: IngredientPath
        /// How many values were seen at the path.
        public let count: Int
        /// How many values of each kind were seen, in ``ValueKind`` order.
        public let kinds: [(kind: ValueKind, count: Int)]
        /// For a dictionary key: how many of the dictionaries at the parent
        /// path had no such key. Always 0 elsewhere.
        public let missing: Int
        /// The first value that was not null nor a container, strings cut to
        /// 60 characters.
        public let example: Ingredients?
        /// How the date-like strings are written, when all the same way.
        public let dateStyle: DateStyle?
        /// The longest array seen at the path (0 when no arrays).
        public let longestArray: Int
        /// Whether every integer seen at the path, as a number or as an
        /// integer-like string, was 0 or 1 (true when none was seen): with
        /// `true`/`false` beside them, such values read as a `Bool`
        /// (`is_admin: 1`, `"true"`, `false`).
        public let integersAreZeroOrOne: Bool
        /// How many of the keys under the dictionaries at the path were
        /// surveyed as a map's, their values at `[*]`: keys that look like
        /// ids, and every key of a dictionary found to be a map (0 when
        /// none; see ``PathSurvey/groupsIDKeys``).
        public let idKeys: Int
        /// The most digits after the decimal point of the fractional numbers
        /// seen at the path, numbers and number-like strings alike, as their
        /// shortest text writes them (0 when none): two for amounts of money.
        public let fractionDigits: Int

        /// Whether the path holds values of `kind` (and how many).
        public func count(of kind: ValueKind) -> Int {
            kinds.first { $0.kind == kind }?.count ?? 0
        }

        /// Whether two entries say the same of the same path, kinds and counts included.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.path == rhs.path && lhs.count == rhs.count && lhs.missing == rhs.missing
                && lhs.example == rhs.example && lhs.dateStyle == rhs.dateStyle
                && lhs.longestArray == rhs.longestArray && lhs.integersAreZeroOrOne == rhs.integersAreZeroOrOne
                && lhs.idKeys == rhs.idKeys && lhs.fractionDigits == rhs.fractionDigits
                && lhs.kinds.map(\.kind) == rhs.kinds.map(\.kind) && lhs.kinds.map(\.count) == rhs.kinds.map(\.count)
        }

        /// Hashes the path and count, which equal entries share.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(path)
            hasher.combine(count)
        }
    }

    /// The most distinct paths recorded, the root's included; values at further new paths are
    /// skipped and counted in ``unrecordedValues``. It bounds the memory of a
    /// survey over payloads whose keys are data (ids used as keys).
    public let maximumPaths: Int

    /// Values that were not recorded because ``maximumPaths`` was reached.
    public private(set) var unrecordedValues = 0

    /// How many top-level values (documents, or records) were surveyed.
    public var documents: Int { nodes[0].count }

    private var nodes: [Node] = [Node(step: nil, parent: -1)]
    /// The node of each key under its parent node. One table rather than one
    /// per node: reading a node's own table copied the whole node.
    private var keyChildren: [ChildKey: Int] = [:]
    private var dictionarySerial = 0

    /// Whether keys that look like ids (see ``isIDKey(_:)``) are surveyed as
    /// the values of a map, at `[*]`, rather than each as a path of its own;
    /// and so are all the keys of a dictionary that reaches 64 distinct keys
    /// whose values share a shape (dictionaries, nine in ten, most with a
    /// key in common: slugs or names used as keys).
    public let groupsIDKeys: Bool

    /// An empty survey.
    ///
    /// - Parameters:
    ///   - maximumPaths: the most distinct paths to record (10,000 by default).
    ///   - groupsIDKeys: survey the values under id-like keys as one map's
    ///     values, at `[*]` (the default): `{"events": {"138586341": {…}, …}}`
    ///     makes the paths `events` and `events[*]`, as a recipe reads it with
    ///     `--each 'events[*]'`, not a path per id.
    public init(maximumPaths: Int = 10_000, groupsIDKeys: Bool = true) {
        self.maximumPaths = max(1, maximumPaths)
        self.groupsIDKeys = groupsIDKeys
    }

    /// Whether a dictionary key looks like an id rather than a name: all
    /// digits (`"138586341"`), a UUID, or a long hexadecimal string with a
    /// digit in it (a hash, a database object id). Such keys are data: a
    /// dictionary of them is a map from ids to records.
    public static func isIDKey(_ key: String) -> Bool {
        let bytes = key.utf8
        guard !bytes.isEmpty, bytes.count <= 64 else { return false }
        if bytes.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) { return true }
        func isHex(_ byte: UInt8) -> Bool {
            byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
        }
        if bytes.count == 36 {
            for (offset, byte) in bytes.enumerated() {
                let isDash = offset == 8 || offset == 13 || offset == 18 || offset == 23
                guard isDash ? byte == UInt8(ascii: "-") : isHex(byte) else { return false }
            }
            return true
        }
        return bytes.count >= 16 && bytes.allSatisfy(isHex) && bytes.contains { $0 &- UInt8(ascii: "0") < 10 }
    }

    /// Surveys every value `source` reads: each top-level value (each YAML
    /// document) counts at the root path.
    ///
    /// - Throws: the source's errors, with their locations. The survey keeps
    ///   what it gathered before the error.
    public mutating func add<Source: IngredientSource>(from source: inout Source) throws(EasyBakeError) {
        while let event = try source.next() {
            try add(startingWith: event, from: &source)
        }
    }

    /// Surveys one value whose first event has just been read from `source`
    /// (a record of a ``RecordReader/nextRecord(reading:)``), reading the
    /// rest of it and no more. Its paths are surveyed relative to the value.
    ///
    /// - Throws: the source's errors, with their locations.
    public mutating func add<Source: IngredientSource>(
        startingWith first: IngredientEvent, from source: inout Source
    ) throws(EasyBakeError) {
        var reading = Reading(collects: source.duplicateKeyPolicy == .collect)
        var event = first
        while true {
            try survey(event, in: &reading, from: &source)
            // The value ends with the container that began it.
            if reading.stack.isEmpty { return }
            guard let following = try source.next() else {
                throw EasyBakeError.syntax("unexpected end of input inside a container", at: source.location)
            }
            event = following
        }
    }

    /// Where a survey stands inside one value.
    private struct Reading {
        let collects: Bool
        var stack: [Frame] = []
        /// The node of the key just read, for the value that follows it.
        var keyNode = -1
    }

    private mutating func survey<Source: IngredientSource>(
        _ event: IngredientEvent, in reading: inout Reading, from source: inout Source
    ) throws(EasyBakeError) {
        let node: Int
        switch event {
        case .key(let key):
            guard let frame = reading.stack.last, frame.isDictionary else {
                throw EasyBakeError.syntax("a key outside a dictionary", at: source.location)
            }
            if groupsIDKeys, nodes[frame.node].isMap || Self.isIDKey(key) {
                // Every id-keyed value is one more value of the map, at `[*]`.
                guard let values = elementChild(of: frame.node) else {
                    unrecordedValues += 1
                    try source.skipValue()
                    return
                }
                nodes[frame.node].idKeys += 1
                reading.keyNode = values
                return
            }
            guard let child = child(of: frame.node, key: key) else {
                unrecordedValues += 1
                try source.skipValue()
                return
            }
            if nodes[child].lastDictionary == frame.serial {
                // A repeated key is an element under `collect`; under the
                // other policies only one of its values stays in the tree.
                guard reading.collects else {
                    try source.skipValue()
                    return
                }
                nodes[child].repeats = true
            } else {
                nodes[child].lastDictionary = frame.serial
                nodes[child].present += 1
            }
            reading.keyNode = child
            return
        case .endDictionary, .endArray:
            guard let frame = reading.stack.popLast() else {
                throw EasyBakeError.syntax("an unmatched end of a container", at: source.location)
            }
            if !frame.isDictionary {
                nodes[frame.node].longestArray = max(nodes[frame.node].longestArray, frame.elements)
            }
            return
        case .beginDictionary, .beginArray, .scalar:
            if let frame = reading.stack.last {
                if frame.isDictionary {
                    node = reading.keyNode
                } else {
                    reading.stack[reading.stack.count - 1].elements += 1
                    guard let element = elementChild(of: frame.node) else {
                        unrecordedValues += 1
                        if case .scalar = event {} else { try source.skipRestOfContainer() }
                        return
                    }
                    node = element
                }
            } else {
                node = 0
            }
        }
        switch event {
        case .beginDictionary:
            nodes[node].note(.dictionary)
            dictionarySerial += 1
            reading.stack.append(Frame(node: node, isDictionary: true, serial: dictionarySerial))
        case .beginArray:
            nodes[node].note(.array)
            reading.stack.append(Frame(node: node, isDictionary: false, serial: 0))
        case .scalar(let value):
            nodes[node].note(value)
        case .key, .endDictionary, .endArray:
            break
        }
    }

    /// Surveys one value, such as a record a ``RecordReader`` read: its paths
    /// are surveyed relative to the value.
    public mutating func add(_ value: Ingredients) {
        var source = IngredientTreeSource(value)
        // A tree is well formed, so reading it cannot fail.
        try? add(from: &source)
    }

    /// The paths in the order they were first seen, parents before children.
    ///
    /// Under ``DuplicateKeyPolicy/collect`` a key that repeated within a
    /// dictionary reads as an array at its path and its values at `[*]`.
    public var entries: [Entry] {
        var result: [Entry] = []
        // Depth-first, in first-seen order, without recursion: deep payloads
        // are bounded by the source's depth limit, not by the stack.
        var work: [(node: Int, path: IngredientPath)] = [(0, .root)]
        while let (index, path) = work.popLast() {
            let node = nodes[index]
            var valuePath = path
            if index != 0, node.repeats {
                let parentDictionaries = nodes[node.parent].kindCounts[ValueKind.dictionary.order]
                result.append(
                    Entry(
                        path: path, count: node.present,
                        kinds: [(.array, node.present)], missing: max(0, parentDictionaries - node.present),
                        example: nil, dateStyle: nil, longestArray: 0, integersAreZeroOrOne: true, idKeys: 0,
                        fractionDigits: 0))
                valuePath = path.appending(.everyElement)
            }
            let missing: Int
            if index != 0, case .key = node.step, !node.repeats {
                missing = max(0, nodes[node.parent].kindCounts[ValueKind.dictionary.order] - node.present)
            } else {
                missing = 0
            }
            result.append(
                Entry(
                    path: valuePath, count: node.count,
                    kinds: ValueKind.allCases.compactMap { kind in
                        let count = node.kindCounts[kind.order]
                        return count > 0 ? (kind, count) : nil
                    },
                    missing: missing, example: node.example,
                    dateStyle: node.dateStyles.count == 1 ? node.dateStyles.first : nil,
                    longestArray: node.longestArray, integersAreZeroOrOne: node.otherIntegers == 0, idKeys: node.idKeys,
                    fractionDigits: node.fractionDigits))
            for child in node.children.reversed() {
                let step = nodes[child].step!
                work.append((child, valuePath.appending(step)))
            }
        }
        return result
    }

    // MARK: - Storage

    private struct Frame {
        var node: Int
        var isDictionary: Bool
        var serial: Int
        var elements = 0
    }

    private struct Node: Sendable {
        let step: IngredientPath.Step?
        let parent: Int
        var children: [Int] = []
        var elementChild: Int?
        var count = 0
        var kindCounts = [Int](repeating: 0, count: ValueKind.allCases.count)
        var example: Ingredients?
        var dateStyles: Set<DateStyle> = []
        var longestArray = 0
        /// Integers (numbers or integer-like strings) other than 0 and 1.
        var otherIntegers = 0
        /// The dictionary (by serial number) in which the key was last seen,
        /// to tell a repeat within one dictionary from the next dictionary.
        var lastDictionary = 0
        /// In how many parent dictionaries the key was present.
        var present = 0
        var repeats = false
        /// Id-like keys seen under the dictionaries at this node.
        var idKeys = 0
        /// Distinct keys recorded under the dictionaries at this node.
        var keyChildCount = 0
        /// Whether the dictionaries at this node are maps: every key's
        /// value is surveyed at `[*]`.
        var isMap = false
        var fractionDigits = 0

        init(step: IngredientPath.Step?, parent: Int) {
            self.step = step
            self.parent = parent
        }

        /// Notes the digits after the point of a number's text (none for an exponent form).
        mutating func noteFraction(of text: String) {
            let bytes = text.utf8
            guard let point = bytes.firstIndex(of: UInt8(ascii: ".")) else { return }
            let fraction = bytes[bytes.index(after: point)...]
            guard fraction.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return }
            fractionDigits = max(fractionDigits, fraction.count)
        }

        mutating func note(_ kind: ValueKind) {
            count += 1
            kindCounts[kind.order] += 1
        }

        mutating func note(_ value: Ingredients) {
            let kind: ValueKind
            switch value {
            case .null: kind = .null
            case .bool: kind = .bool
            case .integer(let integer):
                kind = .integer
                if integer != 0 && integer != 1 { otherIntegers += 1 }
            case .float(let number):
                kind = .float
                noteFraction(of: number.description)
            case .exactNumber(let text):
                kind =
                    text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
                    ? .float : .integer
                // An exact number is never 0 or 1: those fit in an integer.
                if kind == .integer { otherIntegers += 1 } else { noteFraction(of: text) }
            case .string(let text):
                let look = StringShape(text)
                kind = look.kind
                if let style = look.dateStyle { dateStyles.insert(style) }
                if kind == .integerString, text != "0", text != "1" { otherIntegers += 1 }
                if kind == .floatString { noteFraction(of: text) }
            case .array: kind = .array
            case .dictionary: kind = .dictionary
            }
            note(kind)
            if example == nil, !value.isNull {
                if case .string(let text) = value, text.count > 60 {
                    example = .string(String(text.prefix(59)) + "…")
                } else {
                    example = value
                }
            }
        }
    }

    private struct ChildKey: Hashable, Sendable {
        let parent: Int
        let key: String
    }

    private mutating func child(of parent: Int, key: String) -> Int? {
        if let existing = keyChildren[ChildKey(parent: parent, key: key)] { return existing }
        guard nodes.count < maximumPaths else { return nil }
        let index = node(of: parent, step: .key(key))
        nodes[parent].keyChildCount += 1
        if groupsIDKeys, nodes[parent].keyChildCount == Self.mapThreshold, valuesShareAShape(under: parent) {
            // Keys are data here too: from now on a map, at `[*]`.
            return foldIntoMap(parent)
        }
        return index
    }

    private mutating func elementChild(of parent: Int) -> Int? {
        if let existing = nodes[parent].elementChild { return existing }
        guard nodes.count < maximumPaths else { return nil }
        return node(of: parent, step: .everyElement)
    }

    /// The node of `step` under `parent`, made when there is none yet,
    /// whatever the path budget (callers check it where it applies).
    private mutating func node(of parent: Int, step: IngredientPath.Step) -> Int {
        if case .key(let key) = step {
            let childKey = ChildKey(parent: parent, key: key)
            if let existing = keyChildren[childKey] { return existing }
            nodes.append(Node(step: step, parent: parent))
            keyChildren[childKey] = nodes.count - 1
        } else {
            if let existing = nodes[parent].elementChild { return existing }
            nodes.append(Node(step: .everyElement, parent: parent))
            nodes[parent].elementChild = nodes.count - 1
        }
        nodes[parent].children.append(nodes.count - 1)
        return nodes.count - 1
    }

    /// How many distinct keys a dictionary may have before the survey asks
    /// whether they are names or data (slugs, usernames: a map's keys).
    static let mapThreshold = 64

    /// Whether the keys under `parent` hold values of one shape, as a map's
    /// do: dictionaries, nine in ten of them, which mostly have the same key
    /// (one key is in half of them or more). Names of a record's fields
    /// hold values of every kind.
    private func valuesShareAShape(under parent: Int) -> Bool {
        let keyed = nodes[parent].children.filter { if case .key = nodes[$0].step { true } else { false } }
        let dictionaries = keyed.filter { nodes[$0].kindCounts[ValueKind.dictionary.order] == nodes[$0].count }
        guard dictionaries.count * 10 >= keyed.count * 9 else { return false }
        var frequency: [String: Int] = [:]
        for child in dictionaries {
            for grandchild in nodes[child].children {
                if case .key(let name) = nodes[grandchild].step { frequency[name, default: 0] += 1 }
            }
        }
        return (frequency.values.max() ?? 0) * 2 >= dictionaries.count
    }

    /// Turns the dictionary node `parent` into a map: the values of its keys
    /// so far become values at `[*]` (their statistics merged), and later
    /// keys go there as they come. Returns the `[*]` node.
    private mutating func foldIntoMap(_ parent: Int) -> Int {
        nodes[parent].isMap = true
        let keyed = nodes[parent].children.filter { if case .key = nodes[$0].step { true } else { false } }
        nodes[parent].children.removeAll { keyed.contains($0) }
        for child in keyed {
            if case .key(let name) = nodes[child].step { keyChildren[ChildKey(parent: parent, key: name)] = nil }
        }
        // The element node is made even past the path budget: the folded
        // nodes' paths are gone from the listing.
        let values = node(of: parent, step: .everyElement)
        for child in keyed { merge(child, into: values) }
        nodes[parent].idKeys += keyed.count
        return values
    }

    /// Adds what node `source` saw, and the nodes below it, to `target`'s.
    private mutating func merge(_ source: Int, into target: Int) {
        var work = [(source, target)]
        while let (from, to) = work.popLast() {
            let seen = nodes[from]
            nodes[to].count += seen.count
            for kind in seen.kindCounts.indices { nodes[to].kindCounts[kind] += seen.kindCounts[kind] }
            if nodes[to].example == nil { nodes[to].example = seen.example }
            nodes[to].dateStyles.formUnion(seen.dateStyles)
            nodes[to].longestArray = max(nodes[to].longestArray, seen.longestArray)
            nodes[to].otherIntegers += seen.otherIntegers
            nodes[to].fractionDigits = max(nodes[to].fractionDigits, seen.fractionDigits)
            nodes[to].idKeys += seen.idKeys
            nodes[to].repeats = nodes[to].repeats || seen.repeats
            if to != target { nodes[to].present += seen.present }
            for child in seen.children {
                let counterpart = node(of: to, step: nodes[child].step!)
                work.append((child, counterpart))
            }
        }
    }
}

extension PathSurvey.ValueKind {
    fileprivate var order: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .integer: 2
        case .float: 3
        case .string: 4
        case .dateString: 5
        case .urlString: 6
        case .integerString: 7
        case .floatString: 8
        case .boolString: 9
        case .array: 10
        case .dictionary: 11
        }
    }
}
