import FmtCore
import FmtTesting
import Foundation
import Testing

/// The names plugin's ops on the real daemon over its socket, and the fmtq commands a new user types.
@Suite struct NamesTests {
    @Test func sortUsesTheRequestedLocalesCollatorOverTheSocket() throws {
        let daemon = try Daemon.start()
        let line = try daemon.request(#"{"op":"sort","id":1,"locale":"sv-SE","names":["Åsa","Zoe","Örjan","Anna"]}"#)
        #expect(line == #"{"id":1,"ok":true,"sorted":["Anna","Zoe","Åsa","Örjan"],"order":[3,1,0,2]}"#)
        let phonebook = try daemon.requestObject(
            #"{"op":"sort","locale":"de-u-co-phonebk","names":["Müller","Muff","Mueller"]}"#)
        #expect(phonebook["sorted"] == ["Mueller", "Müller", "Muff"])
    }

    @Test func sortTakesTenThousandNamesAndRefusesMore() throws {
        // 10,000 names exceed the default 64 KiB request line; a service sorting that many raises --max-line.
        let daemon = try Daemon.start(arguments: ["--max-line", "1048576"])
        let names = (0..<10_001).map { "Naam \(10_001 - $0)" }
        let full = try daemon.requestObject(
            JSONWriter.string(["op": "sort", "locale": "nl", "names": JSONValue(Array(names.dropFirst()))]))
        #expect(full["sorted"]?.arrayValue?.first == "Naam 1")
        let tooMany = try daemon.requestObject(
            JSONWriter.string(["op": "sort", "locale": "nl", "names": JSONValue(names)]))
        #expect(tooMany["error"]?.objectValue?["code"] == "invalid_field")
        #expect(tooMany["error"]?.objectValue?["field"] == "names")
    }

    @Test func sortKeysOrderLikeTheCollatorAndCarryTheVersionInfoReports() throws {
        let daemon = try Daemon.start()
        let names = ["Zoe", "Åsa", "Anna", "Örjan", "ärla"]
        let keys = try daemon.requestObject(
            JSONWriter.string(["op": "sortKey", "locale": "sv", "names": JSONValue(names)]))
        let hex = keys["keys"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let byKey = names.indices.sorted { hex[$0] < hex[$1] }.map { names[$0] }
        #expect(byKey == ["Anna", "Zoe", "Åsa", "ärla", "Örjan"])
        let single = try daemon.requestObject(#"{"op":"sortKey","locale":"sv","name":"Zoe"}"#)
        #expect(single["key"]?.stringValue == hex[0])

        let info = try daemon.requestObject(#"{"op":"info"}"#)
        let plugin = info["plugins"]?.arrayValue?.compactMap(\.objectValue).first { $0["name"] == "names" }
        let data = try #require(plugin?["data"]?.objectValue)
        #expect(plugin?["ops"] == ["sort", "sortKey", "searchForm", "nameSearch", "language", "plural", "message"])
        #expect(data["collationVersion"] == info["icu"]?.objectValue?["collation"])
        #expect(data["collationVersion"]?.stringValue?.isEmpty == false)
        #expect(data["checksum"]?.stringValue?.count == 64)
    }

    @Test func languageExposesTheCoresResolution() throws {
        let daemon = try Daemon.start()
        let supported = try daemon.requestObject(#"{"op":"info"}"#)["languages"]
        let line = try daemon.requestObject(#"{"op":"language","tag":"nl-BE"}"#)
        #expect(line["language"] == "nl")
        #expect(line["match"] == "base")
        #expect(line["locale"] == "nl-BE")
        #expect(line["supported"] == supported)
        let fallback = try daemon.requestObject(#"{"op":"language","tag":"fr-FR"}"#)
        #expect(fallback["match"] == "default")
        #expect(fallback["locale"] == "en-FR")
        let list = try daemon.requestObject(#"{"op":"language"}"#)
        let dutch = list["languages"]?.arrayValue?.compactMap(\.objectValue).first { $0["language"] == "nl" }
        #expect(dutch?["names"]?.objectValue?["de"] == "Niederländisch")
    }

    @Test func pluralAnswersInTheRequestedLanguagesRules() throws {
        let daemon = try Daemon.start()
        #expect(
            try daemon.request(#"{"op":"plural","id":"p","locale":"pl","count":5}"#)
                == #"{"id":"p","ok":true,"category":"many"}"#)
        #expect(try daemon.requestObject(#"{"op":"plural","locale":"en","count":"1.0"}"#)["category"] == "other")
        #expect(try daemon.requestObject(#"{"op":"plural","locale":"en","count":1}"#)["category"] == "one")
    }

    @Test func messageRendersTheIssueExampleAndFallsBack() throws {
        let daemon = try Daemon.start()
        let line = try daemon.request(
            #"{"op":"message","id":9,"key":"contacts.details_updated","locale":"nl","args":{"count":2,"name":"Anna"}}"#)
        #expect(line == #"{"id":9,"ok":true,"lang":"nl","text":"Anna heeft 2 gegevens bijgewerkt","dir":"ltr"}"#)
        let english = try daemon.requestObject(
            #"{"op":"message","key":"contacts.details_updated","locale":"fr-FR","args":{"count":1,"name":"Zoë"}}"#)
        #expect(english["lang"] == "en")
        #expect(english["text"] == "Zoë updated 1 detail")
        let unknown = try daemon.requestObject(#"{"op":"message","key":"contacts.missing","locale":"nl"}"#)
        #expect(unknown["error"]?.objectValue?["code"] == "unknown_key")
        let missing = try daemon.requestObject(
            #"{"op":"message","key":"contacts.details_updated","args":{"name":"A"}}"#)
        #expect(missing["error"]?.objectValue?["code"] == "invalid_field")
        #expect(missing["error"]?.objectValue?["field"] == "args.count")
    }

    @Test func localCataloguesLoadFromMessagesDAndABadOneIsRefusedOnReload() throws {
        let config = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/messages.d", withIntermediateDirectories: true)
        let english = #"{"billing.invoice.sent": "{count, plural, one {# invoice} other {# invoices}} sent"}"#
        let dutch = #"{"billing.invoice.sent": "{count, plural, one {# factuur} other {# facturen}} verstuurd"}"#
        try english.write(toFile: config + "/messages.d/billing.en.json", atomically: true, encoding: .utf8)
        try dutch.write(toFile: config + "/messages.d/billing.nl.json", atomically: true, encoding: .utf8)
        let daemon = try Daemon.start(configDirectory: config)
        let request = #"{"op":"message","key":"billing.invoice.sent","locale":"nl","args":{"count":3}}"#
        #expect(try daemon.requestObject(request)["text"] == "3 facturen verstuurd")
        #expect(
            try daemon.requestObject(
                #"{"op":"message","key":"billing.invoice.sent","locale":"de","args":{"count":1}}"#)["text"]
                == "1 invoice sent")

        // German lacks the key English has: the whole catalogue set is refused and the old one keeps serving.
        try #"{"billing.invoice.paid": "Bezahlt"}"#.write(
            toFile: config + "/messages.d/billing.de.json", atomically: true, encoding: .utf8)
        try daemon.reload()
        let reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue
        #expect(reloads?["failed"] == JSONValue(1))
        #expect(reloads?["lastError"]?.stringValue?.contains("billing.de.json") == true)
        #expect(reloads?["lastError"]?.stringValue?.contains("billing.invoice.sent") == true)
        #expect(try daemon.requestObject(request)["text"] == "3 facturen verstuurd")
    }

    @Test func fmtqCommandsFromTheIssue() throws {
        let daemon = try Daemon.start()
        let socket = ["--socket", daemon.socketPath]
        let sorted = try run(Paths.fmtq, socket + ["sort", "--locale", "sv", "Åsa", "Zoe", "Ölaf"])
        #expect(sorted.status == 0)
        #expect(sorted.stdout == "Zoe\nÅsa\nÖlaf\n")
        let language = try run(Paths.fmtq, socket + ["language", "nl-BE"])
        #expect(language.stdout.hasPrefix("nl: its base language; regional conventions of nl-BE"))
        let plural = try run(Paths.fmtq, socket + ["plural", "5", "--locale", "pl"])
        #expect(plural.stdout == "many\n")
        let decimal = try run(Paths.fmtq, socket + ["plural", "1.0", "--locale", "en"])
        #expect(decimal.stdout == "other\n")
        let message = try run(
            Paths.fmtq, socket + ["message", "contacts.details_updated", "--locale", "nl", "count=2", "name=Anna"])
        #expect(message.stdout == "Anna heeft 2 gegevens bijgewerkt\n")
        let keys = try run(Paths.fmtq, socket + ["sortkey", "--locale", "nl", "de Vries"])
        #expect(keys.status == 0)
        #expect(keys.stdout.contains("collation version"))
        let unknown = try run(Paths.fmtq, socket + ["message", "contacts.nope", "--locale", "nl"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown_key"))
    }
}
