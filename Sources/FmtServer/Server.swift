import CSystem
import FmtCore
import FmtDispatch
import Glibc
import Synchronization

/// The daemon's lifecycle around its event loops: start the loops on the listener, tell systemd we are
/// ready, then turn signals into actions on the main thread (SIGHUP reloads, SIGTERM/SIGINT drain and stop)
/// and send watchdog keep-alives only while every loop is turning.
public final class Server: Sendable {
    public let configuration: ServerConfiguration
    public let counters: ServerCounters
    private let listener: Listener
    private let dispatcher: Dispatcher
    private let logger: Logger
    private let notifier: Notifier
    private let loops: [EventLoop]
    /// Descriptors (of /dev/null) held for reloading: given back just before a reload opens data files, taken again
    /// after, so a reload works even when connections have used every other descriptor.
    private let reloadReserve = Mutex<[Int32]>([])

    /// Descriptors kept free of connections: for reloads, sd_notify, and answering `overloaded` through the
    /// reserve when `accept` runs out.
    public static let descriptorHeadroom = 32
    /// How long after the shutdown deadline the main thread still waits for a loop finishing its current line.
    public static let joinGrace: Duration = .milliseconds(500)

    /// Signals the daemon handles; they are blocked in every thread and taken with `sigtimedwait`.
    public static let handledSignals: [Int32] = [SIGHUP, SIGTERM, SIGINT, SIGUSR2]

    /// Process-wide setup, first thing in `main`: resets the signal mask a parent may have left blocked, then
    /// blocks the handled signals in this thread and every thread started later; raises the open-files limit to
    /// its hard limit, so `--max-connections` is not capped by a 1024 soft limit; pins malloc's mmap threshold.
    /// Returns the steps that failed, for the caller to log once it has a logger; the daemon runs on without them.
    @discardableResult
    public static func prepareProcess() -> [SystemCallError] {
        var failures: [SystemCallError?] = []
        failures.append(.failure("unblocking inherited signals", csys_unblock_all_signals()))
        failures.append(.failure("raising the open-files limit", csys_raise_fd_limit()))
        failures.append(.failure("ignoring SIGPIPE", csys_ignore_sigpipe()))
        let blocked = handledSignals.withUnsafeBufferPointer { csys_block_signals($0.baseAddress, Int32($0.count)) }
        failures.append(.failure("blocking SIGHUP, SIGTERM, SIGINT and SIGUSR2", blocked))
        // Left dynamic, glibc raises its mmap threshold after the first big buffer is freed, and later
        // multi-megabyte response buffers then stay resident once freed; pinned, they go back to the kernel.
        failures.append(.failure("pinning malloc's mmap threshold", csys_pin_mmap_threshold(128 * 1024)))
        return failures.compactMap { $0 }
    }

    public init(
        listener: Listener, dispatcher: Dispatcher, configuration: ServerConfiguration, counters: ServerCounters,
        logger: Logger, notifier: Notifier
    ) throws(ListenerError) {
        self.listener = listener
        self.dispatcher = dispatcher
        self.configuration = configuration
        self.counters = counters
        self.logger = logger
        self.notifier = notifier
        let acceptor = try Acceptor(listener: listener)
        var loops: [EventLoop] = []
        for index in 0..<configuration.threads {
            loops.append(
                try EventLoop(
                    index: index, listener: listener, acceptor: acceptor, dispatcher: dispatcher,
                    configuration: configuration,
                    counters: counters, logger: logger))
        }
        for loop in loops { loop.siblings = loops }
        self.loops = loops
        reloadReserve.withTracedLock { $0 = Self.takeReserve(count: 4) }
        limitConnectionsToDescriptors()
    }

    /// Lowers the connection limit to what the open-files limit leaves after the descriptors already open and
    /// `descriptorHeadroom`, so connections never exhaust descriptors and every one over the limit is answered.
    private func limitConnectionsToDescriptors() {
        let openFileLimit = csys_raise_fd_limit()
        let inUse = csys_count_open_descriptors()
        guard openFileLimit > 0, inUse >= 0 else { return }
        let limit = Admission.connectionLimit(
            configured: configuration.maxConnections, openFileLimit: openFileLimit, descriptorsInUse: Int(inUse),
            headroom: Self.descriptorHeadroom)
        if limit < configuration.maxConnections {
            logger.warning(
                "the open-files limit (\(openFileLimit)) allows \(limit) connections beside the \(inUse) descriptors "
                    + "open and \(Self.descriptorHeadroom) kept free; --max-connections \(configuration.maxConnections) "
                    + "is lowered to \(limit) (raise LimitNOFILE= to serve more)")
        }
        counters.admission.lowerGlobalLimit(to: limit)
    }

    private static func takeReserve(count: Int) -> [Int32] {
        (0..<count).map { _ in csys_open_reserve() }.filter { $0 >= 0 }
    }

    /// Runs `body` with the reload reserve given back, then takes it again.
    private func withReloadReserveReleased<T>(_ body: () -> T) -> T {
        reloadReserve.withTracedLock { reserve in
            for fd in reserve { close(fd) }
            reserve = []
        }
        defer { reloadReserve.withTracedLock { $0 = Self.takeReserve(count: 4) } }
        return body()
    }

