import Testing

@testable import PhoneNumbers

/// The parser reads a number's text as scalars decoded in one pass; they are exactly the text's own scalars.
@Suite struct TextRulesTests {
    @Test func aTextsScalarsAreDecodedAsSwiftDecodesThem() {
        let edges = [
            "", "a", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}",
            "\u{10000}", "\u{10FFFF}", "+31 \u{663}\u{FF11}\u{1D7D7} e\u{301}xt. 12",
            String(repeating: "\u{1F600}9", count: 300),
        ]
        let texts = edges + TextCases.generated(count: 2_000)
        for text in texts {
            #expect(TextRules.scalars(of: text) == Array(text.unicodeScalars), "\(text.debugDescription)")
        }
        let tail = String("xx\u{E9}+1 650 253 0000".dropFirst(2))
        #expect(TextRules.scalars(of: tail) == Array(tail.unicodeScalars))
    }
}
