import EasyBake
import EasyBakeXML
import Testing

/// The tree of an XML document given as text.
func xmlTree(_ xml: String, options: XMLReadingOptions = .init()) throws -> Ingredients {
    var source = try XMLIngredientSource(.text(xml, name: "test.xml"), options: options)
    return try Ingredients(reading: &source)
}

/// The tree of an XML document given as bytes.
func xmlTree(bytes: [UInt8], options: XMLReadingOptions = .init()) throws -> Ingredients {
    var source = try XMLIngredientSource(.bytes(bytes, name: "test.xml"), options: options)
    return try Ingredients(reading: &source)
}

/// The error that reading `xml` (to the end) throws, or `nil` when it reads.
func xmlError(_ xml: String, options: XMLReadingOptions = .init()) -> EasyBakeError? {
    xmlError(bytes: Array(xml.utf8), options: options)
}

func xmlError(bytes: [UInt8], options: XMLReadingOptions = .init()) -> EasyBakeError? {
    do {
        var source = try XMLIngredientSource(.bytes(bytes, name: "test.xml"), options: options)
        _ = try Ingredients(reading: &source)
        return nil
    } catch {
        return error
    }
}

extension Ingredients {
    /// A dictionary in the given order (the literal form is ambiguous
    /// between `IngredientDictionary` and `KeyValuePairs` in `.dictionary`).
    static func dict(_ entries: KeyValuePairs<String, Ingredients>) -> Ingredients { .dictionary(entries) }
}
