import Foundation

/// Character classes and text patterns used when reading a phone number out of free text.
enum TextRules {
    @inline(__always)
    static func isPlus(_ scalar: Unicode.Scalar) -> Bool { scalar == "+" || scalar == "\u{FF0B}" }

    /// Punctuation allowed inside a number (upstream's set, including `x` as in `800-FLOWERS x`).
    static let punctuationText =
        "-x\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015}\u{2212}\u{30FC}\u{FF0D}\u{FF0E}\u{FF0F} \u{00A0}\u{00AD}"
        + "\u{200B}\u{2060}\u{3000}()\u{FF08}\u{FF09}\u{FF3B}\u{FF3D}.[]/~\u{2053}\u{223C}\u{FF5E}"

    @inline(__always)
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x28, 0x29, 0x2D, 0x2E, 0x2F, 0x5B, 0x5D, 0x78, 0x7E: true
        case 0..<0x80: false
        case 0xA0, 0xAD, 0x2010...0x2015, 0x200B, 0x2060, 0x2212, 0x2053, 0x223C, 0x3000, 0x30FC: true
        case 0xFF0D...0xFF0F, 0xFF08, 0xFF09, 0xFF3B, 0xFF3D, 0xFF5E: true
        default: false
        }
    }

    /// Decimal digits in any script (a regex `\d` in Unicode mode).
    @inline(__always)
    static func isDecimalDigit(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 48 && scalar.value <= 57 }
        return scalar.properties.numericType == .decimal
    }

    /// The digit value used for normalisation: decimal digits and other digit characters.
    @inline(__always)
    static func digitValue(_ scalar: Unicode.Scalar) -> UInt8? {
        if scalar.isASCII {
            return scalar.value >= 48 && scalar.value <= 57 ? UInt8(scalar.value) : nil
        }
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

    /// Keypad digit for a letter, as ASCII.
    static func keypadDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        guard isLatinLetter(scalar) else { return nil }
        let upper = scalar.value & ~0x20
        let keys: [UInt8] = Array("22233344455566677778889999".utf8)
        return keys[Int(upper - 65)]
    }

    // MARK: Extensions

    static func extensionDigits(_ limit: Int) -> String { "(\\d{1,\(limit)})" }

    /// The alternatives upstream accepts for an extension at the end of a number, when parsing.
    static let extensionAlternatives: String = {
        let betweenNumberAndLabel = "[ \u{00A0}\\t,]*"
        let afterLabel = "[:\\.\u{FF0E}]?[ \u{00A0}\\t,\\-]*"
        let suffix = "#?"
        let explicitLabels =
            "(?:e?xt(?:ensi(?:o\u{0301}?|\u{00F3}))?n?|\u{FF45}?\u{FF58}\u{FF54}\u{FF4E}?"
            + "|\u{0434}\u{043E}\u{0431}|anexo)"
        let ambiguousLabels = "(?:[x\u{FF58}#\u{FF03}~\u{FF5E}]|int|\u{FF49}\u{FF4E}\u{FF54})"
        let noComma = "[ \u{00A0}\\t]*"
        return [
            ";ext=" + extensionDigits(20),
            betweenNumberAndLabel + explicitLabels + afterLabel + extensionDigits(20) + suffix,
            betweenNumberAndLabel + ambiguousLabels + afterLabel + extensionDigits(9) + suffix,
            "[\\- ]+" + extensionDigits(6) + "#",
            noComma + "(?:,{2}|;)" + afterLabel + extensionDigits(15) + suffix,
            noComma + "(?:,)+" + afterLabel + extensionDigits(9) + suffix,
        ].joined(separator: "|")
    }()

    /// Characters one of which must be present for an extension to be possible.
    @inline(__always)
    static func isExtensionHint(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3B, 0x2C, 0x23, 0x7E, 0x78, 0x58, 0x61, 0x41, 0x69, 0x49: true
        case 0..<0x80: false
        case 0xFF03, 0xFF5E, 0xFF58, 0xFF38, 0x0434, 0x0414, 0xFF49, 0xFF29: true
        default: false
        }
    }

    static func escapedForClass(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if "-[]\\^&".unicodeScalars.contains(scalar) { result += "\\" }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Upstream's test for a viable phone number, extension included, as a whole-string pattern.
    static let viablePattern: String = {
        let punctuationAndStar = escapedForClass(punctuationText) + "*"
        return "\\A(?:\\d{2}|[+\u{FF0B}]*(?:[\(punctuationAndStar)]*\\d){3,}[\(punctuationAndStar)A-Za-z\\d]*"
            + "(?:\(extensionAlternatives))?)\\z"
    }()
}

/// Compiled text patterns; `NSRegularExpression` is immutable and safe to share.
struct TextPatterns: @unchecked Sendable {
    let extensionAtEnd: NSRegularExpression
    let viable: NSRegularExpression

    init() {
        do {
            extensionAtEnd = try NSRegularExpression(
                pattern: "(?:\(TextRules.extensionAlternatives))$", options: [.caseInsensitive])
            viable = try NSRegularExpression(pattern: TextRules.viablePattern, options: [.caseInsensitive])
        } catch {
            preconditionFailure("built-in phone text pattern does not compile: \(error)")
        }
    }

    /// Whether the text looks like a phone number (upstream's viability test).
    func isViable(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        if text.count < 2 { return false }
        if simpleViable(text) { return true }
        let string = String(String.UnicodeScalarView(text))
        let range = NSRange(string.startIndex..., in: string)
        return viable.firstMatch(in: string, options: [], range: range) != nil
    }

    /// The common case without extension: optional plus signs, then punctuation and digits with at least three
    /// digits before any letter. A `false` answer is not final.
    private func simpleViable(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var index = text.startIndex
        while index < text.endIndex, TextRules.isPlus(text[index]) { index += 1 }
        var digits = 0
        while index < text.endIndex {
            let scalar = text[index]
            if TextRules.isDecimalDigit(scalar) {
                digits += 1
            } else if TextRules.isLatinLetter(scalar) {
                if digits < 3 { return false }
            } else if !(TextRules.isPunctuation(scalar) || scalar == "*") {
                return false
            }
            index += 1
        }
        return digits >= 3
    }

    /// Splits off an extension at the end of the text: `(extension, number before it)`.
    func splitExtension(_ text: ArraySlice<Unicode.Scalar>) -> (String, ArraySlice<Unicode.Scalar>)? {
        guard text.contains(where: TextRules.isExtensionHint) else { return nil }
        let string = String(String.UnicodeScalarView(text))
        let range = NSRange(string.startIndex..., in: string)
        guard let match = extensionAtEnd.firstMatch(in: string, options: [], range: range),
            let start = Range(match.range, in: string)?.lowerBound
        else { return nil }
        let prefixCount = string.unicodeScalars[..<start].count
        let before = text.prefix(prefixCount)
        guard isViable(before) else { return nil }
        for group in 1..<match.numberOfRanges {
            if let groupRange = Range(match.range(at: group), in: string) {
                return (String(string[groupRange]), before)
            }
        }
        return nil
    }
}
