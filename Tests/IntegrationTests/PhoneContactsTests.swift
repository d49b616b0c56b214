import FmtCore
import FmtTesting
import Foundation
import Testing

/// Issue 19's ops through the real daemon over its socket: `phone`'s possible-with-reason and `dialFrom`,
/// `phoneMatch` (one `b` and a 10,000-entry batch), `phoneExample`, and fmtq's commands for them.
@Suite struct PhoneContactsTests {
    static func error(_ response: JSONObject) -> JSONObject { response["error"]?.objectValue ?? [:] }

    @Test func phoneSaysWhetherTheLengthIsPossibleAndHowToDialItFromTheViewersRegion() throws {
        let daemon = try Daemon.start()
        let us = try daemon.requestObject(#"{"op":"phone","number":"+1 650 253 0000","viewerRegion":"NL"}"#)
        #expect(us["possible"] == true)
        #expect(us["possibleReason"] == "IS_POSSIBLE")
        #expect(us["dialFrom"] == "00 1 650-253-0000")
        let dutch = try daemon.requestObject(#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"US"}"#)
        #expect(dutch["dialFrom"] == "011 31 6 12345678")
        let home = try daemon.requestObject(#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"NL"}"#)
        #expect(home["dialFrom"] == "06 12345678")
        let short = try daemon.requestObject(#"{"op":"phone","number":"+1 650 253","viewerRegion":"US"}"#)
        #expect(short["possible"] == false)
        #expect(short["possibleReason"] == "TOO_SHORT")
        #expect(short["valid"] == false)
    }

    @Test func phoneMatchAnswersEachKindOfMatch() throws {
        let daemon = try Daemon.start()
        let cases: [(String, String)] = [
            (#""a":"+31 6 12345678","b":"06-12345678","defaultRegion":"NL""#, "exact"),
            (#""a":"+31 6 12345678","b":"06-12345678""#, "nsn"),
            (#""a":"+1 650 253 0000","b":"253 0000""#, "shortNsn"),
            (#""a":"+31 6 12345678","b":"+32 6 12345678","defaultRegion":"nl""#, "none"),
        ]
        for (fields, match) in cases {
            let response = try daemon.requestObject(#"{"op":"phoneMatch","id":7,"# + fields + "}")
            #expect(response.keys == ["id", "ok", "match"], "\(fields)")
            #expect(response["match"] == .string(match), "\(fields)")
        }
    }

    @Test func textThatIsNoNumberNamesItsSideAndUpstreamsReason() throws {
        let daemon = try Daemon.start()
        let first = Self.error(try daemon.requestObject(#"{"op":"phoneMatch","a":"hello","b":"06-12345678"}"#))
        #expect(first["code"] == "invalid_number")
        #expect(first["field"] == "a")
        #expect(first["reason"] == "NOT_A_NUMBER")
        let second = Self.error(
            try daemon.requestObject(#"{"op":"phoneMatch","a":"+31 6 12345678","b":"+31 6","defaultRegion":"NL"}"#))
        #expect(second["field"] == "b")
        #expect(second["reason"] == "TOO_SHORT_NSN")
        #expect(second["message"]?.stringValue?.contains("TOO_SHORT_NSN") == true)
        let entry = Self.error(
            try daemon.requestObject(#"{"op":"phoneMatch","a":"+31 6 12345678","b":["06-12345678","abc"]}"#))
        #expect(entry["field"] == "b")
        #expect(entry["index"] == 1)
        #expect(entry["reason"] == "NOT_A_NUMBER")
        for (line, field) in [
            (#"{"op":"phoneMatch","b":"06-12345678"}"#, "a"), (#"{"op":"phoneMatch","a":"+31 6 12345678"}"#, "b"),
            (#"{"op":"phoneMatch","a":"+31 6 12345678","b":5}"#, "b"),
            (#"{"op":"phoneMatch","a":"+31 6 12345678","b":["x",5]}"#, "b"),
            (#"{"op":"phoneMatch","a":"+31 6 12345678","b":"06","defaultRegion":"N"}"#, "defaultRegion"),
        ] {
            let error = Self.error(try daemon.requestObject(line))
            #expect(error["code"] == "invalid_field", "\(line)")
            #expect(error["field"] == .string(field), "\(line)")
        }
    }

    /// A service checks a new contact against its list in one request: 10,000 entries (a line over the default
    /// `--max-line`, so the daemon runs with a larger one), one answer per entry in order; 10,001 are refused.
    @Test func aBatchOfTenThousandEntriesIsAnsweredInOrder() throws {
        let daemon = try Daemon.start(arguments: ["--max-line", "1048576"])
        let pool = ["06-12345678", "+31 6 12345678 ext. 9", "+32 470 12 34 56", "12345678", "+31612345678"]
        let expected = ["exact", "shortNsn", "none", "shortNsn", "exact"]
        let entries = (0..<10_000).map { pool[$0 % pool.count] }
        var request: JSONObject = ["op": "phoneMatch", "a": "+31 6 12345678", "defaultRegion": "NL"]
        request.append("b", JSONValue(entries))
        let response = try daemon.requestObject(JSONWriter.string(.object(request)))
        #expect(response["ok"] == true, "\(Self.error(response))")
        let matches = response["matches"]?.arrayValue ?? []
        #expect(matches.count == 10_000)
        #expect(matches.enumerated().allSatisfy { $1 == .string(expected[$0 % expected.count]) })
        request["b"] = JSONValue(entries + ["06-12345678"])
        let refused = Self.error(try daemon.requestObject(JSONWriter.string(.object(request))))
        #expect(refused["code"] == "invalid_field")
        #expect(refused["field"] == "b")
    }

    @Test func phoneExampleAnswersAsPhoneDoesAndSaysWhenThereIsNone() throws {
        let daemon = try Daemon.start()
        let mobile = try daemon.requestObject(
            #"{"op":"phoneExample","region":"NL","type":"mobile","viewerRegion":"NL"}"#)
        #expect(mobile.keys == PhoneVectorTests.memberOrder)
        #expect(mobile["display"] == "06 12345678")
        #expect(mobile["type"] == "mobile")
        let fixed = try daemon.requestObject(#"{"op":"phoneExample","region":"gb"}"#)
        #expect(fixed["national"] == "0121 234 5678")
        #expect(fixed["display"] == "0121 234 5678")
        let abroad = try daemon.requestObject(
            #"{"op":"phoneExample","region":"NL","type":"mobile","viewerRegion":"US"}"#)
        #expect(abroad["dialFrom"] == "011 31 6 12345678")
        let unknownType = Self.error(try daemon.requestObject(#"{"op":"phoneExample","region":"NL","type":"fax"}"#))
        #expect(unknownType["code"] == "invalid_field")
        #expect(unknownType["field"] == "type")
        let noType = Self.error(try daemon.requestObject(#"{"op":"phoneExample","region":"NL","type":"unknown"}"#))
        #expect(noType["code"] == "no_example")
        #expect(noType["field"] == "type")
        let noPlan = Self.error(try daemon.requestObject(#"{"op":"phoneExample","region":"AQ"}"#))
        #expect(noPlan["code"] == "no_example")
        #expect(noPlan["field"] == "region")
        let missing = Self.error(try daemon.requestObject(#"{"op":"phoneExample"}"#))
        #expect(missing["code"] == "invalid_field")
        #expect(missing["field"] == "region")
    }

    @Test func fmtqComparesNumbersWithExitStatusAndShowsExamples() throws {
        let daemon = try Daemon.start()
        let socket = ["--socket", daemon.socketPath]
        let exact = try run(
            Paths.fmtq, socket + ["phone-match", "+31 6 12345678", "06-12345678", "--default-region", "NL"])
        #expect(exact.status == 0)
        #expect(exact.stdout == "exact\n")
        let none = try run(Paths.fmtq, socket + ["phone-match", "+31 6 12345678", "+32 6 12345678"])
        #expect(none.status == 1)
        #expect(none.stdout == "none\n")
        let example = try run(Paths.fmtq, socket + ["phone-example", "NL", "--type", "mobile"])
        #expect(example.status == 0)
        #expect(example.stdout.hasPrefix("06 12345678\n"))
        #expect(example.stdout.contains("possible       yes (IS_POSSIBLE)"))
        let phone = try run(Paths.fmtq, socket + ["phone", "+31 6 12345678", "--viewer-region", "US"])
        #expect(phone.stdout.contains("dial           011 31 6 12345678"))
        let noExample = try run(Paths.fmtq, socket + ["phone-example", "AQ"])
        #expect(noExample.status == 1)
        #expect(noExample.stderr.contains("no_example"))
    }
}
