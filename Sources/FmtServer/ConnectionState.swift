import CSystem

/// The loop-wide budgets a connection's decisions consult (`--max-buffered`, `--max-buffered-output`, and the open
/// connections that share the output budget). The value asks them and never changes them: the loop charges them.
struct SharedBudgets {
    /// Bytes of unfinished lines and waiting lines across all connections.
    let input: BufferBudget
    /// Unread response bytes across all connections.
    let output: BufferBudget
    /// The connections open now (asked only while the output budget is spent).
    let open: () -> Int
}

/// Who answers the lines a connection's value hands out: in the loop, the dispatcher's lane writing into the
/// connection's output. Generic, so the loop's calls are direct.
protocol LineAnswering {
    /// Response bytes not yet taken by the client.
    var pendingOutput: Int { get }
    /// The answering clock (nanoseconds), which the slice is measured on.
    var clock: UInt64 { get }
    /// Answers a line or rejects an over-long one; false once no line may be answered (the stop deadline passed).
    func handle(_ frame: LineFramer.Frame) -> Bool
}

/// The per-connection limits and the fairness slice.
struct ConnectionLimits {
    /// `--max-output`: unread response bytes after which the connection is not answered (nor read).
    var maxOutputBytes: Int
    /// The time one connection is answered in a row (the clock's nanoseconds) before it yields to the others.
    var slice: UInt64
    /// Reads one event (or turn) may take before the connection yields to the others.
    var readsPerTurn = 4
}

/// What a connection does next, decided without a system call: the connection's flags, times, framer and backlog, and
/// the rules that turn them into the next step. Bytes go in (`take`, `afterRead`), lines come out to a `LineAnswering`
/// (in order, while the output limits and the slice allow), and each step says what to do with the socket (read again,
/// pause, wait for it to drain, queue for another turn, close, time out). `EventLoop` owns the sockets and carries the
/// steps out with `epoll`, `recv` and `send`; the tests drive this value directly, with the times they choose.
struct ConnectionState {
    /// Cuts the input into lines, holding an unfinished one across reads.
    var framer: LineFramer
    /// Received lines not yet answered because the output limits or the slice stopped them; answered before
    /// anything more is read (so one read cannot buffer megabytes of responses).
    var backlog: [UInt8] = []
    /// The peer half-closed (or closed): answer what arrived, flush, then close.
    var readClosed = false
    /// Reading is paused because the client does not read its responses.
    var readPaused = false
    /// The slice ran out with work left: the connection goes to the loop's `busy` queue when its turn settles.
    var yielded = false
    /// Waiting in the loop's `busy` queue: read and answered only from there.
    var queued = false
    /// Monotonic microseconds of the connection's last event.
    var lastActivity: UInt64
    /// When the last line completed (or the connection opened): an unfinished line is as old as this.
    var lastLineEnd: UInt64
    /// When this connection's current slice began (the answering clock, nanoseconds; 0 before its first line).
    var turnStart: UInt64 = 0

    init(now: UInt64, maxLineBytes: Int) {
        framer = LineFramer(maxLineBytes: maxLineBytes)
        lastActivity = now
        lastLineEnd = now
    }

    /// Memory held for input: the unfinished line and the backlog (what the input budget charges).
    var heldInput: Int { framer.bufferedCapacity + backlog.capacity }

    // MARK: Events

    /// What to do on an epoll event.
    enum EventStep: Equatable {
        /// The socket failed, or the peer hung up with nothing left to send it: close.
        case close
        /// Read what the socket has, then flush and settle.
        case read
        /// Do not read (closed, paused or queued): flush and settle.
        case flush
    }

    /// An epoll event at `now`: the connection is active, a new slice begins, and the event says what to do.
    mutating func event(readable: Bool, hangUp: Bool, error: Bool, pendingOutput: Int, now: UInt64) -> EventStep {
        lastActivity = now
        turnStart = 0
        if error { return .close }
        if readable && !readClosed && !readPaused && !queued { return .read }
        if hangUp && pendingOutput == 0 && !queued { return .close }
        return .flush
    }

    /// The connection's turn in the loop's `busy` queue begins at `now`: it is active and has a fresh slice.
    mutating func beginBusyTurn(now: UInt64) {
        queued = false
        yielded = false
        turnStart = 0
        lastActivity = now
    }

    /// Whether a busy turn reads the socket after its backlog: the backlog is answered, the slice is not used up, the
    /// peer may still send, and the responses are within the output limits.
    func readsAfterBacklog(pendingOutput: Int, limits: ConnectionLimits, budgets: SharedBudgets) -> Bool {
        backlog.isEmpty && !yielded && !readClosed
            && Self.mayAnswer(pendingOutput: pendingOutput, limits: limits, budgets: budgets)
    }

    /// Whether a settling turn answers (more of) its backlog first.
    func answersBacklog(pendingOutput: Int, limits: ConnectionLimits, budgets: SharedBudgets) -> Bool {
        !backlog.isEmpty && !queued && !yielded
            && Self.mayAnswer(pendingOutput: pendingOutput, limits: limits, budgets: budgets)
    }

