import CSystem

/// What a connection does next, decided without a system call: the flags and times of one connection, and the rules
/// that turn them into the next step (keep reading, pause, wait for the socket to drain, queue for another turn, close,
/// time out). `EventLoop` owns the sockets and carries the steps out with `epoll`, `recv` and `send`; the tests drive
/// this value directly, with the times they choose.
struct ConnectionState {
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

    init(now: UInt64) {
        lastActivity = now
        lastLineEnd = now
    }

    /// What the buffers of the connection hold when its turn settles.
    struct Buffers: Equatable {
        /// Response bytes not yet taken by the socket.
        var pendingOutput: Int
        /// Whether received lines wait unanswered (the output limits or the slice stopped them).
        var hasBacklog: Bool
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
        if readClosed && buffers.pendingOutput == 0 && !buffers.hasBacklog && !queued { return .close }
        let overFull = buffers.pendingOutput >= maxOutputBytes || (buffers.hasBacklog && !queued)
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
    func stall(
        now: UInt64, idleLimit: UInt64, lineLimit: UInt64, hasUnfinishedLine: Bool, hasBacklog: Bool
    )
        -> Stall?
    {
        if now &- lastActivity > idleLimit { return .idle }
        if hasUnfinishedLine, !readPaused, !hasBacklog, now &- lastLineEnd > lineLimit { return .lineTimeout }
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

    /// The read a spent budget allows after a peek found `takeable` bytes through the last newline (0 when none).
    static func readPlan(takeable: Int, finisherTaken: Bool) -> ReadPlan {
        if takeable > 0 { return .read(takeable) }
        return finisherTaken ? .pause : .finish
    }
}
