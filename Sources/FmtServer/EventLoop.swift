import CSystem
import FmtCore
import FmtDispatch
import Glibc
import Synchronization

/// One epoll loop on its own thread. Requests are answered on the loop thread as their lines arrive, so
/// responses leave in request order; nothing on a loop blocks. All mutable state is confined to the loop's
/// thread; other threads only touch the atomics, the inbox of handed-over connections and the wake-up eventfd.
final class EventLoop: @unchecked Sendable {
    private static let listenerToken: UInt64 = .max
    private static let wakeToken: UInt64 = .max - 1
    private static let readChunk = 64 * 1024
    /// The time one connection is answered in a row (nanoseconds) before the loop moves on: a client pipelining
    /// costly lines yields to the others after this, and waits in `busy` for its next turn.
    static let slice: UInt64 = 200_000
    /// The time one pass over `busy` may take (microseconds) before the loop looks for new events again, so a fresh
    /// client's line waits at most about this behind any number of busy peers.
    static let busyPass: UInt64 = 1_000
    /// Exclusive wake-ups: one loop, not all, wakes for each incoming connection.
    private static let listenerEvents = UInt32(CSYS_EPOLLIN) | UInt32(bitPattern: Int32(CSYS_EPOLLEXCLUSIVE))

    let index: Int
    private let epoll: Int32
    private let wakeFD: Int32
    private let listener: Listener
    /// Every loop's `accept`, one at a time, with the reserved descriptor.
    private let acceptor: Acceptor
    /// This loop's stats shard and per-batch plugin set.
    private let lane: Dispatcher.Lane
    private let configuration: ServerConfiguration
    private let counters: ServerCounters
    private let logger: Logger
    /// `--max-output` and the slice, as the connections' decisions take them.
    private let limits: ConnectionLimits
    /// The loop-wide budgets the connections' decisions consult.
    private let budgets: SharedBudgets
    private var connections: [Int32: Connection] = [:]
    /// All loops of the server (this one included), set once before they run; accepted connections are spread
    /// over them.
    var siblings: [EventLoop] = []
    private var nextSibling: Int
    /// Connections accepted by another loop for this one; the only loop state other threads touch.
    private let inbox = Mutex<[(Int32, PeerCredentials)]>([])
    private var readBuffer = [UInt8](repeating: 0, count: EventLoop.readChunk)
    private var listening = true
    /// While out of file descriptors, the listener is taken out of epoll until this time, instead of spinning.
    private var acceptPausedUntil: UInt64?
    /// Connections not read because the input budget is spent; read again once it has room.
    private var budgetPaused: Set<Int32> = []
    /// While the budget is spent, the one connection of this loop allowed to read past its last newline, so a line
    /// longer than one read still finishes (and frees what it holds) instead of every such line waiting for
    /// `--line-timeout`. The cap can thus be exceeded by at most one `--max-line` per loop.
    private var finisher: Int32?
    /// Connections that used their slice with work left (a backlog, or bytes still in the socket), served in turn
    /// after each pass over new events, for at most `busyPass` a pass. A queued connection is not read on an
    /// event: only here.
    private var busy = TurnQueue()
    private var draining = false

    /// Monotonic microseconds of the loop's last turn, read by the watchdog.
    let heartbeat = Atomic<UInt64>(0)
    private let stopRequested = Atomic<Bool>(false)
    /// Monotonic microseconds after which no further line is answered (0 until a stop is requested).
    private let stopDeadline = Atomic<UInt64>(0)
    #if DEBUG
    /// Debug builds only: makes the loop spin without turning, to test the watchdog.
    let wedgeRequested = Atomic<Bool>(false)
    #endif

    /// The daemon's effective uid, always allowed: a peer running as it could signal or trace the daemon anyway.
    private let ownUID = geteuid()

