import FmtCore
import FmtTesting
import Testing

/// The rules `phone`'s `spoken` and `address`'s `spokenPostalCode` read numbers aloud by, and the first-strong
/// rule `linesDir`, `valueDir` and `message`'s `dir` follow.
@Suite struct SpokenTextTests {
    static let english = DigitWords(language: "en")!

    @Test func digitWordsAreICUsSpellOutInEnglishDutchAndGerman() throws {
        let expected = [
            "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
            "nl": ["nul", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"],
            "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
        ]
        for (language, words) in expected {
            let table = try #require(DigitWords(language: language))
            #expect((0..<10).map(table.word) == words, "\(language)")
            #expect(table.longest == words.map(\.utf8.count).max())
        }
    }

    @Test func digitsOfAGroupAreSeparatedBySpacesAndGroupsByCommas() {
        #expect(
            SpokenText.spoken("06 12345678", words: Self.english)
                == "zero six, one two three four five six seven eight")
        #expect(
            SpokenText.spoken("(201) 555-0123", words: Self.english)
                == "two zero one, five five five, zero one two three")
        // Several separators in a row make one group boundary; separators at the ends make none.
        #expect(SpokenText.spoken(" 1 - 2./3 ", words: Self.english) == "one, two, three")
        #expect(SpokenText.spoken("", words: Self.english) == "")
        #expect(SpokenText.spoken("- ()", words: Self.english) == "")
    }

    @Test func theTableReadingAgreesWithThePlainReadingOnRandomText() throws {
        var generator = SeededGenerator.forTest("theTableReadingAgreesWithThePlainReadingOnRandomText", seed: 35_035)
        // Digits, letters, separators and a plus in ASCII; Arabic-Indic and fullwidth digits, a Cyrillic and a
        // German letter, a combining mark, a letter whose capital is three scalars (ŉ), a non-breaking space.
        let pieces = Array("0123456789abcXYZ +-./()#") + ["٣", "７", "ж", "ß", "\u{301}", "ŉ", "\u{A0}", "中"]
        for language in ["en", "nl", "de"] {
            let words = try #require(DigitWords(language: language))
            for _ in 0..<2_000 {
                let length = Int.random(in: 0...24, using: &generator)
                let text = String((0..<length).map { _ in pieces.randomElement(using: &generator)! })
                for plus in [nil, "plus"] as [String?] {
                    #expect(
                        SpokenText.spoken(text, words: words, plus: plus)
                            == SpokenText.reference(text, words: words, plus: plus),
                        "\(language) \(text.debugDescription)")
                }
            }
        }
    }

    @Test func aLeadingPlusIsThePlusWordAndAnyOtherPlusSeparates() {
        #expect(SpokenText.spoken("+31 6 1", words: Self.english, plus: "plus") == "plus three one, six, one")
        #expect(SpokenText.spoken("1+2", words: Self.english, plus: "plus") == "one, two")
        // Without a plus word (a postal code) a `+` is a separator.
        #expect(SpokenText.spoken("+31", words: Self.english) == "three one")
    }

    @Test func lettersAreReadAsCapitalsAndOtherScriptsDigitsByTheirValue() {
        #expect(SpokenText.spoken("1017 CD", words: Self.english) == "one zero one seven, C D")
        #expect(SpokenText.spoken("sw1a 2aa", words: Self.english) == "S W one A, two A A")
        #expect(SpokenText.spoken("١٢٣", words: Self.english) == "one two three")
        #expect(SpokenText.spoken("ä1", words: Self.english) == "Ä one")
    }

    @Test func aPostalCodeIsReadWhenItHasALetterOrMoreThanFourDigits() {
        func reads(_ code: String) -> Bool {
            var code = code
            return code.withUTF8 { SpokenText.readsPostalCode($0) }
        }
        for code in ["1017 CD", "12345", "SW1A 2AA", "1000-205", "٦١٠٠٠", "H3Z 2Y7", "D02"] {
            #expect(reads(code), "\(code)")
        }
        for code in ["1000", "8010", "", "12-34", "٦١٠٠"] {
            #expect(!reads(code), "\(code)")
        }
    }

    @Test func wordsThatWouldNeedAJSONEscapeAreRefused() {
        var words = (0..<10).map(String.init)
        #expect(DigitWords(language: "x", words: words) != nil)
        words[3] = "th\"ree"
        #expect(DigitWords(language: "x", words: words) == nil)
        #expect(DigitWords(language: "x", words: Array(words.prefix(9))) == nil)
    }

    @Test func theFirstStrongCharacterDecidesTheDirection() {
        #expect(TextDirection.of("רחוב הרצל 12") == .rtl)  // Hebrew: R
        #expect(TextDirection.of("شارع التحرير") == .rtl)  // Arabic: AL
        #expect(TextDirection.of("15 شارع التحرير") == .rtl)  // digits are weak: the Arabic decides
        #expect(TextDirection.of("Herengracht 573") == .ltr)
        #expect(TextDirection.of("12 Main שלום") == .ltr)
        #expect(TextDirection.of("Москва") == .ltr)
        #expect(TextDirection.of("東京都") == .ltr)
        #expect(TextDirection.of("6100000") == .auto)
        #expect(TextDirection.of("٦١٠٠٠") == .auto)  // Arabic-Indic digits are AN, not strong
        #expect(TextDirection.of("") == .auto)
        #expect(TextDirection.of("12 - (3)") == .auto)
    }

    @Test func aJSONEscapeIsNotReadAsLetters() {
        func direction(_ json: String) -> TextDirection {
            var json = json
            return json.withUTF8 { TextDirection.of(jsonStringContent: $0) }
        }
        #expect(direction(#"12\u0001 שלום"#) == .rtl)
        #expect(direction(#"\n\t\"\\ 5"#) == .auto)
        #expect(direction(#"\nabc"#) == .ltr)
    }

    @Test func rightToLeftLanguagesAreICUs() {
        for language in ["ar", "he", "fa", "ur", "ar-EG"] { #expect(languageIsRightToLeft(language), "\(language)") }
        for language in ["en", "nl", "de", "ja", "az"] { #expect(!languageIsRightToLeft(language), "\(language)") }
        // By the script: Azerbaijani in Arabic script runs right to left.
        #expect(languageIsRightToLeft("az-Arab"))
    }
}
