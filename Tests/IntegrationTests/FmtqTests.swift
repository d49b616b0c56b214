import FmtTesting
import Foundation
import Testing

/// fmtq as an operator uses it: text by default, `--json` for the raw line, and exit statuses scripts can test.
@Suite struct FmtqTests {
    @Test func pingPrintsTextAndExitsZero() throws {
        let daemon = try Daemon.start()
        let result = try run(Paths.fmtq, ["--socket", daemon.socketPath, "ping"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("is answering"))
    }

    @Test func socketComesFromTheEnvironmentToo() throws {
        let daemon = try Daemon.start()
        let result = try run(Paths.fmtq, ["info"], environment: ["FMTD_SOCKET": daemon.socketPath])
        #expect(result.status == 0)
        #expect(result.stdout.contains("ICU 72"))
    }

    @Test func jsonPrintsTheResponseLine() throws {
        let daemon = try Daemon.start()
        let result = try run(Paths.fmtq, ["--socket", daemon.socketPath, "--json", "ping"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"id":null,"ok":true,"version":"#))
    }

    @Test func rawSendsLinesFromStdinAndExitsOneOnAnErrorResponse() throws {
        let daemon = try Daemon.start()
        let ok = try run(Paths.fmtq, ["--socket", daemon.socketPath, "raw", #"{"op":"ping","id":1}"#])
        #expect(ok.status == 0)
        #expect(ok.stdout == #"{"id":1,"ok":true,"version":"0.1.0"}"# + "\n")
        let failing = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "raw"],
            stdin: #"{"op":"ping"}"# + "\n" + #"{"op":"nope"}"# + "\n")
        #expect(failing.status == 1)
        #expect(failing.stdout.split(separator: "\n").count == 2)
    }

    @Test func usageMistakesExitTwo() throws {
        #expect(try run(Paths.fmtq, []).status == 2)
        #expect(try run(Paths.fmtq, ["frobnicate"]).status == 2)
        #expect(try run(Paths.fmtq, ["ping", "--bogus"]).status == 2)
    }

    @Test func helpIsAvailableForEveryCommand() throws {
        let overview = try run(Paths.fmtq, ["--help"])
        #expect(overview.status == 0)
        let names = overview.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }.filter { !$0.hasPrefix("--") }
        #expect(names.contains("ping") && names.contains("raw"))
        for name in names {
            let help = try run(Paths.fmtq, [name, "--help"])
            #expect(help.status == 0, "fmtq \(name) --help")
            #expect(help.stdout.contains("Usage: fmtq \(name)"), "fmtq \(name) --help")
        }
    }

    @Test func anUnreachableDaemonExitsThreeAndSaysWhichSocket() throws {
        let result = try run(Paths.fmtq, ["--socket", "/nonexistent/fmtd.sock", "ping"])
        #expect(result.status == 3)
        #expect(result.stderr.contains("/nonexistent/fmtd.sock"))
        #expect(result.stderr.contains("fmtd --socket"))
    }
}
