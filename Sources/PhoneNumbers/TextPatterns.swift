/// Upstream's viability test and extension patterns, matched by hand in one pass over the text.
///
/// Upstream writes both as regular expressions, run case-insensitively in Unicode mode. A backtracking engine
/// takes time polynomial in the length of text that almost matches (10–25 ms for 250 characters), so they are
/// decomposed here into runs of character classes, which gives the same answers in linear time. The
/// reference semantics are those of the oracle, Python `re` with IGNORECASE | UNICODE: `\d` is any decimal digit,
/// `[A-Za-z]` also takes `İ ı ſ K` (U+0130, U+0131, U+017F, U+212A), `i` also matches `İ ı`, `s` matches `ſ`, and
/// the Cyrillic `д о` match their old forms U+1C81, U+1C82.
/// A run of a text's scalars indexed by offset in the whole text: an array slice, or a slice of the buffer on the
/// stack that a parse decodes the text into.
protocol ScalarText: RandomAccessCollection where Element == Unicode.Scalar, Index == Int, SubSequence == Self {}

extension ArraySlice: ScalarText where Element == Unicode.Scalar {}
extension Slice: ScalarText where Base == UnsafeBufferPointer<Unicode.Scalar> {}

struct TextPatterns: Sendable {
    /// Whether the text looks like a phone number (upstream's viability test).
    ///
    /// The text is viable when it is two digits, or when after any number of plus signs it is `X Y E`: `X` is
    /// punctuation, `*` and digits ending in its third or later digit, `Y` is punctuation, `*`, letters and digits,
    /// and `E` is empty or an extension as `splitExtension` reads it.
    func isViable<Text: ScalarText>(_ text: Text) -> Bool {
        if text.count < 2 { return false }
        if text.count == 2 && text.allSatisfy(TextRules.isDecimalDigit) { return true }
        var index = text.startIndex
        while index < text.endIndex, TextRules.isPlus(text[index]) { index += 1 }
        var digits = 0
        while index < text.endIndex, digits < 3 {
            let scalar = text[index]
            if TextRules.isDecimalDigit(scalar) {
                digits += 1
            } else if !Self.isViablePunctuation(scalar) {
                return false
            }
            index += 1
        }
        if digits < 3 { return false }
        let earliestExtension = index
        while index < text.endIndex, Self.isViableCharacter(text[index]) { index += 1 }
        if index == text.endIndex { return true }
        var starts = ExtensionStarts(within: earliestExtension...index)
        ExtensionGrammar.scan(text, into: &starts)
        return starts.hit
    }

    /// Splits off an extension at the end of a viable text: `(extension digits as written, number before it)`.
    ///
    /// Like upstream, takes the leftmost place where an extension runs to the end of the text, and keeps it only
    /// when the text before it is viable.
    func splitExtension<Text: ScalarText>(_ text: Text) -> (digits: Text, before: Text)? {
        // Every alternative needs a label letter, `#`, `,`, `;` or `~` (or a full-width form): most numbers hold
        // none of them.
        if text.allSatisfy(ExtensionGrammar.isPlainNumberCharacter) { return nil }
        var starts = ExtensionStarts()
        guard let digits = ExtensionGrammar.scan(text, into: &starts), let start = starts.first else { return nil }
        let before = text[..<start]
        guard isViable(before) else { return nil }
        return (text[digits], before)
    }

    /// Upstream's punctuation with `*`, case-insensitively (so `X` too).
    @inline(__always)
    static func isViablePunctuation(_ scalar: Unicode.Scalar) -> Bool {
        TextRules.isPunctuation(scalar) || scalar == "*" || scalar == "X"
    }

    /// Punctuation, `*`, digits, and `[A-Za-z]` case-insensitively.
    @inline(__always)
    static func isViableCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x20, 0x28...0x2A, 0x2D...0x2F, 0x5B, 0x5D, 0x7E: true
        case 0..<0x80: false
        case 0x130, 0x131, 0x17F, 0x212A: true
        default: TextRules.isPunctuation(scalar) || TextRules.isDecimalDigit(scalar)
        }
    }
}

/// The places where an extension can start, added as ranges: keeps the leftmost, and whether any lies in `window`.
struct ExtensionStarts {
    let window: ClosedRange<Int>?
    private(set) var first: Int?
    private(set) var hit = false

    init(within window: ClosedRange<Int>? = nil) {
        self.window = window
    }

