import Foundation

/// Writes records in one format, one record at a time, into a byte buffer.
///
/// The writers are hand-rolled rather than built on EasyBake's writers so
/// that the files do not depend on the library under test.
protocol PayloadWriter {
    func header(into out: inout [UInt8])
    func record(_ user: User, first: Bool, into out: inout [UInt8])
    func footer(into out: inout [UInt8])
}

extension Array where Element == UInt8 {
    @inline(__always) mutating func put(_ text: String) { append(contentsOf: text.utf8) }
    @inline(__always) mutating func put(_ int: Int) { append(contentsOf: String(int).utf8) }
    @inline(__always) mutating func put(_ double: Double) { append(contentsOf: double.description.utf8) }
    @inline(__always) mutating func put(_ flag: Bool) { append(contentsOf: (flag ? "true" : "false").utf8) }
}

/// `2024-03-01T12:30:05Z`, computed without a formatter (the generator
/// writes hundreds of megabytes).
func iso8601(_ date: Date) -> String {
    let t = civilTime(Int(date.timeIntervalSince1970))
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(t.year)-\(two(t.month))-\(two(t.day))T\(two(t.hour)):\(two(t.minute)):\(two(t.second))Z"
}

/// The UTC calendar fields of a Unix time (Howard Hinnant's civil_from_days),
/// and the weekday (0 = Sunday).
func civilTime(_ seconds: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, weekday: Int) {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    // 1970-01-01 was a Thursday.
    let weekday = ((days % 7) + 11) % 7
    return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60, weekday)
}

/// `{"users":[` one compact record per line `]}`.
struct JSONPayloadWriter: PayloadWriter {
    func header(into out: inout [UInt8]) { out.put("{\"users\":[\n") }
    func footer(into out: inout [UInt8]) { out.put("\n]}\n") }

    func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.put("\\\"")
            case UInt8(ascii: "\\"): out.put("\\\\")
            case 0x0a: out.put("\\n")
            case 0..<0x20: out.put("\\u00\(byte < 16 ? "0" : "")\(String(byte, radix: 16))")
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    func record(_ u: User, first: Bool, into out: inout [UInt8]) {
        if !first { out.put(",\n") }
        var comma = false
        func key(_ name: String) {
            if comma { out.append(UInt8(ascii: ",")) }
            comma = true
            out.put("\""); out.put(name); out.put("\":")
        }
        func str(_ name: String, _ value: String?) {
            key(name); if let value { string(value, into: &out) } else { out.put("null") }
        }
        func int(_ name: String, _ value: Int?) { key(name); if let value { out.put(value) } else { out.put("null") } }
        func dbl(_ name: String, _ value: Double?) {
            key(name); if let value { out.put(value) } else { out.put("null") }
        }
        func flag(_ name: String, _ value: Bool) { key(name); out.put(value) }
        out.put("{")
        int("id", u.id); flag("active", u.active); str("username", u.username); str("firstName", u.firstName)
        str("lastName", u.lastName); str("email", u.email); str("phone", u.phone); int("age", u.age)
        dbl("score", u.score); dbl("balance", u.balance); dbl("rating", u.rating); flag("verified", u.verified)
        flag("admin", u.admin); str("createdAt", iso8601(u.createdAt)); str("updatedAt", iso8601(u.updatedAt))
        str("lastLogin", u.lastLogin.map(iso8601)); str("homepage", u.homepage.absoluteString)
        str("avatar", u.avatar.absoluteString); str("bio", u.bio); str("company", u.company)
        str("jobTitle", u.jobTitle); int("loginCount", u.loginCount); int("friendsCount", u.friendsCount)
        str("locale", u.locale); str("timezone", u.timezone); int("referrerId", u.referrerId)
        key("address")
        comma = false
        out.put("{")
        str("street", u.address.street); str("city", u.address.city); str("state", u.address.state)
        str("zip", u.address.zip); str("country", u.address.country); dbl("latitude", u.address.latitude)
        dbl("longitude", u.address.longitude)
        out.put("}")
        key("tags")
        out.put("[")
        for (i, tag) in u.tags.enumerated() {
            if i > 0 { out.put(",") }
            string(tag, into: &out)
        }
        out.put("]")
        key("orders")
        out.put("[")
        for (i, o) in u.orders.enumerated() {
            if i > 0 { out.put(",") }
            comma = false
            out.put("{")
            int("id", o.id); str("sku", o.sku); int("quantity", o.quantity); dbl("price", o.price)
            str("placedAt", iso8601(o.placedAt)); flag("shipped", o.shipped)
            out.put("}")
        }
        out.put("]}")
    }
}

