extension PlainText {
    /// Calls `body` with each part of UTF-8 text as `trimmed(_:)` leaves it, empty ones left out: the parts between
    /// line breaks when `splitting`, as `split(whereSeparator: \.isNewline)` makes them, else the whole text. The
    /// bytes decide the split exactly: a line-break scalar is a grapheme cluster of its own but CR LF, and the empty
    /// part between its CR and LF is left out as `split` leaves out empty parts. A part is trimmed over its bytes
    /// (`trimmedRange`), or as a `String` when the bytes cannot decide.
    static func forEachTrimmedPart(
        _ text: UnsafeBufferPointer<UInt8>, splitting: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        func trimmedPart(_ part: UnsafeBufferPointer<UInt8>) {
            guard !part.isEmpty else { return }
            if let range = trimmedRange(part) {
                if !range.isEmpty { body(UnsafeBufferPointer(rebasing: part[range])) }
            } else {
                var shown = trimmed(utf8: part)
                if !shown.isEmpty { shown.withUTF8(body) }
            }
        }
        guard splitting else {
            trimmedPart(text)
            return
        }
        var partStart = 0
        var index = 0
        while index < text.count {
            let length = lineBreakLength(text, at: index)
            guard length > 0 else {
                index += 1
                continue
            }
            trimmedPart(UnsafeBufferPointer(rebasing: text[partStart..<index]))
            index += length
            partStart = index
        }
        trimmedPart(UnsafeBufferPointer(rebasing: text[partStart...]))
    }

    /// The length in bytes of the line-break scalar (`Character.isNewline`: U+000A–U+000D, U+0085, U+2028, U+2029)
    /// at `index` of UTF-8 text, or 0 when none starts there.
    static func lineBreakLength(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = text[index]
        if (0x0A...0x0D).contains(byte) { return 1 }
        if byte == 0xC2, index + 1 < text.count, text[index + 1] == 0x85 { return 2 }
        if byte == 0xE2, index + 2 < text.count, text[index + 1] == 0x80, text[index + 2] & 0xFE == 0xA8 { return 3 }
        return 0
    }
}
