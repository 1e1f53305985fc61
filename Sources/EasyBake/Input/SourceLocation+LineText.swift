extension SourceLocation {
    /// This location with its line's text read from `input`, for the caret
    /// of an error whose source counted lines, not bytes (XML's index);
    /// unchanged when the input cannot be read or has no such line.
    func withLineText(from input: IngredientInput) -> SourceLocation {
        guard lineText == nil, line >= 1, let bytes = try? input.loadBytes() else { return self }
        let buffer = bytes.buffer
        var start = 0
        var current = 1
        while current < line {
            guard let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else { return self }
            start = newline + 1
            current += 1
        }
        var end = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? buffer.count
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var located = self
        located.lineText = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self)
        return located
    }
}
