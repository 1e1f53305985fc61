// Appends of values whose text in the input has no quote around it (YAML's
// plain scalars, a key=value line, whatever a format writes through
// `Writer.string(bytesAt:count:)` or `UncheckedWriter.string(bytesAt:count:)`),
// and of numbers a format resolved itself. No opening quote for an entry's
// offset to point at: such entries carry `unquotedFlag` and point at their
// first byte, which keeps an error's column on the value itself. They were
// YAML's appends; the public writers made them every format's.

extension IngredientIndex.Storage {
    /// Appends a string whose bytes are the `length` bytes of the input that
    /// begin at `offset` (no quote before them).
    @inlinable
    func appendUnquotedString(at offset: Int, length: Int) throws(EasyBakeError) {
        guard length <= UInt32.max else { throw IngredientIndex.tooLarge("string", at: offset) }
        assert(
            offset >= 0 && length >= 0 && (inputBase == nil || offset + length <= inputCount),
            "a string past the end of the input")
        let kind = IngredientIndex.Kind.string.rawValue | IngredientIndex.unquotedFlag
        append(scalarEntry(kind, at: offset, length: length))
    }
}

extension IngredientIndex.Storage {
    /// Appends a number a builder has resolved already (a YAML literal that
    /// is no JSON literal, `0x1F` or `.inf`; a tree's), as `IngredientIndex.appendNumber(_:at:)`
    /// does: through the storage, so that a builder holding it appends
    /// without a copy.
    package func appendNumber(_ value: Ingredients, at offset: Int) throws(EasyBakeError) {
        try appendNumber(value, at: offset, textInInput: false)
    }

    /// ``appendNumber(_:at:)`` for a number resolved from a plain scalar
    /// whose text begins at `offset` in the input (`01234`, `0x1F`): marked
    /// `unquotedFlag`, so that a `String` asked of it gets that text
    /// (`IngredientIndex.Reader.numberText(at:)`), not the value's.
    func appendNumber(_ value: Ingredients, at offset: Int, textInInput: Bool) throws(EasyBakeError) {
        let textFlag = textInInput ? IngredientIndex.unquotedFlag : 0
        let kind: IngredientIndex.Kind
        let bits: UInt64
        switch value {
        case .integer(let integer): (kind, bits) = (.integer, UInt64(bitPattern: integer))
        case .float(let float): (kind, bits) = (.float, float.bitPattern)
        case .exactNumber(let text):
            // Exact text is a number literal; kept as text, it reads back
            // exactly as it was classified.
            var text = text
            let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
            let kind = (isInteger ? IngredientIndex.Kind.integer : IngredientIndex.Kind.float).rawValue | textFlag
            let entry: Result<IngredientIndex.Entry, EasyBakeError> = text.withUTF8 { utf8 in
                do throws(EasyBakeError) {
                    return .success(try arenaEntry(kind, UnsafeRawBufferPointer(utf8), at: offset))
                } catch {
                    return .failure(error)
                }
            }
            append(try entry.get())
            return
        default:
            preconditionFailure("appendNumber takes a number")
        }
        let extra = appendExtra(
            IngredientIndex.Extra(
                sourceOffset: UInt64(truncatingIfNeeded: offset), low: UInt32(truncatingIfNeeded: bits),
                high: UInt32(truncatingIfNeeded: bits >> 32)))
        // Wide as well: its payload is its extra's position, whatever its size.
        append(
            IngredientIndex.Entry(
                kind.rawValue | IngredientIndex.inlineFlag | IngredientIndex.wideFlag | textFlag, payload: UInt64(extra)
            ))
    }
}
