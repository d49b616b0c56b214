/// The characters one instruction of a pattern accepts, as a set over the alphabet its matcher reads: ASCII bytes for
/// postal codes, decimal digits for phone numbers. The parser builds sets through it and the matchers test text bytes
/// against it; the alphabet also says which of the syntax it takes (`.`, `$`, which bytes stand for themselves).
package protocol PatternSet: Sendable, Equatable {
    /// The set of no character.
    static var empty: Self { get }
    /// `\d`.
    static var digits: Self { get }
    /// `.`, or nil where the alphabet leaves it to another engine.
    static var anyCharacter: Self? { get }
    /// Whether `$` is taken (as the end of the text).
    static var takesEndAnchor: Bool { get }
    /// Whether only printable ASCII stands for itself, as ICU reads it unambiguously (so not `]`, `}` or `#`, nor `&`
    /// or `--` in a class); otherwise any character is a literal and those outside the alphabet match nothing.
    static var takesPrintableLiteralsOnly: Bool { get }
    /// The characters from `lower` through `upper` (ASCII) that are in the alphabet.
    static func range(_ lower: UInt8, _ upper: UInt8) -> Self
    func union(_ other: Self) -> Self
    /// The alphabet's characters not in the set.
    var complement: Self { get }
    /// Whether `byte`, of a text the alphabet admits, is in the set.
    func contains(_ byte: UInt8) -> Bool
    /// Whether a matcher over this alphabet can read `text` (`contains` is defined for every byte of it).
    static func admits(_ text: UnsafeBufferPointer<UInt8>) -> Bool
}

/// A set of ASCII bytes as two words of bits: the alphabet of postal codes, where a text with any other byte is
/// left to ICU (`\d` then means every decimal digit).
package struct ASCIISet: PatternSet {
    var low: UInt64
    var high: UInt64

    package init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    package static let empty = ASCIISet(low: 0, high: 0)
    package static let digits = range(UInt8(ascii: "0"), UInt8(ascii: "9"))
    package static let anyCharacter: ASCIISet? = nil
    package static let takesEndAnchor = false
    package static let takesPrintableLiteralsOnly = true

    package static func range(_ lower: UInt8, _ upper: UInt8) -> ASCIISet {
        var set = ASCIISet.empty
        for byte in lower...upper where byte < 128 {
            if byte < 64 { set.low |= 1 << UInt64(byte) } else { set.high |= 1 << UInt64(byte - 64) }
        }
        return set
    }

    package func union(_ other: ASCIISet) -> ASCIISet { ASCIISet(low: low | other.low, high: high | other.high) }

    package var complement: ASCIISet { ASCIISet(low: ~low, high: ~high) }

    /// Without a branch: the byte is ASCII.
    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        (byte < 64 ? low : high) >> UInt64(byte & 63) & 1 != 0
    }

    package static func admits(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        !text.contains { $0 >= 0x80 }
    }
}

/// A set of ASCII digits as bits 0–9 of a mask: the alphabet of phone numbers. Every text is admitted; a byte that
/// is not a digit is in no set.
package struct DigitSet: PatternSet {
    package var mask: UInt16

    package init(mask: UInt16) {
        self.mask = mask
    }

    package static let all: UInt16 = 0x3FF
    package static let empty = DigitSet(mask: 0)
    package static let digits = DigitSet(mask: all)
    package static let anyCharacter: DigitSet? = digits
    package static let takesEndAnchor = true
    package static let takesPrintableLiteralsOnly = false

    package static func range(_ lower: UInt8, _ upper: UInt8) -> DigitSet {
        let first = max(lower, UInt8(ascii: "0"))
        let last = min(upper, UInt8(ascii: "9"))
        guard first <= last else { return .empty }
        return DigitSet(mask: (first...last).reduce(0) { $0 | 1 << UInt16($1 - UInt8(ascii: "0")) })
    }

    package func union(_ other: DigitSet) -> DigitSet { DigitSet(mask: mask | other.mask) }

    package var complement: DigitSet { DigitSet(mask: ~mask & Self.all) }

    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        let value = byte &- 48
        return value < 10 && mask & (1 << UInt16(value)) != 0
    }

    package static func admits(_ text: UnsafeBufferPointer<UInt8>) -> Bool { true }
}