    /// Whether a connection holding `pendingOutput` unread response bytes may be answered: under `--max-output`, and
    /// within its share of `--max-buffered-output` while that is spent.
    static func mayAnswer(pendingOutput: Int, limits: ConnectionLimits, budgets: SharedBudgets) -> Bool {
        budgets.output.admitsAnswer(
            pending: pendingOutput, connectionLimit: limits.maxOutputBytes, open: budgets.open)
    }

    // MARK: Bytes in, lines out

    /// What a read gave.
    enum ReadResult: Equatable {
        /// This many bytes (more than 0) of the `wanted`.
        case bytes(Int, wanted: Int)
        /// The peer closed its side (or the socket failed): no more input.
        case endOfInput
        /// Nothing more for now.
        case wouldBlock
    }

    /// Frames `bytes` (just read) and hands each line or limit violation to `answering` in order, as long as the
    /// output limits and the slice allow; the rest waits in the backlog. Once `answering` refuses a line (the loop is
    /// past its stop deadline) the connection reads no more. The slice is measured on `answering.clock`, read before
    /// each line. Returns whether a line ended.
    mutating func take(
        _ bytes: UnsafeBufferPointer<UInt8>, _ answering: some LineAnswering, limits: ConnectionLimits,
        budgets: SharedBudgets
    ) -> Bool {
        if turnStart == 0 { turnStart = answering.clock }
        let start = turnStart
        let newlinesBefore = framer.newlines
        var sliceUsed = false
        var stopped = false
        let taken = framer.consume(
            bytes,
            while: {
                guard Self.mayAnswer(pendingOutput: answering.pendingOutput, limits: limits, budgets: budgets) else {
                    return false
                }
                guard answering.clock &- start < limits.slice else {
                    sliceUsed = true
                    return false
                }
                return true
            }
        ) {
            if !answering.handle($0) { stopped = true }
        }
        if sliceUsed { yielded = true }
        if stopped { readClosed = true }
        if taken < bytes.count { backlog = Array(bytes[taken...]) }
        guard framer.newlines != newlinesBefore else { return false }
        lastLineEnd = lastActivity
        return true
    }

    /// Answers the backlog as far as the output limits and the slice allow (as `take`). Returns whether a line ended.
    mutating func takeBacklog(_ answering: some LineAnswering, limits: ConnectionLimits, budgets: SharedBudgets) -> Bool
    {
        let waiting = backlog
        backlog = []
        return waiting.withUnsafeBufferPointer {
            take($0, answering, limits: limits, budgets: budgets)
        }
    }

    /// Whether the read loop reads again after `result`: not once the slice is used, lines wait, the responses
    /// reached `--max-output`, or the socket gave less than asked. At the end of input the final line without a
    /// newline still goes to `answering` (it is a request).
    mutating func afterRead(_ result: ReadResult, _ answering: some LineAnswering, limits: ConnectionLimits) -> Bool {
        let pendingOutput = answering.pendingOutput
        switch result {
        case .bytes(let count, let wanted):
            if yielded || !backlog.isEmpty { return false }
            if pendingOutput >= limits.maxOutputBytes { return false }
            return count >= wanted
        case .endOfInput:
            endOfInput(answering)
            return false
        case .wouldBlock:
            return false
        }
    }

    /// End of input: answer the final line without a newline, read no more.
    mutating func endOfInput(_ answering: some LineAnswering) {
        readClosed = true
        framer.finish { _ = answering.handle($0) }
    }

    /// Every read of the turn was full: more may wait in the socket, so the connection is served from `busy`.
    mutating func readsUsedUp() {
        if !yielded && !readClosed { yielded = true }
    }

    /// The loop passed its stop deadline with this connection half-closed: what it holds is not answered.
    mutating func abandonInput() {
        framer.dropPartial()
        backlog = []
    }

    // MARK: Stopping

    /// Whether a stopping loop reads what the peer already sent before the connection half-closes (those lines are
    /// answered): not when it reads no more or is paused because its peer does not read.
    var readsBeforeStopping: Bool { !readClosed && !readPaused }

    /// The loop stops: the connection reads no more, so it closes once its answers are flushed and its backlog
    /// answered, and an idle one at once.
    mutating func stopReading() {
        readClosed = true
    }

    /// The stop deadline passed: a connection that reads no more drops what it holds unanswered, so it closes once
    /// what was answered is flushed.
    mutating func stopDeadlinePassed() {
        if readClosed { abandonInput() }
    }

    // MARK: Settling

    /// What the buffers of the connection hold when its turn settles.
    struct Buffers: Equatable {
        /// Response bytes not yet taken by the socket.
        var pendingOutput: Int
        /// Whether the input budget paused this connection: woken only when more bytes arrive.
        var budgetPaused: Bool
    }

