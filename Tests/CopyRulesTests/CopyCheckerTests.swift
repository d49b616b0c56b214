import FmtCore
import Foundation
import Testing

@testable import CopyRules

/// Each copy rule, with the shipped `data/copy-rules.json`, catching a real violation and leaving a correct
/// message alone, in English, Dutch and German.
@Suite struct CopyCheckerTests {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data").path

    static let shipped: CopyRuleSet = {
        do {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dataDirectory + "/copy-rules.json")))
            return try CopyRuleSet(shipped: ("copy-rules.json", bytes), local: [])
        } catch {
            fatalError("the shipped copy rules do not load: \(error)")
        }
    }()

    /// The findings for one key's messages (language → pattern), as `(language, rule)` pairs.
    static func findings(_ patterns: [(String, String)], key: String = "app.screen.title") -> [CopyFinding] {
        let messages = patterns.map {
            CatalogueMessage(catalogue: "app", file: "app.\($0.0).json", language: $0.0, key: key, pattern: $0.1)
        }
        return CopyChecker.check(messages, rules: shipped)
    }

    static func rules(_ language: String, _ pattern: String) -> [CopyRule] {
        findings([(language, pattern)]).map(\.rule)
    }

    // MARK: - Exclamation marks

    @Test(arguments: [
        ("en", "Contacts imported!"), ("nl", "Contacten geïmporteerd!"), ("de", "Kontakte importiert!"),
        ("en", "{count, plural, one {# contact imported!} other {# contacts imported}}"),
        ("en", "Done'!'"),
        // After a `}` that closes nothing, which ICU prints as text.
        ("en", "Saved} done!"),
        ("en", "{g, SELECT, other {Done!}}"),
    ])
    func anExclamationMarkIsFound(language: String, pattern: String) {
        #expect(Self.rules(language, pattern) == [.exclamation], "\(pattern)")
    }

    @Test func anExclamationMarkInAnArgumentOrStyleIsNotText() {
        #expect(Self.rules("en", "{n, number, ::percent} done") == [])
    }

    // MARK: - Title Case

    @Test(arguments: [
        ("en", "Contacts Imported From {source}", "Imported"),
        ("en", "{name} Shared A Contact", "Shared"),
        ("en", "{count, plural, one {# Contact imported} other {# contacts imported}}", "Contact"),
        ("nl", "Contacten Geïmporteerd", "Geïmporteerd"),
        ("nl", "{name} heeft Je Uitgenodigd", "Je"),
        ("de", "Kontakte Aus {source} importiert", "Aus"),
        ("de", "{name} Hat dich eingeladen", "Hat"),
    ])
    func aTitleCaseHeadingIsFound(language: String, pattern: String, word: String) {
        let found = Self.findings([(language, pattern)])
        #expect(found.map(\.rule) == [.titleCase], "\(pattern)")
        #expect(found.first?.message.hasPrefix("\"\(word)\"") == true, "\(found)")
    }

    @Test(arguments: [
        ("en", "Syncing with Google failed"),
        ("en", "Import from iCloud, Outlook or a vCard file"),
        ("en", "Sync failed. Try again: Open the app"),
        ("en", "I removed the PDF and the ID"),
        ("en", "{count, plural, =0 {No possible duplicates found} one {# possible duplicate found} other {# found}}"),
        ("en", "{service, select, google {Syncing with Google failed} other {Syncing failed}}"),
        ("nl", "Synchroniseren met Google is mislukt"),
        ("nl", "{count, plural, =0 {Geen contacten} other {# contacten}} in je deelkring"),
        ("de", "{count, plural, =0 {Keine möglichen Duplikate gefunden} other {# mögliche Duplikate gefunden}}"),
        ("de", "{sender} hat {count, plural, one {einen Kontakt} other {# Kontakte}} mit dir geteilt"),
        ("de", "Dein Freigabekreis hat neue Angaben"),
    ])
    func sentenceCaseProperNounsAndGermanNounsPass(language: String, pattern: String) {
        #expect(Self.rules(language, pattern) == [], "\(pattern)")
    }

    // MARK: - Forbidden words

    @Test(arguments: [
        ("nl", "{name} heeft u uitgenodigd", "u"),
        ("nl", "U hebt een nieuwe connectie", "u"),
        ("nl", "Bekijk uw gegevens", "uw"),
        ("de", "{name} hat Sie eingeladen", "Sie"),
        ("de", "Wir haben Ihnen geschrieben", "Ihnen"),
        ("de", "Prüfe Ihre Angaben", "Ihre"),
    ])
    func aFormalWordIsFound(language: String, pattern: String, word: String) {
        let found = Self.findings([(language, pattern)])
        #expect(found.map(\.rule) == [.forbiddenWord], "\(pattern): \(found)")
        #expect(found.first?.message.hasPrefix("uses \"\(word)\"") == true, "\(found)")
    }

    @Test(arguments: [
        // Dutch: `u` only as a whole word.
        ("nl", "Je hebt uur na uur gewerkt aan jouw uitnodiging"),
        // German: `sie`/`ihr` in small letters are "she", "they", "her"; a capital at a sentence start is
        // ambiguous and not reported.
        ("de", "{name} hat sie und ihre Kontakte geteilt"),
        ("de", "Sie hat heute Geburtstag"),
        ("de", "{name} ist da. Ihr Geburtstag ist heute"),
        ("de", "{name} hat dich eingeladen"),
        ("en", "You and your contacts"),
    ])
    func informalAddressAndLookalikesPass(language: String, pattern: String) {
        #expect(Self.rules(language, pattern) == [], "\(pattern)")
    }

    @Test func anEnglishForbiddenPhraseFromALocalFileIsFoundAndItsNeighboursPass() throws {
        let shipped = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.dataDirectory + "/copy-rules.json")))
        let local = #"{"languages": {"en": {"forbidden": [{"word": "click here", "use": "select"}]}}}"#
        let rules = try CopyRuleSet(
            shipped: ("copy-rules.json", shipped), local: [("/etc/fmtd/copy-rules.d/web.json", Array(local.utf8))])
        func found(_ pattern: String) -> [CopyRule] {
            CopyChecker.check(
                [
                    CatalogueMessage(
                        catalogue: "web", file: "web.en.json", language: "en", key: "web.a.b", pattern: pattern)
                ],
                rules: rules
            ).map(\.rule)
        }
        #expect(found("To see it, click here") == [.forbiddenWord])
        #expect(found("{count, plural, one {Click here} other {Click Here}}") == [.titleCase, .forbiddenWord])
        #expect(found("Click the link here") == [])
        #expect(found("Here you can click") == [])
    }

    // MARK: - Glossary

    @Test func aTranslationMissingTheGlossaryTermIsFound() {
        let found = Self.findings([
            ("en", "{count, plural, one {# connection} other {# connections}} added to your sharing circle"),
            ("nl", "{count, plural, one {# verbinding} other {# verbindingen}} toegevoegd aan je deelkring"),
            ("de", "{count, plural, one {# Verbindung} other {# Verbindungen}} zu deinem Kreis hinzugefügt"),
        ])
        #expect(found.map(\.language) == ["nl", "de"])
        #expect(found.map(\.rule) == [.glossary, .glossary])
        #expect(found[0].message.contains("\"connection\"") && found[0].message.contains("\"connectie\""))
        #expect(found[1].message.contains("\"sharing circle\"") && found[1].message.contains("\"Freigabekreis\""))
    }

    @Test func inflectedGlossaryTermsInEveryLanguagePass() {
        let found = Self.findings([
            ("en", "{name} updated {count, plural, one {# detail} other {# details}} of a connected service"),
            (
                "nl",
                "{name} heeft {count, plural, one {# gegeven} other {# gegevens}} van een gekoppelde dienst bijgewerkt"
            ),
            (
                "de",
                "{name} hat {count, plural, one {# Angabe} other {# Angaben}} eines verbundenen Dienstes aktualisiert"
            ),
        ])
        #expect(found == [])
    }

    @Test func aGlossaryTermIsComparedWithinOneCatalogueAndKey() {
        let messages = [
            CatalogueMessage(catalogue: "a", file: "a.en.json", language: "en", key: "a.b.c", pattern: "A connection"),
            CatalogueMessage(
                catalogue: "b", file: "b.nl.json", language: "nl", key: "a.b.c", pattern: "Een verbinding"),
            CatalogueMessage(
                catalogue: "a", file: "a.nl.json", language: "nl", key: "a.b.d", pattern: "Een verbinding"),
        ]
        #expect(CopyChecker.check(messages, rules: Self.shipped) == [])
    }

    // MARK: - Keys

    @Test func aKeyNotShapedScreenElementVariantIsFoundOnceOnTheEnglishFile() {
        let found = Self.findings([("en", "Done"), ("nl", "Klaar")], key: "app.screen.title.long")
        #expect(found.map(\.rule) == [.keyShape])
        #expect(found.first?.file == "app.en.json")
        #expect(Self.findings([("en", "Done"), ("nl", "Klaar")], key: "contacts.details_updated") == [])
    }

    // MARK: - Findings

    @Test func aFindingNamesFileKeyLanguageAndRule() {
        let finding = Self.findings([("nl", "Bekijk uw gegevens")]).first
        #expect(finding?.description == #"app.nl.json: app.screen.title (nl): forbidden_word: uses "uw"; write "jouw""#)
    }

    @Test func aLanguageWithoutRulesGetsTheRulesEveryLanguageHas() {
        #expect(Self.rules("fr", "Contacts Importés!") == [.exclamation])
    }
}
