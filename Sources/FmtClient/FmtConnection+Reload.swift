import FmtCore
import Glibc

/// A reload that finished: the data generation now serving, and the data sets kept unchanged.
public struct FmtReloadResult: Sendable, Equatable {
    /// The data generation serving now (`stats.reloads.generation`).
    public let generation: Int
    /// The data sets the reload left as they were (`stats.reloads.lastKept`).
    public let kept: [String]
}

/// Why `reload` did not see the new data serving.
public enum FmtReloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No pid was given and the socket did not report the daemon's (`SO_PEERCRED`).
    case noPeerPID
    /// `kill(pid, SIGHUP)` failed.
    case cannotSignal(pid: Int32, errno: Int32)
    /// The daemon refused the new data; the previous data keeps serving.
    case refused(reason: String)
    /// The reload did not finish within the timeout.
    case timedOut(Duration)
    /// The daemon's `stats` have no `reloads` member.
    case noReloadStats
    /// Asking for `stats` failed.
    case connection(FmtClientError)

    public var description: String {
        switch self {
        case .noPeerPID: "no pid from the socket; pass --pid"
        case .cannotSignal(let pid, let code): "cannot signal pid \(pid): \(String(cString: strerror(code)))"
        case .refused(let reason): "refused, the previous data keeps serving: \(reason)"
        case .timedOut(let timeout): "the daemon did not finish reloading within \(timeout)"
        case .noReloadStats: "the daemon's stats have no reloads"
        case .connection: "the daemon closed the connection"
        }
    }
}

extension FmtConnection {
    /// Reloads the daemon's data and waits for the outcome: sends SIGHUP to `pid` (default: the socket's peer) and
    /// polls `stats` until the reload counters move or `timeout` passes.
    public func reload(pid: Int32? = nil, timeout: Duration = .seconds(30)) throws(FmtReloadError) -> FmtReloadResult {
        guard let pid = pid ?? peerPID else { throw .noPeerPID }
        let before = try reloadCounters()
        guard kill(pid, SIGHUP) == 0 else { throw .cannotSignal(pid: pid, errno: errno) }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let after = try reloadCounters()
            if after.ok > before.ok { return FmtReloadResult(generation: after.generation, kept: after.kept) }
            if after.failed > before.failed { throw .refused(reason: after.lastError) }
            usleep(10_000)
        }
        throw .timedOut(timeout)
    }

    private func reloadCounters() throws(FmtReloadError) -> (
        ok: Int, failed: Int, generation: Int, lastError: String, kept: [String]
    ) {
        let response: JSONObject
        do {
            response = try stats()
        } catch {
            throw .connection(error)
        }
        guard let reloads = response["reloads"]?.objectValue else { throw .noReloadStats }
        return (
            reloads["ok"]?.numberValue?.intValue ?? 0, reloads["failed"]?.numberValue?.intValue ?? 0,
            reloads["generation"]?.numberValue?.intValue ?? 0, reloads["lastError"]?.stringValue ?? "",
            reloads["lastKept"]?.arrayValue?.compactMap(\.stringValue) ?? []
        )
    }
}