    /// How a turn settles.
    enum Settlement: Equatable {
        /// Every response is out and the peer will send nothing more.
        case close
        /// Keep the connection: the epoll interest to register, whether it goes to the `busy` queue now, and
        /// whether reading paused just now (`outputShare`: because of the shared output budget, not its own limit).
        case keep(interest: UInt32, enqueue: Bool, paused: Pause?)
    }

    /// Why reading paused at this settlement.
    enum Pause: Equatable {
        /// The connection's own responses reached `--max-output`.
        case ownOutput
        /// Lines wait in the backlog for the shared output budget (`--max-buffered-output`).
        case outputShare
    }

    /// Settles a turn: queue a connection that used its slice with work left, close one that is done, pause reading
    /// while responses pile up unread, and say which events to wait for.
    mutating func settle(_ buffers: Buffers, maxOutputBytes: Int) -> Settlement {
        var enqueue = false
        if yielded && !queued {
            queued = true
            enqueue = true
        }
        let hasBacklog = !backlog.isEmpty
        if readClosed && buffers.pendingOutput == 0 && !hasBacklog && !queued { return .close }
        let overFull = buffers.pendingOutput >= maxOutputBytes || (hasBacklog && !queued)
        var paused: Pause?
        if overFull && !readPaused {
            paused = buffers.pendingOutput < maxOutputBytes ? .outputShare : .ownOutput
        }
        readPaused = overFull
        var interest: UInt32 = 0
        if !readClosed && !readPaused && !queued {
            interest |= UInt32(CSYS_EPOLLIN) | (buffers.budgetPaused ? CSYS_EPOLLET : 0)
        }
        if buffers.pendingOutput > 0 { interest |= UInt32(CSYS_EPOLLOUT) }
        return .keep(interest: interest, enqueue: enqueue, paused: paused)
    }

    /// Why the loop's sweep closes a connection.
    enum Stall: Equatable {
        /// No event for longer than `--idle-timeout`.
        case idle
        /// A line stayed unfinished longer than `--line-timeout` (a slowloris client): answered `line_timeout`.
        case lineTimeout
    }

    /// Whether the sweep at `now` closes the connection: idle past `idleLimit`, or with an unfinished line older than
    /// `lineLimit` (microseconds) while the connection is read. A connection paused because its client does not read,
    /// or holding a backlog, waits for us, not we for it: its line does not time out.
    func stall(now: UInt64, idleLimit: UInt64, lineLimit: UInt64) -> Stall? {
        if now &- lastActivity > idleLimit { return .idle }
        if framer.hasUnfinishedLine, !readPaused, backlog.isEmpty, now &- lastLineEnd > lineLimit {
            return .lineTimeout
        }
        return nil
    }

    /// How much of a read the input budget lets a connection take while the budget is spent.
    enum ReadPlan: Equatable {
        /// Read up to this many bytes.
        case read(Int)
        /// The peeked bytes hold no newline and no connection of the loop is finishing a line: this one becomes the
        /// loop's finisher and reads a whole chunk, so a line longer than one read still completes.
        case finish
        /// Nothing may be taken: the connection waits (edge-triggered) for bytes that may finish its line.
        case pause
    }

    /// Whether the loop must peek before reading this connection: only while the input budget is spent, for a
    /// connection that buffers what it reads (not one discarding an over-long line) and is not the loop's finisher.
    static func mustPeek(budgetHasRoom: Bool, discarding: Bool, isFinisher: Bool) -> Bool {
        !budgetHasRoom && !discarding && !isFinisher
    }

    /// Whether the loop must peek before reading this connection (see `mustPeek(budgetHasRoom:discarding:isFinisher:)`).
    func mustPeek(budgets: SharedBudgets, isFinisher: Bool) -> Bool {
        Self.mustPeek(budgetHasRoom: budgets.input.hasRoom, discarding: framer.isDiscarding, isFinisher: isFinisher)
    }

    /// The read a spent budget allows after a peek found `takeable` bytes through the last newline (0 when none).
    static func readPlan(takeable: Int, finisherTaken: Bool) -> ReadPlan {
        if takeable > 0 { return .read(takeable) }
        return finisherTaken ? .pause : .finish
    }

    /// Which of the connections paused by the spent input budget finishes its line next, when the finisher's slot
    /// frees: the one holding the most input (finishing it frees the most); the first of equals. Its offset in
    /// `paused`, nil when none is paused.
    static func nextFinisher(_ paused: some Collection<ConnectionState>) -> Int? {
        var best: Int?
        var most = -1
        for (offset, state) in paused.enumerated() where state.framer.bufferedCount > most {
            best = offset
            most = state.framer.bufferedCount
        }
        return best
    }

    /// The read a spent budget allows after a peek found `peeked` in the socket.
    static func readPlan(peeked: UnsafeBufferPointer<UInt8>, finisherTaken: Bool) -> ReadPlan {
        readPlan(takeable: BufferBudget.takeable(peeked, hasRoom: false), finisherTaken: finisherTaken)
    }
}
