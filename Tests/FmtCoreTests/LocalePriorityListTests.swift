import Testing

@testable import FmtCore

/// Priority lists: a JSON array of tags or an `Accept-Language` value, resolved to the first entry whose language
/// is supported, with the winner's region or else the first region any entry names.
@Suite struct LocalePriorityListTests {
    static let resolver = LocaleResolver(supported: ["en", "nl", "de"])

    static func field(_ body: () throws(CoreError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.field
        }
    }

    // MARK: - The product's chain

    @Test func preferredNullFallsToTheMetadataLanguage() throws {
        let resolved = try Self.resolver.resolve(array: [.null, "nl"])
        #expect(resolved.language == "nl")
        #expect(resolved.match == .exact)
        #expect(resolved.index == 1)
        #expect(resolved.isList)
    }

    @Test func preferredLanguageWinsOverTheMetadata() throws {
        let resolved = try Self.resolver.resolve(array: ["de", "nl"])
        #expect(resolved.language == "de")
        #expect(resolved.index == 0)
    }

    @Test func bothMissingIsEnglishWithNoWinningEntry() throws {
        let resolved = try Self.resolver.resolve(array: [.null, .null])
        #expect(resolved.language == "en")
        #expect(resolved.match == .default)
        #expect(resolved.index == nil)
        #expect(resolved.tag == "en")
        #expect(resolved.requested == .english)
    }

    @Test func aSwissFrenchHeaderReadsGermanWithSwissConventions() throws {
        let resolved = try Self.resolver.resolve("fr-CH, fr;q=0.9, de;q=0.7")
        #expect(resolved.language == "de")
        #expect(resolved.match == .exact)
        #expect(resolved.index == 2)
        #expect(resolved.region == "CH")
        #expect(resolved.tag == "de-CH")
        #expect(resolved.icuLocale == "de_CH")
        // Collation and plural rules use the most preferred tag, French of Switzerland.
        #expect(resolved.requested.description == "fr-CH")
    }

    // MARK: - Accept-Language

    @Test(arguments: [
        // Higher q first; equal q in the order sent.
        ("nl;q=0.5, de;q=0.5, en;q=0.9", "en", 2),
        ("nl;q=0.5, de;q=0.5", "nl", 0),
        ("de;q=0.5, nl;q=0.5", "de", 0),
        ("fr, nl;q=0.1, de;q=0.2", "de", 2),
        // No weight is q=1; q=1.000 and Q= are valid spellings.
        ("de;q=0.999, nl", "nl", 1),
        ("de;Q=1.000, nl", "de", 0),
        // q=0 is "not this one", even when it is the only supported language.
        ("nl;q=0, fr", "en", -1),
        // Empty elements are skipped but keep their places in the numbering.
        (",, nl-BE ,", "nl", 2),
        // `*` is any language: English, or the first supported one not refused with q=0.
        ("fr, *;q=0.5, de;q=0.3", "en", 1),
        ("en;q=0, *", "nl", 1),
        ("en;q=0, nl;q=0, *", "de", 2),
        ("\tnl-BE,nl;q=0.9,en;q=0.8", "nl", 0),
    ])
    func ordersAcceptLanguageByQValue(header: String, language: String, index: Int) throws {
        let resolved = try Self.resolver.resolve(header)
        #expect(resolved.language == language, "\(header)")
        #expect(resolved.index == (index < 0 ? nil : index), "\(header)")
        #expect(resolved.isList)
    }

    @Test func theWinnersRegionIsKeptOverAnEarlierOne() throws {
        let resolved = try Self.resolver.resolve("fr-CH, de-AT;q=0.8")
        #expect(resolved.tag == "de-AT")
        #expect(resolved.match == .base)
    }

    @Test func withNoWinnerTheFirstRegionNamedIsKept() throws {
        let resolved = try Self.resolver.resolve(array: ["fr", "es-MX", "it-IT"])
        #expect(resolved.language == "en")
        #expect(resolved.tag == "en-MX")
        #expect(resolved.icuLocale == "en_001")
        #expect(resolved.requested.description == "fr")
    }

    @Test func theRequestedTagSkipsTheWildcardAndRefusedEntries() throws {
        #expect(try Self.resolver.resolve("*, sv;q=0.5").requested.description == "sv")
        #expect(try Self.resolver.resolve("sv;q=0, da").requested.description == "da")
        #expect(try Self.resolver.resolve("*").requested == .english)
    }

    @Test func aSingleTagIsNotAList() throws {
        let resolved = try Self.resolver.resolve("nl-BE")
        #expect(!resolved.isList)
        #expect(resolved.index == nil)
    }