    init(
        index: Int, listener: Listener, acceptor: Acceptor, dispatcher: Dispatcher, configuration: ServerConfiguration,
        counters: ServerCounters, logger: Logger
    ) throws(ListenerError) {
        self.index = index
        self.nextSibling = index
        self.listener = listener
        self.acceptor = acceptor
        lane = Dispatcher.Lane(dispatcher)
        self.configuration = configuration
        self.counters = counters
        self.logger = logger
        limits = ConnectionLimits(maxOutputBytes: configuration.maxOutputBytes, slice: Self.slice)
        budgets = SharedBudgets(
            input: counters.inputBudget, output: counters.outputBudget, open: { counters.admission.snapshot.open })
        epoll = csys_epoll_create()
        wakeFD = csys_eventfd()
        guard epoll >= 0, wakeFD >= 0 else { throw .system("epoll", errno: errno) }
        guard csys_epoll_add(epoll, wakeFD, UInt32(CSYS_EPOLLIN), Self.wakeToken) == 0,
            csys_epoll_add(epoll, listener.fd, Self.listenerEvents, Self.listenerToken) == 0
        else { throw .system("epoll_ctl", errno: errno) }
        heartbeat.store(csys_monotonic_usec(), ordering: .relaxed)
    }

    /// Asks the loop to stop accepting, answer what clients already sent and flush it until `deadline` (monotonic
    /// microseconds), then close every connection and return from `run`. No line is started after the deadline.
    func requestStop(deadline: UInt64) {
        stopDeadline.store(max(deadline, 1), ordering: .relaxed)
        stopRequested.store(true, ordering: .relaxed)
        wake()
    }

    private var pastStopDeadline: Bool {
        let deadline = stopDeadline.load(ordering: .relaxed)
        return deadline != 0 && csys_monotonic_usec() >= deadline
    }

    /// Runs until stopped and drained.
    func run() {
        var events = [csys_event](repeating: csys_event(), count: 256)
        var lastSweep = csys_monotonic_usec()
        var timeout: Int32 = 250
        while true {
            let count = events.withUnsafeMutableBufferPointer {
                csys_epoll_wait(epoll, $0.baseAddress, 256, timeout)
            }
            let now = csys_monotonic_usec()
            heartbeat.store(now, ordering: .relaxed)
            #if DEBUG
            while wedgeRequested.load(ordering: .relaxed) { usleep(10_000) }
            #endif
            if count > 0 { lane.beginBatch() }
            for event in events.prefix(Int(max(count, 0))) {
                switch event.data {
                case Self.listenerToken: acceptConnections(now: now)
                case Self.wakeToken:
                    _ = csys_eventfd_drain(wakeFD)
                    adoptHandedOver(now: now)
                default: handle(fd: Int32(truncatingIfNeeded: event.data), events: event.events, now: now)
                }
            }
            if !busy.isEmpty { serveBusy(now: now) }
            lane.endBatch()
            timeout = busy.isEmpty ? 250 : 0
            if stopRequested.load(ordering: .relaxed) {
                if beginOrContinueDrain() { break }
                let left = stopDeadline.load(ordering: .relaxed) &- csys_monotonic_usec()
                timeout = min(timeout, Int32(min(250, left / 1000 + 1)))
            }
            if let until = acceptPausedUntil, now >= until, listening {
                acceptPausedUntil = nil
                let added = csys_epoll_add(epoll, listener.fd, Self.listenerEvents, Self.listenerToken)
                if let failure = SystemCallError.failure("epoll_ctl(ADD, listener) after the accept pause", added) {
                    logger.error("loop \(index) stops accepting: \(failure)")
                }
            }
            if !budgetPaused.isEmpty && counters.inputBudget.hasRoom { resumeBudgetPaused() }
            if now &- lastSweep >= 1_000_000 {
                lastSweep = now
                closeStalledConnections(now: now)
            }
        }
        for connection in Array(connections.values) { close(connection) }
        Glibc.close(epoll)
        Glibc.close(wakeFD)
    }

    /// Returns true when the loop may exit: every connection answered and closed, or the stop deadline passed.
    private func beginOrContinueDrain() -> Bool {
        if !draining {
            draining = true
            listening = false
            if acceptPausedUntil == nil { removeListener() }
            // Answer what clients already sent, then treat every connection as half-closed: it closes once its
            // responses are flushed, and an idle one closes at once.
            for connection in Array(connections.values) {
                if connection.state.readsBeforeStopping { readAvailable(connection, budget: .max) }
                connection.state.stopReading()
                guard connection.flush() else {
                    close(connection)
                    continue
                }
                settle(connection)
            }
        }
        return connections.isEmpty || pastStopDeadline
    }

