import Synchronization

/// Decides whether a new connection is served: the global `--max-connections` (lowered to what the open-files
/// limit allows) and `--max-connections-per-uid`, counted under one lock so two loops accepting at once cannot
/// both take the last slot. No I/O: the event loop asks, then answers `overloaded` or adopts the connection.
public final class Admission: Sendable {
    /// What `admit` decided.
    public enum Decision: Equatable, Sendable {
        case admitted
        /// The daemon holds its global limit of connections.
        case overGlobalLimit(limit: Int)
        /// This peer's uid holds its limit of connections.
        case overPerUIDLimit(uid: UInt32, limit: Int)
    }

    /// What the counts are at one moment, for `stats`.
    public struct Snapshot: Equatable, Sendable {
        public var open: Int
        public var limit: Int
        /// Distinct uids with at least one open connection.
        public var uids: Int
        /// Open connections of the uid holding the most.
        public var busiestUID: Int

        public init(open: Int, limit: Int, uids: Int, busiestUID: Int) {
            self.open = open
            self.limit = limit
            self.uids = uids
            self.busiestUID = busiestUID
        }
    }

    /// Connections one uid may hold (`--max-connections-per-uid`).
    public let maxPerUID: Int
    private struct State {
        var limit: Int
        var open = 0
        var perUID: [UInt32: Int] = [:]
    }
    private let state: Mutex<State>

    /// Limits of at least 1: `maxConnections` across all peers, `maxPerUID` for each peer uid.
    public init(maxConnections: Int, maxPerUID: Int) {
        self.maxPerUID = max(1, maxPerUID)
        state = Mutex(State(limit: max(1, maxConnections)))
    }

    /// Takes a slot for a connection from `uid`, or says which limit refuses it. Every admitted connection must be
    /// released exactly once.
    public func admit(uid: UInt32) -> Decision {
        state.withTracedLock { state in
            guard state.open < state.limit else { return .overGlobalLimit(limit: state.limit) }
            let held = state.perUID[uid, default: 0]
            guard held < maxPerUID else { return .overPerUIDLimit(uid: uid, limit: maxPerUID) }
            state.open += 1
            state.perUID[uid] = held + 1
            return .admitted
        }
    }

    /// Gives back the slot an admitted connection from `uid` held.
    public func release(uid: UInt32) {
        state.withTracedLock { state in
            guard let held = state.perUID[uid], held > 0 else { return }
            state.open -= 1
            state.perUID[uid] = held == 1 ? nil : held - 1
        }
    }

    /// Lowers the global limit (never raises it); connections already admitted stay.
    public func lowerGlobalLimit(to limit: Int) {
        state.withTracedLock { $0.limit = min($0.limit, max(1, limit)) }
    }

    /// The counts now, taken under the lock.
    public var snapshot: Snapshot {
        state.withTracedLock { state in
            Snapshot(
                open: state.open, limit: state.limit, uids: state.perUID.count,
                busiestUID: state.perUID.values.max() ?? 0)
        }
    }

    /// How many connections the open-files limit leaves room for: every connection costs one descriptor, and
    /// `headroom` stay free for reloading data, sd_notify and answering `overloaded` when accept runs out.
    public static func connectionLimit(
        configured: Int, openFileLimit: Int, descriptorsInUse: Int, headroom: Int
    ) -> Int {
        max(1, min(configured, openFileLimit - descriptorsInUse - headroom))
    }
}