    mutating func add(_ lower: Int, _ upper: Int) {
        if lower > upper { return }
        first = min(first ?? lower, lower)
        if let window, lower <= window.upperBound && upper >= window.lowerBound { hit = true }
    }
}

/// Upstream's extension alternatives, anchored at the end of the text. Each is a label, separator runs around
/// it, and the extension digits (`\d{1,n}`) with an optional `#`:
///
/// 1. `;ext=` digits{1,20}
/// 2. `[ NBSP\t,]*` explicit label `[:.．]?[ NBSP\t,-]*` digits{1,20} `#?`; the labels are
///    `e?xt(?:ensi(?:o\u0301?|ó))?n?`, `ｅ?ｘｔｎ?`, `доб` and `anexo`
/// 3. `[ NBSP\t,]*` ambiguous label `[:.．]?[ NBSP\t,-]*` digits{1,9} `#?`; the labels are `[xｘ#＃~～]`, `int`, `ｉｎｔ`
/// 4. `[- ]+` digits{1,6} `#`
/// 5. `[ NBSP\t]*(?:,,|;)[:.．]?[ NBSP\t,-]*` digits{1,15} `#?`
/// 6. `[ NBSP\t]*,+[:.．]?[ NBSP\t,-]*` digits{1,9} `#?`
///
/// No part before the digits holds a digit, so the digits are the whole run of digits at the end (before a final
/// `#`), and the scan works backwards from there.
enum ExtensionGrammar {
    /// Adds every start of an extension running to the end of `text` to `starts`, and returns the range of the
    /// extension digits (`nil` when the text cannot end in an extension).
    @discardableResult
    static func scan<Text: ScalarText>(_ text: Text, into starts: inout ExtensionStarts) -> Range<Int>? {
        guard let last = text.last else { return nil }
        let hash = last == "#"
        let digitsEnd = hash ? text.endIndex - 1 : text.endIndex
        let digitsStart = runStart(text, before: digitsEnd, TextRules.isDecimalDigit)
        let length = digitsEnd - digitsStart
        if length == 0 { return nil }

        if !hash && length <= 20 && digitsStart - text.startIndex >= 5
            && equalsFolded(text[(digitsStart - 5)..<digitsStart], rfcLabel)
        {
            starts.add(digitsStart - 5, digitsStart - 5)
        }
        if hash && length <= 6 {
            let separators = runStart(text, before: digitsStart) { $0 == "-" || $0 == " " }
            starts.add(separators, digitsStart - 1)
        }

        let afterLabel = runStart(text, before: digitsStart, isAfterLabel)
        labels(endingAt: afterLabel, text, length, into: &starts)
        if afterLabel > text.startIndex && isLabelStop(text[afterLabel - 1]) {
            labels(endingAt: afterLabel - 1, text, length, into: &starts)
        }
        // Comma labels inside the separator run before the digits.
        var spaces = afterLabel
        var commasLead = afterLabel
        for index in afterLabel..<digitsStart {
            let scalar = text[index]
            if scalar == "," {
                let runBegins = index == afterLabel || text[index - 1] != ","
                if runBegins { commasLead = spaces }
                if length <= 9 { starts.add(commasLead, index) }
                if length <= 15 && !runBegins {
                    let pairBegins = index - 1 == afterLabel || text[index - 2] != ","
                    starts.add(pairBegins ? commasLead : index - 1, index - 1)
                }
            }
            if !isNoCommaSeparator(scalar) { spaces = index + 1 }
        }
        return digitsStart..<digitsEnd
    }

    /// Alternatives 2, 3, 5 and 6 with their label ending at `end`, where only `[:.．]?` and `[ NBSP\t,-]*` follow.
    private static func labels<Text: ScalarText>(
        endingAt end: Int, _ text: Text, _ length: Int, into starts: inout ExtensionStarts
    ) {
        guard end > text.startIndex else { return }
        let previous = text[end - 1]
        if length <= 20 && mayEndLabel(previous) {
            for label in explicitLabels {
                addLabel(label, endingAt: end, text, into: &starts)
            }
            if length <= 9 {
                for label in ambiguousLabels {
                    addLabel(label, endingAt: end, text, into: &starts)
                }
            }
        }
        if previous == ";" && length <= 15 {
            starts.add(runStart(text, before: end - 1, isNoCommaSeparator), end - 1)
        } else if previous == "," {
            let commas = runStart(text, before: end) { $0 == "," }
            let lead = runStart(text, before: commas, isNoCommaSeparator)
            if length <= 9 { starts.add(lead, end - 1) }
            if length <= 15 && end - commas >= 2 {
                starts.add(end - 2 == commas ? lead : end - 2, end - 2)
            }
        }
    }

