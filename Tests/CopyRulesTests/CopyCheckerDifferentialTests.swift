import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import CopyRules

/// The compiled checker against the plain one it replaced (`ReferenceCopyChecker`): on random rules and random
/// catalogues drawn from a small vocabulary that makes terms, inflections and case folding collide (decomposed
/// and precomposed letters, `İ` and `ß`, whose lower case is longer, Hangul jamo, Devanagari marks), both find the
/// same findings in the same order with the same text. The catalogues quote the rules' own terms, some inflected,
/// and some glossaries are long enough that their words pass the matcher's 64-bit machine words. The seed is
/// printed; `FMTD_TEST_SEED=<seed>` replays a run or draws another.
@Suite struct CopyCheckerDifferentialTests {
    @Test func theCompiledCheckerFindsWhatTheReferenceFinds() throws {
        let seed = ProcessInfo.processInfo.environment["FMTD_TEST_SEED"].flatMap { UInt64($0) } ?? 0x5EED_C0DE
        print("CopyCheckerDifferentialTests seed \(seed) (FMTD_TEST_SEED replays it)")
        var random = SeededGenerator(state: seed)
        var found: [CopyRule: Int] = [:]
        for number in 0..<400 {
            let rules = try Self.rules(&random)
            let messages = Self.catalogue(&random, quoting: Self.phrases(rules))
            let expected = ReferenceCopyChecker.check(messages, rules: rules)
            let actual = CopyChecker.check(messages, rules: rules)
            for finding in expected { found[finding.rule, default: 0] += 1 }
            guard actual == expected else {
                Issue.record(
                    """
                    case \(number) of FMTD_TEST_SEED=\(seed) differs
                    rules: \(rules.languages)
                    messages: \(messages.map { "\($0.language) \($0.key): \($0.pattern)" })
                    reference: \(expected.map(\.description))
                    compiled:  \(actual.map(\.description))
                    """)
                return
            }
        }
        print("CopyCheckerDifferentialTests: findings by rule \(found.sorted { $0.key < $1.key })")
        // Random cases that never find anything would compare nothing: each rule must be found.
        #expect(Set(found.keys) == Set(CopyRule.allCases), "findings by rule \(found) (seed \(seed))")
    }

    /// Words that collide: inflected forms of each other, the same letters in another case or normalization, and
    /// letters whose lower case or clusters differ in length from their spelling.
    static let vocabulary = [
        "ab", "Ab", "AB", "abs", "aben", "abe", "abes", "abt", "detail", "details", "Detail", "gegeven", "gegevens",
        "u", "U", "uw", "Sie", "sie", "Ihr", "ihr", "Ihre", "der", "Der", "die", "hat", "Hat", "Google", "google",
        "iCloud", "I", "PDF", "caf\u{E9}", "cafe\u{301}", "Caf\u{E9}", "CAFE\u{301}s", "\u{130}stanbul", "istanbul",
        "stra\u{DF}e", "Stra\u{DF}e", "STRASSE", "\u{1C5}ungla", "\u{1100}\u{1161}", "\u{AC00}", "\u{AC00}s",
        "\u{915}\u{93F}", "\u{915}", "don't", "e-mail", "E-Mail", "x1", "kring", "deelkring", "kringen", "ern",
    ]

    /// Endings, some of them spelled alike in other normalizations or made of combining letters.
    static let endings = ["s", "en", "n", "e", "es", "er", "ern", "t", "\u{E9}", "\u{1161}", "ss", "abs"]

