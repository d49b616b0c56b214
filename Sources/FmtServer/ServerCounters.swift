import FmtCore
import Synchronization

/// Connection-level counters shared by all event loops, reported by `stats`.
public final class ServerCounters: Sendable {
    public let startedAt = ContinuousClock.now
    /// Open connections against the global and per-uid limits.
    public let admission: Admission
    /// Input buffered across connections against `--max-buffered`.
    public let inputBudget: BufferBudget
    /// Unread responses buffered across connections against `--max-buffered-output`.
    public let outputBudget: BufferBudget
    /// Work one connection was given in a loop turn before the loop moved on to others (`EventLoop.slice`).
    public let turnsYielded = Atomic<Int>(0)
    public let connectionsTotal = Atomic<Int>(0)
    /// Refused at the global connection limit (`overloaded`).
    public let connectionsOverloaded = Atomic<Int>(0)
    /// Refused at `--max-connections-per-uid` (`overloaded`).
    public let connectionsPerUIDOverloaded = Atomic<Int>(0)
    /// Times `accept` failed for want of file descriptors (each connection then answered through the reserve).
    public let acceptOutOfDescriptors = Atomic<Int>(0)
    /// Throttles the out-of-descriptors log line to one a second across all loops.
    let outOfDescriptorsLog = Mutex(LogThrottle(intervalMicros: 1_000_000))
    /// Refused by `--allow-uid`/`--allow-gid`.
    public let connectionsForbidden = Atomic<Int>(0)
    public let connectionsIdleClosed = Atomic<Int>(0)
    /// Closed because an unfinished line outlived `--line-timeout`.
    public let connectionsLineTimeouts = Atomic<Int>(0)
    public let linesTooLarge = Atomic<Int>(0)
    /// Reload requests numbered, and which of them each reload answered.
    public let reloadSequence = ReloadSequence()
    /// Times a client that does not read its responses was paused.
    public let readPauses = Atomic<Int>(0)

    /// Counters at zero, with the admission and input limits `configuration` sets.
    public init(configuration: ServerConfiguration) {
        admission = Admission(
            maxConnections: configuration.maxConnections, maxPerUID: configuration.maxConnectionsPerUID)
        inputBudget = BufferBudget(limit: configuration.effectiveMaxBufferedBytes)
        outputBudget = BufferBudget(limit: configuration.effectiveMaxBufferedOutputBytes)
    }

    public var uptimeSeconds: Double {
        let elapsed = startedAt.duration(to: .now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// The counters as `stats` reports them under `connections`.
    public var connections: JSONObject {
        let admitted = admission.snapshot
        return [
            "open": JSONValue(admitted.open),
            "limit": JSONValue(admitted.limit),
            "total": JSONValue(connectionsTotal.load(ordering: .relaxed)),
            "overloaded": JSONValue(connectionsOverloaded.load(ordering: .relaxed)),
            "perUidLimit": JSONValue(admission.maxPerUID),
            "perUidOverloaded": JSONValue(connectionsPerUIDOverloaded.load(ordering: .relaxed)),
            "uids": JSONValue(admitted.uids),
            "busiestUidOpen": JSONValue(admitted.busiestUID),
            "outOfDescriptors": JSONValue(acceptOutOfDescriptors.load(ordering: .relaxed)),
            "bufferedBytes": JSONValue(inputBudget.bytes),
            "bufferedLimit": JSONValue(inputBudget.limit),
            "bufferedPauses": JSONValue(inputBudget.pauses),
            "outputBytes": JSONValue(outputBudget.bytes),
            "outputLimit": JSONValue(outputBudget.limit),
            "outputPauses": JSONValue(outputBudget.pauses),
            "yields": JSONValue(turnsYielded.load(ordering: .relaxed)),
            "forbidden": JSONValue(connectionsForbidden.load(ordering: .relaxed)),
            "idleClosed": JSONValue(connectionsIdleClosed.load(ordering: .relaxed)),
            "lineTimeouts": JSONValue(connectionsLineTimeouts.load(ordering: .relaxed)),
            "tooLarge": JSONValue(linesTooLarge.load(ordering: .relaxed)),
            "readPauses": JSONValue(readPauses.load(ordering: .relaxed)),
        ]
    }
}
