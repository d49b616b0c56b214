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
        #expect(try fmtd.ping()["version"] == "0.1.0")
        #expect(try fmtd.info()["ops"]?.arrayValue?.contains("phone") == true)
        #expect(try fmtd.stats()["requests"] != nil)
        #expect(try fmtd.phone("+32 2 555 12 34", viewerRegion: "BE")["display"] == "02 555 12 34")
        #expect(try fmtd.phone("06 12345678", viewerRegion: "NL", defaultRegion: "NL")["display"] == "06 12345678")
        #expect(try fmtd.date("1990-11-29", locale: "nl")["text"] == "29 november")
        #expect(try fmtd.date("1990-11-29", locale: "nl", yearShared: true)["text"] == "29 november 1990")
        let address = try fmtd.address(
            ["street": "Herengracht", "houseNumber": "573", "postalCode": "1017cd", "city": "Amsterdam"],
            country: "NL", locale: "nl-NL")
        #expect(address["lines"]?.arrayValue?.first == "Herengracht 573")
        #expect(try fmtd.addressFormat(country: "BE", locale: "nl")["country"] == "BE")
        #expect(try fmtd.sort(["Zoe", "Åsa", "Ölaf"], locale: "sv")["sorted"] == ["Zoe", "Åsa", "Ölaf"])
        #expect(try fmtd.sortKey(["de Vries"], locale: "nl")["collationVersion"] != nil)
        #expect(try fmtd.language("nl-BE")["language"] == "nl")
        #expect(try fmtd.plural(5, locale: "pl")["category"] == "many")
        #expect(try fmtd.plural("1.0", locale: "en")["category"] == "other")
        let message = try fmtd.message(
            "contacts.details_updated", arguments: ["count": 2, "name": "Anna"], locale: "nl")
        #expect(message["text"] == "Anna heeft 2 gegevens bijgewerkt")
    }

    @Test func theTypedCallsSendTheSameRequestsAsFmtq() throws {
        let daemon = try Daemon.start()
        let fmtd = try FmtConnection(path: daemon.socketPath)
        let typed = try fmtd.phone("+31 6 12345678", viewerRegion: "NL")
        let fmtq = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "--json", "phone", "+31 6 12345678", "--viewer-region=NL"])
        #expect(try FmtConnection.decode(fmtq.stdout.trimmingCharacters(in: .newlines)) == typed)
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
        #expect(try fmtd.ping()["ok"] == true)
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
        let generation = try #require(try fmtd.stats()["reloads"]?.objectValue?["generation"]?.numberValue?.intValue)
        #expect(try fmtd.reload().generation == generation + 1)
    }
}
