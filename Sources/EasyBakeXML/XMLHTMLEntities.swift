/// HTML's named character references, which a lenient reading
/// (``XMLReadingOptions/lenientReferences``) gives to an entity reference
/// that the document does not declare: feeds carry `&nbsp;`, `&eacute;` or
/// `&mdash;` copied from HTML, which XML does not define.
///
/// The table (``table``) is generated from the WHATWG list by
/// `Tools/generate-html-entities.py`; it holds every HTML 5 name, and so
/// every HTML 4 and XHTML 1 one.
enum XMLHTMLEntities {
    /// The table as a dictionary, made the first time it is asked for (a
    /// strict reading never asks).
    private static let characters: [String: String] = {
        var result: [String: String] = [:]
        result.reserveCapacity(2200)
        for entry in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            var text = ""
            for hex in entry[entry.index(after: equals)...].split(separator: "+") {
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    text.unicodeScalars.append(scalar)
                }
            }
            result[String(entry[..<equals])] = text
        }
        return result
    }()

    /// The characters HTML gives the reference `&name;`, or `nil` when HTML
    /// has no such name.
    static func characters(named name: String) -> String? {
        characters[name]
    }
}
