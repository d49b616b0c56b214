/// Whitespace and line-break handling for entered text, with byte-level fast paths for the common case.
/// Each function gives exactly what its `Character`-based definition gives (that is the fallback, used
/// whenever the fast path's reasoning does not cover the text); the fast paths only exist because the
/// `Character` versions run grapheme breaking and a Unicode property lookup per character on every request.
///
/// Why the ASCII shortcuts are exact: the ASCII characters `Character.isWhitespace` accepts are U+0009–U+000D
/// and U+0020, and `isNewline` accepts U+000A–U+000D, U+0085, U+2028 and U+2029. Every ASCII character is a
/// grapheme cluster of its own except CR LF (whitespace and a line break, as are its parts), and a printable
/// ASCII character never joins a cluster that starts with whitespace.
enum PlainText {
    /// `text` without leading and trailing whitespace characters (`Character.isWhitespace`); the string
    /// itself, not a copy, when there is nothing to trim.
    static func trimmed(_ text: String) -> String {
        var text = text
        guard let trimmed = text.withUTF8({ trimmedRange($0) }) else { return characterTrimmed(text[...]) }
        if trimmed.count == text.utf8.count { return text }
        return text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[trimmed]), as: UTF8.self) }
    }

    /// UTF-8 text trimmed as `trimmed(_:)` trims, made into a `String` only once trimmed.
    static func trimmed(utf8: UnsafeBufferPointer<UInt8>) -> String {
        guard let range = trimmedRange(utf8) else {
            return characterTrimmed(String(decoding: utf8, as: UTF8.self)[...])
        }
        return String(decoding: UnsafeBufferPointer(rebasing: utf8[range]), as: UTF8.self)
    }

    /// The range of UTF-8 text that trimming leaves when the bytes decide it: ASCII whitespace taken off both
    /// ends, or nothing taken when a non-ASCII end is clean (`hasCleanEnds`); nil when the `Character` definition
    /// must decide (a non-ASCII byte is reached first at an end that is not clean).
    @inline(__always)
    static func trimmedRange(_ utf8: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var start = 0
        var end = utf8.count
        while start < end {
            let byte = utf8[start]
            guard byte < 0x80 else { return hasCleanEnds(utf8) ? 0..<utf8.count : nil }
            guard isASCIIWhitespace(byte) else { break }
            start += 1
        }
        if start == end { return start..<start }
        // utf8[start] is an ASCII byte other than whitespace, so this loop stops at the latest just after it.
        while true {
            let byte = utf8[end - 1]
            guard byte < 0x80 else { return start == 0 && hasCleanEnd(utf8) ? 0..<utf8.count : nil }
            guard isASCIIWhitespace(byte) else { break }
            end -= 1
        }
        return start..<end
    }

    /// Whether trimming leaves UTF-8 text as it is, decided from its first and last scalar: the first is no
    /// whitespace (`Character.isWhitespace` reads a character's first scalar), and the last starts a grapheme
    /// cluster of its own and is no whitespace (`startsOwnCluster`). False for empty text, and whenever in doubt.
    ///
    /// Why the end is exact: a cluster that starts with whitespace is that whitespace and the Extend, ZWJ or
    /// SpacingMark scalars after it (CR LF aside, no rule joins anything else to whitespace), so text whose last
    /// scalar is none of these and no whitespace ends in a cluster that does not start with whitespace.
    static func hasCleanEnds(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        hasCleanStart(utf8) && hasCleanEnd(utf8)
    }

    /// Whether the first scalar of UTF-8 text is no whitespace; false for empty text.
    static func hasCleanStart(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let byte = utf8.first else { return false }
        if byte < 0x80 { return !isASCIIWhitespace(byte) }
        guard let scalar = scalar(utf8, at: 0) else { return false }
        return !isWhitespace(scalar)
    }

    /// The scalar whose UTF-8 starts at `start`, as `UTF8`'s decoder reads it, decoded over the bytes; nil where
    /// the decoder finds no well-formed sequence there.
    @inline(__always)
    static func scalar(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        let lead = utf8[start]
        let remaining = utf8.count &- start
        func continuation(_ offset: Int) -> UInt32? {
            let byte = utf8[start &+ offset]
            return byte & 0xC0 == 0x80 ? UInt32(byte & 0x3F) : nil
        }
        switch lead {
        case 0x00...0x7F:
            return UInt32(lead)
        case 0xC2...0xDF:
            guard remaining >= 2, let second = continuation(1) else { return nil }
            return UInt32(lead & 0x1F) << 6 | second
        case 0xE0...0xEF:
            guard remaining >= 3, let second = continuation(1), let third = continuation(2) else { return nil }
            // Overlong forms (E0 80–9F) and surrogates (ED A0–BF) are ill-formed.
            guard lead != 0xE0 || second >= 0x20, lead != 0xED || second < 0x20 else { return nil }
            return UInt32(lead & 0x0F) << 12 | second << 6 | third
        case 0xF0...0xF4:
            guard remaining >= 4, let second = continuation(1), let third = continuation(2),
                let fourth = continuation(3)
            else { return nil }
            // Overlong forms (F0 80–8F) and scalars past U+10FFFF (F4 90–BF) are ill-formed.
            guard lead != 0xF0 || second >= 0x10, lead != 0xF4 || second < 0x10 else { return nil }
            return UInt32(lead & 0x07) << 18 | second << 12 | third << 6 | fourth
        default:
            return nil
        }
    }

    /// `Unicode.Scalar.Properties.isWhitespace` (White_Space), without the property lookup: the property's 25
    /// scalars, unchanged since Unicode 6.3 (a test holds it to the standard library over every scalar).
    static func isWhitespace(_ value: UInt32) -> Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// Whether the last grapheme cluster of UTF-8 text starts with no whitespace, decided from its last scalars:
    /// printable ASCII other than the space, or a scalar `startsOwnCluster` accepts after Thai vowel and tone marks
    /// (`isThaiMark`, which grapheme breaking joins to the scalar before them); false for empty text.
    static func hasCleanEnd(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var end = utf8.indices.last else { return false }
        if utf8[end] < 0x80 { return (0x21...0x7E).contains(utf8[end]) }
        while true {
            while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
            guard let scalar = scalar(utf8, at: end) else { return false }
            guard isThaiMark(scalar) else { return startsOwnCluster(scalar) }
            guard end > 0, utf8[end - 1] >= 0x80 else { return false }
            end -= 1
        }
    }

    /// Thai's vowel and tone marks, which grapheme breaking joins to the scalar before them (Grapheme_Cluster_Break
    /// Extend, U+0E33 SpacingMark): U+0E31, U+0E33–U+0E3A and U+0E47–U+0E4E.
    static func isThaiMark(_ value: UInt32) -> Bool {
        value == 0xE31 || (0xE33...0xE3A).contains(value) || (0xE47...0xE4E).contains(value)
    }

    /// Letters whose Grapheme_Cluster_Break is Other (or LV/LVT: Hangul syllables) and that are no whitespace: the
    /// letters of Latin-1 and Latin Extended-A and B, Greek, Cyrillic, Armenian, Hebrew, Arabic and Thai (its
    /// consonants and vowels that are no marks), kana, CJK ideographs, Hangul syllables and fullwidth ASCII. Nothing
    /// joins them to a cluster before them but a Prepend or Hangul scalar, neither of which is whitespace. Anything
    /// else (marks, Indic vowels, emoji) is left to the `Character` definition.
    static func startsOwnCluster(_ value: UInt32) -> Bool {
        switch value {
        case 0xC0...0x24F, 0x386...0x3FF, 0x400...0x482, 0x48A...0x52F, 0x531...0x556, 0x561...0x587,
            0x5D0...0x5EA, 0x620...0x64A, 0x660...0x669, 0x671...0x6D3, 0xE01...0xE30, 0xE32, 0xE40...0xE46,
            0x3041...0x3096, 0x30A1...0x30FA,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF5E:
            return true
        default:
            return false
        }
    }

    /// `text` without leading and trailing whitespace characters (`Character.isWhitespace`).
    static func trimmed(_ text: Substring) -> String {
        guard let range = asciiTrimmedRange(text) else { return characterTrimmed(text) }
        return String(text[range])
    }

    /// The trimmed range when both ends of `text` are ASCII, or nil when the definition must decide.
    private static func asciiTrimmedRange(_ text: Substring) -> Range<String.Index>? {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end {
            let byte = utf8[start]
            guard byte < 0x80 else { return nil }
            guard isASCIIWhitespace(byte) else { break }
            start = utf8.index(after: start)
        }
        if start == end { return start..<start }
        // utf8[start] is an ASCII byte other than whitespace, so this loop stops at the latest just after it.
        while true {
            let last = utf8.index(before: end)
            let byte = utf8[last]
            guard byte < 0x80 else { return nil }
            guard isASCIIWhitespace(byte) else { break }
            end = last
        }
        return start..<end
    }

    /// Whether `text` holds a line break (`Character.isNewline`): U+000A–U+000D, U+0085, U+2028 or U+2029.
    /// A line-break scalar always starts its own grapheme cluster, so scanning scalars is exact; text of
    /// printable ASCII alone needs no scalar scan.
    static func hasLineBreak<S: StringProtocol>(_ text: S) -> Bool {
        let needsScalars =
            text.utf8.withContiguousStorageIfAvailable { $0.contains(where: { $0 < 0x20 || $0 >= 0x80 }) }
            ?? text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x80 })
        guard needsScalars else { return false }
        return text.unicodeScalars.contains {
            (0x0A...0x0D).contains($0.value) || $0.value == 0x85 || $0.value == 0x2028 || $0.value == 0x2029
        }
    }

    /// `text` with whitespace runs collapsed to one space and no whitespace at either end, as
    /// `split(whereSeparator: \.isWhitespace).joined(separator: " ")`.
    static func collapsedWhitespace(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        if isCollapsed(text.utf8) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for byte in text.utf8 {
            if isASCIIWhitespace(byte) {
                pendingSpace = !bytes.isEmpty
            } else {
                if pendingSpace { bytes.append(0x20) }
                pendingSpace = false
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text.uppercased()`, done on bytes when the text is ASCII.
    static func uppercased(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.uppercased() }
        guard text.utf8.contains(where: { (0x61...0x7A).contains($0) }) else { return text }
        return String(decoding: text.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether ASCII text has its whitespace collapsed already: single spaces between other characters.
    private static func isCollapsed(_ utf8: String.UTF8View) -> Bool {
        var previous: UInt8 = 0x20
        for byte in utf8 {
            if isASCIIWhitespace(byte), byte != 0x20 || previous == 0x20 { return false }
            previous = byte
        }
        return previous != 0x20
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The most scalars an entered value may join in a row (`longestJoinedRun`): far beyond the longest grapheme
    /// cluster of any writing system (an emoji family is about 11, a Devanagari conjunct word about 20), and small
    /// enough that walking one cluster, as trimming does, stays cheap whatever the value.
    static let maximumJoinedRun = 128

    /// An upper bound of the longest grapheme cluster of UTF-8 text, in scalars, in one pass over its bytes: the
    /// longest run of scalars between places where grapheme breaking always breaks. It breaks before ASCII and
    /// before whitespace, letters that start their own cluster (`startsOwnCluster`) and Hangul syllables, unless
    /// the scalar before is a Prepend (which joins whatever follows), a Hangul leading consonant before a syllable,
    /// or a CR before LF. Runs of ZWJ-joined emoji, virama-joined consonants, Prepends or combining marks count in
    /// full (a test holds the bound to `Character` over every scalar pair).
    static func longestJoinedRun(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        var longest = 0
        var run = 0
        var previous: UInt32 = 0x20
        var index = 0
        while index < utf8.count {
            let lead = utf8[index]
            let value: UInt32
            if lead < 0x80 {
                value = UInt32(lead)
                index &+= 1
            } else {
                value = scalar(utf8, at: index) ?? 0xFFFD
                index &+= lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            }
            if breaksBefore(value, after: previous) {
                run = 1
            } else {
                run &+= 1
                if run > longest { longest = run }
            }
            if run > longest { longest = run }
            previous = value
        }
        return longest
    }

    /// Whether grapheme breaking always breaks between `previous` and `value` (conservative: false when in doubt).
    static func breaksBefore(_ value: UInt32, after previous: UInt32) -> Bool {
        if isPrepend(previous) { return false }
        if value < 0x80 { return !(previous == 0x0D && value == 0x0A) }
        if (0xAC00...0xD7A3).contains(value) {
            return !(0x1100...0x115F).contains(previous) && !(0xA960...0xA97C).contains(previous)
        }
        return isWhitespace(value) || startsOwnCluster(value)
    }

    /// Grapheme_Cluster_Break Prepend: joined to whatever follows it but a control.
    static func isPrepend(_ value: UInt32) -> Bool {
        switch value {
        case 0x600...0x605, 0x6DD, 0x70F, 0x890...0x891, 0x8E2, 0xD4E, 0x110BD, 0x110CD, 0x111C2...0x111C3, 0x1193F,
            0x11941, 0x113D1, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02:
            return true
        default:
            return false
        }
    }

    /// The definition: trimming whole characters.
    private static func characterTrimmed(_ text: Substring) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }
}
