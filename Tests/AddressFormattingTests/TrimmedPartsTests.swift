import Testing

@testable import AddressFormatting

/// `PlainText.forEachTrimmedPart`, which the careful lines and one-line values are written through, must give the
/// parts `split(whereSeparator: \.isNewline)` and `PlainText.trimmed` give on the same text as a `String`.
@Suite struct TrimmedPartsTests {
    static let samples: [String] =
        PlainTextTests.samples + [
            "Gebäude B\nStock 3", "a\r\n\r\nb", "\r", "\n\n", " a \r\n b ", "x\u{2029}\u{2028}y", "\u{85}", "é\u{85}",
            "a\u{0B}b\u{0C}c", " \n \n ", "แขวงลุมพินี เขตปทุมวัน", "ถนนราชดำริ\n494 ", "\u{301}\nabc \u{301}",
            "🇧🇪\n🇳🇱 ", "a\"b\\\nc\u{1}",
        ]

    /// The parts' bytes (compared as bytes: `String`'s `==` takes canonically equivalent text as equal).
    static func parts(_ text: String, splitting: Bool) -> [[UInt8]] {
        var text = text
        var parts: [[UInt8]] = []
        text.withUTF8 { utf8 in
            PlainText.forEachTrimmedPart(utf8, splitting: splitting) {
                parts.append(Array($0))
            }
        }
        return parts
    }

    @Test func splitPartsMatchStringSplitAndTrim() {
        for sample in Self.samples {
            let trimmed = sample.split(whereSeparator: \.isNewline).map(PlainText.trimmed)
            let reference = trimmed.filter { !$0.isEmpty }.map { Array($0.utf8) }
            #expect(Self.parts(sample, splitting: true) == reference, "\(sample.debugDescription)")
        }
    }

    @Test func wholeTextMatchesTrimmed() {
        for sample in Self.samples {
            let trimmed = PlainText.trimmed(sample)
            #expect(
                Self.parts(sample, splitting: false) == (trimmed.isEmpty ? [] : [Array(trimmed.utf8)]),
                "\(sample.debugDescription)"
            )
        }
    }
}
