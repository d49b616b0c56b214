import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Testing

/// FmtClient against the real daemon: one typed call per op, pipelining, the wire's errors, the peer's pid.
@Suite struct FmtClientTests {
    @Test func everyTypedCallGetsASuccessfulAnswer() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        #expect(try fmtd.ping().version == "0.1.0")
        #expect(try fmtd.info().ops.contains("phone"))
        #expect(try fmtd.stats().requests.total >= 2)
        #expect(try fmtd.phone("+32 2 555 12 34", viewerRegion: "BE").display == "02 555 12 34")
        let mobile = try fmtd.phone("06 12345678", viewerRegion: "NL", defaultRegion: "NL")
        #expect(mobile.display == "06 12345678")
        #expect(mobile.type == "mobile")
        #expect(mobile.region == "NL")
        #expect(mobile.extension == nil)
        #expect(try fmtd.phoneMatch("+31 6 12345678", "06-12345678", defaultRegion: "NL").match == "exact")
        #expect(
            try fmtd.phoneMatch("+31 6 12345678", each: ["06-12345678", "+32 6 12345678"]).matches == ["nsn", "none"])
        #expect(try fmtd.phoneExample(region: "NL", type: "mobile").display == "06 12345678")
        #expect(try fmtd.date("1990-11-29", locale: "nl").text == "29 november")
        #expect(try fmtd.date("1990-11-29", locale: "nl", yearShared: true).text == "29 november 1990")
        let address = try fmtd.address(
            ["street": "Herengracht", "houseNumber": "573", "postalCode": "1017cd", "city": "Amsterdam"],
            country: "NL", locale: "nl-NL")
        #expect(address.lines.first == "Herengracht 573")
        #expect(address.fields.first { $0.field == "postalCode" }?.value == "1017 CD")
        let format = try fmtd.addressFormat(country: "BE", locale: "nl")
        #expect(format.country == "BE")
        #expect(format.postalCode?.example == "2000")
        #expect(try fmtd.sort(["Zoe", "Åsa", "Ölaf"], locale: "sv").sorted == ["Zoe", "Åsa", "Ölaf"])
        #expect(try fmtd.sortKey(["de Vries"], locale: "nl").keys?.count == 1)
        #expect(try fmtd.language("nl-BE").language == "nl")
        #expect(try fmtd.language("nl-BE, de").index == .some(0))
        #expect(try fmtd.language().languages?.map(\.language) == ["en", "nl", "de"])
        #expect(try fmtd.plural(5, locale: "pl").category == "many")
        #expect(try fmtd.plural("1.0", locale: "en").category == "other")
        let message = try fmtd.message(
            "contacts.details_updated", arguments: ["count": 2, "name": "Anna"], locale: "nl")
        #expect(message.text == "Anna heeft 2 gegevens bijgewerkt")
        #expect(message.lang == "nl")
    }

    @Test func infoAndStatsOfARealDaemonDecodeAndWriteBackEveryMember() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        _ = try fmtd.phone("+31 6 12345678", viewerRegion: "NL")
        _ = try? fmtd.call(["op": "nope"])
        _ = try fmtd.reload()
        let info = try fmtd.info()
        let stats = try fmtd.stats()
        for result in [info, stats] as [any FmtResult] {
            var written: JSONObject = ["id": .null, "ok": true]
            for member in result.members { written.append(member.key, member.value) }
            #expect(
                JSONWriter.encode(.object(written)) == JSONWriter.encode(.object(result.raw)), "\(type(of: result))")
        }
        // Every op the daemon answers has a result type.
        #expect(Set(info.ops).subtracting(FmtResults.byOp.keys).isEmpty)
        #expect(info.plugins.map(\.name) == ["address", "date", "phone", "names"])
        #expect(stats.requests.perOp.map(\.op).contains("(other)"))
        #expect(stats.reloads.lastDurationUs != nil)
        #expect(stats.reloads.lastOk == true)
        #expect(stats.latency.buckets.last?.requests == stats.latency.count)
    }

    @Test func anAnswerWithoutAMemberItsTypeReadsIsUndecodable() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        // A date answer read as a phone answer lacks every phone member.
        #expect(
            throws: FmtClientError.undecodable(
                FmtDecodingError(code: .missingMember, op: "phone", member: "valid", expected: "a boolean"))
        ) { try fmtd.call(["op": "date", "date": "1990-11-29"], as: PhoneDisplay.self) }
        #expect(try fmtd.ping().version == "0.1.0")
    }

    @Test func theTypedCallsSendTheSameRequestsAsFmtq() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        let typed = try fmtd.phone("+31 6 12345678", viewerRegion: "NL")
        let fmtq = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "--json", "phone", "+31 6 12345678", "--viewer-region=NL"])
        #expect(try FmtConnection.decode(fmtq.stdout.trimmingCharacters(in: .newlines)) == typed.raw)
    }

    @Test func anErrorResponseThrowsItsCodeMessageAndField() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        do {
            _ = try fmtd.call(["op": "address", "address": ["country": 5]])
            Issue.record("an address with a numeric country was accepted")
        } catch {
            guard case .daemon(let response) = error else { throw error }
            #expect(response.code == "invalid_field")
            #expect(response.field == "address.country")
            #expect(!response.message.isEmpty)
        }
        #expect(try fmtd.ping().raw["ok"] == true)
    }

    @Test func aPipelineAnswersEveryRequestInOrderWithItsOwnOutcome() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        var requests: [JSONObject] = (0..<20_000).map { ["op": "ping", "id": .number(JSONNumber($0))] }
        requests[7] = ["op": "nope", "id": 7]
        let results = try fmtd.pipeline(requests)
        #expect(results.count == requests.count)
        for (index, result) in results.enumerated() where index != 7 {
            #expect((try? result.get())?["id"] == .number(JSONNumber(index)))
        }
        guard case .failure(let error) = results[7] else {
            Issue.record("the unknown op succeeded")
            return
        }
        #expect(error.code == "unknown_op")
    }

    @Test func aPipelineOfLargeResponsesDoesNotStallOnTheDaemonsOutputLimit() throws {
        let daemon = try Daemon.start(arguments: ["--max-output", "1024"])
        let fmtd = try FmtConnection(path: daemon.socketPath)
        let names = (0..<200).map { "name \($0)" }
        let results = try fmtd.pipeline(Array(repeating: ["op": "sortKey", "names": JSONValue(names)], count: 500))
        #expect(results.count == 500)
        #expect(results.allSatisfy { (try? $0.get())?["keys"]?.arrayValue?.count == 200 })
    }

    @Test func thePeerPIDIsTheDaemons() throws {
        let daemon = try Daemon.start()
        #expect(try FmtConnection(path: daemon.socketPath).peerPID == daemon.pid)
    }

    @Test func aSilentDaemonTimesOut() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath, timeout: .milliseconds(200))
        try fmtd.send(#"{"op":"ping""#)
        #expect(throws: FmtClientError.timedOut) { try fmtd.readLine() }
    }

    @Test func aPipelineWaitingForAnAnswerThatNeverComesTimesOut() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath, timeout: .milliseconds(300))
        // The daemon skips a blank line, so the second answer never comes.
        #expect(throws: FmtClientError.timedOut) { try fmtd.pipeline(lines: [Array(#"{"op":"ping"}"#.utf8), []]) }
    }

    @Test func reloadWaitsForTheNewDataToServe() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        let generation = try fmtd.stats().reloads.generation
        #expect(try fmtd.reload().generation == generation + 1)
    }
}
