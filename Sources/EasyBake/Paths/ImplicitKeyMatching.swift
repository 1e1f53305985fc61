/// Implicit key matching: a property and a key match when their letters and
/// digits match case-insensitively, so `unread_messages`, `unread-messages`
/// and `UnreadMessages` all fill `unreadMessages`.
package enum ImplicitKeyMatching {
    /// The form two names are compared in: letters lowercased, digits kept,
    /// everything else dropped.
    package static func normalize(_ key: String) -> String {
        var normalized = String.UnicodeScalarView()
        for scalar in key.unicodeScalars {
            if scalar.isASCII {
                let v = scalar.value
                if (0x30...0x39).contains(v) || (0x61...0x7A).contains(v) {
                    normalized.append(scalar)
                } else if (0x41...0x5A).contains(v) {
                    normalized.append(Unicode.Scalar(v + 0x20)!)
                }
            } else {
                normalized.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            }
        }
        return String(normalized)
    }
}
