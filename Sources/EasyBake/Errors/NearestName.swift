import EasyBakePathGrammar

/// The name a user most likely meant, for the "did you mean …?" of an
/// error: a recipe key that is no property, a record path whose key is not
/// in the payload.
enum NearestName {
    /// The name a mistyped one most likely meant: one that differs only
    /// in case and punctuation, or by one edit (two for keys of five or more
    /// characters), a swap of neighbours counting as one.
    package static func nearest(to key: String, among names: [String]) -> String? {
        let normalized = ImplicitKeyMatching.normalize(key)
        if let same = names.first(where: { ImplicitKeyMatching.normalize($0) == normalized }) { return same }
        return NameDistance.nearest(to: key, among: names)
    }
}
