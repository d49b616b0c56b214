extension UnsafeMutablePointer<UInt8> {
    /// Copies `count` bytes from `source` (a member name, a short value) with a few unaligned loads and stores,
    /// where `memmove` costs a call and its own dispatch on the size; more than 64 bytes go to `memmove`. Reads and
    /// writes only the `count` bytes.
    @inlinable @inline(__always)
    public func copyShort(from source: UnsafePointer<UInt8>, count: Int) {
        guard count <= 64 else {
            update(from: source, count: count)
            return
        }
        var nothing = WordsUnread()
        copyWords(from: source, count: count, showing: &nothing)
    }

    /// As `copyShort(from:count:)`, from a buffer (which may be empty and have no address).
    @inlinable @inline(__always)
    public func copyShort(from source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        copyShort(from: base, count: source.count)
    }

    /// The one word-at-a-time copy: `count` bytes as 8-byte words (the last overlapping the one before it rather
    /// than leaving a tail byte by byte), two 4-byte words, or three single bytes; the bytes are shown to `reader` as it is
    /// copied. Every byte is shown at least once; some twice. Reads and writes only the `count` bytes.
    @inlinable @inline(__always)
    func copyWords<Reader: CopiedWordReader>(
        from source: UnsafePointer<UInt8>, count: Int, showing reader: inout Reader
    ) {
        let target = self
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            var offset = 0
            while offset < count &- 8 {
                let word = from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                reader.read(UInt64(littleEndian: word))
                to.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                offset &+= 8
            }
            let last = count &- 8
            let word = from.loadUnaligned(fromByteOffset: last, as: UInt64.self)
            reader.read(UInt64(littleEndian: word))
            to.storeBytes(of: word, toByteOffset: last, as: UInt64.self)
        } else if count >= 4 {
            let last = count &- 4
            let low = from.loadUnaligned(as: UInt32.self)
            let high = from.loadUnaligned(fromByteOffset: last, as: UInt32.self)
            reader.read(UInt64(UInt32(littleEndian: low)) | UInt64(UInt32(littleEndian: high)) &<< 32)
            to.storeBytes(of: low, as: UInt32.self)
            to.storeBytes(of: high, toByteOffset: last, as: UInt32.self)
        } else if count > 0 {
            // Bytes 0, count / 2 and count - 1 are every byte of a text of one to three; each is stored as soon
            // as it is loaded, and they are shown as one word, the rest of it spaces (which no reader flags).
            let first = source[0]
            target[0] = first
            let middle = source[count &>> 1]
            target[count &>> 1] = middle
            let final = source[count &- 1]
            target[count &- 1] = final
            reader.read(UInt64(first) | UInt64(middle) &<< 8 | UInt64(final) &<< 16 | 0x2020_2020_2000_0000)
        }
    }
}

/// What `copyWords` shows the bytes it copies to: nothing (`copyShort`), or a check of them (whether they need a
/// JSON escape, `EscapesSeen`), so the copy and the check are one loop, written once.
@usableFromInline
protocol CopiedWordReader {
    /// Eight copied bytes, the first in the low byte (of a text shorter than four bytes, its bytes and spaces).
    mutating func read(_ word: UInt64)
}

/// Reads nothing: the copy alone.
@usableFromInline
struct WordsUnread: CopiedWordReader {
    @inlinable init() {}
    @inlinable @inline(__always) mutating func read(_ word: UInt64) {}
}

/// Whether any copied byte needs a JSON escape, as `ByteScan.escapeFlags(_:)` finds.
@usableFromInline
struct EscapesSeen: CopiedWordReader {
    @usableFromInline var flags: UInt64 = 0

    @inlinable init() {}

    @inlinable @inline(__always)
    mutating func read(_ word: UInt64) {
        flags |= ByteScan.escapeFlags(word)
    }

    @inlinable
    var any: Bool { flags != 0 }
}