    private func acceptConnections(now: UInt64) {
        guard listening else { return }
        for _ in 0..<64 {
            let fd: Int32
            switch acceptor.accept(answeringOverloaded: { refuse($0, Self.outOfDescriptors) }) {
            case .accepted(let accepted): fd = accepted
            case .nothingWaiting: return
            case .answeredThroughReserve(let code):
                counters.connectionsOverloaded.add(1, ordering: .relaxed)
                noteOutOfDescriptors(errno: code, now: now)
                continue
            case .outOfDescriptors(let code):
                // Even the reserve is gone: stop accepting for 100 ms instead of spinning on `EMFILE`.
                noteOutOfDescriptors(errno: code, now: now)
                removeListener()
                acceptPausedUntil = now + 100_000
                return
            }
            counters.connectionsTotal.add(1, ordering: .relaxed)
            let peer = PeerCredentials.of(fd: fd) ?? PeerCredentials(pid: 0, uid: .max, gid: .max)
            if !isAllowed(peer) {
                counters.connectionsForbidden.add(1, ordering: .relaxed)
                logger.warning("refused connection from \(peer): not in --allow-uid/--allow-gid")
                refuse(
                    fd,
                    CoreError.forbidden(
                        "This user may not use fmtd (\(peer)); ask the operator to add it to --allow-uid or --allow-gid."
                    ))
                continue
            }
            switch counters.admission.admit(uid: peer.uid) {
            case .admitted: break
            case .overGlobalLimit(let limit):
                counters.connectionsOverloaded.add(1, ordering: .relaxed)
                refuse(fd, CoreError.overloaded("The daemon is at its connection limit (\(limit)); try again later."))
                continue
            case .overPerUIDLimit(let uid, let limit):
                counters.connectionsPerUIDOverloaded.add(1, ordering: .relaxed)
                refuse(
                    fd,
                    CoreError.overloaded(
                        "uid \(uid) holds \(limit) connections, the per-user limit (--max-connections-per-uid); "
                            + "close some or try again later."))
                continue
            }
            // EPOLLEXCLUSIVE wakes whichever loop is idle, so a burst of connections would all land on one loop:
            // spread them round-robin instead.
            let target = siblings.isEmpty ? self : siblings[nextSibling % siblings.count]
            nextSibling &+= 1
            if target === self {
                adopt(fd: fd, peer: peer, now: now)
            } else {
                target.handOver(fd: fd, peer: peer)
            }
        }
    }

    private static let outOfDescriptors = CoreError.overloaded(
        "The daemon is out of file descriptors; try again later.")

    /// Counts an `accept` that failed for want of descriptors and logs it, at most once a second across loops.
    private func noteOutOfDescriptors(errno code: Int32, now: UInt64) {
        counters.acceptOutOfDescriptors.add(1, ordering: .relaxed)
        guard let suppressed = counters.outOfDescriptorsLog.withTracedLock({ $0.admit(now: now) }) else { return }
        let open = counters.admission.snapshot.open
        let held = suppressed > 0 ? " (\(suppressed) more since the last report)" : ""
        logger.error(
            "accept: \(String(cString: strerror(code))) with \(open) connections open; answering "
                + "`overloaded` through the reserved descriptor\(held)")
    }

    /// Queues a connection accepted by another loop; this loop registers it when its eventfd wakes it.
    private func handOver(fd: Int32, peer: PeerCredentials) {
        inbox.withTracedLock { $0.append((fd, peer)) }
        wake()
    }

    /// Wakes the loop's `epoll_wait` through its eventfd; may be called from any thread.
    private func wake() {
        if let failure = SystemCallError.failure("eventfd write", csys_eventfd_signal(wakeFD)) {
            logger.error("cannot wake loop \(index): \(failure)")
        }
    }

    private func removeListener() {
        if let failure = SystemCallError.failure("epoll_ctl(DEL, listener)", csys_epoll_del(epoll, listener.fd)) {
            logger.error("loop \(index): \(failure)")
        }
    }

