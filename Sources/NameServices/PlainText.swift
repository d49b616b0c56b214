/// Byte helpers for writing names straight into a response.
enum PlainText {
    /// Whether UTF-8 text goes into a JSON string as it is: no control character, quote or backslash (what
    /// `JSONWriter.appendString(utf8:to:)` would escape). A word at a time: most names are a few bytes long.
    @inline(__always)
    static func needsNoEscape(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let count = text.count
        if count >= 8 {
            var offset = 0
            while true {
                if escapeFlags(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) != 0 { return false }
                if offset == count &- 8 { return true }
                // The last word overlaps the one before it rather than leaving a tail byte by byte.
                offset = Swift.min(offset &+ 8, count &- 8)
            }
        }
        if count >= 4 {
            // Two overlapping halves cover 4 to 7 bytes.
            let low = UInt64(raw.loadUnaligned(as: UInt32.self))
            let high = UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))
            return escapeFlags(low | high << 32) == 0
        }
        for byte in text where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            return false
        }
        return true
    }

    /// The high bit of each byte of `word` that is below 0x20, `"` or `\` (and maybe of bytes after the first such
    /// one): nonzero exactly when some byte is one of them.
    @inline(__always)
    static func escapeFlags(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let found = ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        return found & (ones &* 0x80)
    }

    /// Writes `value` in decimal at `out`, returning how many digits it wrote (at most 10).
    @inline(__always)
    static func writeDecimal(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits &+= 1
        }
        rest = value
        var index = digits
        repeat {
            index &-= 1
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while index > 0
        return digits
    }

    /// Copies `text` to `out` without a call for the usual short name: two overlapping words cover 8 to 16 bytes, two
    /// overlapping halves 4 to 7; longer texts go to `memmove`.
    @inline(__always)
    static func copy(_ text: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        let count = text.count
        let source = UnsafeRawPointer(base)
        let target = UnsafeMutableRawPointer(out)
        switch count {
        case 8...16:
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        case 0..<4:
            for index in 0..<count { out[index] = base[index] }
        default:
            out.update(from: base, count: count)
        }
    }
}
