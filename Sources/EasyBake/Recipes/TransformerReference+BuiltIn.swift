/// The built-in transformers by name, for a recipe written in Swift or an
/// attribute: `transformer: .iso8601` is `transformer: "iso8601"`, checked
/// by the compiler. Each is a spec, resolved by the recipe's
/// ``TransformerRegistry`` as its string would be.
extension TransformerReference {
    /// An ISO 8601 date or date and time (`"iso8601"`).
    public static var iso8601: TransformerReference { "iso8601" }
    /// An RFC 822 date, as RSS writes them (`"rfc822"`).
    public static var rfc822: TransformerReference { "rfc822" }
    /// Seconds since 1970 (`"unixSeconds"`).
    public static var unixSeconds: TransformerReference { "unixSeconds" }
    /// Milliseconds since 1970 (`"unixMilliseconds"`).
    public static var unixMilliseconds: TransformerReference { "unixMilliseconds" }
    /// A URL, trimmed and checked (`"url"`).
    public static var url: TransformerReference { "url" }
    /// A UUID (`"uuid"`).
    public static var uuid: TransformerReference { "uuid" }
    /// A date in the given format (`["date": format]`), as
    /// `DateFormatter` reads it in the POSIX locale.
    public static func date(_ format: String) -> TransformerReference { .spec(["date": .string(format)]) }
    /// A string split at commas into an array of trimmed, non-empty parts (`"split"`).
    public static var split: TransformerReference { "split" }
    /// A string split at `separator` into an array of trimmed, non-empty
    /// parts (`["split": separator]`).
    public static func split(_ separator: String) -> TransformerReference { .spec(["split": .string(separator)]) }
    /// A list of `key: value` pairs separated by commas, as a dictionary
    /// (`"pairs"`; see ``KeyValuePairsTransformer``).
    public static var pairs: TransformerReference { "pairs" }
    /// A list of pairs with the given separator, key/value delimiter and
    /// value for a bare key (`["pairs": [...]]`).
    public static func pairs(separator: String = ",", delimiter: String = ":", default value: Ingredients? = nil)
        -> TransformerReference
    {
        var options: IngredientDictionary = ["separator": .string(separator), "delimiter": .string(delimiter)]
        if let value { options = IngredientDictionary(Array(options) + [("default", value)]) }
        return .spec(["pairs": .dictionary(options)])
    }
    /// A duration as seconds: `HH:MM:SS`, `MM:SS`, seconds or ISO 8601
    /// (`"duration"`; see ``DurationTransformer``).
    public static var duration: TransformerReference { "duration" }
    /// A GeoRSS point, `"latitude longitude"`, as a dictionary of the two
    /// (`"geoPoint"`; see ``GeoPointTransformer``).
    public static var geoPoint: TransformerReference { "geoPoint" }
}
