import DateFormatting
import FmtCore
import FmtTesting
import Glibc
import Testing

@Suite struct DatePluginBehaviour {
    let plugin: DatePlugin

    init() throws {
        plugin = try loadPlugin(DatePlugin.self)
    }

    /// A `date` request with `fields`, as the dispatcher hands it to the plugin.
    static func request(_ fields: JSONObject) -> Request {
        var all: JSONObject = ["op": "date"]
        for member in fields { all.append(member.key, member.value) }
        return Request(op: "date", fields: all)
    }

    private func text(_ fields: JSONObject) throws -> String? {
        try plugin.handle(Self.request(fields))["text"]?.stringValue
    }

    @Test func everyVectorMatchesICU() throws {
        let vectors = try Vectors.cases("vectors/date-format.json")
        #expect(vectors.count >= 80)
        for vector in vectors {
            let request = vector["request"]?.objectValue ?? [:]
            let label = JSONWriter.string(.object(request))
            do {
                let response = try plugin.handle(Self.request(request))
                let expected = vector["response"]?.objectValue.map { JSONWriter.string(.object($0)) }
                #expect(JSONWriter.string(.object(response)) == expected, "\(label)")
            } catch let error as any WireError {
                let expected = vector["error"]?.objectValue
                #expect(.string(error.code) == expected?["code"], "\(label): \(error.message)")
                #expect(JSONValue(error.field) == expected?["field"], "\(label)")
            }
        }
    }

    /// The examples the issue checked by hand against ICU 72.
    @Test func issueCheckedExamples() throws {
        #expect(try text(["date": "1990-11-29", "locale": "nl-NL", "style": "short"]) == "29-11")
        #expect(try text(["date": "1990-11-29", "locale": "nl-BE", "style": "short"]) == "29/11")
        #expect(try text(["date": "1990-11-29", "locale": "en-GB"]) == "29 November")
        #expect(try text(["date": "1990-11-29", "locale": "en-US"]) == "November 29")
        #expect(try text(["date": "1990-01-29", "locale": "de-AT"]) == "29. Jänner")
        let french = try plugin.handle(
            Self.request(["date": "1990-11-29", "locale": "fr-FR", "yearShared": true]))
        #expect(french == ["lang": "en", "locale": "en-FR", "text": "29 November 1990", "pattern": "d MMMM y"])
    }

    @Test func responseMembersAreLangLocaleTextPatternInThatOrder() throws {
        let response = try plugin.handle(Self.request(["date": "--11-29", "locale": "nl-BE"]))
        #expect(response.keys == ["lang", "locale", "text", "pattern"])
    }

    @Test func yearIsPrivateUnlessShared() throws {
        #expect(try text(["date": "1990-11-29", "locale": "nl"]) == "29 november")
        #expect(try text(["date": "1990-11-29", "locale": "nl", "yearShared": false]) == "29 november")
        #expect(try text(["date": "1990-11-29", "locale": "nl", "yearShared": true]) == "29 november 1990")
    }

    @Test func referenceYearOfYearlessDatesNeverAppears() throws {
        for locale in ["en", "en-US", "en-GB", "nl-NL", "nl-BE", "de-DE", "de-AT", "de-CH", "fr-FR", "en-JP"] {
            for style in DateStyle.allCases {
                for date in ["--02-29", "--11-29", "--01-01"] {
                    let response = try plugin.handle(
                        Self.request([
                            "date": .string(date), "locale": .string(locale), "style": .string(style.rawValue),
                            "yearShared": true,
                        ]))
                    let text = try #require(response["text"]?.stringValue)
                    #expect(!text.contains("2000") && !text.contains("00"), "\(locale) \(style) \(date): \(text)")
                    #expect(!text.contains("1970"), "\(locale) \(style) \(date): \(text)")
                    let pattern = try #require(response["pattern"]?.stringValue)
                    #expect(!pattern.contains("y"), "\(locale) \(style): \(pattern)")
                }
            }
        }
    }

    /// No op, field or output carries an age: for birth dates 33 to 40 years back (ages no day or month can
    /// equal), no response in any locale, style or year setting contains the years between then and today.
    @Test func noResponseEverContainsTheAge() throws {
        var now = time(nil)
        var today = tm()
        gmtime_r(&now, &today)
        let thisYear = Int(today.tm_year) + 1900
        for yearsAgo in 33...40 {
            for (month, day) in [(1, 1), (today.tm_mon + 1, today.tm_mday), (12, 31)] {
                guard let date = CalendarDate(year: thisYear - yearsAgo, month: Int(month), day: Int(day)) else {
                    continue
                }
                let forbidden: Set = [String(yearsAgo - 1), String(yearsAgo)]
                for locale in ["en", "en-GB", "nl-NL", "nl-BE", "de-DE", "de-AT", "fr-FR"] {
                    for style in DateStyle.allCases {
                        for shared in [false, true] {
                            let response = try plugin.handle(
                                Self.request([
                                    "date": .string(date.description), "locale": .string(locale),
                                    "style": .string(style.rawValue), "yearShared": .bool(shared),
                                ]))
                            let line = JSONWriter.string(.object(response))
                            let numbers = line.split(whereSeparator: { !$0.isNumber }).map(String.init)
                            #expect(forbidden.isDisjoint(with: numbers), "\(date) \(locale): \(line)")
                            #expect(response.keys == ["lang", "locale", "text", "pattern"])
                        }
                    }
                }
            }
        }
    }

