import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import AddressFormatting

/// `PlainText.longestJoinedRun` bounds the grapheme clusters of entered text from above, in one pass over its
/// bytes, so a value whose clusters trimming would walk at length is refused before any walk.
@Suite struct JoinedRunTests {
    static func run(_ text: String) -> Int {
        Array(text.utf8).withUnsafeBufferPointer { PlainText.longestJoinedRun($0) }
    }

    /// The longest `Character` of `text`, in scalars.
    static func longestCluster(_ text: String) -> Int {
        text.map { $0.unicodeScalars.count }.max() ?? 0
    }

    /// Where the scan says grapheme breaking always breaks, it does: every scalar before each kind of scalar it
    /// breaks before (ASCII, whitespace, letters of its own cluster, Hangul syllables).
    @Test func everyBreakTheScanTakesIsABreakOfCharacter() {
        let after: [Unicode.Scalar] = [
            "a", "0", " ", "\n", "\u{A0}", "\u{3000}", "\u{E9}", "\u{416}", "\u{627}", "\u{E01}", "\u{3042}",
            "\u{4E2D}", "\u{AC00}", "\u{FF21}",
        ]
        var checked = 0
        for value in UInt32(0)...0x10FFFF {
            guard let previous = Unicode.Scalar(value) else { continue }
            let category = previous.properties.generalCategory
            if category == .unassigned || category == .privateUse { continue }
            for next in after where PlainText.breaksBefore(next.value, after: previous.value) {
                var text = String(previous)
                text.unicodeScalars.append(next)
                checked += 1
                if text.count != 2 {
                    Issue.record("U+\(String(value, radix: 16)) then U+\(String(next.value, radix: 16)) is one cluster")
                }
            }
        }
        #expect(checked > 1_000_000)
    }

    /// Seeded random text of joiners, marks, emoji, Prepends, jamo and letters: no cluster is longer than the bound.
    @Test func theRunBoundsEveryClusterOfRandomText() {
        let seed = ProcessInfo.processInfo.environment["FMTD_TEST_SEED"].flatMap { UInt64($0) } ?? 0x5EED_1234
        print("JoinedRunTests seed \(seed) (FMTD_TEST_SEED replays it)")
        var random = SeededGenerator(state: seed)
        let pieces: [String] = [
            "a", " ", "\u{200D}", "\u{1F468}", "\u{915}", "\u{94D}", "\u{600}", "\u{301}", "\u{FE0F}", "\u{1100}",
            "\u{1161}", "\u{11A8}", "\u{AC00}", "\u{1F1F3}", "\u{1F1F1}", "\r", "\n", "\u{E01}", "\u{E31}", "\u{A0}",
            "\u{3000}", "\u{627}", "\u{E0041}", "\u{1F3FB}", "\u{200C}", "\u{D4E}", "\u{9CD}", "\u{995}",
        ]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...40, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            let bound = Self.run(text)
            if Self.longestCluster(text) > bound {
                Issue.record("\(text.unicodeScalars.map { String($0.value, radix: 16) }): cluster over \(bound)")
            }
        }
    }

    @Test func realTextStaysFarBelowTheLimitAndHostileChainsReachIt() {
        for text in [
            "Grand Canal Street Lower", "प्रतिनिधित्व भवन", "திருவனந்தபுரம்", "👨‍👩‍👧‍👦 Familie", "서울특별시 종로구",
            "القاهرة الجديدة", "กรุงเทพมหานคร", "東京都千代田区", "\u{1F1F3}\u{1F1F1}",
        ] {
            #expect(Self.run(text) < 32, "\(text): \(Self.run(text))")
        }
        let emoji = "\u{1F468}" + String(repeating: "\u{200D}\u{1F468}", count: 200)
        let virama = "\u{915}" + String(repeating: "\u{94D}\u{915}", count: 200)
        let prepends = String(repeating: "\u{600}", count: 300) + "a"
        for text in [emoji, virama, prepends] {
            #expect(Self.run(text) > PlainText.maximumJoinedRun)
            #expect(Self.run(text) >= Self.longestCluster(text))
        }
    }
}
