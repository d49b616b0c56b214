import FmtCore
import FmtTesting
import Foundation
import Testing

/// SIGHUP on the real daemon: plugins whose files are unchanged keep their compiled snapshot, the others load anew.
@Suite struct ReloadTests {
    func kept(_ daemon: Daemon) throws -> [String] {
        let reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue
        return reloads?["lastKept"]?.arrayValue?.compactMap(\.stringValue) ?? [
            "lastKept missing: \(String(describing: reloads))"
        ]
    }

    @Test func aReloadKeepsThePluginsWhoseFilesAreUnchangedAndLoadsTheOthers() throws {
        let config = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/messages.d", withIntermediateDirectories: true)
        let daemon = try Daemon.start(configDirectory: config)
        let request = #"{"op":"message","key":"billing.invoice.sent","locale":"nl","args":{"count":3}}"#
        #expect(try daemon.requestObject(request)["error"]?.objectValue?["code"] == "unknown_key")

        try daemon.reload()
        #expect(try kept(daemon) == ["address", "date", "phone", "names"])

        let english = #"{"billing.invoice.sent": "{count, plural, one {# invoice} other {# invoices}} sent"}"#
        let dutch = #"{"billing.invoice.sent": "{count, plural, one {# factuur} other {# facturen}} verstuurd"}"#
        try english.write(toFile: config + "/messages.d/billing.en.json", atomically: true, encoding: .utf8)
        try dutch.write(toFile: config + "/messages.d/billing.nl.json", atomically: true, encoding: .utf8)
        try daemon.reload()
        #expect(try kept(daemon) == ["address", "date", "phone"])
        #expect(try daemon.requestObject(request)["text"] == "3 facturen verstuurd")

        // Same length, different bytes: still a change.
        try dutch.replacingOccurrences(of: "facturen", with: "rekening")
            .write(toFile: config + "/messages.d/billing.nl.json", atomically: true, encoding: .utf8)
        try daemon.reload()
        #expect(try kept(daemon) == ["address", "date", "phone"])
        #expect(try daemon.requestObject(request)["text"] == "3 rekening verstuurd")

        // A removed file is a change too.
        try FileManager.default.removeItem(atPath: config + "/messages.d/billing.nl.json")
        try FileManager.default.removeItem(atPath: config + "/messages.d/billing.en.json")
        try daemon.reload()
        #expect(try kept(daemon) == ["address", "date", "phone"])
        #expect(try daemon.requestObject(request)["error"]?.objectValue?["code"] == "unknown_key")
        #expect(try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue?["failed"] == JSONValue(0))
    }

    @Test func fmtqReloadWaitsForTheOutcomeAndFailsWhenTheDataIsRefused() throws {
        let config = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/messages.d", withIntermediateDirectories: true)
        let daemon = try Daemon.start(configDirectory: config)
        let socket = ["--socket", daemon.socketPath]

        let unchanged = try run(Paths.fmtq, socket + ["reload"])
        #expect(unchanged.status == 0, "\(unchanged)")
        #expect(
            unchanged.stdout == "fmtd reloaded its data (generation 2; kept unchanged: address, date, phone, names)\n")

        try #"{"billing.invoice.sent": "{count, plural, one {# invoice"}"#.write(
            toFile: config + "/messages.d/billing.en.json", atomically: true, encoding: .utf8)
        let refused = try run(Paths.fmtq, socket + ["reload", "--timeout", "20"])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("refused, the previous data keeps serving"), "\(refused)")
        #expect(refused.stderr.contains("billing.en.json"), "\(refused)")

        try FileManager.default.removeItem(atPath: config + "/messages.d/billing.en.json")
        // Back to what generation 2 was loaded from: every plugin, names included, keeps its snapshot.
        let byPID = try run(Paths.fmtq, socket + ["reload", "--pid", String(daemon.pid)])
        #expect(byPID.status == 0, "\(byPID)")
        #expect(byPID.stdout == "fmtd reloaded its data (generation 3; kept unchanged: address, date, phone, names)\n")

        let notADaemon = try run(Paths.fmtq, ["--socket", config + "/missing.sock", "reload"])
        #expect(notADaemon.status == 3)
    }
}
