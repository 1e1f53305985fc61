import CEasyBakeScanning
import EasyBake

extension JSONScanner {
    /// Moves past the array or object whose first event was just read,
    /// finding its closing bracket without reading what lies between, and
    /// returns a scanner that reads it from its opening bracket; `nil`, with
    /// nothing moved, when the bracket is not found (the input ends first,
    /// so it is malformed: reading it in place says how).
    ///
    /// What the returned scanner reads is what this one would have read in
    /// its place, errors included, since it is this scanner as it stood.
    /// Where the brackets were counted wrong, the input is malformed in the
    /// value, and reading the value throws.
    mutating func deferContainer() -> JSONScanner? {
        let start = eventStart
        let end = easybake_json_container_end(base, start, count, scanning == .vector ? 1 : 0)
        guard end > 0 else { return nil }
        assert(end > start && end <= count, "a container's end found outside the input")
        containers.removeLast()
        var value = self
        value.position = start
        value.expect = .value
        position = end
        expect = .afterValue
        return value
    }
}

/// A scanner as it stood to read a value left unread: never changed, and
/// each read works on its own copy.
final class JSONScannerSnapshot: @unchecked Sendable {
    // @unchecked: the scanner reads immutable bytes that it keeps alive
    // (`JSONScanner.storage`, itself Sendable).
    let scanner: JSONScanner

    init(scanner: JSONScanner) { self.scanner = scanner }
}

/// A JSON array or object left unread, read later from its opening bracket
/// at `start` as `reader` would have read it in place: a record deferred for
/// the job that bakes it (``JSONIngredientSource/deferValue(startingWith:keeping:)``),
/// or an array's element skipped for later
/// (``JSONIngredientSource/skipValueForLater(startingWith:)``), where the
/// elements of one array share one reader. Two words, so that keeping one
/// costs no allocation of its own.
struct DeferredJSONValue: DeferredIngredientValue {
    let reader: JSONScannerSnapshot
    let start: Int

    func read(into index: inout IngredientIndex, keeping matcher: PathMatcher?) throws(EasyBakeError) -> Bool {
        var scanner = reader.scanner
        scanner.position = start
        scanner.eventStart = start
        scanner.expect = .value
        if let matcher, let picking = matcher.picking(for: []), let root = picking.root {
            try scanner.indexValue(into: &index, keeping: picking, state: root)
        } else {
            // A matcher that keeps nothing declines to defer.
            assert(matcher == nil, "a value deferred for a matcher that keeps nothing")
            try scanner.indexValue(into: &index)
        }
        return true
    }
}