    private func adoptHandedOver(now: UInt64) {
        for (fd, peer) in inbox.withTracedLock({ inbox in
            defer { inbox.removeAll() }; return inbox
        }) {
            adopt(fd: fd, peer: peer, now: now)
        }
    }

    private func adopt(fd: Int32, peer: PeerCredentials, now: UInt64) {
        guard listening, csys_epoll_add(epoll, fd, UInt32(CSYS_EPOLLIN), UInt64(fd)) == 0 else {
            Glibc.close(fd)
            counters.admission.release(uid: peer.uid)
            return
        }
        let connection = Connection(fd: fd, peer: peer, maxLineBytes: configuration.maxLineBytes, now: now)
        connection.interest = UInt32(CSYS_EPOLLIN)
        connections[fd] = connection
        logger.debug("connection \(fd) from \(peer) on loop \(index)")
    }

    private func isAllowed(_ peer: PeerCredentials) -> Bool {
        if configuration.allowedUIDs == nil && configuration.allowedGIDs == nil { return true }
        return peer.uid == ownUID || configuration.allowedUIDs?.contains(peer.uid) == true
            || configuration.allowedGIDs?.contains(peer.gid) == true
    }

    private func refuse(_ fd: Int32, _ error: CoreError) {
        sendLastWord(error, to: fd)
        Glibc.close(fd)
    }

    /// One error line, sent without waiting, before the connection on `fd` is closed.
    private func sendLastWord(_ error: CoreError, to fd: Int32) {
        var line: [UInt8] = []
        Dispatcher.appendError(error, id: .null, to: &line)
        _ = line.withUnsafeBytes { csys_send(fd, $0.baseAddress, $0.count) }
    }

    private func handle(fd: Int32, events: UInt32, now: UInt64) {
        guard let connection = connections[fd] else { return }
        let step = connection.state.event(
            readable: events & UInt32(CSYS_EPOLLIN) != 0, hangUp: events & UInt32(CSYS_EPOLLHUP) != 0,
            error: events & UInt32(CSYS_EPOLLERR) != 0, pendingOutput: connection.pendingOutput, now: now)
        switch step {
        case .close:
            close(connection)
            return
        case .read: readAvailable(connection)
        case .flush: break
        }
        guard connection.flush() else {
            close(connection)
            return
        }
        settle(connection)
    }

    /// Gives each busy connection one more slice, in the order they yielded, until the pass has taken `busyPass`;
    /// the rest keep their places for the next pass.
    private func serveBusy(now: UInt64) {
        var pass = busy.beginPass(now: csys_monotonic_usec())
        while let fd = busy.next(&pass) {
            guard let connection = connections[fd] else { continue }
            connection.state.beginBusyTurn(now: now)
            continueWork(connection)
            busy.served(&pass, now: csys_monotonic_usec(), limit: Self.busyPass)
        }
        busy.endPass()
    }

    /// A busy connection's turn: its backlog first, then what its socket holds, each within the slice.
    private func continueWork(_ connection: Connection) {
        if !connection.state.backlog.isEmpty { consumeBacklog(connection) }
        if connection.state.readsAfterBacklog(pendingOutput: connection.pendingOutput, limits: limits, budgets: budgets)
        {
            readAvailable(connection)
        }
        guard connection.flush() else {
            close(connection)
            return
        }
        settle(connection)
    }

