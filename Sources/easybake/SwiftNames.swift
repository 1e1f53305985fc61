/// Swift names for payload keys, in the style of the Swift API Design
/// Guidelines: lower camel case for properties, upper camel case for types,
/// initialisms uniformly cased (`user_id` → `userID`, `image_url` →
/// `imageURL`, `id` → `id`).
///
/// - Separators (`_`, `-`, `.`, spaces) and case changes split words:
///   `unread-messages` and `unreadMessages` → `unreadMessages`.
/// - XML's markers go: `@isPermaLink` → `isPermaLink`, `#text` → `text`;
///   a namespace prefix goes too (`dc:creator` → `creator`) unless another
///   key of the same dictionary would get that name (then `dcCreator`).
/// - A name starting with a digit gets `_` in front (`2fa` → `_2fa`).
/// - Keys that come out the same get `2`, `3`, … in order of appearance.
/// - Keywords are escaped with backticks (`` `default` ``); the few names a
///   struct cannot have (`self`, `init`, `hashValue`…) get `Value` after them.
enum SwiftNames {
    /// Words written all in capitals when not first.
    static let initialisms: Set<String> = [
        "api", "css", "csv", "dns", "gps", "guid", "html", "http", "https", "id", "ip", "json", "pdf",
        "rss", "sku", "sms", "sql", "ssl", "tls", "ui", "uri", "url", "utc", "uuid", "xml",
    ]

    /// Keywords that need backticks to be a property name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "as", "false", "is", "nil", "throws", "true", "try",
        "await", "any", "some", "package",
    ]

    /// Names that are no good as a stored property of a Codable, Hashable struct.
    static let reservedPropertyNames: Set<String> = ["self", "init", "super", "hashValue", "Type", "Protocol"]

    /// Type names a nested struct must not take: the generated code uses
    /// them, or they are standard types whose shadowing would confuse.
    static let reservedTypeNames: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "CodingKey", "CodingKeys", "Data",
        "Date", "Decimal", "Decodable", "Decoder", "Dictionary", "Double", "Encodable", "Encoder",
        "Equatable", "Error", "Float", "Foundation", "Hashable", "Identifiable", "Int", "Never", "Optional",
        "Protocol", "Result", "Self", "Sendable", "Set", "String", "Substring", "Type", "URL", "UUID", "Void",
    ]

    /// Words that name an amount of money in a key (`price`, `total_amount`,
    /// `shippingCost`): a decimal there is money, and money is `Decimal`.
    static let amountWords: Set<String> = [
        "amount", "balance", "charge", "cost", "discount", "fee", "fees", "paid", "payment", "price",
        "refund", "revenue", "salary", "subtotal", "tax", "tip", "total",
    ]

    /// Whether a key names an amount of money (one of its words is in ``amountWords``).
    static func isAmountName(_ key: String) -> Bool {
        words(localName(key)).contains { amountWords.contains($0.lowercased()) }
    }

    /// The key without XML's `@` or `#` and without a namespace prefix.
    static func localName(_ key: String) -> String {
        var name = Substring(key)
        if name.first == "@" || name.first == "#" { name = name.dropFirst() }
        if let colon = name.lastIndex(of: ":"), colon != name.startIndex, name.index(after: colon) != name.endIndex {
            name = name[name.index(after: colon)...]
        }
        return String(name)
    }

    /// The key without XML's `@` or `#`, its prefix kept as a word.
    static func prefixedName(_ key: String) -> String {
        var name = Substring(key)
        if name.first == "@" || name.first == "#" { name = name.dropFirst() }
        return String(name)
    }

    /// The words of a key: split at anything but letters and digits, and
    /// where the case changes (`URLString` → `URL`, `String`).
    static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(key)
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = []
        }
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isASCII && character.isNumber else {
                flush()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if character.isUppercase && (previous.isLowercase || previous.isNumber) {
                    flush()
                } else if character.isUppercase, previous.isUppercase, let next, next.isLowercase {
                    flush()
                }
            }
            current.append(character)
        }
        flush()
        return words
    }

    /// One word in camel case: initialisms in capitals (plural ones too:
    /// `urls` → `URLs`), others capitalised.
    private static func capitalized(_ word: String) -> String {
        let lower = word.lowercased()
        if initialisms.contains(lower) { return lower.uppercased() }
        if lower.hasSuffix("s"), initialisms.contains(String(lower.dropLast())) {
            return String(lower.dropLast()).uppercased() + "s"
        }
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    /// `unread-messages` → `unreadMessages`, `user_id` → `userID`.
    static func propertyName(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "value" }
        // A word is lower case, capitalised or all capitals: first, it is lower case.
        var name = first.lowercased() + parts.dropFirst().map(capitalized).joined()
        if name.first?.isNumber == true { name = "_" + name }
        if reservedPropertyNames.contains(name) { name += "Value" }
        return name
    }

    /// `devices` → `Devices`, or `Device` with `singular`.
    static func typeName(_ key: String, singular: Bool = false) -> String {
        var parts = words(key)
        if parts.isEmpty { return "Value" }
        if singular { parts[parts.count - 1] = self.singular(parts[parts.count - 1]) }
        var name = parts.map(capitalized).joined()
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// English singular of a plural word, for the elements of an array:
    /// `categories` → `category`, `addresses` → `address`, `devices` → `device`.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        let irregular = [
            "people": "person", "children": "child", "men": "man", "women": "woman", "data": "datum", "feet": "foot",
            "mice": "mouse",
            "news": "news", "series": "series", "species": "species",
        ]
        if let singular = irregular[lower] { return matchingCase(singular, of: word) }
        if lower.count > 4, lower.hasSuffix("ies") { return String(word.dropLast(3)) + matchingCase("y", of: word) }
        for ending in ["sses", "shes", "ches", "xes", "zzes"]
        where lower.hasSuffix(ending) && lower.count > ending.count {
            return String(word.dropLast(2))
        }
        if lower.count > 3, lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is")
        {
            return String(word.dropLast())
        }
        return word
    }

    private static func matchingCase(_ replacement: String, of word: String) -> String {
        word.allSatisfy { !$0.isLetter || $0.isUppercase } ? replacement.uppercased() : replacement
    }

    /// Property names for the keys of one dictionary, in order, all
    /// different: prefixes dropped unless that makes two keys clash, then
    /// numbers for what still clashes.
    static func propertyNames(for keys: [String]) -> [String] {
        let local = keys.map { propertyName(localName($0)) }
        var localCounts: [String: Int] = [:]
        for name in local { localCounts[name, default: 0] += 1 }
        var names = keys.indices.map { index in
            let key = keys[index]
            let hasPrefix = localName(key) != prefixedName(key)
            return hasPrefix && localCounts[local[index], default: 0] > 1
                ? propertyName(prefixedName(key)) : local[index]
        }
        var used: Set<String> = []
        for index in names.indices {
            var candidate = names[index]
            var number = 2
            while used.contains(candidate) {
                candidate = names[index] + String(number)
                number += 1
            }
            used.insert(candidate)
            names[index] = candidate
        }
        return names
    }

    /// The name as it must be written in Swift: keywords in backticks.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Whether `name` can name the generated struct: an identifier, not a
    /// keyword, not a type the generated code uses.
    static func isValidTypeName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isASCII && $0.isNumber || $0 == "_" }
            && !keywords.contains(name) && !reservedTypeNames.contains(name)
    }
}
