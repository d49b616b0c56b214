import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import NameServices

/// `message` renders catalogue strings server-side in the viewer's language with ICU MessageFormat,
/// falling back to English and never rendering a raw key.
@Suite struct MessageTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    func text(
        _ key: String, _ locale: String, _ args: JSONValue, plugin: NamesPlugin? = nil
    ) throws
        -> JSONObject
    {
        let request: JSONValue = ["op": "message", "key": .string(key), "locale": .string(locale), "args": args]
        return try (plugin ?? shipped).answer(JSONWriter.string(request))
    }

    @Test func issueExampleInDutch() throws {
        let response = try text("contacts.details_updated", "nl", ["count": 2, "name": "Anna"])
        #expect(response == ["lang": "nl", "text": "Anna heeft 2 gegevens bijgewerkt", "dir": "ltr"])
    }

    @Test func pluralFormsFollowTheLanguageOfTheText() throws {
        #expect(
            try text("contacts.details_updated", "nl", ["count": 1, "name": "Anna"])["text"]
                == "Anna heeft 1 gegeven bijgewerkt")
        #expect(
            try text("contacts.details_updated", "en", ["count": 1, "name": "Anna"])["text"] == "Anna updated 1 detail")
        #expect(
            try text("contacts.details_updated", "de-AT", ["count": 3, "name": "Jörg"])["text"]
                == "Jörg hat 3 Angaben aktualisiert")
        #expect(
            try text("contacts.duplicates.found", "de", ["count": 0])["text"] == "Keine möglichen Duplikate gefunden")
    }

    @Test func numbersUseTheLanguagesGroupingSeparator() throws {
        // CLDR: the grouping separator is "," in en and "." in nl and de.
        #expect(
            try text("contacts.import.finished", "en", ["count": 1200, "source": "vCard"])["text"]
                == "1,200 contacts imported from vCard")
        #expect(
            try text("contacts.import.finished", "nl", ["count": 1200, "source": "vCard"])["text"]
                == "1.200 contacten geïmporteerd uit vCard")
        #expect(
            try text("contacts.import.finished", "de", ["count": 1200, "source": "vCard"])["text"]
                == "1.200 Kontakte aus vCard importiert")
    }

    @Test func selectChoosesByString() throws {
        #expect(
            try text("sync.status.failed", "nl", ["service": "google"])["text"]
                == "Synchroniseren met Google is mislukt")
        #expect(try text("sync.status.failed", "en", ["service": "carddav"])["text"] == "Syncing failed")
    }

    @Test func unsupportedLanguageGetsEnglish() throws {
        let response = try text("contacts.birthday.today", "fr-FR", ["name": "Zoë"])
        #expect(response == ["lang": "en", "text": "Zoë has a birthday today", "dir": "ltr"])
    }

    /// The language is remembered by the locale's text: one plugin answers a run of locales (spellings of one tag,
    /// an unsupported one, none, a priority list), twice over and read flat as the daemon reads them, as a fresh
    /// plugin answers each; values with a NUL, quotes or nothing in them reach ICU whole.
    @Test func languagesRememberedByTheLocalesTextAnswerAsFreshOnes() throws {
        func flat(_ plugin: NamesPlugin, _ line: String) throws -> [UInt8] {
            let request = try Array(line.utf8).withUnsafeBufferPointer { try Request(line: $0) }
            var writer = ResponseWriter(bytes: [UInt8(ascii: "{")])
            try plugin.handle(request, into: &writer)
            return writer.bytes
        }
        let locales: [JSONValue?] = ["nl", "NL", "nl-BE", "fr-FR", "de", nil, ["fr", "de"], ["de", "nl"], "en-US"]
        var lines: [String] = []
        for locale in locales {
            for name in ["Anna", "", "a\u{0}b", "\"q\" \\ ü"] {
                var request: JSONObject = ["op": "message", "key": "contacts.details_updated"]
                if let locale { request.append("locale", locale) }
                request.append("args", ["count": 3, "name": .string(name)])
                lines.append(JSONWriter.string(.object(request)))
            }
        }
        let fresh = try lines.map { try flat(loadPlugin(NamesPlugin.self), $0) }
        for _ in 0..<2 {
            for (line, expected) in zip(lines, fresh) {
                #expect(try flat(shipped, line) == expected, "\(line)")
                #expect(try Array(JSONWriter.string(.object(shipped.answer(line))).utf8) == expected + [0x7D])
            }
        }
        #expect(String(decoding: fresh[2], as: UTF8.self).contains(#"a\u0000b heeft 3 gegevens"#))
    }

    /// Zero has no sign in a count: a negative zero, however it is spelled (a number, an exponent past any
    /// decimal library's, a decimal string), prints as `0`, with its fraction digits where it has them.
    @Test(arguments: [
        (JSONValue.number(JSONNumber(literal: "-0e99999999999")), "0"), (.number(JSONNumber(literal: "-0")), "0"),
        (.number(JSONNumber(literal: "-0.0E-7")), "0"), (.number(JSONNumber(literal: "-0.00")), "0"), ("-0", "0"),
        ("-00", "0"), ("-0.000", "0"), ("-0.5", "-0.5"), (.number(JSONNumber(literal: "-1e0")), "-1"),
    ])
    func aNegativeZeroCountPrintsWithoutASign(count: JSONValue, printed: String) throws {
        let response = try text("contacts.import.finished", "en", ["count": count, "source": "vCard"])
        let suffix = printed == "-1" ? " contact imported from vCard" : " contacts imported from vCard"
        #expect(response["text"] == .string(printed + suffix), "\(count)")
    }

    @Test func unknownKeyIsAnErrorNeverTheKey() {
        let failure = shipped.failure(#"{"op":"message","key":"contacts.nope","locale":"nl","args":{}}"#)
        #expect(failure?.code == "unknown_key")
        #expect(failure?.field == "key")
    }

    @Test func missingOrMistypedArgumentIsAnInvalidField() {
        let missing = shipped.failure(
            #"{"op":"message","key":"contacts.details_updated","locale":"nl","args":{"name":"Anna"}}"#)
        #expect(missing?.code == "invalid_field")
        #expect(missing?.field == "args.count")
        let noArgs = shipped.failure(#"{"op":"message","key":"contacts.birthday.today","locale":"nl"}"#)
        #expect(noArgs?.field == "args.name")
        let text = shipped.failure(
            #"{"op":"message","key":"contacts.details_updated","args":{"name":"A","count":"two"}}"#)
        #expect(text?.field == "args.count")
        let object = shipped.failure(#"{"op":"message","key":"sync.status.failed","args":{"service":{}}}"#)
        #expect(object?.code == "invalid_field")
        #expect(object?.field == "args.service")
    }

    @Test func shippedCataloguesHaveTheSameKeysInEveryLanguage() throws {
        var keySets: [String: Set<String>] = [:]
        for language in ["en", "nl", "de"] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Paths.dataDirectory + "/messages/\(language).json"))
            let object = try #require(try JSONReader.parse(Array(bytes)).objectValue)
            keySets[language] = Set(object.keys)
        }
        #expect(keySets["en"]?.count ?? 0 >= 5)
        #expect(keySets["nl"] == keySets["en"])
        #expect(keySets["de"] == keySets["en"])
        #expect(shipped.dataInfo["messages"] == JSONValue(keySets["en"]?.count ?? 0))
    }
}

/// Local catalogues in `<config>/messages.d/<service>.<lang>.json` and the load-time gate every catalogue
/// passes: same keys in each language, patterns ICU accepts, English present, keys unique.
@Suite struct CatalogueLoadingTests {
    static let shipped: [String: String] = [
        "messages/en.json": #"{"app.greeting.hello": "Hello {name}"}"#,
        "messages/nl.json": #"{"app.greeting.hello": "Hallo {name}"}"#,
    ]

    func loadError(_ data: [String: String], config: [String: String] = [:]) throws -> DataError? {
        let dataDirectory = try TemporaryDirectory(data)
        let configDirectory = try TemporaryDirectory(config)
        do {
            _ = try loadPlugin(
                NamesPlugin.self, dataDirectory: dataDirectory.path, configDirectory: configDirectory.path)
            return nil
        } catch let error as DataError {
            return error
        }
    }

    @Test func localCatalogueFallsBackToEnglishForALanguageItLacks() throws {
        let dataDirectory = try TemporaryDirectory(Self.shipped)
        let configDirectory = try TemporaryDirectory([
            "messages.d/billing.en.json":
                #"{"billing.invoice.sent": "{count, plural, one {# invoice} other {# invoices}} sent"}"#,
            "messages.d/billing.nl.json":
                #"{"billing.invoice.sent": "{count, plural, one {# factuur} other {# facturen}} verstuurd"}"#,
        ])
        let plugin = try loadPlugin(
            NamesPlugin.self, dataDirectory: dataDirectory.path, configDirectory: configDirectory.path)
        let request = { (locale: String) in
            try plugin.answer(
                #"{"op":"message","key":"billing.invoice.sent","locale":"\#(locale)","args":{"count":3}}"#)
        }
        #expect(try request("nl") == ["lang": "nl", "text": "3 facturen verstuurd", "dir": "ltr"])
        #expect(try request("de") == ["lang": "en", "text": "3 invoices sent", "dir": "ltr"])
        #expect(
            try plugin.answer(
                #"{"op":"message","key":"app.greeting.hello","locale":"de","args":{"name":"Jo"}}"#)
                == ["lang": "en", "text": "Hello Jo", "dir": "ltr"])
    }

    @Test func languagesWithDifferentKeysAreRefusedNamingKeyAndFile() throws {
        var data = Self.shipped
        data["messages/de.json"] = #"{"app.greeting.bye": "Tschüss {name}"}"#
        let error = try #require(try loadError(data))
        #expect(error.file == "messages/de.json")
        #expect(error.field == "app.greeting.hello")
        let local = try #require(
            try loadError(
                Self.shipped,
                config: [
                    "messages.d/billing.en.json": #"{"billing.invoice.sent": "Sent", "billing.invoice.paid": "Paid"}"#,
                    "messages.d/billing.nl.json": #"{"billing.invoice.sent": "Verstuurd"}"#,
                ]))
        #expect(local.file.hasSuffix("messages.d/billing.nl.json"))
        #expect(local.field == "billing.invoice.paid")
    }

    @Test func patternICURejectsIsRefusedNamingKeyAndFile() throws {
        var data = Self.shipped
        data["messages/nl.json"] = #"{"app.greeting.hello": "Hallo {name, plural, one {# x}"}"#
        let error = try #require(try loadError(data))
        #expect(error.file == "messages/nl.json")
        #expect(error.field == "app.greeting.hello")
        #expect(error.problem.contains("ICU"))
    }

    @Test func translationMayNotIntroduceAnArgumentEnglishLacks() throws {
        var data = Self.shipped
        data["messages/nl.json"] = #"{"app.greeting.hello": "Hallo {title} {name}"}"#
        let error = try #require(try loadError(data))
        #expect(error.file == "messages/nl.json")
        #expect(error.problem.contains("{title}"))
    }

    @Test func numberedArgumentsAndDateArgumentsAreRefused() throws {
        for pattern in ["Hello {0}", "Hello {name} on {day, date, short}"] {
            var data = Self.shipped
            data["messages/en.json"] = #"{"app.greeting.hello": "\#(pattern)"}"#
            data["messages/nl.json"] = #"{"app.greeting.hello": "Hallo"}"#
            let error = try #require(try loadError(data), "\(pattern)")
            #expect(error.file == "messages/en.json")
        }
    }

    @Test func catalogueWithoutEnglishOrWithABadFileNameIsRefused() throws {
        let noEnglish = try #require(
            try loadError(Self.shipped, config: ["messages.d/billing.nl.json": #"{"billing.a.b": "x"}"#]))
        #expect(noEnglish.file.hasSuffix("billing.nl.json"))
        let badName = try #require(
            try loadError(Self.shipped, config: ["messages.d/billing.json": #"{"billing.a.b": "x"}"#]))
        #expect(badName.file.hasSuffix("billing.json"))
    }

    @Test func keyDefinedByTwoCataloguesIsRefused() throws {
        let error = try #require(
            try loadError(Self.shipped, config: ["messages.d/other.en.json": #"{"app.greeting.hello": "Hi"}"#]))
        #expect(error.field == "app.greeting.hello")
        #expect(error.file.hasSuffix("messages.d/other.en.json"))
    }

    @Test func malformedKeysAreRefused() throws {
        var data = Self.shipped
        data["messages/en.json"] = #"{"Greeting": "Hello"}"#
        let error = try #require(try loadError(data))
        #expect(error.field == "Greeting")
    }
}

/// An argument used twice keeps the strictest kind: `{count}` beside `{count, plural, …}` still needs a number.
@Suite struct ArgumentKindTests {
    @Test func argumentUsedAsTextAndInAPluralTakesADecimalString() throws {
        let dataDirectory = try TemporaryDirectory([
            "messages/en.json": #"{"app.cart.items": "{count}: {count, plural, one {# item} other {# items}}"}"#
        ])
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: dataDirectory.path, configDirectory: nil)
        let request = #"{"op":"message","key":"app.cart.items","locale":"en","args":{"count":"1.5"}}"#
        // CLDR en: one needs i = 1 and v = 0, so 1.5 takes "other".
        #expect(try plugin.answer(request)["text"] == "1.5: 1.5 items")
        let word = plugin.failure(#"{"op":"message","key":"app.cart.items","args":{"count":"one"}}"#)
        #expect(word?.field == "args.count")
    }

    /// A decimal string argument has at most 64 characters, as a `plural` count does; past that the answer says so,
    /// rather than that it is no number.
    @Test func aDecimalArgumentPastItsBoundIsRefusedStatingTheBound() throws {
        let dataDirectory = try TemporaryDirectory([
            "messages/en.json": #"{"app.cart.items": "{count, plural, one {# item} other {# items}}"}"#
        ])
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: dataDirectory.path, configDirectory: nil)
        func line(_ count: String) -> String {
            #"{"op":"message","key":"app.cart.items","args":{"count":""# + count + #""}}"#
        }
        let longest = "2." + String(repeating: "0", count: 62)
        #expect(try plugin.answer(line(longest))["text"] == "2 items")
        do {
            _ = try plugin.answer(line(longest + "0"))
            Issue.record("a 65-character decimal was accepted")
        } catch let error as any WireError {
            #expect(error.field == "args.count")
            #expect(error.message.contains("at most 64 characters"), "\(error.message)")
        }
    }

    @Test func argumentUsedAsTextAndInASelectIsAString() throws {
        let dataDirectory = try TemporaryDirectory([
            "messages/en.json":
                #"{"app.sync.state": "{service} {service, select, google {via Google} other {directly}}"}"#
        ])
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: dataDirectory.path, configDirectory: nil)
        let request = #"{"op":"message","key":"app.sync.state","args":{"service":"google"}}"#
        #expect(try plugin.answer(request)["text"] == "google via Google")
    }
}

/// `message` answers `dir`, the direction ICU writes the text's language in (`uloc_isRightToLeft`): `ltr` for the
/// shipped three, `rtl` for a right-to-left catalogue.
@Suite struct MessageDirectionTests {
    @Test func theShippedLanguagesAreLeftToRight() throws {
        let plugin = try loadPlugin(NamesPlugin.self)
        for locale in ["en", "nl", "de-AT", "ar"] {
            let response = try plugin.answer(
                #"{"op":"message","key":"contacts.details_updated","locale":""# + locale
                    + #"","args":{"count":2,"name":"Anna"}}"#)
            #expect(response["dir"] == "ltr", "\(locale)")
            #expect(response.keys == ["lang", "text", "dir"])
        }
    }

    @Test func anArabicOrHebrewCatalogueIsRightToLeft() throws {
        let dataDirectory = try TemporaryDirectory([
            "translations/en.json": "{}", "translations/ar.json": "{}", "translations/he.json": "{}",
            "messages/en.json": #"{"app.greeting.hello": "Hello {name}"}"#,
            "messages/ar.json": #"{"app.greeting.hello": "مرحبا {name}"}"#,
            "messages/he.json": #"{"app.greeting.hello": "שלום {name}"}"#,
        ])
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: dataDirectory.path, configDirectory: nil)
        func answer(_ locale: String) throws -> JSONObject {
            try plugin.answer(
                #"{"op":"message","key":"app.greeting.hello","locale":""# + locale + #"","args":{"name":"Anna"}}"#)
        }
        #expect(try answer("ar-EG") == ["lang": "ar", "text": "مرحبا Anna", "dir": "rtl"])
        #expect(try answer("he") == ["lang": "he", "text": "שלום Anna", "dir": "rtl"])
        #expect(try answer("en") == ["lang": "en", "text": "Hello Anna", "dir": "ltr"])
    }
}
