import Glibc

/// A protocol name (an op, a member name) compared and hashed by its UTF-8 bytes. Swift's `String`
/// equality and hashing apply canonical equivalence, which costs time on whatever text a client sends;
/// the protocol's names are ASCII and match only as spelled.
public struct WireName: Hashable, Sendable {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public static func == (lhs: WireName, rhs: WireName) -> Bool {
        lhs.text.hasSameBytes(as: rhs.text)
    }

    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension String {
    /// Byte-wise equality of the UTF-8 spellings, without normalising either side.
    @inlinable
    public func hasSameBytes(as other: String) -> Bool {
        let mine = utf8
        let theirs = other.utf8
        guard mine.count == theirs.count else { return false }
        // Over contiguous storage (every native string, small ones included): the generic `elementsEqual` walks
        // the views index by index and was a tenth of a request's cost.
        let compared = mine.withContiguousStorageIfAvailable { mine in
            theirs.withContiguousStorageIfAvailable { theirs in mine.hasSameBytes(as: theirs) }
        }
        if let compared, let same = compared { return same }
        return mine.elementsEqual(theirs)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Byte-wise equality of two buffers.
    @inlinable
    public func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return memcmp(baseAddress!, other.baseAddress!, count) == 0
    }
}
