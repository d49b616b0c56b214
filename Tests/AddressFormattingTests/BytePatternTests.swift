import FmtCore
import Foundation
import Testing

@testable import AddressFormatting

/// The byte matcher answers exactly as ICU's regex does: every shipped postal-code pattern compiles to it and agrees
/// with ICU on its example, on mutations of it and on generated strings; so do patterns covering each construct it
/// takes; and what it does not cover is left to ICU.
@Suite struct BytePatternTests {
    /// Every postal-code pattern and example of the shipped formats and overrides.
    static let shipped: [(pattern: String, example: String?)] = {
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data").path
        var found: [String: String?] = [:]
        for file in ["address-formats.json", "address-overrides.json"] {
            guard let data = FileManager.default.contents(atPath: data + "/" + file),
                let document = try? JSONReader.parse(Array(data))
            else { continue }
            collect(document, into: &found)
        }
        return found.map { ($0.key, $0.value) }.sorted { $0.pattern < $1.pattern }
    }()

    private static func collect(_ value: JSONValue, into found: inout [String: String?]) {
        switch value {
        case .object(let object):
            if case .string(let pattern)? = object["postalCode"]?.objectValue?["pattern"] {
                let example = object["example"]?.objectValue?["postalCode"]?.stringValue
                if found[pattern] == nil || found[pattern]! == nil { found[pattern] = example }
            }
            for member in object { collect(member.value, into: &found) }
        case .array(let values):
            for value in values { collect(value, into: &found) }
        default: break
        }
    }

    /// A fixed-seed generator, so a failure repeats.
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ -abcxy,:")

    /// The example, each one-character change, deletion and insertion of it, and random strings.
    static func samples(example: String?, count: Int, seed: UInt64) -> [String] {
        var generator = Generator(state: seed)
        var samples = ["", " ", "0", "A"]
        if let example {
            let characters = Array(example)
            samples.append(example)
            for index in characters.indices {
                var changed = characters
                changed[index] = alphabet[generator.next(alphabet.count)]
                samples.append(String(changed))
                var removed = characters
                removed.remove(at: index)
                samples.append(String(removed))
                var inserted = characters
                inserted.insert(alphabet[generator.next(alphabet.count)], at: index)
                samples.append(String(inserted))
            }
            samples.append(example + example)
        }
        for _ in 0..<count {
            let length = generator.next(12)
            samples.append(String((0..<length).map { _ in alphabet[generator.next(alphabet.count)] }))
        }
        return samples
    }

    static func compile(_ pattern: String) throws -> CompiledPattern {
        try CompiledPattern.compile(pattern).get()
    }

    static func expectAgreement(_ compiled: CompiledPattern, _ pattern: String, on samples: [String]) throws {
        let bytes = try #require(compiled.bytePattern, "\(pattern) has no byte matcher")
        for sample in samples {
            let icu = compiled.icuWholeMatch(sample)
            guard let answer = bytes.wholeMatch(sample) else {
                Issue.record("\(pattern) left \"\(sample)\" to ICU")
                continue
            }
            #expect(answer == icu, "\(pattern) on \"\(sample)\"")
        }
    }

    @Test func everyShippedPatternCompilesAndAgreesWithICU() throws {
        #expect(Self.shipped.count >= 50)
        for (offset, rule) in Self.shipped.enumerated() {
            let compiled = try Self.compile(rule.pattern)
            let samples = Self.samples(example: rule.example, count: 300, seed: UInt64(offset + 1))
            try Self.expectAgreement(compiled, rule.pattern, on: samples)
            if let example = rule.example {
                #expect(compiled.bytePattern?.wholeMatch(example) != .noMatch, "\(rule.pattern) rejects \(example)")
            }
        }
    }

    @Test(arguments: [
        "(a|ab)(c|bcd)(d*)", "(?:(a)|b)*c?", "x{2,}y", "[^0-9]+", "a{0,3}a", "(a)?(b)?", "([A-C]{1,2})(\\d)|(x)",
        "(?:ab|a)(?:bc|c)?", "[\\d,:-]+", "[ -]?\\d{2}", "(((a)b)c)?", "a|b|c|", "(x*)(x+)", "[a-c-]{2}",
        "\\-\\(?\\d", "0{3}(?:1|12)2?",
    ])
    func eachConstructAgreesWithICU(pattern: String) throws {
        let compiled = try Self.compile(pattern)
        var generator = Generator(state: UInt64(pattern.utf8.count))
        let letters = Array("abcdxy0129-, (")
        var samples = ["", "abcd", "abcdd", "xxy", "aaa", "ab", "abc", "x0", "-(1", "00012", "0012"]
        for _ in 0..<1500 {
            samples.append(String((0..<generator.next(8)).map { _ in letters[generator.next(letters.count)] }))
        }
        try Self.expectAgreement(compiled, pattern, on: samples)
    }

