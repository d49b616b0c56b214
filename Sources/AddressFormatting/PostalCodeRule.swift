/// A country's postal-code rule: what a code looks like and how to write it. The entered value is trimmed,
/// runs of spaces are collapsed to one and, when `uppercase` is set, letters are upper-cased; if `pattern`
/// then matches the whole value, `format` rebuilds it from the groups (`$1 $2`; `{-$2}` only when group 2
/// took part), else the value is shown as entered and flagged. A cleaned value longer than `maximumLength`,
/// or one whose match ICU stops at its step limit, is flagged the same way: it was not confirmed.
struct PostalCodeRule: Sendable {
    static let maximumLength = AddressPlugin.maximumPostalCodeLength

    /// An ICU regular expression that must match the whole cleaned value.
    let pattern: String
    /// The rebuild template; nil keeps the cleaned value.
    let format: String?
    let uppercase: Bool
    private let compiled: CompiledPattern
    private let formatParts: [FormatPart]

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
