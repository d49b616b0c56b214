import FmtCore
import FmtTesting
import Testing

@testable import NameServices

/// `sort` orders names with the requested locale's ICU collator. Expected orders follow CLDR's collation
/// tailorings (common/collation/<lang>.xml) over the root order (DUCET); every case is one that plain
/// code-point order gets wrong, which each test checks too so it cannot pass by accident.
@Suite struct CollationTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    func sort(_ names: [String], locale: String) throws -> (sorted: [String], order: [Int]) {
        let request: JSONValue = ["op": "sort", "locale": .string(locale), "names": JSONValue(names)]
        let response = try shipped.answer(JSONWriter.string(request))
        return (response.strings("sorted"), response.integers("order"))
    }

    func codePointOrder(_ names: [String]) -> [String] {
        names.sorted { Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes($1.unicodeScalars.map(\.value)) }
    }

    /// Collators are found by the locale's text: spellings of one tag agree, and other tags keep their own order.
    @Test func collatorsFoundByLocaleTextKeepEachTagsOrder() throws {
        let names = ["Örjan", "Åsa", "Zoe", "Ärla", "Anna"]
        for _ in 0..<2 {
            #expect(try sort(names, locale: "sv-SE").sorted == ["Anna", "Zoe", "Åsa", "Ärla", "Örjan"])
            #expect(try sort(names, locale: "sv_se").sorted == ["Anna", "Zoe", "Åsa", "Ärla", "Örjan"])
            #expect(try sort(names, locale: "en").sorted == ["Anna", "Ärla", "Åsa", "Örjan", "Zoe"])
            #expect(try sort(names, locale: "en-US").sorted == ["Anna", "Ärla", "Åsa", "Örjan", "Zoe"])
            #expect(try sort(["", "b", "", "a"], locale: "sv").order == [0, 2, 3, 1])
        }
    }

    @Test func lowerCasePrefixesSortWithTheirLetterAndStayAsEntered() throws {
        let names = ["van Dijk", "Dijkstra", "de Vries", "Bakker"]
        let expected = ["Bakker", "de Vries", "Dijkstra", "van Dijk"]
        let result = try sort(names, locale: "nl")
        #expect(result.sorted == expected)
        #expect(result.order == [3, 2, 1, 0])
        #expect(codePointOrder(names) != expected)
    }

    @Test func swedishPutsÅÄÖAfterZEvenWhenTheInterfaceFallsBackToEnglish() throws {
        // CLDR sv: &Z < å <<< Å < ä <<< Ä < ö <<< Ö (sv-SE is not an interface language: `lang` would be en).
        let names = ["Örjan", "Åsa", "Zoe", "Ärla", "Anna"]
        let expected = ["Anna", "Zoe", "Åsa", "Ärla", "Örjan"]
        #expect(try sort(names, locale: "sv-SE").sorted == expected)
        // The root order treats the rings and dots as accents on a and o: letters decide first.
        #expect(try sort(names, locale: "en").sorted == ["Anna", "Ärla", "Åsa", "Örjan", "Zoe"])
        #expect(codePointOrder(names) != expected)
    }

    @Test func danishSortsAaAsÅAfterÆAndØ() throws {
        // CLDR da: &[before 1]ǀ < æ <<< Æ ... < ø <<< Ø ... < å <<< Å <<< aa <<< Aa <<< AA.
        let names = ["Aalborg", "Zealand", "Ærø", "Ørsted", "Åbenrå", "Anders"]
        let expected = ["Anders", "Zealand", "Ærø", "Ørsted", "Åbenrå", "Aalborg"]
        #expect(try sort(names, locale: "da-DK").sorted == expected)
        #expect(codePointOrder(names) != expected)
    }

    @Test func germanPhonebookCollationKeywordSortsÜAsUe() throws {
        // CLDR de phonebook: &AE << ä <<< Ä &OE << ö <<< Ö &UE << ü <<< Ü; standard German treats ü as u.
        let names = ["Müller", "Muff", "Mueller"]
        #expect(try sort(names, locale: "de-u-co-phonebk").sorted == ["Mueller", "Müller", "Muff"])
        #expect(try sort(names, locale: "de").sorted == ["Mueller", "Muff", "Müller"])
        #expect(codePointOrder(names) != ["Mueller", "Müller", "Muff"])
    }

    @Test func polishŁFollowsL() throws {
        // DUCET gives ł its own primary weight after l, which CLDR pl keeps.
        let names = ["Łukasz", "Marek", "Lech", "Lucyna"]
        let expected = ["Lech", "Lucyna", "Łukasz", "Marek"]
        #expect(try sort(names, locale: "pl").sorted == expected)
        #expect(codePointOrder(names) != expected)
    }

    @Test func spanishÑIsALetterAfterN() throws {
        // CLDR es: &N < ñ <<< Ñ; in the root order ñ is n with a secondary difference.
        let names = ["Ñandú", "Oso", "Nube", "Nadia"]
        #expect(try sort(names, locale: "es").sorted == ["Nadia", "Nube", "Ñandú", "Oso"])
        #expect(try sort(names, locale: "en").sorted == ["Nadia", "Ñandú", "Nube", "Oso"])
        #expect(codePointOrder(names) != ["Nadia", "Nube", "Ñandú", "Oso"])
    }

    @Test func mixedScriptsFollowTheScriptOrderOfTheLocale() throws {
        // DUCET orders Latin < Greek < Cyrillic; CLDR ru reorders Cyrillic first.
        let names = ["Юлия", "Zoë", "Émile", "Σοφία", "Adam"]
        #expect(try sort(names, locale: "en").sorted == ["Adam", "Émile", "Zoë", "Σοφία", "Юлия"])
        #expect(try sort(names, locale: "ru").sorted == ["Юлия", "Adam", "Émile", "Zoë", "Σοφία"])
        #expect(codePointOrder(names) != ["Adam", "Émile", "Zoë", "Σοφία", "Юлия"])
    }

    @Test func nfcAndNfdSpellingsCompareEqualAndKeepTheirInputOrder() throws {
        let decomposed = "E\u{301}mile"
        let composed = "\u{C9}mile"
        let first = try sort([decomposed, "Emile", composed], locale: "fr")
        #expect(first.order == [1, 0, 2])
        #expect(
            first.sorted.map { Array($0.unicodeScalars) }
                == ["Emile", decomposed, composed].map { Array($0.unicodeScalars) })
        let swapped = try sort([composed, "Emile", decomposed], locale: "fr")
        #expect(swapped.order == [1, 0, 2])
        #expect(
            swapped.sorted.map { Array($0.unicodeScalars) }
                == ["Emile", composed, decomposed].map { Array($0.unicodeScalars) })
    }

    @Test func namesAreReturnedExactlyAsGiven() throws {
        let names = ["  de Vries ", "d'Artagnan", "O'Brien", ""]
        let result = try sort(names, locale: "nl")
        #expect(Set(result.sorted) == Set(names))
        #expect(result.order.map { names[$0] } == result.sorted)
    }

    @Test func moreThanTenThousandNamesIsAnInvalidField() throws {
        let names = JSONValue((0...NamesPlugin.maximumNames).map { "n\($0)" })
        let request = JSONWriter.string(["op": "sort", "locale": "nl", "names": names])
        #expect(shipped.failure(request)?.code == "invalid_field")
        #expect(shipped.failure(request)?.field == "names")
        let atLimit = JSONWriter.string([
            "op": "sort", "locale": "nl", "names": JSONValue((0..<NamesPlugin.maximumNames).map { "n\($0)" }),
        ])
        #expect(try shipped.answer(atLimit).integers("order").count == NamesPlugin.maximumNames)
    }

    @Test func sortRefusesMissingNamesAndMalformedTags() {
        #expect(shipped.failure(#"{"op":"sort","locale":"nl"}"#)?.field == "names")
        #expect(shipped.failure(#"{"op":"sort","locale":"nl","names":["a",1]}"#)?.field == "names")
        #expect(shipped.failure(#"{"op":"sort","locale":"en--GB","names":["a"]}"#)?.field == "locale")
    }
}

