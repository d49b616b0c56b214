import FmtClient
import FmtCommandLine
import FmtCore
import Glibc

/// `fmtq reload`: SIGHUP the daemon and wait for the outcome, so `systemctl reload fmtd` (whose `ExecReload=`
/// runs it) fails when the new data does not load, as an operator expects.
enum ReloadCommand {
    static let name = "reload"
    static let summary = "Reload the daemon's data and wait: exit 0 when it loaded, 1 when it was refused"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq reload", summary: summary, usage: ["fmtq reload [--pid PID] [--timeout SECONDS]"],
            description: """
                Sends SIGHUP to the daemon (the socket's peer, or --pid) and waits until `stats` shows the reload \
                finished.
                """,
            options: [
                .integer(
                    "--pid", "PID", minimum: 1, maximum: Int(Int32.max), help: "the daemon's pid",
                    default: "the socket's peer (SO_PEERCRED)"
                ) { $0.pid = Int32($1) },
                .seconds("--timeout", "SECONDS", help: "how long to wait for the outcome", default: "30") {
                    options, seconds throws(UsageError) in
                    guard seconds > 0 else { throw UsageError("--timeout needs a number of seconds above 0") }
                    options.timeout = seconds
                },
            ],
            epilogue: """
                Exit status: 0 the new data is serving; 1 it was refused and the previous data keeps serving (the reason is
                printed); 3 the daemon is unreachable, cannot be signalled, or did not finish within --timeout.
                fmtd.service runs it as ExecReload=, so `systemctl reload fmtd` reports a refused reload as failed.
                """)
    }

    static func run(_ options: QueryOptions, _ positionals: [String], connect: () -> FmtConnection) -> Never {
        if let extra = positionals.first {
            CommandLineExit.usage(UsageError("unexpected argument \(extra)"), command: "fmtq reload")
        }
        let connection = connect()
        do {
            let result = try connection.reload(pid: options.pid, timeout: .milliseconds(Int(options.timeout * 1000)))
            let kept = result.kept.isEmpty ? "" : "; kept unchanged: " + result.kept.joined(separator: ", ")
            print("fmtd reloaded its data (generation \(result.generation)\(kept))")
            exit(0)
        } catch {
            switch error {
            case .refused: fail("fmtq reload: \(error)", status: 1)
            case .timedOut:
                fail("fmtq reload: the daemon did not finish reloading within \(options.timeout) s", status: 3)
            default: fail("fmtq reload: \(error)", status: 3)
            }
        }
    }
}
