import Testing

@testable import PhoneNumbers

/// The parser reads a number's text as scalars decoded in one pass into a buffer on the stack; they are exactly
/// the text's own scalars, and a text of more scalars than the limit is refused without decoding.
@Suite struct TextRulesTests {
    static func scalars(of text: String, limit: Int = .max) -> [Unicode.Scalar]? {
        TextRules.withScalars(of: text, limit: limit, factor: 2) { buffer, count in
            #expect(buffer.count >= 2 * count)
            return Array(buffer[..<count])
        }
    }

    @Test func aTextsScalarsAreDecodedAsSwiftDecodesThem() {
        let edges = [
            "", "a", "\u{7F}", "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{FFFF}",
            "\u{10000}", "\u{10FFFF}", "+31 \u{663}\u{FF11}\u{1D7D7} e\u{301}xt. 12",
            String(repeating: "\u{1F600}9", count: 300),
        ]
        let texts = edges + TextCases.generated(count: 2_000)
        for text in texts {
            #expect(Self.scalars(of: text) == Array(text.unicodeScalars), "\(text.debugDescription)")
        }
        let tail = String("xx\u{E9}+1 650 253 0000".dropFirst(2))
        #expect(Self.scalars(of: tail) == Array(tail.unicodeScalars))
    }

    /// The ASCII punctuation that RFC 3966 forms turn into `-` is upstream's: space, `( ) - . / [ ] x ~`, and no
    /// byte at or above 0x80 (a lead or continuation byte, never punctuation by itself).
    @Test func asciiPunctuationIsUpstreamsSet() {
        let expected = Set(" ()-./[]x~".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(TextRules.isASCIIPunctuation(byte) == expected.contains(byte), "\(byte)")
            if byte < 0x80 { #expect(TextRules.isPunctuation(Unicode.Scalar(byte)) == expected.contains(byte)) }
        }
    }

    @Test func aTextLongerThanTheLimitIsRefusedCountingScalarsNotBytes() {
        let accented = String(repeating: "\u{E9}", count: 250)
        #expect(Self.scalars(of: accented, limit: 250)?.count == 250)
        #expect(Self.scalars(of: accented + "1", limit: 250) == nil)
        #expect(Self.scalars(of: String(repeating: "1", count: 251), limit: 250) == nil)
        #expect(Self.scalars(of: "", limit: 250) == [])
    }
}
