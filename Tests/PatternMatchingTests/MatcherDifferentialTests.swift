import CICU
import FmtTesting
import Testing

@testable import PatternMatching

/// The backtracking matcher answers as ICU's regex does: over generated patterns and texts of each alphabet, every
/// pattern the parser takes ICU takes too with as many groups, and every match the matcher answers (it may leave a
/// costly one undecided) is ICU's, with the same groups.
@Suite struct MatcherDifferentialTests {
    /// One generated case: how many patterns were compared, how many the parser refused, how many answers left
    /// undecided, and the disagreements found.
    struct Tally {
        var patterns = 0
        var refused = 0
        var answered = 0
        var undecided = 0
        var disagreements: [String] = []
    }

    /// Patterns over `literals`: sequences of atoms (literals, `\d`, classes, groups of alternatives, `extra`), each
    /// maybe repeated.
    struct PatternGenerator {
        let literals: [String]
        let classMembers: [String]
        let extra: [String]

        func pattern(depth: Int, using generator: inout SeededGenerator) -> String {
            (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                atom(depth: depth, using: &generator) + quantifier(using: &generator)
            }.joined()
        }

        func atom(depth: Int, using generator: inout SeededGenerator) -> String {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: return "\\d"
            case 1:
                let members = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    classMembers.randomElement(using: &generator)!
                }
                return "[" + (Bool.random(using: &generator) ? "^" : "") + members.joined() + "]"
            case 2 where depth > 0:
                let branches = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    Int.random(in: 0..<5, using: &generator) == 0 ? "" : pattern(depth: depth - 1, using: &generator)
                }
                return (Bool.random(using: &generator) ? "(" : "(?:") + branches.joined(separator: "|") + ")"
            case 3 where !extra.isEmpty: return extra.randomElement(using: &generator)!
            default: return literals.randomElement(using: &generator)!
            }
        }

        func quantifier(using generator: inout SeededGenerator) -> String {
            let low = Int.random(in: 0...2, using: &generator)
            return [
                "", "", "", "", "?", "*", "+", "{\(low)}", "{\(low),}",
                "{\(low),\(low + Int.random(in: 0...2, using: &generator))}",
            ].randomElement(using: &generator)!
        }
    }

    static func compare<Set: PatternSet>(
        _ alphabet: Set.Type, patterns: PatternGenerator, texts: [UInt8], count: Int,
        using generator: inout SeededGenerator
    ) -> Tally {
        var tally = Tally()
        let limits = PatternLimits(maximumSourceLength: 512, maximumNesting: 8, maximumCount: 64, maximumProgram: 4096)
        for _ in 0..<count {
            let source = patterns.pattern(depth: 2, using: &generator)
            guard let compiled = try? CompiledPatternProgram<Set>(source, limits: limits, capturingWholeMatch: true)
            else {
                tally.refused += 1
                continue
            }
            tally.patterns += 1
            let matcher = BacktrackingMatcher(compiled)
            guard let icu = ICUPattern(source) else {
                tally.disagreements.append("ICU refuses \(source)")
                continue
            }
            defer { icu.close() }
            guard icu.groupCount == compiled.groupCount else {
                tally.disagreements.append("\(source): \(compiled.groupCount) groups, ICU \(icu.groupCount)")
                continue
            }
            var samples: [[UInt8]] = [[]]
            for _ in 0..<40 {
                samples.append(
                    (0..<Int.random(in: 0...7, using: &generator)).map { _ in texts.randomElement(using: &generator)! })
            }
            let slotCount = 2 * (compiled.groupCount + 1)
            for sample in samples {
                var slots = [Int32](repeating: 0, count: slotCount)
                let answer = sample.withUnsafeBufferPointer { text in
                    slots.withUnsafeMutableBufferPointer { matcher.wholeMatch(text, slots: $0) }
                }
                guard let answer else {
                    tally.undecided += 1
                    continue
                }
                guard let expected = icu.wholeMatch(sample, groupCount: compiled.groupCount) else { continue }
                tally.answered += 1
                let found = answer ? slots : nil
                if found != expected {
                    let text = String(decoding: sample, as: UTF8.self)
                    tally.disagreements.append(
                        "\(source) on \"\(text)\": \(String(describing: found)), ICU \(String(describing: expected))")
                }
            }
        }
        return tally
    }

    @Test func theMatcherAnswersAsICUOverASCII() {
        var generator = SeededGenerator.forTest("theMatcherAnswersAsICUOverASCII", seed: 0x5EED_A5C1)
        let patterns = PatternGenerator(
            literals: ["a", "b", "c", "0", "1", "-", " ", "\\-", "\\(", "x"],
            classMembers: ["a", "b-c", "0-1", "\\d", "-", " ", "x", "\\-", "+"], extra: ["\\D"])
        let tally = Self.compare(
            ASCIISet.self, patterns: patterns, texts: Array("abc01- x(".utf8), count: 600, using: &generator)
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements.prefix(10))")
        #expect(tally.patterns > 500 && tally.answered > 15_000, "\(tally)")
    }

    @Test func theMatcherAnswersAsICUOverDigits() {
        var generator = SeededGenerator.forTest("theMatcherAnswersAsICUOverDigits", seed: 0x5EED_D161)
        let patterns = PatternGenerator(
            literals: ["0", "1", "2", "3", "1", "2"], classMembers: ["0", "1-2", "2-3", "\\d", "a", "5-9"],
            extra: [".", "$", "~", "\\D", "\\+"])
        let tally = Self.compare(
            DigitSet.self, patterns: patterns, texts: Array("0123".utf8), count: 600, using: &generator)
        #expect(tally.disagreements.isEmpty, "\(tally.disagreements.prefix(10))")
        #expect(tally.patterns > 500 && tally.answered > 15_000, "\(tally)")
    }
}

/// A pattern compiled by ICU through the address shim, which matches the whole text under ICU's own limits.
struct ICUPattern {
    let handle: OpaquePointer
    let groupCount: Int

    init?(_ source: String) {
        var offset: Int32 = -1
        let bytes = Array(source.utf8)
        let opened = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                fmt_icu_address_pattern_open($0.baseAddress, Int32($0.count), &offset)
            }
        }
        guard let opened else { return nil }
        handle = opened
        groupCount = Int(fmt_icu_address_pattern_groups(opened))
    }

    func close() {
        fmt_icu_address_pattern_close(handle)
    }

    /// `.some(nil)` for no match, `.some(slots)` as the matcher fills them (start and end of the whole match, then
    /// of each group), nil when ICU stopped at its limit.
    func wholeMatch(_ text: [UInt8], groupCount: Int) -> [Int32]?? {
        let capacity = groupCount + 1
        var starts = [Int32](repeating: -1, count: capacity)
        var ends = [Int32](repeating: -1, count: capacity)
        // A terminating byte past the text, so that even an empty text has an address.
        let result = (text + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                fmt_icu_address_pattern_match(
                    handle, chars.baseAddress, Int32(text.count), &starts, &ends, Int32(capacity))
            }
        }
        if result == -3 { return nil }
        guard result >= 0 else { return .some(nil) }
        return .some((0..<capacity).flatMap { [starts[$0], ends[$0]] })
    }
}