/// `sortKey` returns hex ICU sort keys; ordering stored keys by plain byte comparison must give the
/// collator's order, which random lists check against `sort`.
@Suite struct SortKeyTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    static let pieces = [
        "a", "A", "aa", "Aa", "å", "Å", "ä", "Ä", "æ", "ø", "ö", "o", "O", "e", "é", "E\u{301}", "ü", "ue", "u",
        "ß", "ss", "ł", "l", "L", "ñ", "n", "z", "Z", "ij", "IJ", " ", "-", "'", "de ", "van ", "Σ", "ω", "Я", "и",
        "李", "あ", "1", "2",
    ]

    func randomNames(_ count: Int, using generator: inout SeededGenerator) -> [String] {
        (0..<count).map { _ in
            (0..<Int.random(in: 1...5, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }
                .joined()
        }
    }

    @Test(arguments: ["nl", "sv", "da", "de-u-co-phonebk", "pl", "es", "ru", "ja"])
    func orderingByKeyBytesMatchesTheCollator(locale: String) throws {
        var generator = SeededGenerator(state: UInt64(locale.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for _ in 0..<20 {
            let names = randomNames(60, using: &generator)
            let sorted = try shipped.answer(
                JSONWriter.string(["op": "sort", "locale": .string(locale), "names": JSONValue(names)]))
            let keys =
                try shipped.answer(
                    JSONWriter.string(["op": "sortKey", "locale": .string(locale), "names": JSONValue(names)])
                )
                .strings("keys")
            #expect(keys.count == names.count)
            let byKey = names.indices.sorted { a, b in
                keys[a] != keys[b] ? keys[a].utf8.lexicographicallyPrecedes(keys[b].utf8) : a < b
            }
            #expect(byKey == sorted.integers("order"), "\(names)")
        }
    }

    @Test func singleNameGivesOneLowerCaseHexKeyAndTheCollationVersion() throws {
        let response = try shipped.answer(#"{"op":"sortKey","locale":"nl","name":"de Vries"}"#)
        let key = try #require(response["key"]?.stringValue)
        #expect(!key.isEmpty && key.count % 2 == 0)
        #expect(key.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        #expect(response["collationVersion"]?.stringValue?.isEmpty == false)
        #expect(response.keys == ["key", "collationVersion"])
    }

    @Test func canonicallyEquivalentSpellingsHaveTheSameKey() throws {
        let response = try shipped.answer(
            JSONWriter.string(["op": "sortKey", "locale": "fr", "names": ["E\u{301}mile", "\u{C9}mile"]]))
        let keys = response.strings("keys")
        #expect(keys.count == 2 && keys[0] == keys[1])
    }

    @Test func sortKeyWantsExactlyOneOfNameAndNames() {
        #expect(shipped.failure(#"{"op":"sortKey","locale":"nl"}"#)?.code == "invalid_field")
        #expect(shipped.failure(#"{"op":"sortKey","locale":"nl","name":"a","names":["b"]}"#)?.field == "names")
    }

    @Test func infoReportsTheICUCollationVersion() {
        #expect(shipped.dataInfo["collationVersion"]?.stringValue == ICUInfo.collationVersion)
        #expect(!ICUInfo.collationVersion.isEmpty)
    }
}
