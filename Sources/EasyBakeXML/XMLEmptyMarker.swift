internal import CLibXML2
import EasyBake

/// How EasyBake's XML keeps the values XML has no form for: an empty array,
/// an empty string, an empty dictionary.
///
/// An empty element reads as `null`, and an array is its repeated elements,
/// so `[]`, `""` and `{}` would vanish on the way through XML. The writer
/// marks an element that holds one of them with an attribute in EasyBake's
/// namespace, declared once on the root element:
///
/// ```xml
/// <root xmlns:easybake="urn:easybake:xml">
///   <tags easybake:empty="array"/>
///   <note easybake:empty="string"/>
///   <extra easybake:empty="dictionary"/>
/// </root>
/// ```
///
/// The reader recognises the marker by its namespace, whatever the prefix,
/// and reads the element as the empty value; neither the marker nor its
/// declaration shows as an attribute. An unmarked empty element stays
/// `null`. A marked element that holds anything, or a marker of another
/// value, is an error.
enum XMLEmptyMarker {
    /// The namespace of EasyBake's own attributes.
    static let namespace = "urn:easybake:xml"
    /// The marker attribute's local name.
    static let attribute = "empty"
    /// The prefix the writer declares for the namespace.
    static let prefix = "easybake"

    enum Kind: String {
        case array, string, dictionary

        init?(bytes: UnsafeRawBufferPointer) {
            self.init(rawValue: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Whether an attribute with this local name and namespace is the marker.
    static func isMarker(local: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let local, isNamespace(uri) else { return false }
        return String(cString: local) == attribute
    }

    /// Whether `uri` is EasyBake's namespace.
    static func isNamespace(_ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let uri else { return false }
        return String(cString: uri) == namespace
    }

    static func unknownValue(
        _ value: UnsafePointer<xmlChar>?, _ end: UnsafePointer<xmlChar>?, at location: SourceLocation
    ) -> EasyBakeError {
        let found =
            if let value, let end {
                String(decoding: UnsafeBufferPointer(start: value, count: end - value), as: UTF8.self).debugDescription
            } else {
                "nothing"
            }
        return EasyBakeError(
            .invalidValue,
            "expected \"array\", \"string\" or \"dictionary\" in the easybake:empty marker, found \(found)",
            location: location)
    }

    static func unknownAttribute(_ local: UnsafePointer<xmlChar>?, at location: SourceLocation) -> EasyBakeError {
        let name = local.map { String(cString: $0) } ?? ""
        return EasyBakeError(
            .invalidValue,
            "expected the attribute empty in EasyBake's namespace \(namespace), found \(name.debugDescription): the namespace defines no other",
            location: location)
    }

    static func hasContent(_ kind: Kind, at location: SourceLocation) -> EasyBakeError {
        EasyBakeError(
            .invalidValue,
            "expected nothing inside an element marked easybake:empty=\"\(kind.rawValue)\", found content or other attributes",
            location: location)
    }
}