    static func pick<T>(_ items: [T], _ random: inout SeededGenerator) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }

    static func chance(_ percent: UInt64, _ random: inout SeededGenerator) -> Bool {
        random.next() % 100 < percent
    }

    static func term(_ random: inout SeededGenerator, words: ClosedRange<Int> = 1...3) -> String {
        let count = words.lowerBound + Int(random.next() % UInt64(words.count))
        return (0..<count).map { _ in pick(vocabulary, &random) }.joined(separator: " ")
    }

    static func list(
        _ count: Int, _ random: inout SeededGenerator, _ element: (inout SeededGenerator) -> String
    ) -> String {
        (0..<Int(random.next() % UInt64(count + 1))).map { _ in element(&random) }.joined(separator: ",")
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Random rules for some of `en`, `nl`, `de`, `fr`, loaded as a rules file is (so only rules that load).
    static func rules(_ random: inout SeededGenerator) throws -> CopyRuleSet {
        var languages: [String] = []
        for code in ["en", "nl", "de", "fr"] where chance(70, &random) {
            var members: [String] = []
            members.append(#""capitalization":"# + quoted(pick(["sentence", "sentence", "nouns", "none"], &random)))
            members.append(
                #""properNouns":["# + list(6, &random) { quoted(term(&$0, words: 1...2)) } + "]")
            members.append(
                #""inflections":["# + list(5, &random) { quoted(pick(endings, &$0)) } + "]")
            members.append(
                #""lowercaseWords":["#
                    + list(6, &random) { quoted(pick(vocabulary, &$0).lowercased()) } + "]")
            members.append(
                #""forbidden":["#
                    + list(5, &random) {
                        "{\"word\":\(quoted(term(&$0, words: 1...2))),\"use\":\(quoted(pick(vocabulary, &$0))),"
                            + "\"matchCase\":\(chance(40, &$0))}"
                    } + "]")
            if code != "en" {
                // Mostly a few terms; a quarter of the time enough that their words pass bits 64 and 128.
                let long = chance(25, &random)
                let count = long ? 20 + Int(random.next() % 60) : Int(random.next() % 7)
                var seen: Set<String> = []
                let entries = (0..<count).compactMap { _ -> String? in
                    let english = term(&random, words: long ? 1...6 : 1...3)
                    guard seen.insert(english).inserted else { return nil }
                    return quoted(english) + ":" + quoted(term(&random, words: long ? 1...6 : 1...3))
                }
                members.append(#""glossary":{"# + entries.joined(separator: ",") + "}")
            }
            languages.append(quoted(code) + ":{" + members.joined(separator: ",") + "}")
        }
        let file = #"{"languages":{"# + languages.joined(separator: ",") + "}}"
        do {
            return try CopyRuleSet(shipped: ("copy-rules.json", Array(file.utf8)), local: [])
        } catch {
            // Lower-casing may make two spellings of a term one, and an ending may not be a letter: draw again.
            return try rules(&random)
        }
    }

    /// Every term of `rules`: proper nouns, forbidden phrases, the glossary's terms in English and translated.
    static func phrases(_ rules: CopyRuleSet) -> [String] {
        rules.languages.keys.sorted().flatMap { code in
            let language = rules.languages[code]!
            return language.properNouns + language.forbidden.map(\.text) + language.glossaryOrder
                + language.glossaryOrder.compactMap { language.glossary[$0] }
        }
    }

    /// A few keys of a few catalogues, each in some of the languages: words, the rules' `phrases` (some with an
    /// ending), punctuation that opens sentences, placeholders and plural/select branches.
    static func catalogue(_ random: inout SeededGenerator, quoting phrases: [String]) -> [CatalogueMessage] {
        var messages: [CatalogueMessage] = []
        for catalogue in ["app", "web"].prefix(1 + Int(random.next() % 2)) {
            for key in ["\(catalogue).a.b", "\(catalogue).c", "\(catalogue).d.e.f"].prefix(1 + Int(random.next() % 3)) {
                for language in ["en", "nl", "de", "fr"] where chance(75, &random) {
                    messages.append(
                        CatalogueMessage(
                            catalogue: catalogue, file: "\(catalogue).\(language).json", language: language, key: key,
                            pattern: pattern(&random, depth: 0, quoting: phrases)))
                }
            }
        }
        return messages
    }

    static func pattern(_ random: inout SeededGenerator, depth: Int, quoting phrases: [String]) -> String {
        var text = ""
        for _ in 0..<(1 + Int(random.next() % 12)) {
            switch random.next() % 20 {
            case 0: text += pick([". ", "! ", ": ", "? ", "\n", ", ", " - ", "\u{2026} "], &random)
            case 1: text += "{name} "
            case 2 where depth < 2:
                let kind = pick(["plural", "select"], &random)
                let first = pattern(&random, depth: depth + 1, quoting: phrases)
                let second = pattern(&random, depth: depth + 1, quoting: phrases)
                text += "{n, \(kind), one {\(first)} other {\(second)}} "
            case 3...5 where !phrases.isEmpty:
                text += pick(phrases, &random) + (chance(30, &random) ? pick(endings, &random) : "") + " "
            default: text += pick(vocabulary, &random) + " "
            }
        }
        return text
    }
}
