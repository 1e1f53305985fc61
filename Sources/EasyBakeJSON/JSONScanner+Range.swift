import EasyBake

/// Reading the elements of a top-level array that begin in a byte range:
/// how one worker of a distributed job takes its share of a large file.
///
/// A raw line break may sit between any two tokens, so no byte offset tells
/// by itself whether it is inside an element: the scanner skips the elements
/// before the range from the array's start (checked, not decoded, at the
/// skipping speed), and stops at the first element that begins at or after
/// the range's end. Each element therefore belongs to exactly one range of a
/// partition of the file, whatever the layout.
extension JSONScanner {
    /// Where reading resumes inside the top-level array, and where its
    /// elements stop counting.
    struct ElementRange {
        /// The position and state just after the array's `[`, or at the
        /// comma before the first element in the range.
        var resumePosition: Int
        var resumeExpect: Expect
        /// An element that begins at or after this offset ends the array.
        var end: Int
    }

    /// Finds where the elements that begin in `range` are, and arranges for
    /// reading to give the top-level array with those elements only.
    ///
    /// - Throws: ``EasyBakeError/Code/syntax`` when the value is not an array,
    ///   or an element before the range is malformed.
    mutating func enterElementRange(_ range: Range<Int>) throws(EasyBakeError) {
        let documentStart = position
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: "[") else {
            throw syntax(
                "expected '[': a byte range reads the elements of a top-level array, found \(found(at: position))",
                at: position)
        }
        position += 1
        containers.append(false)
        expect = .firstValueOrEnd
        var resume = (position: position, expect: expect)
        while true {
            skipWhitespace()
            resume = (position, expect)
            var start = position
            if expect == .afterValue {
                // An element follows a comma; anything else (the array's
                // end, an error) is for the reading pass to meet.
                guard position < count, base[position] == UInt8(ascii: ",") else { break }
                position += 1
                skipWhitespace()
                start = position
            }
            if start >= range.lowerBound || start >= count || base[start] == UInt8(ascii: "]") { break }
            expect = .value
            if try !skipQuickly(insideContainer: false) { try skipValueByEvents() }
        }
        elementRange = ElementRange(resumePosition: resume.position, resumeExpect: resume.expect, end: range.upperBound)
        position = documentStart
        expect = .value
        containers.removeAll(keepingCapacity: true)
    }

    /// Just after the top-level array's `[`: jumps to the range's first element.
    @inline(__always)
    mutating func jumpToElementRange() {
        guard let elementRange, containers.count == 1 else { return }
        position = elementRange.resumePosition
        expect = elementRange.resumeExpect
    }

    /// Whether an element of the top-level array that begins at `position`
    /// lies past the range's end.
    @inline(__always)
    func endsElementRange() -> Bool {
        guard let elementRange, containers.count == 1 else { return false }
        return position >= elementRange.end
    }

    /// Whether the value that began with `first` is a byte range's array,
    /// which only the events read (its bounds are theirs).
    func readsRangeArray(startingWith first: IngredientEvent) -> Bool {
        guard elementRange != nil, case .beginArray = first else { return false }
        return containers.count == 1
    }

    /// Ends the top-level array before an element past the range, leaving
    /// the rest of the input unread.
    mutating func closeElementRange() -> IngredientEvent {
        containers.removeLast()
        expect = .afterValue
        assert(position <= count, "an element range closed past the scanner's end")
        count = position
        return .endArray
    }
}
