import FmtCore
import FmtTesting
import Foundation
import Testing

/// `LanguageTag(parsing:)` reads a tag's bytes in one pass; `ReferenceLanguageTag` splits it as strings. Both give
/// the same tag, or both refuse, for every text: hand-picked edges and seeded random texts made of tag pieces.
@Suite struct LanguageTagDifferentialTests {
    static let edges = [
        "", "en", "EN", "nl_be", "nl-BE", "en--GB", "en-", "-en", "x", "123", "zh-Hant-TW", "zh-hant-tw", "sr-Latn-RS",
        "de-CH-1996", "de-1996", "en-u-co-phonebk", "en-u", "en-u-c", "en-x-a-b", "en-x", "en-a-bb-x-y", "i-klingon",
        "abcdefghi", "abcdefgh", "es-419", "es-41", "en-US-POSIX", "en-US-u-ca-gregory-x-priv", "en-GB-oed",
        "en-1234", "en-abcd", "en-Latn-US-12345", "ÅB", "en-ÅB", "en-U-CO-PHONEBK", "en-Q-ab-cd", "tlh-Latn", "und",
        String(repeating: "a-", count: 64) + "a", String(repeating: "ab-", count: 43),
    ]

    @Test(arguments: edges) func theFastParserAgreesWithTheReferenceOnEdges(_ text: String) {
        #expect(LanguageTag(parsing: text) == ReferenceLanguageTag.parse(text), "\(text)")
    }

    @Test func theFastParserAgreesWithTheReferenceOnRandomTexts() {
        var generator = SeededGenerator.forTest("LanguageTagDifferentialTests", seed: 20_261_204)
        let pieces = [
            "en", "NL", "zh", "Hant", "latn", "BE", "419", "1996", "u", "x", "co", "phonebk", "a", "abcdefgh",
            "abcdefghi", "12", "é", "", "Q", "ca", "gregory", "tlh", "5", "1234",
        ]
        var disagreements: [String] = []
        var parsed = 0
        for _ in 0..<20_000 {
            var text = ""
            for index in 0..<Int.random(in: 1...8, using: &generator) {
                if index > 0 { text += ["-", "_", "-", "-", "--", ""].randomElement(using: &generator)! }
                text += pieces.randomElement(using: &generator)!
            }
            let fast = LanguageTag(parsing: text)
            if fast != nil { parsed += 1 }
            if fast != ReferenceLanguageTag.parse(text) { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
        #expect(parsed > 1_000, "the random texts must include well-formed tags")
    }
}
