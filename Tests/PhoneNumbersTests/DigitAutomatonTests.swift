import FmtTesting
import Foundation
import Testing

@testable import PhoneNumbers

/// Whole and prefix matches go through a pattern's automaton when it has one. The automaton must answer as the
/// backtracking run does (which the Python `re` differential test holds to `re`) for every pattern the shipped
/// metadata holds and for generated ones, on inputs walked along the automaton (near matches and matches), their
/// variations and random digits.
@Suite struct DigitAutomatonTests {
    /// Every `p` (type and format pattern) and `ld` (leading digits) text of the shipped metadata.
    static func shippedPatterns() throws -> [String] {
        let url = Fixtures.committedJSON
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        var patterns: Set<String> = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    if key == "p" || key == "ld", let text = member as? String { patterns.insert(text) }
                    walk(member)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(root)
        return patterns.sorted()
    }

    /// Inputs for one automaton: walks along live transitions, each also with its last digit changed and one more
    /// digit, and random digit strings.
    static func inputs(_ automaton: DigitAutomaton, using generator: inout SeededGenerator) -> [[UInt8]] {
        var inputs: [[UInt8]] = [[]]
        for _ in 0..<40 {
            var state = 0
            var walked: [UInt8] = []
            for _ in 0..<Int.random(in: 0...18, using: &generator) {
                let live = (0..<10).filter { automaton.transitions[10 * state + $0] != DigitAutomaton.dead }
                guard let digit = live.randomElement(using: &generator) else { break }
                walked.append(UInt8(48 + digit))
                state = Int(automaton.transitions[10 * state + digit])
            }
            inputs.append(walked)
            if !walked.isEmpty {
                var changed = walked
                changed[changed.count - 1] = UInt8(48 + Int.random(in: 0...9, using: &generator))
                inputs.append(changed)
            }
            inputs.append(walked + [UInt8(48 + Int.random(in: 0...9, using: &generator))])
        }
        for _ in 0..<10 {
            inputs.append(
                (0..<Int.random(in: 1...17, using: &generator)).map { _ in UInt8.random(in: 48...57, using: &generator)
                })
        }
        inputs.append(Array("12a4".utf8))
        return inputs
    }

    static func check(_ source: String, using generator: inout SeededGenerator) throws -> (Bool, [String]) {
        let pattern = try DigitPattern(source)
        let program = pattern.compiled
        guard let automaton = program.automaton else { return (false, []) }
        var mismatches: [String] = []
        for input in inputs(automaton, using: &generator) {
            input.withUnsafeBufferPointer { input in
                let text = String(decoding: input, as: UTF8.self)
                if automaton.matchesWhole(input) != program.matchesWholeByRun(input) {
                    mismatches.append("whole \(source) on \"\(text)\"")
                }
                if automaton.matchesPrefix(input) != program.matchesPrefixByRun(input) {
                    mismatches.append("prefix \(source) on \"\(text)\"")
                }
            }
        }
        return (true, mismatches)
    }

    @Test func everyShippedPatternsAutomatonAnswersAsTheRun() throws {
        var generator = SeededGenerator(state: 1)
        let patterns = try Self.shippedPatterns()
        var withAutomaton = 0
        var mismatches: [String] = []
        for source in patterns {
            let (built, found) = try Self.check(source, using: &generator)
            if built { withAutomaton += 1 }
            mismatches += found
        }
        for mismatch in mismatches.prefix(20) { Issue.record("\(mismatch)") }
        #expect(mismatches.isEmpty)
        // Nearly every shipped pattern is small enough for an automaton.
        #expect(
            patterns.count > 1500 && withAutomaton * 100 >= patterns.count * 95, "\(withAutomaton)/\(patterns.count)")
    }

    @Test func generatedPatternsAutomataAnswerAsTheRun() throws {
        var generator = SeededGenerator(state: 2)
        var mismatches: [String] = []
        var built = 0
        for testCase in PatternCases.generated(count: 3000) {
            guard let (hasAutomaton, found) = try? Self.check(testCase.pattern, using: &generator) else { continue }
            if hasAutomaton { built += 1 }
            mismatches += found
        }
        for mismatch in mismatches.prefix(20) { Issue.record("\(mismatch)") }
        #expect(mismatches.isEmpty)
        #expect(built > 1000)
    }

    @Test func anchorsAndEmptyMatchesFollowTheRun() throws {
        var generator = SeededGenerator(state: 3)
        for source in [
            "", "$", "1$", "(?:1|$)", "(?:12|1)3?", "1(?:$|2)", "\\d*", "(?:)", "[2-9]\\d{2}$", "1?$|22", "(?:1$)?2",
        ] {
            let (built, mismatches) = try Self.check(source, using: &generator)
            #expect(built, "\(source)")
            #expect(mismatches.isEmpty, "\(mismatches)")
        }
    }

    @Test func aLongPatternWhoseBuildWouldTakeTooLongKeepsToTheRun() throws {
        // 961 instructions whose states each hold hundreds of them: past the work bound before the state bound.
        let pattern = try DigitPattern(String(repeating: "(?:\\d?){40}", count: 12))
        #expect(pattern.program.count <= DigitAutomaton.maximumProgram)
        #expect(pattern.compiled.automaton == nil)
        #expect(Array("1234567890".utf8).withUnsafeBufferPointer { pattern.matchesWhole($0) })
    }

    @Test func aPatternWhoseAutomatonWouldBeTooLargeKeepsToTheRun() throws {
        // (0|1)*0 followed by n digits needs 2^n states.
        let pattern = try DigitPattern("[01]*0[01]{9}")
        #expect(pattern.compiled.automaton == nil)
        #expect(Array("10000000000".utf8).withUnsafeBufferPointer { pattern.matchesWhole($0) })
    }
}
