/// A country's postal-code rule: what a code looks like and how to write it. The entered value is trimmed,
/// runs of spaces are collapsed to one and, when `uppercase` is set, letters are upper-cased; if `pattern`
/// then matches the whole value, `format` rebuilds it from the groups (`$1 $2`; `{-$2}` only when group 2
/// took part), else the value is shown as entered and flagged. A cleaned value longer than `maximumLength`,
/// or one whose match ICU stops at its step limit, is flagged the same way: it was not confirmed. A class: a
/// request takes its country's rule with one retain.
final class PostalCodeRule: Sendable {
    static let maximumLength = AddressPlugin.maximumPostalCodeLength

    /// An ICU regular expression that must match the whole cleaned value.
    let pattern: String
    /// The rebuild template; nil keeps the cleaned value.
    let format: String?
    let uppercase: Bool
    private let compiled: CompiledPattern
    private let formatParts: [FormatPart]
    /// The bytes of the format's text parts, and how many group references it has: with the cleaned value's
    /// length, the most bytes the format can write.
    private let formatTextBytes: Int
    private let formatGroupReferences: Int

    private enum FormatPart: Sendable {
        case text(String)
        case group(Int)
        case optional([FormatPart])
    }

    /// Compiles the pattern and parses the format; the error says which of the two is at fault.
    init(pattern: String, format: String?, uppercase: Bool) throws(RuleError) {
        let compiled: CompiledPattern
        switch CompiledPattern.compile(pattern) {
        case .success(let pattern): compiled = pattern
        case .failure(let error):
            throw RuleError(member: "pattern", problem: "ICU rejects the pattern at offset \(error.offset)")
        }
        if let problem = PatternShape.problem(in: pattern) {
            throw RuleError(member: "pattern", problem: "is refused: \(problem)")
        }
        self.compiled = compiled
        self.pattern = pattern
        self.format = format
        self.uppercase = uppercase
        if let format {
            do {
                formatParts = try Self.parseFormat(Array(format), groupCount: compiled.groupCount)
            } catch {
                throw RuleError(member: "format", problem: error.description)
            }
        } else {
            formatParts = []
        }
        func measure(_ parts: [FormatPart]) -> (text: Int, groups: Int) {
            parts.reduce(into: (0, 0)) { total, part in
                switch part {
                case .text(let text): total.text += text.utf8.count
                case .group: total.groups += 1
                case .optional(let inner):
                    let (text, groups) = measure(inner)
                    total.text += text
                    total.groups += groups
                }
            }
        }
        (formatTextBytes, formatGroupReferences) = measure(formatParts)
    }

    /// The normalised code, or nil when the value is not confirmed by the pattern.
    func normalize(_ value: String) -> String? {
        guard case .normalized(let code) = check(value) else { return nil }
        return code
    }

    /// What the rule makes of a value.
    enum Outcome: Equatable {
        case normalized(String)
        case noMatch
        /// Longer than `maximumLength`.
        case tooLong
        /// ICU stopped the match at its step or backtrack-stack limit.
        case overLimit
    }

    func check(_ value: String) -> Outcome {
        if let outcome = asciiCheck(value) { return outcome }
        let cleaned = clean(value)
        guard cleaned.unicodeScalars.count <= Self.maximumLength else { return .tooLong }
        switch compiled.wholeMatch(cleaned) {
        case .noMatch: return .noMatch
        case .overLimit: return .overLimit
        case .matched(let groups):
            guard format != nil else { return .normalized(cleaned) }
            return .normalized(Self.render(formatParts, groups) ?? cleaned)
        }
    }

    /// The longest ASCII value `asciiCheck` cleans on the stack; a longer one takes the general path.
    private static let asciiLimit = 128

