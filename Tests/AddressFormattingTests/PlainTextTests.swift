import Testing

@testable import AddressFormatting

/// The byte-level shortcuts in `PlainText` must give exactly what the Swift standard library's `Character`
/// definitions give (the reference they stand in for), on ASCII and on text where graphemes matter.
@Suite struct PlainTextTests {
    static let samples: [String] = [
        "", " ", "\t\n", "\r\n", "Herengracht 573", "  Botermarkt 1 ", "1017CD", "1017  cd ", "\t1017\tcd\n",
        "Straße\n", " Malmö", "Zoë ", "a\r\nb", "line one\nline two", "a\u{85}b", "a\u{2028}b", "a\u{2029}",
        "\u{A0}Gent\u{A0}", "abc \u{301}", " \u{301}abc", "\u{301}", "x\u{0600}a", "\u{0600} a ",
        "🇧🇪 ", " 👩‍👩‍👧",
        "\u{0}a\u{7F}", "sw1a 1aa", "SW1A\u{2003}1AA", "k1a 0b1", "Ⅻ\u{3000}",
    ]

    @Test func trimmingMatchesCharacterWhitespace() {
        for sample in Self.samples {
            let reference: String
            if let first = sample.firstIndex(where: { !$0.isWhitespace }),
                let last = sample.lastIndex(where: { !$0.isWhitespace })
            {
                reference = String(sample[first...last])
            } else {
                reference = ""
            }
            #expect(PlainText.trimmed(sample).utf8.elementsEqual(reference.utf8), "\(sample.debugDescription)")
            #expect(PlainText.trimmed(sample[...]).utf8.elementsEqual(reference.utf8), "\(sample.debugDescription)")
        }
    }

    /// Text of letters from every script `PlainText.startsOwnCluster` takes, next to marks, joiners, jamo, Thai
    /// vowels, emoji, wide spaces and line breaks, in random order: trimming decided by the first and last
    /// scalar must match trimming whole characters.
    @Test func trimmingMatchesCharacterWhitespaceOnMixedScripts() {
        var random = SplitMix(seed: 3)
        let pieces = RenderingDefinitionTests.pieces
        for _ in 0..<20000 {
            var sample = ""
            for _ in 0...random.next(4) { sample += pieces[random.next(pieces.count)] }
            let reference = RenderingDefinitionTests.trimmed(sample[...])
            #expect(PlainText.trimmed(sample).utf8.elementsEqual(reference.utf8), "\(sample.debugDescription)")
            if Array(sample.utf8).withUnsafeBufferPointer({ PlainText.hasCleanEnds($0) }) {
                #expect(reference.utf8.elementsEqual(sample.utf8), "\(sample.debugDescription)")
            }
        }
    }

    /// Thai text ends in a consonant or vowel, or in marks after one: trimming decided by its last scalars must
    /// match trimming whole characters, next to spaces, marks alone and other scripts.
    @Test func trimmingThaiMatchesCharacterWhitespace() {
        var random = SplitMix(seed: 11)
        let pieces = [
            "ถนนราชดำริ", "แขวงลุมพินี", "เขตปทุมวัน", "กรุงเทพมหานคร", "ก", "เ", "\u{E31}", "\u{E33}", "\u{E38}\u{E48}",
            "\u{E4E}", "\u{E2F}", "\u{E3F}", "\u{E4F}", "\u{E5B}", " ", "\u{3000}", "\u{A0}", "a", "e\u{301}",
            "\u{200D}", "\u{0600}",
        ]
        for _ in 0..<20000 {
            var sample = ""
            for _ in 0...random.next(4) { sample += pieces[random.next(pieces.count)] }
            let reference = RenderingDefinitionTests.trimmed(sample[...])
            #expect(PlainText.trimmed(sample).utf8.elementsEqual(reference.utf8), "\(sample.debugDescription)")
        }
    }

    /// The Thai letters `startsOwnCluster` takes start a cluster after a letter, and the marks `isThaiMark` names
    /// join the one before them, as the standard library breaks them.
    @Test func thaiLettersAndMarksBreakAsTheStandardLibraryBreaks() {
        for value in UInt32(0xE01)...0xE5B {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
            let joins = "\u{E01}\(String(scalar))".count == 1
            if PlainText.startsOwnCluster(value) { #expect(!joins, "U+\(String(value, radix: 16))") }
            #expect(joins == PlainText.isThaiMark(value), "U+\(String(value, radix: 16))")
        }
    }

    /// `scalar(_:at:)` reads a sequence as `UTF8`'s decoder does: every lead byte with every second byte, and the
    /// bytes after it of a sample, well-formed or not, at the end of the text or short of it.
    @Test func scalarsAreDecodedAsTheStandardLibraryDecodesThem() {
        let tails: [[UInt8]] = [[], [0x80], [0xBF], [0x41], [0x80, 0x80], [0xBF, 0xBF], [0x8F, 0x41], [0xC0, 0x80]]
        for lead in UInt8(0)...0xFF {
            for second in UInt8(0)...0xFF {
                for tail in tails {
                    let bytes = [lead, second] + tail
                    var iterator = bytes.makeIterator()
                    var decoder = UTF8()
                    let expected: UInt32? =
                        if case .scalarValue(let scalar) = decoder.decode(&iterator) { scalar.value } else { nil }
                    let scalar = bytes.withUnsafeBufferPointer { PlainText.scalar($0, at: 0) }
                    #expect(scalar == expected, "\(bytes)")
                }
            }
            let alone = [lead].withUnsafeBufferPointer { PlainText.scalar($0, at: 0) }
            #expect(alone == (lead < 0x80 ? UInt32(lead) : nil), "\(lead)")
        }
    }

    @Test func whitespaceScalarsAreTheStandardLibrarys() {
        // Every White_Space scalar is in the Basic Multilingual Plane: all of it, and a sample of the planes above.
        for value in Array(UInt32(0)...0xFFFF) + Array(stride(from: UInt32(0x10000), through: 0x10FFFF, by: 97)) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if PlainText.isWhitespace(value) != scalar.properties.isWhitespace {
                Issue.record("U+\(String(value, radix: 16, uppercase: true))")
            }
        }
    }

    @Test func lineBreakDetectionMatchesCharacterNewline() {
        for sample in Self.samples {
            #expect(PlainText.hasLineBreak(sample) == sample.contains(where: \.isNewline), "\(sample.debugDescription)")
        }
    }

    @Test func collapsingMatchesSplittingOnCharacterWhitespace() {
        for sample in Self.samples {
            let reference = sample.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(
                PlainText.collapsedWhitespace(sample).utf8.elementsEqual(reference.utf8), "\(sample.debugDescription)")
        }
    }

    @Test func upperCasingMatchesTheStandardLibrary() {
        for sample in Self.samples {
            #expect(PlainText.uppercased(sample).utf8.elementsEqual(sample.uppercased().utf8))
        }
    }

    @Test func fieldNamesResolveAsTheirRawValuesDo() {
        let keys = AddressField.allCases.map(\.rawValue) + ["country", "Name", "cityy", "", "postalcode", "regio"]
        for key in keys {
            #expect(AddressField.named(key) == AddressField(rawValue: key), "\(key)")
        }
    }
}
