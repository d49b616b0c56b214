import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Testing

/// The wire protocol v1 as a client sees it: one line in, one line out, on the real daemon.
@Suite struct ProtocolTests {
    @Test func pingAnswersWithTheVersion() throws {
        let daemon = try Daemon.start()
        let response = try daemon.requestObject(#"{"op":"ping","id":7}"#)
        #expect(response["ok"] == .bool(true))
        #expect(response["id"] == .number(JSONNumber(7)))
        #expect(response["version"]?.stringValue?.isEmpty == false)
    }

    @Test func idIsEchoedVerbatimForEveryJSONType() throws {
        let daemon = try Daemon.start()
        let ids = [
            #"null"#, #"true"#, #"false"#, #"0"#, #"-12.5e3"#, #"1E+2"#, #""req-1""#, #""é\u00e9\n""#, #"[1,"a",null]"#,
            #"{"b":1,"a":[2]}"#,
        ]
        for id in ids {
            let line = try daemon.request(#"{"op":"ping","id":"# + id + "}")
            let expectedID = JSONWriter.string(try JSONReader.parse(id))
            #expect(line.hasPrefix(#"{"id":"# + expectedID + #","ok":true"#), "id \(id) came back as \(line)")
        }
        #expect(try daemon.request(#"{"op":"ping"}"#).hasPrefix(#"{"id":null,"ok":true"#))
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        let count = 2000
        var batch = ""
        for index in 0..<count {
            batch += index % 3 == 0 ? #"{"op":"nope","id":\#(index)}"# + "\n" : #"{"op":"ping","id":\#(index)}"# + "\n"
        }
        try client.send(batch)
        for index in 0..<count {
            let response = try FmtConnection.decode(try client.readLine())
            #expect(response["id"] == .number(JSONNumber(index)))
        }
    }

    @Test func blankLinesAreSkippedAndCRLFIsAccepted() throws {
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        try client.send("\n   \n\r\n" + #"{"op":"ping","id":1}"# + "\r\n\n" + #"{"op":"ping","id":2}"# + "\n")
        #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(1)))
        #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(2)))
    }

    /// Every class of bad input gets one error line with the right code, and the same connection keeps serving.
    @Test(arguments: [
        ("not json", "bad_json"),
        ("{\"op\":\"ping\"", "bad_json"),
        ("[1,2]", "bad_request"),
        ("\"ping\"", "bad_request"),
        ("{\"id\":1}", "bad_request"),
        ("{\"op\":5}", "bad_request"),
        ("{\"op\":null}", "bad_request"),
        ("{\"op\":\"frobnicate\"}", "unknown_op"),
        ("{\"op\":\"ping\",\"x\":\"a\u{0}b\"}", "bad_json"),
        ("{\"op\":\"ping\"}\u{0}", "bad_json"),
        ("{\"op\":\"ping\",\"n\":01}", "bad_json"),
        ("{\"op\":\"ping\",\"s\":\"\\ud800\"}", "bad_json"),
        (String(repeating: "[", count: 60_000), "bad_json"),
        ("{\"a\":" + String(repeating: "{\"a\":", count: 100) + "1" + String(repeating: "}", count: 101), "bad_json"),
    ])
    func badInputGetsAnErrorAndTheConnectionStaysUsable(line: String, code: String) throws {
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        let response = try FmtConnection.decode(try client.request(line))
        #expect(response["ok"] == .bool(false))
        #expect(response["error"]?.objectValue?["code"] == .string(code), "\(line.prefix(40)) → \(response)")
        #expect(response["error"]?.objectValue?["message"]?.stringValue?.isEmpty == false)
        #expect(try client.requestObject(#"{"op":"ping","id":"after"}"#)["ok"] == .bool(true))
    }

    @Test func invalidUTF8IsBadJSON() throws {
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        try client.send(Array(#"{"op":"ping","id":""#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8))
        let response = try FmtConnection.decode(try client.readLine())
        #expect(response["error"]?.objectValue?["code"] == .string("bad_json"))
        #expect(try client.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
    }

    @Test func unknownFieldsAreIgnored() throws {
        let daemon = try Daemon.start()
        #expect(try daemon.requestObject(#"{"op":"ping","future":{"x":[1]},"id":3}"#)["ok"] == .bool(true))
    }

    @Test func aLineOverTheLimitIsTooLargeAndTheRestOfItIsDiscarded() throws {
        let daemon = try Daemon.start(arguments: ["--max-line", "1024"])
        let client = try daemon.connect()
        let long = #"{"op":"ping","pad":""# + String(repeating: "x", count: 1_048_576) + #""}"#
        try client.send(long + "\n" + #"{"op":"ping","id":"next"}"# + "\n")
        let first = try FmtConnection.decode(try client.readLine())
        #expect(first["error"]?.objectValue?["code"] == .string("too_large"))
        let second = try FmtConnection.decode(try client.readLine())
        #expect(second["id"] == .string("next"))
        let stats = try client.requestObject(#"{"op":"stats"}"#)
        #expect(stats["connections"]?.objectValue?["tooLarge"] == .number(JSONNumber(1)))
    }

    @Test func halfClosedClientGetsEveryResponseIncludingAFinalLineWithoutNewline() throws {
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        try client.send(#"{"op":"ping","id":1}"# + "\n" + #"{"op":"ping","id":2}"#)
        client.shutdownWrite()
        #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(1)))
        #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(2)))
        #expect(client.isClosedByPeer())
    }

    @Test func infoListsOpsProtocolLanguagesAndICU() throws {
        let daemon = try Daemon.start()
        let info = try daemon.requestObject(#"{"op":"info"}"#)
        #expect(info["protocol"] == .number(JSONNumber(1)))
        #expect(
            info["languages"] == JSONValue(["en", "nl", "de"]))
        #expect(info["icu"]?.objectValue?["version"]?.stringValue?.hasPrefix("72.") == true)
        let ops = info["ops"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(ops.starts(with: ["ping", "info", "stats"]))
    }

    @Test func statsCountsRequestsAndErrorsPerOp() throws {
        let daemon = try Daemon.start()
        _ = try daemon.request(#"{"op":"ping"}"#)
        _ = try daemon.request(#"{"op":"ping"}"#)
        _ = try daemon.request(#"{"op":"nope"}"#)
        let stats = try daemon.requestObject(#"{"op":"stats"}"#)
        let perOp = stats["requests"]?.objectValue?["perOp"]?.objectValue ?? [:]
        // The daemon's own readiness probe sent one ping before the test's requests.
        #expect(perOp["ping"]?.objectValue?["requests"] == .number(JSONNumber(3)))
        #expect(perOp["(other)"]?.objectValue?["errors"] == .number(JSONNumber(1)))
        #expect(stats["latency"]?.objectValue?["p50Us"]?.numberValue != nil)
    }
}
