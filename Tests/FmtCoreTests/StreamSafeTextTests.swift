import FmtTesting
import Testing

@testable import FmtCore

/// The Stream-Safe check proves most text safe without ICU and answers as ICU's count does for every text: the
/// bounds it rests on are asked of ICU for every scalar, and random texts around the limit are checked both ways.
@Suite struct StreamSafeTextTests {
    /// Every scalar's decomposition: one that begins with a non-starter holds no starter and at most
    /// `nonStartersWithoutStarter` scalars, and is in the table; no run after a starter is longer than
    /// `nonStartersAfterStarter`. Both bounds are reached, so neither constant is looser than Unicode needs.
    @Test func theBoundsHoldForEveryScalar() throws {
        var mostWithoutStarter = 0
        var mostAfterStarter = 0
        var tabled = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let runs = try #require(StreamSafeText.nonStarterRuns(of: scalar), "U+\(String(value, radix: 16))")
            let inTable = StreamSafeText.leadingNonStarters.contains(value)
            if runs.leading > 0 {
                #expect(runs.leading == runs.parts, "U+\(String(value, radix: 16)) begins with marks, then a starter")
                mostWithoutStarter = max(mostWithoutStarter, runs.leading)
                tabled += 1
            }
            if inTable != (runs.leading > 0) {
                Issue.record("U+\(String(value, radix: 16)): table \(inTable), decomposition \(runs)")
            }
            if runs.leading > 0 { #expect(value >= 0x300) }
            mostAfterStarter = max(mostAfterStarter, runs.afterStarter)
        }
        #expect(mostWithoutStarter == StreamSafeText.nonStartersWithoutStarter)
        #expect(mostAfterStarter == StreamSafeText.nonStartersAfterStarter)
        #expect(tabled > 900)
        #expect(StreamSafeText.longestProvenRun == 13)
    }

    /// Pieces of text: plain and marked letters, scalars that decompose to marks, marks from every plane, and
    /// scripts whose letters are no marks (Cyrillic, Greek, CJK, Hangul, kana, Thai, Arabic, Devanagari).
    static let pieces: [String] = [
        "a", " ", "é", "\u{1F82}", "\u{1D5}", "\u{301}", "\u{316}", "\u{344}", "\u{F73}", "\u{F71}", "\u{3099}",
        "\u{1D165}", "\u{1E94A}", "\u{20D0}", "\u{E38}", "\u{64B}", "\u{93C}", "ж", "Ω", "東", "한", "が", "ก",
        "ل", "क", "🇳🇱", "\u{10FFFD}",
    ]

    @Test func answersAsICUsCountForRandomText() {
        var generator = SeededGenerator.forTest("answersAsICUsCountForRandomText", seed: 754780)
        let marks = ["\u{301}", "\u{316}", "\u{344}", "\u{F73}", "\u{3099}", "\u{1D165}", "\u{E38}"]
        var proven = 0
        var refused = 0
        for _ in 0..<4000 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<8, using: &generator) {
                text += Self.pieces.randomElement(using: &generator)!
            }
            // A run of marks around the limits: 13 or 14 proven or not, 15 to 31 by ICU's count.
            for _ in 0..<Int.random(in: 0..<32, using: &generator) { text += marks.randomElement(using: &generator)! }
            for _ in 0..<Int.random(in: 0..<4, using: &generator) {
                text += Self.pieces.randomElement(using: &generator)!
            }
            var copy = text
            copy.withUTF8 { bytes in
                let icu = StreamSafeText.icuViolation(bytes) < 0
                #expect(StreamSafeText.isSafe(bytes) == icu, "\(text.unicodeScalars.map { $0.value })")
                if StreamSafeText.isProvenSafe(bytes) {
                    #expect(icu, "proven safe, refused by ICU: \(text.unicodeScalars.map { $0.value })")
                    proven += 1
                }
                if !icu { refused += 1 }
            }
        }
        #expect(proven > 1000 && refused > 100)
    }

    @Test(arguments: [
        "ул. Тверская, д. 7, Москва", "東京都千代田区丸の内一丁目ガーデンタワー", "서울특별시 종로구 세종대로 209",
        "ถนนพระรามที่สี่แขวงปทุมวันเขตปทุมวันกรุงเทพมหานคร", "شارع الملك فهد، الرياض", "नई दिल्ली, महात्मा गांधी मार्ग",
        "Οδός Ερμού 12, Αθήνα", "a" + String(repeating: "\u{301}", count: 13),
    ])
    func provesRealTextSafeWithoutICU(text: String) {
        var copy = text
        #expect(copy.withUTF8 { StreamSafeText.isProvenSafe($0) })
    }

    @Test func fourteenMarksInARowGoToICU() {
        var text = "a" + String(repeating: "\u{301}", count: 14)
        #expect(!text.withUTF8 { StreamSafeText.isProvenSafe($0) })
        #expect(text.withUTF8 { StreamSafeText.isSafe($0) })
        text += String(repeating: "\u{316}", count: 17)
        #expect(!text.withUTF8 { StreamSafeText.isSafe($0) })
    }
}
