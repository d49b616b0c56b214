import FmtCore
import FmtTesting
import Testing

/// Priority lists of languages on the wire, in-process and against the real daemon: the product's recipient
/// chain (preferred language, then the auth metadata's, then English), a browser's `Accept-Language`, and every
/// op that takes `locale` reading the same list alike.
@Suite struct LocaleListTests {
    /// The `language` op's answer for `tag` (a JSON value, spelled as JSON).
    static func language(_ fmtd: any FmtdUnderTest, _ tag: String) throws -> JSONObject {
        try fmtd.requestObject(#"{"op":"language","tag":\#(tag)}"#)
    }

    @Test(arguments: DaemonMode.allCases)
    func theRecipientChainPicksPreferredThenMetadataThenEnglish(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        let metadataOnly = try Self.language(fmtd, #"[null, "nl"]"#)
        #expect(metadataOnly["language"] == "nl")
        #expect(metadataOnly["index"] == 1)
        let preferred = try Self.language(fmtd, #"["de", "nl"]"#)
        #expect(preferred["language"] == "de")
        #expect(preferred["index"] == 0)
        let neither = try Self.language(fmtd, "[null, null]")
        #expect(neither["language"] == "en")
        #expect(neither["match"] == "default")
        #expect(neither["index"] == .null)
        // The e-mail itself, rendered from the same chain.
        let email = try fmtd.requestObject(
            #"{"op":"message","key":"invitations.email.subject","locale":[null,"nl"],"args":{"inviter":"Anna"}}"#)
        #expect(email["lang"] == "nl")
        #expect(email["text"] == "Anna heeft je uitgenodigd om contacten te delen")
    }

    @Test(arguments: DaemonMode.allCases)
    func aSwissHeaderReadsGermanWithSwissConventions(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        let answer = try Self.language(fmtd, #""fr-CH, fr;q=0.9, de;q=0.7""#)
        #expect(
            answer == [
                "id": .null, "ok": true, "language": "de", "match": "exact", "index": 2, "locale": "de-CH",
                "supported": ["en", "nl", "de"],
            ])
        // The date op reads the same list: German text, Swiss region.
        let date = try fmtd.requestObject(
            #"{"op":"date","date":"1990-11-29","locale":"fr-CH, fr;q=0.9, de;q=0.7"}"#)
        #expect(date["lang"] == "de")
        #expect(date["locale"] == "de-CH")
    }

    @Test(arguments: DaemonMode.allCases)
    func aMalformedEntryIsRefusedByItsIndexAndTheConnectionGoesOn(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        for op in [
            #"{"op":"date","date":"1990-11-29","locale":["nl",null,"en--GB"]}"#,
            #"{"op":"date","date":"1990-11-29","locale":"nl, de;q=0.5, en--GB;q=0.1"}"#,
        ] {
            let error = try fmtd.requestObject(op)["error"]?.objectValue
            #expect(error?["code"] == "invalid_field")
            #expect(error?["field"] == "locale[2]", "\(op)")
        }
        let tooMany = "[" + Array(repeating: #""fr""#, count: 33).joined(separator: ",") + "]"
        let refused = try fmtd.requestObject(#"{"op":"plural","count":1,"locale":\#(tooMany)}"#)
        #expect(refused["error"]?.objectValue?["field"] == "locale")
        #expect(try fmtd.requestObject(#"{"op":"ping"}"#)["ok"] == true)
    }

    /// Every op that takes `locale`, asked with one list: the text ops answer in the language `language` names
    /// for it, and the ops that use the requested tag (`sort`, `sortKey`, `plural`) answer as for its first
    /// entry alone.
    @Test(arguments: DaemonMode.allCases)
    func everyOpReadsTheSameListAlike(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        let lists = [
            (#"[null, "sv-SE", "de-AT", "nl"]"#, #""sv-SE""#),
            (#""sv-SE, nl;q=0.9, de;q=0.9""#, #""sv-SE""#),
            (#""pl;q=0.8, fr-BE""#, #""fr-BE""#),
            (#"["", "nl-BE"]"#, #""nl-BE""#),
        ]
        for (list, first) in lists {
            let language = try Self.language(fmtd, list)
            let expected = language["language"]
            let locale = language["locale"]
            let text = [
                #"{"op":"address","address":{"country":"BE","city":"Gent"},"locale":\#(list)}"#,
                #"{"op":"addressFormat","country":"BE","locale":\#(list)}"#,
                #"{"op":"date","date":"1990-11-29","locale":\#(list)}"#,
                #"{"op":"message","key":"contacts.birthday.today","locale":\#(list),"args":{"name":"Jo"}}"#,
            ]
            for request in text {
                let answer = try fmtd.requestObject(request)
                #expect(answer["ok"] == true, "\(request): \(answer)")
                #expect(answer["lang"] == expected, "\(request): \(answer)")
            }
            let date = try fmtd.requestObject(#"{"op":"date","date":"1990-11-29","locale":\#(list)}"#)
            #expect(date["locale"] == locale, "\(list)")
            let requested = [
                #"{"op":"sort","names":["Zoe","Åsa","Örjan","Anna"],"locale":LOCALE}"#,
                #"{"op":"sortKey","name":"Åsa","locale":LOCALE}"#,
                #"{"op":"plural","count":2,"locale":LOCALE}"#,
            ]
            for request in requested {
                let withList = try fmtd.requestObject(request.replacing("LOCALE", with: list))
                let withFirst = try fmtd.requestObject(request.replacing("LOCALE", with: first))
                #expect(withList["ok"] == true, "\(request): \(withList)")
                #expect(withList == withFirst, "\(request) with \(list)")
            }
        }
    }

    @Test(arguments: DaemonMode.allCases)
    func theListIsBoundedAndEveryLimitIsAnError(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        let long = String(repeating: " ", count: LocalePriorityList.maximumAcceptLanguageBytes) + ",nl"
        let answer = try fmtd.requestObject(#"{"op":"language","tag":"\#(long)"}"#)
        let error = answer["error"]?.objectValue
        #expect(error?["field"] == "tag")
        #expect(error?["message"]?.stringValue?.contains("at most 1024 bytes") == true)
    }
}

/// fmtq's `--locale` (and `language`'s TAG) takes a comma-separated list or an `Accept-Language` value.
@Suite struct FmtqLocaleListTests {
    @Test func fmtqSendsAListOrAnAcceptLanguageValueAsWritten() throws {
        let daemon = try Daemon.start()
        let socket = ["--socket", daemon.socketPath]
        let list = try run(
            Paths.fmtq, socket + ["message", "invitations.email.subject", "--locale", "pl,nl", "inviter=Anna"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "Anna heeft je uitgenodigd om contacten te delen\n")
        let header = try run(Paths.fmtq, socket + ["language", "fr-CH, fr;q=0.9, de;q=0.7"])
        #expect(
            header.stdout.hasPrefix("de: an exact match (entry 3); regional conventions of de-CH\n"), "\(header.stdout)"
        )
        let malformed = try run(Paths.fmtq, socket + ["date", "1990-11-29", "--locale", "nl,x"])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("(field locale[1])"), "\(malformed.stderr)")
    }
}
