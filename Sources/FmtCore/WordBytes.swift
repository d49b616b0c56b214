import Glibc

/// Short byte strings read a word at a time by overlapping loads within them, for names and keys that are compared
/// and hashed per request (`RequestRecord.member(bytes:in:)`, `UTF8Keys`).
@usableFromInline
enum WordBytes {
    /// The first 8 bytes of `bytes` as a little-endian word, zero past its end, and the mask of its bytes.
    @inlinable @inline(__always)
    static func head(_ bytes: UnsafeBufferPointer<UInt8>) -> (head: UInt64, mask: UInt64) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        switch count {
        case 1:
            return (UInt64(base[0]), 0xFF)
        case 2, 3:
            let low = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
            let high = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
            return (low | high &<< UInt64(truncatingIfNeeded: (count &- 2) &<< 3), count == 2 ? 0xFFFF : 0xFF_FFFF)
        case 4...7:
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            let shift = UInt64(truncatingIfNeeded: (count &- 4) &<< 3)
            return (low | high &<< shift, (1 &<< UInt64(truncatingIfNeeded: count &<< 3)) &- 1)
        default:
            return (word(base, at: 0), UInt64.max)
        }
    }

    /// The 8 bytes at `offset` of `bytes`, as a little-endian word.
    @inlinable @inline(__always)
    static func word(_ bytes: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Whether the `count` bytes at `first` and at `second` are the same.
    @inlinable
    static func equal(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count <= 16 else { return memcmp(first, second, count) == 0 }
        guard count > 8 else {
            return head(UnsafeBufferPointer(start: first, count: count)).head
                == head(UnsafeBufferPointer(start: second, count: count)).head
        }
        return word(first, at: 0) == word(second, at: 0) && word(first, at: count &- 8) == word(second, at: count &- 8)
    }
}