    @Test(arguments: [
        ("nl, x", "locale[1]"),
        ("en, nl;q=2", "locale[1]"),
        ("en, nl;q=0.1234", "locale[1]"),
        ("en, nl;q=1.5", "locale[1]"),
        ("nl;q=, en", "locale[0]"),
        ("nl;level=1, en", "locale[0]"),
        ("en, nl;q=0.5;q=0.4", "locale[1]"),
        ("nl, , en--GB", "locale[2]"),
        ("en, **", "locale[1]"),
        // Without a comma there is one entry, named as the field itself.
        ("nl q=0.5", "locale"),
        ("nl;q=2", "locale"),
        ("*;q=x", "locale"),
    ])
    func refusesAMalformedElementByItsIndex(header: String, field: String) {
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(header) } == field, "\(header)")
    }

    // MARK: - Arrays

    @Test func arraysSkipNullAndEmptyEntriesAndCountThemInTheIndex() throws {
        let resolved = try Self.resolver.resolve(array: ["", .null, "fr-BE", "nl"])
        #expect(resolved.language == "nl")
        #expect(resolved.index == 3)
        #expect(resolved.tag == "nl-BE")
    }

    @Test func anEmptyArrayIsEnglish() throws {
        let resolved = try Self.resolver.resolve(array: [])
        #expect(resolved.language == "en")
        #expect(resolved.index == nil)
    }

    @Test func arraysRefuseAMalformedOrMistypedEntryByIndexEvenAfterAWinner() {
        #expect(
            Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(array: ["nl", "de", "x"]) }
                == "locale[2]")
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(array: ["nl", 7]) } == "locale[1]")
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(array: [["nl"]]) } == "locale[0]")
        // An entry holding a list is one malformed tag, not a nested list.
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(array: ["nl, de"]) } == "locale[0]")
    }

    @Test func anArrayAndAStringWithTheSameTextDoNotShareACacheEntry() throws {
        _ = try Self.resolver.resolve("de,nl")
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(array: ["de,nl"]) } == "locale[0]")
        #expect(try Self.resolver.resolve(array: ["de", "nl"]).language == "de")
    }

    /// A string is read as the text it is, whatever resolution an array left in the cache: `"\u00012:nl"` spells
    /// what an array's cache key once was, and stays a malformed tag before and after `["nl"]` is resolved.
    @Test func aStringSpelledLikeAnArraysCacheKeyIsStillAMalformedTag() throws {
        let resolver = LocaleResolver(supported: ["en", "nl", "de"])
        let spelled = "\u{01}2:nl"
        let line = #"{"op":"language","tag":"\u00012:nl"}"#
        for round in 0..<2 {
            if round == 1 { #expect(try resolver.resolve(array: ["nl"]).language == "nl") }
            #expect(Self.field { () throws(CoreError) in _ = try resolver.resolve(spelled, field: "tag") } == "tag")
            var copy = spelled
            let fromBytes = copy.withUTF8 { bytes in
                Self.field { () throws(CoreError) in _ = try resolver.resolve(utf8: bytes, field: "tag") }
            }
            #expect(fromBytes == "tag", "round \(round)")
            let request = try Array(line.utf8).withUnsafeBufferPointer { try Request(line: $0) }
            #expect(throws: (any Error).self, "round \(round)") { try request.fields.locale(resolver, field: "tag") }
        }
        // And the other way round: a string resolved first leaves nothing an array could find.
        let other = LocaleResolver(supported: ["en", "nl", "de"])
        #expect(try other.resolve("nl").language == "nl")
        #expect(try other.resolve(array: ["nl"]).isList)
        #expect(try !other.resolve("nl").isList)
    }

    /// Blank is not a locale: an `Accept-Language` value of only commas and white space names no language and is
    /// refused as `""` is, not read as English.
    @Test(arguments: [" ", ",", " , ", "\t", ",,", " ,\t, ", String(repeating: ",", count: 900)])
    func aBlankLocaleIsRefusedLikeAnEmptyOne(text: String) {
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(text) } == "locale", "\(text)")
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve("") } == "locale")
    }

    // MARK: - Bounds

    @Test func refusesMoreThanThirtyTwoEntries() throws {
        let most = [JSONValue](repeating: "fr", count: LocalePriorityList.maximumEntries)
        #expect(try Self.resolver.resolve(array: most).language == "en")
        let tooMany = most + ["nl"]
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(array: tooMany) } == "locale")
        let header = Array(repeating: "fr", count: LocalePriorityList.maximumEntries + 1).joined(separator: ",")
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve(header) } == "locale")
    }

    @Test func refusesAnAcceptLanguageValueLongerThanTheLimit() throws {
        let spaces = String(repeating: " ", count: LocalePriorityList.maximumAcceptLanguageBytes)
        #expect(Self.field { () throws(CoreError) in _ = try Self.resolver.resolve("nl," + spaces) } == "locale")
        // Many empty elements within the byte limit are skipped.
        let commas = String(repeating: ",", count: 900)
        #expect(try Self.resolver.resolve(commas + "nl").index == 900)
    }

    @Test func longListsResolveWithoutFillingTheCache() throws {
        let resolver = LocaleResolver(supported: ["en", "nl", "de"])
        let before = resolver.cachedCount
        for index in 0..<100 {
            let entries: [JSONValue] =
                (0..<31).map { _ in "zh-Hant-TW-u-co-stroke" } + [index.isMultiple(of: 2) ? "nl" : "de"]
            let header = entries.compactMap(\.stringValue).joined(separator: ", ") + ";q=0.\(index % 9 + 1)"
            #expect(try resolver.resolve(array: entries).language == (index.isMultiple(of: 2) ? "nl" : "de"))
            #expect(try resolver.resolve(header).language == (index.isMultiple(of: 2) ? "nl" : "de"))
        }
        #expect(resolver.cachedCount == before)
        _ = try resolver.resolve(array: [.null, "nl"])
        _ = try resolver.resolve("nl-BE, nl;q=0.9")
        #expect(resolver.cachedCount == before + 2)
    }

    // MARK: - The field reader

    @Test func theFieldReaderReadsEveryFormAndNamesTheEntryAtFault() throws {
        let request: JSONObject = ["locale": [.null, "nl"], "bad": ["nl", "x"], "number": 5]
        let fields = RequestFields(request)
        #expect(try fields.locale(Self.resolver).language == "nl")
        #expect(Self.field { () throws(CoreError) in _ = try fields.locale(Self.resolver, field: "bad") } == "bad[1]")
        #expect(
            Self.field { () throws(CoreError) in _ = try fields.locale(Self.resolver, field: "number") } == "number")
        let nested = try RequestFields(["viewer": ["locale": "fr, x"]]).object("viewer")!
        #expect(Self.field { () throws(CoreError) in _ = try nested.locale(Self.resolver) } == "viewer.locale[1]")
    }
}
