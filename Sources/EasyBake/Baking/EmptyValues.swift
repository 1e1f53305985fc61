import Foundation

/// The empty value of a type, for ``Baker/MissingValueStrategy/emptyValue``:
/// `false`, `0`, `""`, `[]`, `[:]`; `nil` for a type that has none.
enum EmptyValues {
    static func of<T>(_ type: T.Type) -> T? {
        let empty: Any? =
            switch type {
            case is Bool.Type: false
            case is String.Type: ""
            case is Int.Type: 0
            case is Int64.Type: Int64(0)
            case is Int32.Type: Int32(0)
            case is UInt.Type: UInt(0)
            case is Double.Type: 0.0
            case is Float.Type: Float(0)
            case is Decimal.Type: Decimal(0)
            default: (T.self as? any EmptyInitializable.Type)?.emptyValue
            }
        return empty as? T
    }
}

/// Collections with an empty value.
protocol EmptyInitializable { static var emptyValue: Any { get } }
extension Array: EmptyInitializable { static var emptyValue: Any { [Element]() } }
extension Dictionary: EmptyInitializable { static var emptyValue: Any { [Key: Value]() } }
extension Set: EmptyInitializable { static var emptyValue: Any { Set<Element>() } }
