import FmtCore
import FmtTesting
import Testing

@testable import NameServices

/// `language` exposes the core's resolution so callers and the apps agree on it.
@Suite struct LanguageTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    @Test func regionalTagMatchesItsBaseLanguageAndKeepsTheRegion() throws {
        let response = try shipped.answer(#"{"op":"language","tag":"nl-BE"}"#)
        #expect(
            response == ["language": "nl", "match": "base", "locale": "nl-BE", "supported": ["en", "nl", "de"]])
    }

    @Test func supportedLanguageIsAnExactMatch() throws {
        let response = try shipped.answer(#"{"op":"language","tag":"de"}"#)
        #expect(response["language"] == "de")
        #expect(response["match"] == "exact")
        #expect(response["locale"] == "de")
    }

    @Test func unsupportedLanguageFallsBackToEnglishKeepingTheRegion() throws {
        let response = try shipped.answer(#"{"op":"language","tag":"fr-FR"}"#)
        #expect(response["language"] == "en")
        #expect(response["match"] == "default")
        #expect(response["locale"] == "en-FR")
    }

    @Test func withoutATagItListsEachSupportedLanguageNamedInEveryLanguage() throws {
        // Display names from CLDR 42 (as shipped in ICU 72): English, Dutch, German in each language.
        let response = try shipped.answer(#"{"op":"language"}"#)
        #expect(response["supported"] == ["en", "nl", "de"])
        #expect(
            response["languages"] == [
                ["language": "en", "name": "English", "names": ["en": "English", "nl": "Engels", "de": "Englisch"]],
                [
                    "language": "nl", "name": "Nederlands",
                    "names": ["en": "Dutch", "nl": "Nederlands", "de": "Niederländisch"],
                ],
                ["language": "de", "name": "Deutsch", "names": ["en": "German", "nl": "Duits", "de": "Deutsch"]],
            ])
    }

    @Test func malformedTagIsAnInvalidTagField() {
        #expect(shipped.failure(#"{"op":"language","tag":"en--GB"}"#)?.field == "tag")
        #expect(shipped.failure(#"{"op":"language","tag":7}"#)?.field == "tag")
    }

    @Test func aPriorityListReportsTheEntryThatWonBesideTheMatch() throws {
        let response = try shipped.answer(#"{"op":"language","tag":["fr", null, "nl-BE", "de"]}"#)
        #expect(
            response == [
                "language": "nl", "match": "base", "index": 2, "locale": "nl-BE", "supported": ["en", "nl", "de"],
            ])
        let none = try shipped.answer(#"{"op":"language","tag":"fr-FR, es;q=0.5"}"#)
        #expect(none["index"] == .null)
        #expect(none["locale"] == "en-FR")
        // A single tag is not a list: no index, as before lists existed.
        #expect(try shipped.answer(#"{"op":"language","tag":"nl"}"#)["index"] == nil)
    }

    @Test func aMalformedListEntryIsNamedByIndexOnTag() {
        #expect(shipped.failure(#"{"op":"language","tag":["nl","en--GB"]}"#)?.field == "tag[1]")
        #expect(shipped.failure(#"{"op":"language","tag":"nl, de;q=1.1"}"#)?.field == "tag[1]")
    }
}
