import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import PhoneFormatting

/// `phone`'s `spoken` and `spokenLang`: `display` read aloud in the language `locale` resolves to.
@Suite struct SpokenPhoneTests {
    let plugin: PhonePlugin

    init() throws {
        plugin = try loadPlugin(PhonePlugin.self)
    }

    @Test func theDisplayIsReadDigitByDigitInTheViewersLanguage() throws {
        for (locale, spoken, lang) in [
            (nil, "zero six, one two three four five six seven eight", "en"),
            ("nl-BE", "nul zes, een twee drie vier vijf zes zeven acht", "nl"),
            ("de", "null sechs, eins zwei drei vier fünf sechs sieben acht", "de"),
            ("fr-FR", "zero six, one two three four five six seven eight", "en"),
        ] {
            let localeMember = locale.map { #","locale":""# + $0 + "\"" } ?? ""
            let response = try plugin.answer(
                #"{"op":"phone","number":"06 12345678","defaultRegion":"NL","viewerRegion":"NL""# + localeMember + "}")
            #expect(response["spoken"]?.stringValue == spoken, "\(locale ?? "-")")
            #expect(response["spokenLang"]?.stringValue == lang, "\(locale ?? "-")")
        }
    }

    @Test func aLeadingPlusAndAnExtensionAreReadWithTheLanguagesWords() throws {
        let response = try plugin.answer(
            #"{"op":"phone","number":"+31 20 123 4567 ext. 89","viewerRegion":"BE","locale":"nl"}"#)
        #expect(response["display"] == "+31 20 123 4567 ext. 89")
        #expect(response["spoken"] == "plus drie een, twee nul, een twee drie, vier vijf zes zeven, toestel acht negen")
    }

    @Test func spokenAndSpokenLangComeLastAndPhoneExampleHasThem() throws {
        let response = try plugin.answer(#"{"op":"phoneExample","region":"US","locale":"de-AT"}"#)
        #expect(
            response.keys == [
                "valid", "e164", "region", "type", "national", "international", "rfc3966", "display", "extension",
                "possible", "possibleReason", "dialFrom", "spoken", "spokenLang",
            ])
        #expect(response["display"] == "(201) 555-0123")
        #expect(response["spoken"] == "zwei null eins, fünf fünf fünf, null eins zwei drei")
        #expect(response["spokenLang"] == "de")
    }

    @Test func aMalformedLocaleIsRefusedNamingIt() {
        #expect(
            plugin.failure(
                #"{"op":"phone","number":"06 12345678","defaultRegion":"NL","viewerRegion":"NL","locale":5}"#)?
                .field == "locale")
        #expect(plugin.failure(#"{"op":"phoneExample","region":"NL","locale":"--"}"#)?.field == "locale")
    }

    @Test func theExtensionIsTakenOffTheDisplayOnlyWhereTheDisplayEndsWithIt() {
        let english = PhoneSpeech.english
        func spell(_ display: String, _ phoneExtension: String?) -> String {
            var display = display
            var phoneExtension = phoneExtension
            return display.withUTF8 { displayBytes in
                func run(_ extensionBytes: UnsafeBufferPointer<UInt8>?) -> String {
                    let capacity = PhoneSpeech.capacity(english, display: displayBytes, phoneExtension: extensionBytes)
                    return String(
                        decoding: [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                            count = PhoneSpeech.spell(
                                english, display: displayBytes, phoneExtension: extensionBytes, into: buffer)
                        }, as: UTF8.self)
                }
                guard phoneExtension != nil else { return run(nil) }
                return phoneExtension!.withUTF8 { run($0) }
            }
        }
        #expect(spell("020 123 ext. 12", "12") == "zero two zero, one two three, extension one two")
        #expect(spell("020 123 доб. 12", "12") == "zero two zero, one two three, extension one two")
        // A display that does not end with the extension is read whole, the extension after it.
        #expect(spell("020 123", "4") == "zero two zero, one two three, extension four")
        #expect(spell("", "4") == "extension four")
    }

    @Test func aServedLanguageWithoutItsWordsIsRefusedAtLoadNamingFileAndKey() throws {
        let copy = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: Paths.dataDirectory, toPath: copy.path)
        let path = copy.path + "/translations/nl.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: #""phone.spoken.plus": "plus""#, with: #""phone.spoken.plus": "pl\"us""#)
            .write(toFile: path, atomically: true, encoding: .utf8)
        expectLoadRefuses(copy.path, field: "phone.spoken.plus")
        try text.replacingOccurrences(of: #""phone.spoken.extension": "toestel","#, with: "")
            .write(toFile: path, atomically: true, encoding: .utf8)
        expectLoadRefuses(copy.path, field: "phone.spoken.extension")
    }

    /// Whether loading the plugin from `directory` fails naming `field` of `translations/nl.json`.
    private func expectLoadRefuses(
        _ directory: String, field: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sourceLocation: sourceLocation) {
            try PhonePlugin(
                loading: DataStore(source: .directory(directory), localDirectory: nil),
                environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"])))
        } throws: { error in
            guard let error = error as? DataError else { return false }
            return error.file == "translations/nl.json" && error.field == field
        }
    }
}
