import FmtCore
import FmtTesting
import Foundation
import Testing

/// fmtbench drives the real daemon briefly; these pin that its load is all well-formed requests that fmtd
/// answers with `"ok":true`, including across a reload. Figures are printed by fmtbench, never asserted here.
@Suite struct FmtbenchTests {
    private func summary(_ arguments: [String]) throws -> JSONObject {
        let result = try run(Paths.fmtbench, arguments + ["--vectors", Paths.dataDirectory + "/vectors", "--json"])
        #expect(result.status == 0, "fmtbench failed: \(result.stderr)")
        let line = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard case .object(let summary) = try JSONReader.parse(line) else {
            Issue.record("fmtbench printed no JSON summary: \(result.stdout) \(result.stderr)")
            return [:]
        }
        return summary
    }

    private func count(_ object: JSONObject?, _ key: String) -> Int? {
        object?[key]?.numberValue?.intValue
    }

    @Test func theMixedLoadAndTheEchoCeilingRunSideBySideWithoutErrors() throws {
        let daemon = try Daemon.start()
        let summary = try summary([
            "--compare", "--socket", daemon.socketPath, "--pid", String(daemon.pid), "--connections", "2",
            "--depth", "4", "--duration", "0.5", "--warmup", "0.1", "--mix", "phone,address,date,sort",
        ])
        let fmtd = summary["fmtd"]?.objectValue
        let echo = summary["echo"]?.objectValue
        #expect(count(fmtd, "errors") == 0, "first error: \(fmtd?["firstError"] ?? .null)")
        #expect(count(fmtd, "lost") == 0)
        #expect((count(fmtd, "requests") ?? 0) > 0)
        #expect((count(echo, "requests") ?? 0) > 0)
        #expect(summary["mix"]?.arrayValue?.contains("date") == true)
        #expect(fmtd?["serverCpuUsPerRequest"]?.numberValue != nil)
    }

    @Test func reloadsDuringLoadFailNoRequest() throws {
        let daemon = try Daemon.start()
        let summary = try summary([
            "--reload", "--socket", daemon.socketPath, "--connections", "2", "--depth", "2", "--duration", "1",
            "--warmup", "0.1", "--reloads", "2", "--mix", "address,date,sort",
        ])
        #expect(count(summary, "errors") == 0)
        let run = summary["runs"]?.arrayValue?.first?.objectValue
        #expect(run?["reloadMs"]?.arrayValue?.count == 2)
        #expect((count(run, "requests") ?? 0) > 0)
    }
}
