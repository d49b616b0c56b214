import FmtTesting
import Foundation
import Testing

@testable import PhoneNumbers

/// Generated patterns in the subset upstream's metadata uses, each with texts that match, nearly match and do not.
enum PatternCases {
    static func generated(count: Int) -> [PatternCase] {
        var random = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { random.next(bound) }
        func digit() -> String { String(next(10)) }

        /// A pattern fragment and a text it matches.
        func fragment(depth: Int) -> (pattern: String, sample: String, open: Bool) {
            var (pattern, sample): (String, String)
            var innerOpen = false
            let kind = next(depth > 2 ? 4 : 7)
            switch kind {
            case 0, 1:
                (pattern, sample) = (digit(), "")
                sample = pattern
                // Now and then a literal that is not a digit (AO's `0~0`), or `.`: what upstream's engines do
                // with them in a digit string.
                if next(12) == 0 {
                    (pattern, sample) =
                        [
                            ("~", ""), (".", digit()), ("\\+", ""), ("a", ""), ("[~5-7]", "6"), ("[a-c]", ""),
                            ("\\-", ""),
                        ][next(7)]
                }
            case 2:
                (pattern, sample) = ("\\d", digit())
            case 3:
                let low = next(9)
                let high = low + 1 + next(9 - low)
                let negated = next(4) == 0
                pattern = negated ? "[^\(low)-\(high)]" : "[\(low)-\(high)\(next(10))]"
                sample = negated ? String((high + 1) % 10 == low ? (low + 9) % 10 : (high + 1) % 10) : String(low)
            case 4, 5:
                let branches = (0..<(1 + next(3))).map { _ in sequence(depth: depth + 1) }
                let chosen = branches[next(branches.count)]
                innerOpen = branches.contains(where: \.open)
                pattern = (next(2) == 0 ? "(" : "(?:") + branches.map(\.pattern).joined(separator: "|") + ")"
                sample = chosen.sample
            default:
                let inner = sequence(depth: depth + 1)
                innerOpen = inner.open
                (pattern, sample) = ((next(2) == 0 ? "(" : "(?:") + inner.pattern + ")", inner.sample)
            }
            // Open repeats only on single digits, and no repeat around one, as in the metadata: Python's re
            // backtracks exponentially on nested repeats (ours stays linear; DigitPatternTests pins that).
            var quantifier = next(6)
            if innerOpen || (kind >= 4 && (quantifier == 1 || quantifier == 2)) { quantifier = 5 }
            var open = innerOpen
            switch quantifier {
            case 0:
                pattern += "?"
                if next(2) == 0 { sample = "" }
            case 1:
                pattern += "*"
                open = true
                sample = String(repeating: sample, count: next(3))
            case 2:
                pattern += "+"
                open = true
                sample = String(repeating: sample, count: 1 + next(2))
            case 3:
                let low = next(3)
                let high = low + next(3)
                let unbounded = kind < 4 && next(4) == 0
                open = open || unbounded
                pattern += low == high && !unbounded ? "{\(low)}" : unbounded ? "{\(low),}" : "{\(low),\(high)}"
                sample = String(repeating: sample, count: low + (high > low ? next(high - low + 1) : 0))
            default:
                break
            }
            return (pattern, sample, open)
        }

        func sequence(depth: Int) -> (pattern: String, sample: String, open: Bool) {
            let parts = (0..<(1 + next(3))).map { _ in fragment(depth: depth) }
            return (parts.map(\.pattern).joined(), parts.map(\.sample).joined(), parts.contains(where: \.open))
        }

        var cases: [PatternCase] = []
        while cases.count < count {
            let (pattern, sample, _) = sequence(depth: 0)
            let anchored = next(8) == 0 ? pattern + "$" : pattern
            var texts = [sample, sample + digit(), String(sample.dropLast()), digit() + sample]
            if !sample.isEmpty {
                var changed = Array(sample)
                changed[next(changed.count)] = Character(digit())
                texts.append(String(changed))
            }
            texts.append(String((0..<next(10)).map { _ in Character(digit()) }))
            cases += texts.map { PatternCase(pattern: anchored, text: $0) }
        }
        return cases
    }
}

@Suite("Digit patterns against Python's re")
struct DigitPatternDifferentialTests {
    @Test(
        "whole matches, prefix match ends and groups agree with Python's re on generated patterns",
        .enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func agreesWithPythonRe() throws {
        let fuzzCount = ProcessInfo.processInfo.environment["FMTD_PHONE_FUZZ"].flatMap { Int($0) } ?? 6000
        let cases = PatternCases.generated(count: 5 * fuzzCount)
        let answers: [PatternAnswer]
        do {
            answers = try Oracle.patternAnswers(cases)
        } catch {
            Issue.record("\(error)")
            return
        }
        var mismatches: [String] = []
        var wholeMatches = 0
        var compiled: [String: DigitPattern] = [:]
        for (testCase, expected) in zip(cases, answers) {
            let pattern = try compiled[testCase.pattern] ?? DigitPattern(testCase.pattern)
            compiled[testCase.pattern] = pattern
            let answer = Array(testCase.text.utf8).withUnsafeBufferPointer { text in
                let match = pattern.match(text)
                return PatternAnswer(
                    whole: pattern.matchesWhole(text), end: match?.range.upperBound,
                    groups: match?.groups.map { $0.map { [$0.lowerBound, $0.upperBound] } })
            }
            // The linear fallback that hostile patterns reach must give the same answers.
            let memoized = Array(testCase.text.utf8).withUnsafeBufferPointer { text in
                let match = pattern.match(text, memoized: true)
                return PatternAnswer(
                    whole: pattern.match(text, whole: true, memoized: true) != nil, end: match?.range.upperBound,
                    groups: match?.groups.map { $0.map { [$0.lowerBound, $0.upperBound] } })
            }
            if answer.whole { wholeMatches += 1 }
            if answer != expected {
                mismatches.append("\(testCase.pattern) on \"\(testCase.text)\": \(answer) ≠ re \(expected)")
            }
            if memoized != expected {
                mismatches.append("memoized \(testCase.pattern) on \"\(testCase.text)\": \(memoized) ≠ re \(expected)")
            }
        }
        print(
            "digit patterns: \(cases.count) cases, \(compiled.count) patterns, \(wholeMatches) whole matches, "
                + "\(mismatches.count) mismatches")
        for mismatch in mismatches.prefix(30) { Issue.record("\(mismatch)") }
        #expect(mismatches.isEmpty)
        #expect(wholeMatches > cases.count / 5)
    }
}
