import FmtTesting
import Testing

@testable import PatternMatching

/// The matcher's own policies: it leaves undecided what would take too many steps or backtracking entries and a
/// text its alphabet does not admit, runs a program without branches straight through, and skips a guarded branch
/// only where trying it must fail.
@Suite struct BacktrackingMatcherTests {
    static func matcher<Set: PatternSet>(
        _ source: String, _ alphabet: Set.Type, guarded: Bool = true
    ) throws
        -> BacktrackingMatcher<Set>
    {
        let limits = PatternLimits(maximumSourceLength: 512, maximumNesting: 8, maximumCount: 64, maximumProgram: 4096)
        return BacktrackingMatcher(
            try CompiledPatternProgram<Set>(source, limits: limits, capturingWholeMatch: true), guarded: guarded)
    }

    static func answer<Set>(_ matcher: BacktrackingMatcher<Set>, _ text: String) -> (Bool?, [Int32]) {
        var slots = [Int32](repeating: 0, count: max(matcher.slotCount, 2))
        let answer = Array(text.utf8).withUnsafeBufferPointer { text in
            slots.withUnsafeMutableBufferPointer { matcher.wholeMatch(text, slots: $0) }
        }
        return (answer, slots)
    }

    @Test func aCostlyMatchIsLeftUndecided() throws {
        let letters = try Self.matcher(String(repeating: "[A-Z]*", count: 10) + "[0-9]", ASCIISet.self)
        #expect(Self.answer(letters, String(repeating: "ABCDEFGH", count: 4)).0 == nil)
        #expect(Self.answer(letters, "AB1").0 == true)
        let digits = try Self.matcher(String(repeating: "[1-8]*", count: 10) + "9", DigitSet.self)
        #expect(Self.answer(digits, String(repeating: "12345678", count: 4)).0 == nil)
        #expect(Self.answer(digits, "129").0 == true)
    }

    @Test func aDeepStackIsLeftUndecided() throws {
        // Each optional `a` holds an entry; more than `maximumStack` of them are left to another engine.
        let count = BacktrackingMatcher<ASCIISet>.maximumStack
        let nested = try Self.matcher(String(repeating: "a?", count: count) + "b", ASCIISet.self)
        #expect(Self.answer(nested, String(repeating: "a", count: count) + "b").0 == nil)
        #expect(Self.answer(nested, "ab").0 == true)
    }

    @Test func aTextOutsideTheAlphabetIsLeftUndecidedOverASCIIAndMatchesNothingOverDigits() throws {
        #expect(Self.answer(try Self.matcher("\\d+", ASCIISet.self), "12é").0 == nil)
        #expect(Self.answer(try Self.matcher("\\d+", DigitSet.self), "12é").0 == false)
        #expect(Self.answer(try Self.matcher("\\d+", DigitSet.self), "12a").0 == false)
    }

    @Test func aProgramWithoutBranchesSavesWhereItsOneRunWould() throws {
        let straight = try Self.matcher("(\\d)(?:[a-c])(\\d{2})", ASCIISet.self)
        #expect(straight.guardCount == 0)
        #expect(Self.answer(straight, "1b23") == (true, [0, 4, 0, 1, 2, 4]))
        #expect(Self.answer(straight, "1b2").0 == false)
        #expect(Self.answer(straight, "1d23").0 == false)
        let digits = try Self.matcher("(1)(.)$", DigitSet.self)
        #expect(Self.answer(digits, "17") == (true, [0, 2, 0, 1, 1, 2]))
    }

    @Test func guardsChangeNoAnswerGroupOrLimitOverEitherAlphabet() throws {
        var generator = SeededGenerator.forTest("guardsChangeNoAnswerGroupOrLimitOverEitherAlphabet", seed: 0x6A4D)
        let ascii = MatcherDifferentialTests.PatternGenerator(
            literals: ["a", "b", "0", "-"], classMembers: ["a-b", "\\d", "-"], extra: ["\\D"])
        let digits = MatcherDifferentialTests.PatternGenerator(
            literals: ["0", "1", "2"], classMembers: ["0", "1-2", "\\d"], extra: [".", "$"])
        var guarded = 0
        for _ in 0..<300 {
            guarded += try Self.compareGuards(ascii, ASCIISet.self, texts: Array("ab0-".utf8), using: &generator)
            guarded += try Self.compareGuards(digits, DigitSet.self, texts: Array("012".utf8), using: &generator)
        }
        #expect(guarded > 100)
    }

    /// 1 when the pattern generated has a guarded branch.
    static func compareGuards<Set: PatternSet>(
        _ patterns: MatcherDifferentialTests.PatternGenerator, _ alphabet: Set.Type, texts: [UInt8],
        using generator: inout SeededGenerator
    ) throws -> Int {
        let source = patterns.pattern(depth: 2, using: &generator)
        guard let withGuards = try? matcher(source, alphabet) else { return 0 }
        let plain = try matcher(source, alphabet, guarded: false)
        for _ in 0..<30 {
            let text = String(
                decoding: (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                    texts.randomElement(using: &generator)!
                },
                as: UTF8.self)
            let (answer, slots) = answer(withGuards, text)
            let (expected, expectedSlots) = Self.answer(plain, text)
            #expect(answer == expected, "\(source) on \"\(text)\"")
            if answer == true { #expect(slots == expectedSlots, "\(source) on \"\(text)\"") }
        }
        return withGuards.guardCount > 0 ? 1 : 0
    }
}
