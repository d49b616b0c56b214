import FmtCore
import FmtTesting
import Glibc
import Testing

/// The date vectors through the real daemon over its socket, and the promises that only hold end to end:
/// a calendar date never shifts with the host's time zone, and no response carries an age.
@Suite struct DateVectorTests {
    /// One case of `data/vectors/date-format.json`.
    struct Vector: CustomStringConvertible {
        let request: JSONObject
        let response: JSONObject?
        let error: JSONObject?

        var description: String { JSONWriter.string(.object(request)) }

        func line(id: Int) -> String {
            var object: JSONObject = ["id": JSONValue(id), "op": "date"]
            for member in request { object.append(member.key, member.value) }
            return JSONWriter.string(.object(object))
        }
    }

    static func vectors() throws -> [Vector] {
        try Vectors.cases("vectors/date-format.json").compactMap { item in
            guard case .object(let request)? = item["request"] else { return nil }
            return Vector(request: request, response: item["response"]?.objectValue, error: item["error"]?.objectValue)
        }
    }

    /// The response without the envelope: what the vectors list.
    static func body(_ response: JSONObject) -> JSONObject {
        JSONObject(response.members.filter { $0.key != "id" && $0.key != "ok" })
    }

    @Test func everyVectorOverTheSocket() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count >= 80)
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        for (index, vector) in vectors.enumerated() {
            let response = try daemon.requestObject(vector.line(id: index))
            #expect(response["id"] == JSONValue(index))
            if let expected = vector.response {
                #expect(response["ok"] == true, "\(vector): \(JSONWriter.string(.object(response)))")
                #expect(JSONWriter.string(.object(Self.body(response))) == JSONWriter.string(.object(expected)))
                #expect(response.keys == ["id", "ok", "lang", "locale", "text", "pattern"])
            } else {
                let error = response["error"]?.objectValue
                #expect(response["ok"] == false, "\(vector)")
                #expect(error?["code"] == vector.error?["code"], "\(vector)")
                #expect(error?["field"] == vector.error?["field"], "\(vector)")
            }
        }
    }

    /// At midnight UTC it is already the next day's afternoon in Kiritimati (UTC+14) and still the previous
    /// day in Adak (UTC−10 or −9): a formatter that let the host's zone in would move dates one way or the other.
    @Test(arguments: ["Pacific/Kiritimati", "America/Adak"])
    func calendarDatesNeverShiftWithTheHostTimeZone(zone: String) throws {
        let vectors = try Self.vectors().filter { $0.response != nil }
        let daemon = try Daemon.start(environment: ["TZ": zone])
        defer { daemon.stop() }
        for (index, vector) in vectors.enumerated() {
            let response = try daemon.requestObject(vector.line(id: index))
            let expected = vector.response.map { JSONWriter.string(.object($0)) }
            #expect(JSONWriter.string(.object(Self.body(response))) == expected, "\(zone) \(vector)")
        }
    }

    /// No response to a date request contains the number of years between that date and today.
    @Test func noResponseContainsTheYearsSinceTheDate() throws {
        var now = time(nil)
        var today = tm()
        gmtime_r(&now, &today)
        let year = Int(today.tm_year) + 1900
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        var id = 0
        for yearsAgo in 33...45 {
            let date = "\(year - yearsAgo)-" + String(format2: Int(today.tm_mon) + 1) + "-" + String(format2: 1)
            for locale in ["en-US", "en-GB", "nl-NL", "nl-BE", "de-DE", "de-AT", "de-CH", "fr-FR"] {
                for style in ["long", "medium", "short"] {
                    for shared in [false, true] {
                        id += 1
                        let request: JSONObject = [
                            "id": JSONValue(id), "op": "date", "date": .string(date), "locale": .string(locale),
                            "style": .string(style), "yearShared": .bool(shared),
                        ]
                        let response = try daemon.requestObject(JSONWriter.string(.object(request)))
                        #expect(response["ok"] == true, "\(date) \(locale)")
                        let body = JSONWriter.string(.object(Self.body(response)))
                        let numbers = Set(body.split(whereSeparator: { !$0.isNumber }).map(String.init))
                        #expect(numbers.isDisjoint(with: [String(yearsAgo - 1), String(yearsAgo)]), "\(body)")
                    }
                }
            }
        }
    }
}

/// `fmtq date` as the issue shows it: the year hidden by default, shown with `--year-shared`, `--style short`.
@Suite struct FmtqDateTests {
    @Test func fmtqDateHidesTheYearUnlessShared() throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let socket = ["--socket", daemon.socketPath]
        let hidden = try run(Paths.fmtq, socket + ["date", "1990-11-29", "--locale", "nl"])
        #expect(hidden.status == 0 && hidden.stdout == "29 november\n", "\(hidden.stderr)")
        let shared = try run(Paths.fmtq, socket + ["date", "1990-11-29", "--locale", "nl", "--year-shared"])
        #expect(shared.stdout == "29 november 1990\n")
        let short = try run(Paths.fmtq, socket + ["date", "1990-11-29", "--locale", "nl-BE", "--style", "short"])
        #expect(short.stdout == "29/11\n")
    }

    @Test func fmtqDateTakesAYearlessDateThatLooksLikeAnOption() throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let result = try run(Paths.fmtq, ["--socket", daemon.socketPath, "date", "--02-29", "--locale", "de-AT"])
        #expect(result.status == 0 && result.stdout == "29. Februar\n", "\(result.stderr)")
    }

    @Test func fmtqDateExitsOneOnAnInvalidDateAndTwoWithoutADate() throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let invalid = try run(Paths.fmtq, ["--socket", daemon.socketPath, "date", "1990-02-30"])
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("invalid_date") && invalid.stderr.contains("February 1990 has 28 days"))
        #expect(try run(Paths.fmtq, ["--socket", daemon.socketPath, "date"]).status == 2)
    }
}

extension String {
    fileprivate init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : String(value)
    }
}
