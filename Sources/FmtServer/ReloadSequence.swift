import Synchronization

/// Reload requests numbered as they arrive, and which of them each reload answered, so a client that asked for a
/// reload can wait for one that began after its request instead of taking the outcome of one already running
/// (SIGHUPs that arrive during a reload merge into the next). Reported by `stats` under `reloads`; no I/O.
public final class ReloadSequence: Sendable {
    /// What `stats` reports.
    public struct Snapshot: Sendable, Equatable {
        /// Reload requests (SIGHUPs) received since start.
        public var requested = 0
        /// The newest request the running reload, or the last one started, answers (0 before the first).
        public var started = 0
        /// The newest request the last finished reload answered: every request up to it has its outcome.
        public var finished = 0
        /// Whether the last finished reload installed its data (nil before the first).
        public var lastOK: Bool?
    }

    private let state = Mutex(Snapshot())

    public init() {}

    public var snapshot: Snapshot { state.withTracedLock { $0 } }

    /// Counts one request; returns its number.
    @discardableResult
    public func received() -> Int {
        state.withTracedLock { state in
            state.requested += 1
            return state.requested
        }
    }

    /// A reload begins: it answers every request received so far. Returns the newest such request.
    public func starting() -> Int {
        state.withTracedLock { state in
            state.started = state.requested
            return state.started
        }
    }

    /// The reload that began at `through` ended, installing its data or not.
    public func finished(through: Int, ok: Bool) {
        state.withTracedLock { state in
            state.finished = max(state.finished, through)
            state.lastOK = ok
        }
    }
}
