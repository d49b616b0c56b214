import FmtCore
import Foundation

/// `fmtq reload`: SIGHUP the daemon and wait for the outcome, so `systemctl reload fmtd` (whose `ExecReload=`
/// runs it) fails when the new data does not load, as an operator expects.
enum ReloadCommand {
    static let name = "reload"
    static let summary = "Reload the daemon's data and wait: exit 0 when it loaded, 1 when it was refused"
    static let help = """
        Usage: fmtq reload [--pid PID] [--timeout SECONDS]

        Sends SIGHUP to the daemon (the socket's peer, or --pid) and waits until `stats` shows the reload finished.
        Exit status: 0 the new data is serving; 1 it was refused and the previous data keeps serving (the reason is
        printed); 3 the daemon is unreachable, cannot be signalled, or did not finish within --timeout (default 30).
        fmtd.service runs it as ExecReload=, so `systemctl reload fmtd` reports a refused reload as failed.
        """

    static func run(_ arguments: inout Arguments, connect: () -> DaemonClient) -> Never {
        let pidOption = arguments.option("--pid")
        let timeout = arguments.option("--timeout").map { Double($0) } ?? 30
        if let extra = arguments.leftovers.first {
            fail("fmtq reload: unexpected argument \(extra)\n\n\(help)", status: 2)
        }
        guard let timeout, timeout > 0 else { fail("fmtq reload: --timeout takes seconds\n\n\(help)", status: 2) }
        var client = connect()
        let pid: Int32
        if let pidOption {
            guard let value = Int32(pidOption), value > 0 else {
                fail("fmtq reload: --pid takes a pid\n\n\(help)", status: 2)
            }
            pid = value
        } else {
            guard let peer = client.peerPID else { fail("fmtq reload: no pid from the socket; pass --pid", status: 3) }
            pid = peer
        }
        let before = reloads(&client)
        guard kill(pid, SIGHUP) == 0 else {
            fail("fmtq reload: cannot signal pid \(pid): \(String(cString: strerror(errno)))", status: 3)
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let after = reloads(&client)
            if after.ok > before.ok {
                let kept = after.kept.isEmpty ? "" : "; kept unchanged: " + after.kept.joined(separator: ", ")
                print("fmtd reloaded its data (generation \(after.generation)\(kept))")
                exit(0)
            }
            if after.failed > before.failed {
                fail("fmtq reload: refused, the previous data keeps serving: \(after.lastError)", status: 1)
            }
            usleep(10_000)
        }
        fail("fmtq reload: the daemon did not finish reloading within \(timeout) s", status: 3)
    }

    private static func reloads(
        _ client: inout DaemonClient
    ) -> (
        ok: Int, failed: Int, generation: Int, lastError: String, kept: [String]
    ) {
        let response: JSONObject?
        do {
            response = try client.ask(["op": "stats"])
        } catch {
            fail("fmtq reload: the daemon closed the connection", status: 3)
        }
        guard let reloads = response?["reloads"]?.objectValue else {
            fail("fmtq reload: the daemon's stats have no reloads", status: 3)
        }
        return (
            reloads["ok"]?.numberValue?.intValue ?? 0, reloads["failed"]?.numberValue?.intValue ?? 0,
            reloads["generation"]?.numberValue?.intValue ?? 0, reloads.text("lastError"),
            reloads["lastKept"]?.arrayValue?.compactMap(\.stringValue) ?? []
        )
    }
}