    /// Serves until SIGTERM/SIGINT; `reload` runs on SIGHUP, on a thread of its own (`ReloadWorker`) with the
    /// reload reserve given back, and returns the status line for systemd, sent with `READY=1` once no reload is
    /// running. Returns false when a loop had not stopped by the shutdown deadline (plus `joinGrace`): the caller
    /// should then end the process at once (`_exit`) rather than run exit handlers beside it.
    @discardableResult
    public func run(status: String, reload: @escaping @Sendable () -> (ok: Bool, status: String)) -> Bool {
        let threads = loops.map { loop in LoopThread.start(name: "fmtd-loop-\(loop.index)") { loop.run() } }
        let reloads = ReloadWorker(sequence: counters.reloadSequence) { [self] in withReloadReserveReleased { reload() }
        }
        notifier.ready(status: status)
        logger.notice("ready: \(status)")

        var lastWatchdog = ContinuousClock.now
        while true {
            // A running reload is polled for its outcome every 10 ms.
            let tick: Int32 = reloads.isRunning ? 10 : 100
            let signal = Self.handledSignals.withUnsafeBufferPointer {
                csys_wait_signal($0.baseAddress, Int32($0.count), tick)
            }
            if signal == SIGHUP {
                if reloads.request() { notifier.reloading() }
            } else if signal == SIGTERM || signal == SIGINT {
                logger.notice("stopping on \(signal == SIGTERM ? "SIGTERM" : "SIGINT"), draining connections")
                if reloads.isRunning { logger.notice("a reload is running; its outcome is abandoned") }
                notifier.stopping()
                break
            } else if signal == SIGUSR2 {
                wedgeForTesting()
            }
            let finished = reloads.collect()
            for outcome in finished.outcomes {
                if outcome.ok {
                    logger.notice("reloaded: \(outcome.status)")
                } else {
                    logger.error(outcome.status)
                }
            }
            if finished.idle, let last = finished.outcomes.last {
                notifier.send("READY=1\nSTATUS=\(last.status)")
            }
            if let interval = notifier.watchdogInterval, lastWatchdog.duration(to: .now) >= interval {
                if loopsAreTurning(within: interval * 2) {
                    notifier.watchdog()
                    lastWatchdog = .now
                } else {
                    logger.error(
                        "an event loop has not turned for \(interval * 2); withholding the watchdog keep-alive")
                }
            }
        }
        let deadline = csys_monotonic_usec() + UInt64(configuration.shutdownTimeout.wholeMicroseconds)
        for loop in loops { loop.requestStop(deadline: deadline) }
        let joinBy = deadline + UInt64(Self.joinGrace.wholeMicroseconds)
        while threads.contains(where: { !$0.isFinished }) && csys_monotonic_usec() < joinBy { usleep(5_000) }
        let stuck = threads.filter { !$0.isFinished }.count
        for thread in threads where thread.isFinished { thread.join() }
        listener.close()
        if stuck > 0 {
            logger.error(
                "\(stuck) event loop(s) still busy \(Self.joinGrace) after the shutdown deadline; exiting without them")
            return false
        }
        logger.notice("stopped")
        return true
    }

    private func loopsAreTurning(within limit: Duration) -> Bool {
        let now = csys_monotonic_usec()
        let limitMicros = UInt64(limit.wholeMicroseconds)
        return loops.allSatisfy { now &- $0.heartbeat.load(ordering: .relaxed) <= limitMicros }
    }

    /// Debug builds only: SIGUSR2 wedges loop 0 so tests can see the watchdog withheld. Release builds ignore it.
    private func wedgeForTesting() {
        #if DEBUG
        logger.warning("SIGUSR2: wedging event loop 0 (debug builds only)")
        loops.first?.wedgeRequested.store(true, ordering: .relaxed)
        #endif
    }
}

/// A joinable POSIX thread for one event loop (Foundation's `Thread` would pull all of Foundation into the daemon).
struct LoopThread {
    private let handle: pthread_t
    private let finished: Flag

    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private final class Body {
        let name: String
        let run: () -> Void
        let finished: Flag
        init(_ name: String, _ run: @escaping () -> Void, finished: Flag) {
            self.name = name
            self.run = run
            self.finished = finished
        }
    }

    /// True once the thread's body has returned (joining it then does not wait).
    var isFinished: Bool { finished.value.load(ordering: .acquiring) }

    /// Starts `run` on a new thread named `name`, with a stack of `stackBytes` (the system's default when nil).
    static func start(name: String, stackBytes: Int? = nil, _ run: @escaping @Sendable () -> Void) -> LoopThread {
        let finished = Flag()
        let body = Unmanaged.passRetained(Body(name, run, finished: finished)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
        var handle = pthread_t()
        let rc = pthread_create(
            &handle, &attributes,
            { raw in
                let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
                csys_name_current_thread(body.name)
                body.run()
                body.finished.value.store(true, ordering: .releasing)
                return nil
            }, body)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        return LoopThread(handle: handle, finished: finished)
    }

    func join() {
        _ = pthread_join(handle, nil)
    }
}