    /// Answers are routed by the locale's text, style and shown year: each spelling still resolves on its own, and
    /// a refused locale stays refused after a good one of the same request shape was routed.
    @Test func routesByLocaleTextKeepEverySpellingAndRefusal() throws {
        func answer(_ fields: JSONObject) throws -> JSONObject {
            var all: JSONObject = ["op": "date"]
            for member in fields { all.append(member.key, member.value) }
            return try plugin.handle(Request(op: "date", fields: all))
        }
        for _ in 0..<2 {
            let base = try answer(["date": "1990-11-29", "locale": "nl-BE"])
            #expect(base["locale"] == "nl-BE")
            #expect(base["text"] == "29 november")
            let underscored = try answer(["date": "1990-11-29", "locale": "nl_be"])
            #expect(underscored["locale"] == "nl-BE")
            let absent = try answer(["date": "1990-11-29"])
            let null = try answer(["date": "1990-11-29", "locale": nil])
            #expect(absent["locale"] == "en")
            #expect(null == absent)
            let shown = try answer(["date": "1990-11-29", "locale": "nl", "yearShared": true])
            #expect(shown["text"] == "29 november 1990")
            let hidden = try answer(["date": "--11-29", "locale": "nl", "yearShared": true])
            #expect(hidden["text"] == "29 november")
            for locale: JSONValue in ["nl--BE", 5] {
                #expect {
                    try answer(["date": "1990-11-29", "locale": locale])
                } throws: { error in
                    (error as? CoreError)?.code == "invalid_field" && (error as? CoreError)?.field == "locale"
                }
            }
        }
    }

    @Test func unknownStyleIsAnInvalidFieldNamingStyle() {
        #expect {
            try plugin.handle(Self.request(["date": "1990-11-29", "style": "full"]))
        } throws: { error in
            (error as? CoreError)?.code == "invalid_field" && (error as? CoreError)?.field == "style"
        }
    }

    @Test func datesBeforeTheGregorianReformAreNotMovedToTheJulianCalendar() throws {
        let date = try #require(CalendarDate(year: 1000, month: 3, day: 1))
        let formatted = try plugin.format(
            date, locale: LocaleResolver(supported: ["en"]).resolve(LanguageTag.english), style: .short,
            yearShared: true)
        #expect(formatted.text == "3/1/1000")
    }

    @Test func concurrentRequestsFromManyThreadsAgree() async throws {
        let plugin = self.plugin
        let locales = ["en-AU", "en-IE", "en-NZ", "de-LU", "nl-SR", "de-LI", "en-ZA", "en-IN"]
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<400 {
                group.addTask {
                    let request = Self.request([
                        "date": "1990-11-29", "locale": .string(locales[index % locales.count]),
                        "style": .string(DateStyle.allCases[index % 3].rawValue), "yearShared": true,
                    ])
                    return (index % 24, try plugin.handle(request)["text"]?.stringValue ?? "")
                }
            }
            var seen: [Int: Set<String>] = [:]
            for try await (key, text) in group { seen[key, default: []].insert(text) }
            return seen
        }
        #expect(results.count == 24)
        #expect(results.values.allSatisfy { $0.count == 1 && !$0.first!.isEmpty })
    }

    @Test func dataInfoNamesICUAndItsVersion() {
        #expect(plugin.dataInfo["source"] == "icu")
        #expect(plugin.dataInfo["version"] == .string(ICUInfo.version))
        #expect(plugin.dataInfo["cldrVersion"] == "42.0")
        #expect(plugin.dataInfo["checksum"]?.stringValue?.count == 64)
    }
}

/// The route cache keys a request by its locale's bytes: texts that differ in any byte (the region at the eighth
/// byte), in length or past the sixteenth byte get their own route, so a cached answer is always the one a fresh
/// plugin gives.
@Suite struct DateRouteBehaviour {
    static let locales = [
        "de", "de-AT", "de-CH", "de-AT-1996", "de-AT-1901", "nl-BE", "nl-NL", "en-US", "en-GB",
        "en-GB-oxendict-x-1", "en-US-oxendict-x-1", "de-AT-u-nu-latn-x-a", "de-AT-u-nu-latn-x-ab",
        "de-DE-u-nu-latn-x-a", "de-AT-x-12345678", "de-AT-x-12345679", "de-AT-x-1234-5678", "de-AT-x-1234-5679",
        "de-Latn-AT", "de-Latn-CH", "de-Latn-AT-x-123456", "de-Latn-CH-x-123456", "en-Latn-GB", "en-Latn-US",
    ]

    /// The answer to a `date` request read flat from its line, as the daemon reads it.
    static func answer(_ plugin: DatePlugin, locale: String, style: String) throws -> [UInt8] {
        let line = Array(#"{"op":"date","date":"1990-01-29","style":"\#(style)","locale":"\#(locale)"}"#.utf8)
        let request = try line.withUnsafeBufferPointer { try Request(line: $0) }
        var writer = ResponseWriter()
        try plugin.handle(.date, request, into: &writer)
        return writer.bytes
    }

    @Test func everyLocaleTextGetsTheAnswerOfAFreshPlugin() throws {
        let shared = try loadPlugin(DatePlugin.self)
        var expected: [String: [UInt8]] = [:]
        for locale in Self.locales {
            for style in ["long", "short"] {
                expected[locale + style] = try Self.answer(
                    try loadPlugin(DatePlugin.self), locale: locale, style: style)
            }
        }
        #expect(Set(expected.values).count > 10, "the texts resolve to different answers")
        var generator = SeededGenerator.forTest("everyLocaleTextGetsTheAnswerOfAFreshPlugin", seed: 813454)
        for _ in 0..<4 {
            for locale in Self.locales.shuffled(using: &generator) {
                for style in ["long", "short"] {
                    #expect(
                        try Self.answer(shared, locale: locale, style: style) == expected[locale + style], "\(locale)")
                }
            }
        }
    }
}