    @Test(arguments: [
        "a+?b", "\\w+", "[[a-z]&&[^x]]", "^a$", "a.c", "(?i)abc", "\\p{Nd}", "(?=a)a", "\\Q(\\E", "é", "a{2,3}?b",
    ])
    func whatItDoesNotCoverIsLeftToICU(pattern: String) throws {
        #expect(try Self.compile(pattern).bytePattern == nil)
    }

    @Test func nonASCIITextAndCostlyMatchesAreLeftToICU() throws {
        let digits = try Self.compile("\\d{5}")
        #expect(digits.bytePattern?.wholeMatch("٧٥٠٠١") == nil)
        #expect(digits.wholeMatch("٧٥٠٠١") == digits.icuWholeMatch("٧٥٠٠١"))
        let costly = try Self.compile(String(repeating: "[A-Z]*", count: 10) + "[0-9]")
        #expect(costly.bytePattern?.wholeMatch(String(repeating: "ABCDEFGH", count: 4)) == nil)
        #expect(costly.bytePattern?.wholeMatch("AB1") == costly.icuWholeMatch("AB1"))
    }
}

/// The branch guards skip a branch only where trying it must fail, and count its steps and backtracking entries as
/// if it had been tried: with and without them a match gives the same answer, the same groups, and stops at a limit
/// on the same texts (the plain backtracker is what the ICU differential tests above hold to ICU).
@Suite struct BranchGuardTests {
    static let patterns =
        BytePatternTests.shipped.map(\.pattern) + [
            "(a|ab)(c|bcd)(d*)", "(?:(a)|b)*c?", "x{2,}y", "(x*)(x+)", "a|b|c|", "(?:ab|a)(?:bc|c)?", "(a?)*b",
            "(?:)*a", "(|a)+b", "(?:x?){3}y", "((a)|(b))*", "[A-Z]*[A-Z]*[A-Z]*[A-Z]*[0-9]",
            String(repeating: "(?:a|b)?", count: 40) + "c",
        ] + (3...10).map { String(repeating: "[A-Z]*", count: $0) + "[0-9]" }
        + (2...8).map { String(repeating: "[A-Z]*AB", count: $0) + "[0-9]" }

    @Test func guardsChangeNoAnswerGroupOrLimit() throws {
        var generator = BytePatternTests.Generator(state: 5)
        let letters = Array("abcdxyABCXYZ0129- ")
        var guardedBranches = 0
        for pattern in Self.patterns {
            let guarded = try #require(BytePattern(pattern), "\(pattern)")
            let plain = try #require(BytePattern(pattern, guarded: false), "\(pattern)")
            if guarded.guardCount > 0 { guardedBranches += 1 }
            #expect(plain.guardCount == 0)
            var samples = ["", "a", "ab", String(repeating: "ABCDEFGH", count: 4), String(repeating: "ab", count: 16)]
            samples += BytePatternTests.samples(example: nil, count: 0, seed: 1)
            // Runs of letters that fail at the end, some just within the step limit and some just past it.
            samples += (1...32).flatMap {
                [String(repeating: "A", count: $0) + "-", String(repeating: "ab", count: $0)]
            }
            samples += (1...16).map { String(repeating: "AB", count: $0) + "-" }
            for _ in 0..<300 {
                samples.append(String((0..<generator.next(14)).map { _ in letters[generator.next(letters.count)] }))
            }
            let slotCount = 2 * (guarded.groupCount + 1)
            for sample in samples {
                var text = sample
                text.withUTF8 { utf8 in
                    var first = [Int32](repeating: 0, count: slotCount)
                    var second = [Int32](repeating: 0, count: slotCount)
                    let answer = first.withUnsafeMutableBufferPointer { guarded.wholeMatch(utf8, slots: $0) }
                    let expected = second.withUnsafeMutableBufferPointer { plain.wholeMatch(utf8, slots: $0) }
                    #expect(answer == expected, "\(pattern) on \"\(sample)\"")
                    if answer == true { #expect(first == second, "\(pattern) on \"\(sample)\"") }
                }
            }
        }
        #expect(guardedBranches > 20)
    }

    /// A loop whose body can take nothing runs until the step limit, so it is left to ICU; what the matcher does
    /// answer for such a pattern is ICU's answer.
    @Test(arguments: ["(a?)*b", "(?:)*a", "(|a)+b", "((a)|(b))*"])
    func aLoopThatTakesNothingIsAnsweredAsICUAnswers(pattern: String) throws {
        let compiled = try BytePatternTests.compile(pattern)
        let bytes = try #require(compiled.bytePattern)
        for sample in ["", "a", "b", "ab", "aab", "ba", "abab", "c"] {
            if let answer = bytes.wholeMatch(sample) { #expect(answer == compiled.icuWholeMatch(sample), "\(sample)") }
        }
    }
}
