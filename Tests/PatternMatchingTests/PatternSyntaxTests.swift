import Testing

@testable import PatternMatching

/// What the parser takes and refuses over each alphabet, and the bounds a pattern from a data file must keep.
@Suite struct PatternSyntaxTests {
    static let roomy = PatternLimits(
        maximumSourceLength: 8192, maximumNesting: 32, maximumCount: 64, maximumProgram: 4096)

    static func ascii(
        _ source: String, limits: PatternLimits = roomy
    ) throws(PatternParseError)
        -> CompiledPatternProgram<ASCIISet>
    {
        try CompiledPatternProgram(source, limits: limits, capturingWholeMatch: true)
    }

    static func digits(
        _ source: String, limits: PatternLimits = roomy
    ) throws(PatternParseError)
        -> CompiledPatternProgram<DigitSet>
    {
        try CompiledPatternProgram(source, limits: limits, capturingWholeMatch: false)
    }

    @Test(arguments: [
        "\\d{5}", "[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}", "(?:ab|a)(?:bc|c)?", "[^0-9]+", "\\-\\(?\\d", "x{2,}y",
        "(a)?(b)?", "[a-c-]{2}", "\\D", "a{0064}", "()", "a|", "[\\d,:-]+",
    ])
    func bothAlphabetsTakeTheCommonSyntax(source: String) {
        #expect(throws: Never.self) { try Self.ascii(source) }
        #expect(throws: Never.self) { try Self.digits(source) }
    }

    @Test(arguments: [
        "a+?b", "a{2,3}?b", "1++", "6**7", "1{2}{3}", "\\w+", "[[a-z]&&[^x]]", "^a", "(?i)abc", "(?=a)a", "\\p{Nd}",
        "\\Q(\\E", "[]a]", "[^]a]", "(0)\\1", "a{65}", "a{2,99999999999999999999999}", "a{3,2}", "(a", "a)", "[a",
        "a{", "{1}", "*a", "[a-\\d]", "[9-0]",
    ])
    func bothAlphabetsRefuseTheRest(source: String) {
        #expect(throws: PatternParseError.self) { try Self.ascii(source) }
        #expect(throws: PatternParseError.self) { try Self.digits(source) }
    }

    /// ICU reads `.` and `$` by line-ending rules, so postal codes leave them to ICU; in a digit string they are any
    /// digit and the end. Characters outside printable ASCII and ICU's ambiguous ones are refused over ASCII, and
    /// match nothing over digits.
    @Test(arguments: ["a.c", "a$", "é", "\u{7}", "a]", "a}", "#", "[a&b]", "[\u{7}]", "[--x]", "[+--]"])
    func onlyTheDigitAlphabetTakesDotDollarAndEveryLiteral(source: String) throws {
        #expect(throws: PatternParseError.self) { try Self.ascii(source) }
        #expect(throws: Never.self) { try Self.digits(source) }
    }

    @Test func literalsOutsideTheAlphabetMatchNothingOverDigits() throws {
        #expect(try Self.digits("é").node.characters == .empty)
        #expect(try Self.digits("~").node.characters == .empty)
        #expect(try Self.digits("\\+").node.characters == .empty)
        #expect(try Self.digits("\\D").node.characters == .empty)
        #expect(try Self.digits("[^1-9]").node.characters == DigitSet(mask: 1))
        #expect(try Self.digits("[0-4a-z]").node.characters == DigitSet(mask: 0x1F))
        #expect(try Self.digits(".").node.characters == .digits)
        #expect(try Self.ascii("\\D").node.characters == ASCIISet.digits.complement)
        #expect(try Self.ascii("[^a]").node.characters == ASCIISet.range(97, 97).complement)
    }

    @Test func aSourcePastItsLengthIsRefusedBeforeItIsRead() {
        let limits = PatternLimits(maximumSourceLength: 16, maximumNesting: 4, maximumCount: 64, maximumProgram: 4096)
        #expect(throws: Never.self) { try Self.ascii(String(repeating: "a", count: 16), limits: limits) }
        #expect(throws: PatternParseError(offset: 16, detail: "a pattern longer than 16 bytes")) {
            try Self.digits(String(repeating: "(", count: 17), limits: limits)
        }
    }

    @Test func groupsNestOnlyAsDeepAsTheLimit() {
        let limits = PatternLimits(maximumSourceLength: 8192, maximumNesting: 3, maximumCount: 64, maximumProgram: 64)
        #expect(throws: Never.self) { try Self.ascii("(((a)))", limits: limits) }
        #expect(throws: PatternParseError(offset: 3, detail: "groups nested deeper than 3")) {
            try Self.ascii("((((a))))", limits: limits)
        }
        #expect(throws: PatternParseError.self) {
            try Self.digits(String(repeating: "(", count: 50_000) + String(repeating: ")", count: 50_000))
        }
    }

    @Test func countsStopAtTheLimitDigitByDigit() {
        let limits = PatternLimits(maximumSourceLength: 8192, maximumNesting: 3, maximumCount: 9, maximumProgram: 64)
        #expect(throws: Never.self) { try Self.ascii("a{9}", limits: limits) }
        #expect(throws: PatternParseError(offset: 4, detail: "a repeat count above 9")) {
            try Self.ascii("a{10}", limits: limits)
        }
    }

    @Test func aProgramPastItsLimitIsRefusedBeforeItIsLaidOut() throws {
        let limits = PatternLimits(maximumSourceLength: 8192, maximumNesting: 8, maximumCount: 64, maximumProgram: 10)
        #expect(try Self.digits("\\d{10}", limits: limits).program.count == 11)
        #expect(throws: PatternParseError(offset: 0, detail: "a pattern that compiles to more than 10 instructions")) {
            try Self.digits("\\d{11}", limits: limits)
        }
        #expect(throws: PatternParseError.self) { try Self.digits("(?:(?:(?:\\d{64}){64}){64}){64}") }
    }

    @Test func errorsNameWhereTheyAre() {
        #expect(throws: PatternParseError(offset: 1, detail: "unsupported escape")) { try Self.digits("\\w") }
        #expect(throws: PatternParseError(offset: 2, detail: "unsupported group")) { try Self.digits("1(?=2)") }
        #expect(throws: PatternParseError(offset: 1, detail: "unexpected character")) { try Self.digits("1)") }
        #expect(throws: PatternParseError(offset: 2, detail: "a quantifier after a quantifier")) {
            try Self.digits("1*?")
        }
    }
}

extension PatternNode {
    /// The set of a pattern that is one set, nil for any other.
    var characters: Set? {
        if case .characters(let set) = self { return set }
        return nil
    }
}