    /// `check` for an ASCII value the byte matcher answers, over bytes on the stack (cleaned as `clean` does for
    /// ASCII text: whitespace trimmed and collapsed to single spaces, letters upper-cased when the rule says so);
    /// nil leaves the value to the general path.
    private func asciiCheck(_ value: String) -> Outcome? {
        guard let pattern = compiled.bytePattern, value.utf8.count <= Self.asciiLimit else { return nil }
        var value = value
        return value.withUTF8 { utf8 -> Outcome? in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.asciiLimit) { buffer -> Outcome? in
                var count = 0
                var pendingSpace = false
                for byte in utf8 {
                    guard byte < 0x80 else { return nil }
                    if byte == 0x20 || (0x09...0x0D).contains(byte) {
                        pendingSpace = count > 0
                        continue
                    }
                    if pendingSpace {
                        buffer[count] = 0x20
                        count += 1
                        pendingSpace = false
                    }
                    buffer[count] = uppercase && (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
                    count += 1
                }
                guard count <= Self.maximumLength else { return .tooLong }
                let cleaned = UnsafeBufferPointer(rebasing: buffer[0..<count])
                let slotCount = 2 * (compiled.groupCount + 1)
                return withUnsafeTemporaryAllocation(of: Int32.self, capacity: slotCount) { slots -> Outcome? in
                    guard let matched = pattern.wholeMatch(cleaned, slots: slots) else { return nil }
                    guard matched else { return .noMatch }
                    guard format != nil else { return .normalized(String(decoding: cleaned, as: UTF8.self)) }
                    let capacity = formatTextBytes + formatGroupReferences * count
                    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(capacity, 1)) { output in
                        var written = 0
                        let rendered = Self.render(
                            formatParts, cleaned, UnsafeBufferPointer(slots), into: output, at: &written)
                        return .normalized(
                            rendered
                                ? String(decoding: UnsafeBufferPointer(rebasing: output[0..<written]), as: UTF8.self)
                                : String(decoding: cleaned, as: UTF8.self))
                    }
                }
            }
        }
    }

    /// `render(_:_:)` over bytes: the groups are the byte ranges in `slots`; false (with `written` where it was)
    /// where that gives nil.
    private static func render(
        _ parts: [FormatPart], _ text: UnsafeBufferPointer<UInt8>, _ slots: UnsafeBufferPointer<Int32>,
        into output: UnsafeMutableBufferPointer<UInt8>, at written: inout Int
    ) -> Bool {
        let start = written
        for part in parts {
            switch part {
            case .text(let literal):
                for byte in literal.utf8 {
                    output[written] = byte
                    written += 1
                }
            case .group(let index):
                let lower = 2 * index < slots.count ? Int(slots[2 * index]) : -1
                let upper = 2 * index + 1 < slots.count ? Int(slots[2 * index + 1]) : -1
                guard lower >= 0, upper > lower, upper <= text.count else {
                    written = start
                    return false
                }
                for offset in lower..<upper {
                    output[written] = text[offset]
                    written += 1
                }
            case .optional(let inner):
                _ = render(inner, text, slots, into: output, at: &written)
            }
        }
        return true
    }

    /// The value trimmed, with whitespace runs collapsed to one space, upper-cased when the rule says so.
    func clean(_ value: String) -> String {
        let collapsed = PlainText.collapsedWhitespace(value)
        return uppercase ? PlainText.uppercased(collapsed) : collapsed
    }

    private static func render(_ parts: [FormatPart], _ groups: [Substring?]) -> String? {
        var output = ""
        for part in parts {
            switch part {
            case .text(let text): output += text
            case .group(let index):
                guard index < groups.count, let group = groups[index], !group.isEmpty else { return nil }
                output += group
            case .optional(let inner):
                if let text = render(inner, groups) { output += text }
            }
        }
        return output
    }

    private static func parseFormat(_ characters: [Character], groupCount: Int) throws(TemplateError) -> [FormatPart] {
        var index = 0
        let parts = try parseParts(characters, &index, groupCount: groupCount, nested: false)
        guard index == characters.count else { throw TemplateError("a closing brace has no opening brace") }
        return parts
    }

    private static func parseParts(
        _ characters: [Character], _ index: inout Int, groupCount: Int, nested: Bool
    ) throws(TemplateError) -> [FormatPart] {
        var parts: [FormatPart] = []
        var text = ""
        func flush() {
            if !text.isEmpty {
                parts.append(.text(text))
                text = ""
            }
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "$":
                guard index + 1 < characters.count, let digit = characters[index + 1].wholeNumberValue else {
                    throw TemplateError("\"$\" is not followed by a group number")
                }
                guard digit <= groupCount else {
                    throw TemplateError("the format uses group \(digit) but the pattern has \(groupCount)")
                }
                flush()
                parts.append(.group(digit))
                index += 2
            case "{":
                guard !nested else { throw TemplateError("optional parts do not nest") }
                flush()
                index += 1
                let inner = try parseParts(characters, &index, groupCount: groupCount, nested: true)
                guard index < characters.count, characters[index] == "}" else {
                    throw TemplateError("an opening brace has no closing brace")
                }
                parts.append(.optional(inner))
                index += 1
            case "}":
                flush()
                return parts
            default:
                text.append(character)
                index += 1
            }
        }
        flush()
        return parts
    }
}

/// Why a postal-code rule was refused: the member at fault (`pattern` or `format`) and the problem.
struct RuleError: Error {
    let member: String
    let problem: String
}