    /// Reads what the socket has (at most `budget` reads per turn, for fairness) and answers every complete line.
    /// While the input budget is spent, it takes only bytes through the last newline available, and pauses the
    /// connection when there is none (unless it is discarding an over-long line, which buffers nothing, or it is
    /// this loop's finisher).
    private func readAvailable(_ connection: Connection, budget: Int? = nil) {
        var budget = budget ?? limits.readsPerTurn
        while budget > 0 && !pastStopDeadline {
            budget -= 1
            var wanted = readBuffer.count
            if connection.state.mustPeek(budgets: budgets, isFinisher: finisher == connection.fd) {
                let peeked = readBuffer.withUnsafeMutableBytes { csys_recv(connection.fd, $0.baseAddress, $0.count, 1) }
                if peeked > 0 {
                    let plan = readBuffer.withUnsafeBufferPointer { buffer in
                        ConnectionState.readPlan(
                            peeked: UnsafeBufferPointer(rebasing: buffer[0..<peeked]), finisherTaken: finisher != nil)
                    }
                    switch plan {
                    case .read(let count): wanted = count
                    case .finish: finisher = connection.fd
                    case .pause:
                        pauseForBudget(connection)
                        return
                    }
                }
            }
            if !budgetPaused.isEmpty { budgetPaused.remove(connection.fd) }
            let received = readBuffer.withUnsafeMutableBytes { csys_recv(connection.fd, $0.baseAddress, wanted, 0) }
            let result: ConnectionState.ReadResult
            if received > 0 {
                readBuffer.withUnsafeBufferPointer { buffer in
                    consume(UnsafeBufferPointer(rebasing: buffer[0..<received]), connection)
                }
                result = .bytes(received, wanted: wanted)
            } else if received == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                result = .endOfInput
            } else {
                result = .wouldBlock
            }
            guard connection.state.afterRead(result, Answering(loop: self, connection: connection), limits: limits)
            else { return }
        }
        if budget == 0 { connection.state.readsUsedUp() }
    }

    private func pauseForBudget(_ connection: Connection) {
        if budgetPaused.insert(connection.fd).inserted { counters.inputBudget.recordPause() }
    }

    /// The finisher's line is done (or it closed): the paused connection holding the most input finishes next
    /// (finishing it frees the most). One is woken, not all, so a release costs no pass over every paused peer.
    private func releaseFinisher() {
        finisher = nil
        guard !counters.inputBudget.hasRoom else { return }
        let candidates = budgetPaused.compactMap { connections[$0] }
        guard let chosen = ConnectionState.nextFinisher(candidates.lazy.map(\.state)) else { return }
        let next = candidates[chosen]
        budgetPaused.remove(next.fd)
        finisher = next.fd
        settle(next)
    }

    /// The input budget has room again, or the finisher is free: read the paused connections as usual.
    private func resumeBudgetPaused() {
        let paused = budgetPaused
        budgetPaused = []
        for fd in paused {
            guard let connection = connections[fd] else { continue }
            settle(connection)
        }
    }

    /// Cuts `bytes` into lines and answers them. Once the buffered responses reach `--max-output` (or the
    /// connection's share of `--max-buffered-output`), the rest waits in the backlog until the client reads; once the
    /// connection has had its slice, the rest waits in the backlog for its next turn (`busy`).
    private func consume(_ bytes: UnsafeBufferPointer<UInt8>, _ connection: Connection) {
        lane.restartClock()
        let lineEnded = connection.state.take(
            bytes, Answering(loop: self, connection: connection), limits: limits, budgets: budgets)
        // The finisher's line is done once a newline went by: the slot passes on, not to its next line.
        if lineEnded && finisher == connection.fd { releaseFinisher() }
    }

    /// Answers the connection's backlog as far as its output limits and its slice allow.
    private func consumeBacklog(_ connection: Connection) {
        lane.restartClock()
        let lineEnded = connection.state.takeBacklog(
            Answering(loop: self, connection: connection), limits: limits, budgets: budgets)
        if lineEnded && finisher == connection.fd { releaseFinisher() }
    }

    /// The loop answering one connection's lines: the lane's clock, the connection's output.
    private struct Answering: LineAnswering {
        let loop: EventLoop
        let connection: Connection
        var pendingOutput: Int { connection.pendingOutput }
        var clock: UInt64 { loop.lane.clock }
        func handle(_ frame: LineFramer.Frame) -> Bool { loop.handle(frame, connection) }
    }

    /// Answers a line or rejects an over-long one; false once the stop deadline passed (the line is not answered).
    private func handle(_ frame: LineFramer.Frame, _ connection: Connection) -> Bool {
        switch frame {
        case .line(let line): return answer(line, connection)
        case .tooLarge:
            rejectTooLarge(connection)
            return true
        }
    }

    private func rejectTooLarge(_ connection: Connection) {
        counters.linesTooLarge.add(1, ordering: .relaxed)
        Dispatcher.appendError(CoreError.tooLarge(limit: configuration.maxLineBytes), id: .null, to: &connection.output)
    }

    /// Answers one framed line, unless the stop deadline passed.
    private func answer(_ line: UnsafeBufferPointer<UInt8>, _ connection: Connection) -> Bool {
        guard !pastStopDeadline else { return false }
        lane.respond(to: line, into: &connection.output)
        return true
    }

    /// Re-registers interest after a turn: pause reading a client that does not read, close a finished one.
    private func settle(_ connection: Connection) {
        while connection.state.answersBacklog(pendingOutput: connection.pendingOutput, limits: limits, budgets: budgets)
        {
            consumeBacklog(connection)
            guard connection.flush() else {
                close(connection)
                return
            }
        }
        if pastStopDeadline { connection.state.stopDeadlinePassed() }
        chargeBuffers(connection)
        let settlement = connection.state.settle(
            ConnectionState.Buffers(
                pendingOutput: connection.pendingOutput,
                budgetPaused: !budgetPaused.isEmpty && budgetPaused.contains(connection.fd)),
            maxOutputBytes: configuration.maxOutputBytes)
        guard case .keep(let interest, let enqueue, let paused) = settlement else {
            close(connection)
            return
        }
        if enqueue {
            // Its slice is used and work is left: it waits its turn in `busy`, unread meanwhile.
            busy.append(connection.fd)
            counters.turnsYielded.add(1, ordering: .relaxed)
        }
        if let paused {
            counters.readPauses.add(1, ordering: .relaxed)
            if paused == .outputShare { counters.outputBudget.recordPause() }
        }
        updateInterest(connection, interest)
    }

    /// Tells the input budget what this connection's buffers hold now.
    private func chargeBuffers(_ connection: Connection) {
        let held = connection.state.heldInput
        counters.inputBudget.update(from: connection.charged, to: held)
        connection.charged = held
        let unread = connection.pendingOutput
        counters.outputBudget.update(from: connection.chargedOutput, to: unread)
        connection.chargedOutput = unread
    }

    private func updateInterest(_ connection: Connection, _ interest: UInt32) {
        guard interest != connection.interest else { return }
        let modified = csys_epoll_mod(epoll, connection.fd, interest, UInt64(connection.fd))
        if let failure = SystemCallError.failure("epoll_ctl(MOD) for connection \(connection.fd)", modified) {
            logger.error("loop \(index): \(failure)")
        }
        connection.interest = interest
    }

    /// Closes connections idle past `idleTimeout`, and those whose unfinished line is older than `lineTimeout`
    /// (unless reading is paused because the client does not read: then the wait is ours, not theirs).
    private func closeStalledConnections(now: UInt64) {
        let idleLimit = UInt64(configuration.idleTimeout.wholeMicroseconds)
        let lineLimit = UInt64(configuration.lineTimeout.wholeMicroseconds)
        for connection in Array(connections.values) {
            let stall = connection.state.stall(now: now, idleLimit: idleLimit, lineLimit: lineLimit)
            switch stall {
            case nil: continue
            case .idle?:
                counters.connectionsIdleClosed.add(1, ordering: .relaxed)
            case .lineTimeout?:
                counters.connectionsLineTimeouts.add(1, ordering: .relaxed)
                logger.info("closing connection \(connection.fd) from \(connection.peer): unfinished line timed out")
                let seconds = Int(configuration.lineTimeout.components.seconds)
                sendLastWord(.lineTimeout(seconds: seconds), to: connection.fd)
            }
            close(connection)
        }
    }

    private func close(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        if let failure = SystemCallError.failure(
            "epoll_ctl(DEL) for connection \(connection.fd)", csys_epoll_del(epoll, connection.fd))
        {
            logger.error("loop \(index): \(failure)")
        }
        if let failure = SystemCallError.failure("close of connection \(connection.fd)", Glibc.close(connection.fd)) {
            logger.warning("loop \(index): \(failure)")
        }
        budgetPaused.remove(connection.fd)
        if finisher == connection.fd { releaseFinisher() }
        counters.inputBudget.update(from: connection.charged, to: 0)
        connection.charged = 0
        counters.outputBudget.update(from: connection.chargedOutput, to: 0)
        connection.chargedOutput = 0
        counters.admission.release(uid: connection.peer.uid)
    }
}
