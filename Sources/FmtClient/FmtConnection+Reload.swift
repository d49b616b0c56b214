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
            if let outcome = FmtReloadCounters.outcome(before: before, after: try reloadCounters()) {
                return try outcome.get()
            }
            usleep(10_000)
        }
        throw .timedOut(timeout)
    }

    private func reloadCounters() throws(FmtReloadError) -> FmtReloadCounters {
        let response: JSONObject
        do {
            response = try call(["op": "stats"])
        } catch {
            throw .connection(error)
        }
        guard let reloads = response["reloads"]?.objectValue else { throw .noReloadStats }
        return FmtReloadCounters(
            ok: reloads["ok"]?.numberValue?.intValue ?? 0, failed: reloads["failed"]?.numberValue?.intValue ?? 0,
            generation: reloads["generation"]?.numberValue?.intValue ?? 0,
            lastError: reloads["lastError"]?.stringValue ?? "",
            kept: reloads["lastKept"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            requested: reloads["requested"]?.numberValue?.intValue,
            finished: reloads["finished"]?.numberValue?.intValue,
            lastOK: reloads["lastOk"]?.boolValue)
    }
}

/// `stats.reloads` as `reload` reads it before its SIGHUP and while it waits.
public struct FmtReloadCounters: Sendable, Equatable {
    public var ok: Int
    public var failed: Int
    public var generation: Int
    public var lastError: String
    public var kept: [String]
    /// Reload requests the daemon received (nil from a daemon that does not number them).
    public var requested: Int?
    /// The newest request the last finished reload answered.
    public var finished: Int?
    /// Whether that reload installed its data.
    public var lastOK: Bool?

    public init(
        ok: Int, failed: Int, generation: Int, lastError: String, kept: [String], requested: Int? = nil,
        finished: Int? = nil, lastOK: Bool? = nil
    ) {
        self.ok = ok
        self.failed = failed
        self.generation = generation
        self.lastError = lastError
        self.kept = kept
        self.requested = requested
        self.finished = finished
        self.lastOK = lastOK
    }

    /// The outcome of the reload asked for between `before` and `after`, or nil while it has none yet. Only a
    /// reload that began after the request answers it (one whose requests go past `before.requested`); one that
    /// was already running when the request came, and merged it into the next, does not, whatever it reports.
    public static func outcome(
        before: FmtReloadCounters, after: FmtReloadCounters
    ) -> Result<FmtReloadResult, FmtReloadError>? {
        if let requested = before.requested, let finished = after.finished {
            guard finished > requested else { return nil }
            return after.lastOK == true
                ? .success(FmtReloadResult(generation: after.generation, kept: after.kept))
                : .failure(.refused(reason: after.lastError))
        }
        // A daemon without request numbers: the first reload counted after the signal.
        if after.ok > before.ok { return .success(FmtReloadResult(generation: after.generation, kept: after.kept)) }
        if after.failed > before.failed { return .failure(.refused(reason: after.lastError)) }
        return nil
    }
}