/// EasyBake's XML conventions: `<users>` holding repeated `<user>` siblings;
/// `id` and `active` as attributes; repeated `<tags>` and `<orders>`
/// siblings for arrays.
///
/// XML has no null. A null field is left out, the common practice, which
/// every contender reads as `nil`; an empty element (`<phone/>`), which
/// EasyBake reads as null, XMLCoder reads as an empty string (and fails to
/// decode as a `Date?`), so the two would not agree.
struct XMLPayloadWriter: PayloadWriter {
    func header(into out: inout [UInt8]) { out.put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<users>\n") }
    func footer(into out: inout [UInt8]) { out.put("</users>\n") }

    func escaped(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): out.put("&amp;")
            case UInt8(ascii: "<"): out.put("&lt;")
            case UInt8(ascii: ">"): out.put("&gt;")
            case UInt8(ascii: "\""): out.put("&quot;")
            default: out.append(byte)
            }
        }
    }

    func record(_ u: User, first: Bool, into out: inout [UInt8]) {
        func element(_ name: String, _ text: String?) {
            guard let text else { return }
            out.put("<\(name)>"); escaped(text, into: &out); out.put("</\(name)>")
        }
        out.put("<user id=\"\(u.id)\" active=\"\(u.active)\">")
        element("username", u.username); element("firstName", u.firstName); element("lastName", u.lastName)
        element("email", u.email); element("phone", u.phone); element("age", String(u.age))
        element("score", u.score.description); element("balance", u.balance.description)
        element("rating", u.rating?.description); element("verified", String(u.verified))
        element("admin", String(u.admin)); element("createdAt", iso8601(u.createdAt))
        element("updatedAt", iso8601(u.updatedAt)); element("lastLogin", u.lastLogin.map(iso8601))
        element("homepage", u.homepage.absoluteString); element("avatar", u.avatar.absoluteString)
        element("bio", u.bio); element("company", u.company); element("jobTitle", u.jobTitle)
        element("loginCount", String(u.loginCount)); element("friendsCount", String(u.friendsCount))
        element("locale", u.locale); element("timezone", u.timezone);
        element("referrerId", u.referrerId.map(String.init))
        out.put("<address>")
        element("street", u.address.street); element("city", u.address.city); element("state", u.address.state)
        element("zip", u.address.zip); element("country", u.address.country)
        element("latitude", u.address.latitude.description); element("longitude", u.address.longitude.description)
        out.put("</address>")
        for tag in u.tags { element("tags", tag) }
        for o in u.orders {
            out.put("<orders>")
            element("id", String(o.id)); element("sku", o.sku); element("quantity", String(o.quantity))
            element("price", o.price.description); element("placedAt", iso8601(o.placedAt))
            element("shipped", String(o.shipped))
            out.put("</orders>")
        }
        out.put("</user>\n")
    }
}

/// `users:` as a block sequence of block mappings; every string
/// double-quoted (so that dates, zip codes and `yes` stay strings), numbers,
/// booleans and `null` plain.
struct YAMLPayloadWriter: PayloadWriter {
    func header(into out: inout [UInt8]) { out.put("users:\n") }
    func footer(into out: inout [UInt8]) {}

    func string(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.put("\\\"")
            case UInt8(ascii: "\\"): out.put("\\\\")
            case 0x0a: out.put("\\n")
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    func record(_ u: User, first: Bool, into out: inout [UInt8]) {
        var indent = "  "
        var lead: String? = "- "
        func key(_ name: String) {
            out.put(lead ?? indent)
            lead = nil
            out.put(name); out.put(": ")
        }
        func str(_ name: String, _ value: String?) {
            key(name)
            if let value { string(value, into: &out) } else { out.put("null") }
            out.put("\n")
        }
        func int(_ name: String, _ value: Int?) {
            key(name); if let value { out.put(value) } else { out.put("null") }; out.put("\n")
        }
        func dbl(_ name: String, _ value: Double?) {
            key(name); if let value { out.put(value) } else { out.put("null") }; out.put("\n")
        }
        func flag(_ name: String, _ value: Bool) { key(name); out.put(value); out.put("\n") }
        int("id", u.id); flag("active", u.active); str("username", u.username); str("firstName", u.firstName)
        str("lastName", u.lastName); str("email", u.email); str("phone", u.phone); int("age", u.age)
        dbl("score", u.score); dbl("balance", u.balance); dbl("rating", u.rating); flag("verified", u.verified)
        flag("admin", u.admin); str("createdAt", iso8601(u.createdAt)); str("updatedAt", iso8601(u.updatedAt))
        str("lastLogin", u.lastLogin.map(iso8601)); str("homepage", u.homepage.absoluteString)
        str("avatar", u.avatar.absoluteString); str("bio", u.bio); str("company", u.company)
        str("jobTitle", u.jobTitle); int("loginCount", u.loginCount); int("friendsCount", u.friendsCount)
        str("locale", u.locale); str("timezone", u.timezone); int("referrerId", u.referrerId)
        out.put("  address:\n")
        indent = "    "
        str("street", u.address.street); str("city", u.address.city); str("state", u.address.state)
        str("zip", u.address.zip); str("country", u.address.country); dbl("latitude", u.address.latitude)
        dbl("longitude", u.address.longitude)
        out.put("  tags:\n")
        for tag in u.tags {
            out.put("  - "); string(tag, into: &out); out.put("\n")
        }
        out.put("  orders:\n")
        for o in u.orders {
            lead = "  - "
            indent = "    "
            int("id", o.id); str("sku", o.sku); int("quantity", o.quantity); dbl("price", o.price)
            str("placedAt", iso8601(o.placedAt)); flag("shipped", o.shipped)
        }
    }
}
