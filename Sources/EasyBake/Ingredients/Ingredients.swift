/// The common tree that every payload format becomes: null, bool, integer,
/// floating point, string, array and ordered dictionary.
///
/// `Ingredients` is a value type. Containers share storage until mutated
/// (copy on write), dictionaries keep the source's key order, and numbers are
/// never silently rounded: a number that neither `Int64` nor `Double` holds
/// exactly stays ``exactNumber(_:)`` with its source text.
///
/// ```swift
/// let user: Ingredients = ["name": "Zach", "unread_messages": 10, "tags": ["a", "b"]]
/// user["name"]        // "Zach"
/// user["tags"]?[1]    // "b"
/// ```
///
/// Trees of any depth are safe to build, compare, write and free: no
/// operation on `Ingredients` recurses on the depth of the tree.
///
/// A tree that a format reads (``IngredientFormat/read(_:)``, ``Document``)
/// is a view of the ``IngredientIndex`` it was read into: each array and
/// dictionary remembers its place there and makes its elements or entries
/// from it when first asked, once, whichever thread asks (a nested
/// container it gives is again a view). Reading a tree so costs about the
/// index alone, and a tree nobody walks holds the index and the input it
/// points into. ``Baker`` bakes a tree, or any of its containers, from that
/// index — as fast as baking from the bytes, making no node, and with a
/// number's literal for a `String` property (`1e2`, YAML's `01234`). This is
/// no part of the value: matching `case .dictionary(let members)`, equality,
/// hashing, paths and descriptions see the same values as in a tree built
/// in code. Changing a container (copy on write) makes its nodes and makes
/// it, and the containers above it, trees built in code, which are indexed
/// once when baked, a number's text then being its value's.
public enum Ingredients: Sendable {
    /// An explicit null (JSON `null`, YAML `~`, an empty XML element).
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer that fits in 64 bits.
    case integer(Int64)
    /// A floating-point number that a `Double` holds without loss of meaning.
    case float(Double)
    /// A number kept as its exact source text because neither `Int64` nor
    /// `Double` holds it: an integer beyond 64 bits, more significant digits
    /// than a `Double` keeps, or a magnitude a `Double` overflows or underflows.
    ///
    /// Decoding it into `Decimal` keeps every digit; decoding it into `Int`
    /// or `Double` fails with ``EasyBakeError/Code/numberOutOfRange`` where the
    /// value does not fit.
    case exactNumber(String)
    /// A string.
    case string(String)
    /// An ordered sequence of values.
    case array(IngredientArray)
    /// String keys, unique and in source order, mapped to values.
    case dictionary(IngredientDictionary)
}

extension Ingredients {
    /// The kind of a value, for messages and for matching without payloads.
    ///
    /// Its raw value is the word error messages use: `found "abc" (string)`.
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``Ingredients/null``.
        case null
        /// ``Ingredients/bool(_:)``.
        case bool
        /// ``Ingredients/integer(_:)``.
        case integer
        /// ``Ingredients/float(_:)``.
        case float
        /// ``Ingredients/exactNumber(_:)``, named `number` in messages.
        case exactNumber = "number"
        /// ``Ingredients/string(_:)``.
        case string
        /// ``Ingredients/array(_:)-enum.case``.
        case array
        /// ``Ingredients/dictionary(_:)-enum.case``.
        case dictionary

        /// The raw value: `null`, `bool`, `integer`, `float`, `number`,
        /// `string`, `array` or `dictionary`.
        public var description: String { rawValue }
    }

    /// The kind of this value.
    @inlinable
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .bool
        case .integer: .integer
        case .float: .float
        case .exactNumber: .exactNumber
        case .string: .string
        case .array: .array
        case .dictionary: .dictionary
        }
    }

    /// Whether this value is ``null``.
    @inlinable
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// Whether this value is an array or a dictionary.
    @inlinable
    public var isContainer: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }

    /// The string payload, if this is a ``string(_:)``.
    @inlinable
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The boolean payload, if this is a ``bool(_:)``.
    @inlinable
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The number as a `Double`, if this is a number that a `Double` holds
    /// without overflowing (an ``exactNumber(_:)`` is rounded to the nearest).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): Double(i)
        case .float(let d): d
        case .exactNumber(let text): Double(text).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// The array payload, if this is an ``array(_:)-enum.case``.
    @inlinable
    public var arrayValue: IngredientArray? { if case .array(let a) = self { a } else { nil } }

    /// The dictionary payload, if this is a ``dictionary(_:)-enum.case``.
    @inlinable
    public var dictionaryValue: IngredientDictionary? { if case .dictionary(let d) = self { d } else { nil } }

    /// The value of a dictionary entry, or `nil` when this is not a
    /// dictionary or has no such key.
    public subscript(key: String) -> Ingredients? {
        get { dictionaryValue?[key] }
    }

    /// The array element at `index`, or `nil` when this is not an array or
    /// the index is out of bounds. Negative indexes count from the end.
    public subscript(index: Int) -> Ingredients? {
        get {
            guard case .array(let array) = self else { return nil }
            let resolved = index < 0 ? array.count + index : index
            return array.indices.contains(resolved) ? array[resolved] : nil
        }
    }
}
