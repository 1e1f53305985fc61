/// The names of the built-in transformers and factories, in the module the
/// library and the macros share: `TransformerRegistry.builtIn` registers
/// these names (a test pins that it registers exactly these), and
/// `@Ingredient(…, transformer: "iso8061")` warns at compile time of a name
/// that is not one of them, with the nearest as a fix-it.
package enum BuiltInTransformerNames {
    /// The named transformers, sorted.
    package static let transformers: [String] = [
        "base64", "bool", "duration", "geoPoint", "iso8601", "lowercase", "number", "pairs", "rfc1123", "rfc2822",
        "rfc822", "split", "string", "trim", "unixMilliseconds", "unixSeconds", "uppercase", "url", "uuid",
    ]

    /// The factories, which take an argument (`{"date": "yyyy-MM-dd"}`),
    /// sorted; `each` is no factory but is written as one.
    package static let factories: [String] = ["date", "lookup", "pairs", "split", "url"]

    /// The name of the spec that applies a transformer to every element.
    package static let each = "each"
}
