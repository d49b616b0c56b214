/// Character classes used when reading a phone number out of free text.
enum TextRules {
    /// Calls `body` with the text's scalars in a buffer on the stack of `factor` times their count (the rest left
    /// for the caller to write), or returns nil without calling it when the text has more than `limit` scalars.
    /// An ASCII text (nearly every number) is widened byte by byte; others are decoded from their UTF-8.
    static func withScalars<Result>(
        of text: String, limit: Int, factor: Int,
        _ body: (UnsafeMutableBufferPointer<Unicode.Scalar>, Int) -> Result
    ) -> Result? {
        var text = text
        return text.withUTF8 { withScalars(utf8: $0, limit: limit, factor: factor, body) }
    }

    /// `withScalars(of:limit:factor:_:)` over well-formed UTF-8 (a `String`'s bytes, or a request's string read where
    /// it lies in the line, which the request's reading checked).
    static func withScalars<Result>(
        utf8: UnsafeBufferPointer<UInt8>, limit: Int, factor: Int,
        _ body: (UnsafeMutableBufferPointer<Unicode.Scalar>, Int) -> Result
    ) -> Result? {
        let count = utf8.count
        var high: UInt8 = 0
        var scalarCount = 0
        for byte in utf8 {
            high |= byte
            if byte & 0xC0 != 0x80 { scalarCount += 1 }
        }
        guard scalarCount <= limit else { return nil }
        return withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: max(1, scalarCount * factor)) {
            buffer in
            let out = buffer.baseAddress!
            if high < 0x80 {
                for index in 0..<count { (out + index).initialize(to: Unicode.Scalar(utf8[index])) }
            } else {
                decode(utf8, into: out)
            }
            return body(buffer, scalarCount)
        }
    }

    /// Decodes well-formed UTF-8 (a `String`'s own bytes) into scalars.
    private static func decode(_ utf8: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<Unicode.Scalar>) {
        var index = 0
        var written = 0
        let count = utf8.count
        while index < count {
            let lead = UInt32(utf8[index])
            var value: UInt32
            var length: Int
            switch lead {
            case 0..<0x80: (value, length) = (lead, 1)
            case 0xC0..<0xE0: (value, length) = (lead & 0x1F, 2)
            case 0xE0..<0xF0: (value, length) = (lead & 0x0F, 3)
            default: (value, length) = (lead & 0x07, 4)
            }
            for offset in 1..<max(length, 1) where index + offset < count {
                value = value << 6 | UInt32(utf8[index + offset] & 0x3F)
            }
            (out + written).initialize(to: Unicode.Scalar(value) ?? "\u{FFFD}")
            written += 1
            index += length
        }
    }

    @inline(__always)
    static func isPlus(_ scalar: Unicode.Scalar) -> Bool { scalar == "+" || scalar == "\u{FF0B}" }

    /// Punctuation allowed inside a number (upstream's set, including `x` as in `800-FLOWERS x`).
    @inline(__always)
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x80: isASCIIPunctuation(UInt8(truncatingIfNeeded: scalar.value))
        case 0xA0, 0xAD, 0x2010...0x2015, 0x200B, 0x2060, 0x2212, 0x2053, 0x223C, 0x3000, 0x30FC: true
        case 0xFF0D...0xFF0F, 0xFF08, 0xFF09, 0xFF3B, 0xFF3D, 0xFF5E: true
        default: false
        }
    }

    /// `isPunctuation` of an ASCII byte (` ()-./[]x~`), by bit masks of the low and high halves.
    @inline(__always)
    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        let low: UInt64 = 1 << 0x20 | 1 << 0x28 | 1 << 0x29 | 1 << 0x2D | 1 << 0x2E | 1 << 0x2F
        let high: UInt64 = 1 << (0x5B - 64) | 1 << (0x5D - 64) | 1 << (0x78 - 64) | 1 << (0x7E - 64)
        return (byte < 64 ? low : high) >> UInt64(byte & 63) & 1 != 0 && byte < 0x80
    }

    /// Decimal digits in any script (a regex `\d` in Unicode mode).
    @inline(__always)
    static func isDecimalDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 48 && scalar.value <= 57 }
        return isNonASCIIDecimalDigit(scalar)
    }

    /// Kept out of line: the property lookup needs runtime type metadata, which callers would otherwise set up on
    /// every call, ASCII or not.
    @inline(never)
    private static func isNonASCIIDecimalDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.numericType == .decimal
    }

    /// The digit value used for normalisation: decimal digits and other digit characters.
    @inline(__always)
    static func digitValue(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.isASCII {
            return scalar.value >= 48 && scalar.value <= 57 ? UInt8(scalar.value) : nil
        }
        return nonASCIIDigitValue(scalar)
    }

    @inline(never)
    private static func nonASCIIDigitValue(_ scalar: Unicode.Scalar) -> UInt8? {
        let properties = scalar.properties
        guard properties.numericType == .decimal || properties.numericType == .digit,
            let value = properties.numericValue, value >= 0, value <= 9, value == value.rounded()
        else { return nil }
        return UInt8(48 + Int(value))
    }

    /// A letter of any script, a number of any kind, or `_` (a regex word character in Unicode mode).
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (value >= 48 && value <= 57) || (value >= 65 && value <= 90) || (value >= 97 && value <= 122)
                || value == 95
        }
        return isNonASCIIWordCharacter(scalar)
    }

    @inline(never)
    private static func isNonASCIIWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return properties.numericType != nil
        }
    }

    @inline(__always)
    static func isLatinLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 65 && scalar.value <= 90) || (scalar.value >= 97 && scalar.value <= 122)
    }

    /// Keypad digit for a letter, as ASCII. Upstream looks letters up by their upper case, so the dotless `ı`
    /// counts as `I` and the long `ſ` as `S`.
    static func keypadDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        let upper: UInt32
        switch scalar.value {
        case 65...90, 97...122: upper = scalar.value & ~0x20
        case 0x131: upper = 73
        case 0x17F: upper = 83
        default: return nil
        }
        return keypad[Int(upper - 65)]
    }

    private static let keypad: [UInt8] = Array("22233344455566677778889999".utf8)
}
