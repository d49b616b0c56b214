/// The word-at-a-time tests of UTF-8 that the request path runs: eight bytes in one little-endian `UInt64`, and the
/// high bit set of every byte that matches (and maybe of bytes after the first match, never before it: the lowest
/// bit set marks the first). One family, with one walk over a buffer, held together to byte-by-byte readings by
/// `ByteScanTests`.
///
/// The tests are the usual "has a byte less than / equal to" bit tricks: `(x - 0x01…01) & ~x & 0x80…80` is nonzero
/// exactly when `x` has a zero byte, with no borrow reaching a byte below the first zero one.
public enum ByteScan {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let high: UInt64 = 0x8080_8080_8080_8080

    /// Bytes a JSON string must escape: below 0x20, `"` and `\`.
    @inlinable @inline(__always)
    public static func escapeFlags(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let found = ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return found & high
    }

    /// Bytes where a string's plain-ASCII run ends: those `escapeFlags` finds and every byte of 0x80 or more (a
    /// byte that is no ASCII sets its own high bit, so the `~x` masks are not needed).
    @inlinable @inline(__always)
    public static func stopFlags(_ word: UInt64) -> UInt64 {
        let found =
            ((word ^ (ones &* 0x22)) &- ones) | ((word ^ (ones &* 0x5C)) &- ones) | (word &- ones &* 0x20) | word
        return found & high
    }

    /// Bytes that are not printable ASCII other than `"` and `\` (0x20–0x7E): those `escapeFlags` finds and every
    /// byte of 0x7F or more (in `word | (word + 0x01…01)` a carry out of a byte comes only from one of 0x80 or
    /// more, whose own high bit is set).
    @inlinable @inline(__always)
    public static func notPrintableFlags(_ word: UInt64) -> UInt64 {
        escapeFlags(word) | ((word | (word &+ ones)) & high)
    }

    /// Bytes equal to `byte`.
    @inlinable @inline(__always)
    public static func equalFlags(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & high
    }

    /// The flags `test` gives the first word of `bytes` it finds anything in, or 0: words of eight bytes (the last
    /// one overlapping the one before it rather than leaving a tail byte by byte), two overlapping halves of text of
    /// four to seven bytes, and the first, middle and last byte of shorter text with the rest `A` (a byte no test
    /// of the family matches). The flags say whether, not where: they are of a word that may overlap another.
    @inlinable @inline(__always)
    public static func firstFlags(_ bytes: UnsafeBufferPointer<UInt8>, _ test: (UInt64) -> UInt64) -> UInt64 {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        guard count >= 8 else {
            let word: UInt64
            if count >= 4 {
                word =
                    UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
                    | UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
                    &<< 32
            } else {
                word =
                    UInt64(base[0]) | UInt64(base[count &>> 1]) &<< 8 | UInt64(base[count &- 1]) &<< 16
                    | 0x4141_4141_4100_0000
            }
            return test(word)
        }
        var offset = 0
        while true {
            let flags = test(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            if flags != 0 || offset == count &- 8 { return flags }
            offset = Swift.min(offset &+ 8, count &- 8)
        }
    }

    /// Nonzero exactly when some byte of `bytes` needs escaping in a JSON string, so that several texts (the members
    /// of one answer) are checked with one branch: `escapeFlags(of: a) | escapeFlags(of: b) == 0`.
    @inlinable @inline(__always)
    public static func escapeFlags(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        firstFlags(bytes, escapeFlags)
    }

    /// Whether UTF-8 text goes into a JSON string as it is: no control character, quote or backslash.
    @inlinable @inline(__always)
    public static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstFlags(bytes, escapeFlags) == 0
    }

    /// Whether every byte is printable ASCII other than `"` and `\` (0x20–0x7E).
    @inlinable @inline(__always)
    public static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        firstFlags(bytes, notPrintableFlags) == 0
    }
}
