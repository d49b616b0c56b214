import CSystem
import Glibc
import Synchronization

/// Runs reloads on a thread of their own, so the main thread keeps taking signals (SIGTERM stops the daemon
/// mid-reload) and sending watchdog keep-alives however long data takes to load. One reload runs at a time;
/// SIGHUPs that arrive during one merge into one more reload after it, which then reads the newest data.
final class ReloadWorker: Sendable {
    typealias Outcome = (ok: Bool, status: String)

    /// The reload thread's stack: loading recurses at most as deep as the loaders' own bounds allow (JSON depth
    /// 32, message patterns of 4 KiB), far below this; set so the rlimit the daemon was started with does not decide.
    static let stackBytes = 8 << 20

    private struct State {
        var running = false
        var pending = false
        var finished: [Outcome] = []
    }

    private let state = Mutex(State())
    private let reload: @Sendable () -> Outcome
    /// Numbers each request and records which of them each reload answered.
    private let sequence: ReloadSequence

    init(sequence: ReloadSequence, _ reload: @escaping @Sendable () -> Outcome) {
        self.sequence = sequence
        self.reload = reload
    }

    /// Asks for a reload: true when one starts now, false when it is merged into the one after the running one.
    func request() -> Bool {
        sequence.received()
        let start = state.withTracedLock { state in
            if state.running {
                state.pending = true
                return false
            }
            state.running = true
            return true
        }
        if start { spawn() }
        return start
    }

    var isRunning: Bool {
        state.withTracedLock { $0.running }
    }

    /// The outcomes of the reloads finished since the last call, oldest first, and whether no reload runs now.
    func collect() -> (outcomes: [Outcome], idle: Bool) {
        state.withTracedLock { state in
            let outcomes = state.finished
            state.finished = []
            return (outcomes, !state.running)
        }
    }

    private func spawn() {
        let body = Unmanaged.passRetained(self).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Self.stackBytes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, &attributes,
            { raw in
                let worker = Unmanaged<ReloadWorker>.fromOpaque(raw!).takeRetainedValue()
                csys_name_current_thread("fmtd-reload")
                worker.runUntilNoneIsPending()
                return nil
            }, body)
        precondition(rc == 0, "pthread_create failed: \(rc)")
    }

    private func runUntilNoneIsPending() {
        var again = true
        while again {
            let through = sequence.starting()
            let outcome = reload()
            sequence.finished(through: through, ok: outcome.ok)
            again = state.withTracedLock { state in
                state.finished.append(outcome)
                state.running = state.pending
                state.pending = false
                return state.running
            }
        }
    }
}
