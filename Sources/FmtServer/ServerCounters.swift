import FmtCore
import Synchronization

/// Connection-level counters shared by all event loops, reported by `stats`.
public final class ServerCounters: Sendable {
    public let startedAt = ContinuousClock.now
    public let connectionsOpen = Atomic<Int>(0)
    public let connectionsTotal = Atomic<Int>(0)
    /// Refused at the connection limit (`overloaded`).
    public let connectionsOverloaded = Atomic<Int>(0)
    /// Refused by `--allow-uid`/`--allow-gid`.
    public let connectionsForbidden = Atomic<Int>(0)
    public let connectionsIdleClosed = Atomic<Int>(0)
    /// Closed because an unfinished line outlived `--line-timeout`.
    public let connectionsLineTimeouts = Atomic<Int>(0)
    public let linesTooLarge = Atomic<Int>(0)
    /// Times a client that does not read its responses was paused.
    public let readPauses = Atomic<Int>(0)

    public init() {}

    public var uptimeSeconds: Double {
        let elapsed = startedAt.duration(to: .now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The counters as `stats` reports them under `connections`.
    public var connections: JSONObject {
        [
            "open": JSONValue(connectionsOpen.load(ordering: .relaxed)),
            "total": JSONValue(connectionsTotal.load(ordering: .relaxed)),
            "overloaded": JSONValue(connectionsOverloaded.load(ordering: .relaxed)),
            "forbidden": JSONValue(connectionsForbidden.load(ordering: .relaxed)),
            "idleClosed": JSONValue(connectionsIdleClosed.load(ordering: .relaxed)),
            "lineTimeouts": JSONValue(connectionsLineTimeouts.load(ordering: .relaxed)),
            "tooLarge": JSONValue(linesTooLarge.load(ordering: .relaxed)),
            "readPauses": JSONValue(readPauses.load(ordering: .relaxed)),
        ]
    }
}
