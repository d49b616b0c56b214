import CSystem
import Glibc
import Synchronization

/// The daemon's first load of its data, on a thread of its own while the main thread waits for SIGTERM and SIGINT,
/// so a stop asked for during a long load is answered at once rather than once the data has loaded. The handled
/// signals are blocked from the first line of `main` (`Server.prepareProcess`) and taken only with `sigtimedwait`, so
/// a SIGTERM during a load of many seconds is honoured within milliseconds. SIGHUP and SIGUSR2 stay pending for
/// `Server.run`.
public enum StartupLoad {
    /// How a load ended.
    public enum Outcome<Value: Sendable>: Sendable {
        /// The load returned this, and its thread has ended: the process is single-threaded again.
        case loaded(Value)
        /// SIGTERM or SIGINT came first. The load still runs on its thread, so the caller should end the process
        /// with `_exit`, which runs no exit handlers beside it.
        case interrupted(signal: Int32)
    }

    /// The signals that end a load.
    public static let stopSignals: [Int32] = [SIGTERM, SIGINT]

    /// How often the main thread looks whether the load has finished, between waits for a stop signal; a start
    /// takes at most this much longer than its load.
    static let tickMilliseconds: Int32 = 5

    /// Runs `load` on a thread of its own (with the reload thread's stack, since it loads the same data) and waits
    /// for it, or for SIGTERM or SIGINT, whichever comes first. The calling thread must block both signals.
    public static func run<Value: Sendable>(_ load: @escaping @Sendable () -> Value) -> Outcome<Value> {
        let slot = Slot<Value>()
        let thread = LoopThread.start(name: "fmtd-load", stackBytes: ReloadWorker.stackBytes) {
            let value = load()
            slot.value.withTracedLock { $0 = value }
        }
        while !thread.isFinished {
            let signal = stopSignals.withUnsafeBufferPointer {
                csys_wait_signal($0.baseAddress, Int32($0.count), tickMilliseconds)
            }
            if stopSignals.contains(signal) { return .interrupted(signal: signal) }
        }
        thread.join()
        guard let value = slot.value.withTracedLock({ $0.take() }) else {
            preconditionFailure("the load thread finished without a value")
        }
        return .loaded(value)
    }

    /// Where the load thread leaves its value for the main thread.
    private final class Slot<Value: Sendable>: Sendable {
        let value = Mutex<Value?>(nil)
    }
}