    @inline(__always)
    private static func addLabel<Text: ScalarText>(
        _ label: [Unicode.Scalar], endingAt end: Int, _ text: Text, into starts: inout ExtensionStarts
    ) {
        guard end - text.startIndex >= label.count else { return }
        let labelStart = end - label.count
        if equalsFolded(text[labelStart..<end], label) {
            starts.add(runStart(text, before: labelStart, isBeforeLabel), labelStart)
        }
    }

    /// Whether the character can end an explicit or ambiguous label (`t n o ó x # ~ б`, U+0301, full-width forms).
    @inline(__always)
    private static func mayEndLabel(_ scalar: Unicode.Scalar) -> Bool {
        switch folded(scalar) {
        case 0x74, 0x6E, 0x6F, 0xF3, 0x301, 0x78, 0x23, 0x7E, 0x431, 0xFF54, 0xFF4E, 0xFF58, 0xFF03, 0xFF5E: true
        default: false
        }
    }

    /// The start of the run of characters satisfying `predicate` that ends at `end`.
    @inline(__always)
    private static func runStart<Text: ScalarText>(
        _ text: Text, before end: Int, _ predicate: (Unicode.Scalar) -> Bool
    ) -> Int {
        var index = end
        while index > text.startIndex, predicate(text[index - 1]) { index -= 1 }
        return index
    }

    /// An ASCII digit, space or one of `+ ( ) - . /`: a character that no part of an extension but its digits and
    /// separators can be.
    @inline(__always)
    static func isPlainNumberCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x20, 0x28, 0x29, 0x2B, 0x2D, 0x2E, 0x2F: true
        default: false
        }
    }

    /// `[ NBSP\t,]`: between the number and a label.
    private static func isBeforeLabel(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{A0}" || scalar == "\t" || scalar == ","
    }

    /// `[ NBSP\t]`: before `,,`, `;` or a run of commas.
    private static func isNoCommaSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\u{A0}" || scalar == "\t"
    }

    /// `[ NBSP\t,-]`: after a label.
    private static func isAfterLabel(_ scalar: Unicode.Scalar) -> Bool {
        isBeforeLabel(scalar) || scalar == "-"
    }

    /// `[:.．]`: right after a label.
    private static func isLabelStop(_ scalar: Unicode.Scalar) -> Bool {
        scalar == ":" || scalar == "." || scalar == "\u{FF0E}"
    }

    private static let rfcLabel = Array(";ext=".unicodeScalars)

    private static let explicitLabels: [[Unicode.Scalar]] = {
        var labels: [[Unicode.Scalar]] = []
        for core in ["xt", "xtensio", "xtensio\u{301}", "xtensi\u{F3}"] {
            for label in [core, "e" + core, core + "n", "e" + core + "n"] {
                labels.append(Array(label.unicodeScalars))
            }
        }
        for label in ["\u{FF58}\u{FF54}", "\u{FF45}\u{FF58}\u{FF54}", "\u{FF58}\u{FF54}\u{FF4E}"]
            + ["\u{FF45}\u{FF58}\u{FF54}\u{FF4E}", "\u{434}\u{43E}\u{431}", "anexo"]
        {
            labels.append(Array(label.unicodeScalars))
        }
        return labels
    }()

    private static let ambiguousLabels: [[Unicode.Scalar]] =
        ["x", "\u{FF58}", "#", "\u{FF03}", "~", "\u{FF5E}", "int", "\u{FF49}\u{FF4E}\u{FF54}"]
        .map { Array($0.unicodeScalars) }

    /// Whether `text` equals `label` (lower case) case-insensitively, with the oracle's case equivalences for the
    /// characters that occur in labels.
    private static func equalsFolded<Text: ScalarText>(_ text: Text, _ label: [Unicode.Scalar]) -> Bool {
        var index = text.startIndex
        for expected in label {
            if folded(text[index]) != expected.value { return false }
            index += 1
        }
        return true
    }

    @inline(__always)
    private static func folded(_ scalar: Unicode.Scalar) -> UInt32 {
        let value = scalar.value
        switch value {
        case 0x41...0x5A, 0xFF21...0xFF3A, 0x410...0x42F: return value + 0x20
        case 0xD3: return 0xF3
        case 0x17F: return 0x73
        case 0x130, 0x131: return 0x69
        case 0x1C81: return 0x434
        case 0x1C82: return 0x43E
        default: return value
        }
    }
}
