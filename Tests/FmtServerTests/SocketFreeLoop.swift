import CSystem

@testable import FmtServer

/// Plays `EventLoop`'s part for one connection without a socket, step for step as the loop does it, so a test drives
/// `ConnectionState` with bytes, hang-ups, reads by the client and times of its choosing. The socket's receive queue
/// is `inbox` (what the client sent and the loop has not read), and `unread` is what the loop answered and the client
/// has not read. Each line is answered with `ok <line>` and takes `answerCost` on the answering clock.
final class SocketFreeLoop: LineAnswering {
    /// 4 KiB of unread responses per connection, the loop's slice of 200 µs, 4 reads a turn.
    static let limits = ConnectionLimits(maxOutputBytes: 4096, slice: 200_000)

    /// Budgets with room to spare, shared by one open connection.
    static func roomyBudgets() -> SharedBudgets {
        SharedBudgets(input: BufferBudget(limit: 1 << 30), output: BufferBudget(limit: 1 << 30), open: { 1 })
    }

    var state: ConnectionState
    let limits: ConnectionLimits
    let budgets: SharedBudgets
    /// Bytes the client sent that the loop has not read.
    var inbox: [UInt8] = []
    /// The client shut its side after `inbox`.
    var hungUp = false
    /// The loop's reads take at most this many bytes (its read buffer).
    var readChunk: Int
    /// Responses the client has not read.
    var unread: [UInt8] = []
    /// Lines answered, in order.
    var answered: [String] = []
    var tooLarge = 0
    /// The answering clock (nanoseconds).
    var clock: UInt64 = 1
    var answerCost: UInt64 = 1_000
    /// Past the loop's stop deadline: no line is answered.
    var pastStopDeadline = false
    /// The settlements so far, for the interest and pauses they asked for.
    var settlements: [ConnectionState.Settlement] = []

    init(
        now: UInt64 = 0, maxLineBytes: Int = 1024, readChunk: Int = 64 * 1024,
        limits: ConnectionLimits = SocketFreeLoop.limits, budgets: SharedBudgets = SocketFreeLoop.roomyBudgets()
    ) {
        state = ConnectionState(now: now, maxLineBytes: maxLineBytes)
        self.readChunk = readChunk
        self.limits = limits
        self.budgets = budgets
    }

    /// The client sends `text`.
    func send(_ text: String) {
        inbox += Array(text.utf8)
    }

    /// The client reads `count` response bytes (all when nil).
    func clientReads(_ count: Int? = nil) {
        unread.removeFirst(min(count ?? unread.count, unread.count))
    }

    var pendingOutput: Int { unread.count }

    func handle(_ frame: LineFramer.Frame) -> Bool {
        switch frame {
        case .line(let line):
            guard !pastStopDeadline else { return false }
            answered.append(String(decoding: line, as: UTF8.self))
            unread += Array("ok ".utf8) + Array(line) + [0x0A]
            clock += answerCost
        case .tooLarge:
            tooLarge += 1
            unread += Array("too large\n".utf8)
        }
        return true
    }

    /// An epoll event at `now` (`EventLoop.handle(fd:events:now:)`): read if the state says so, then settle.
    @discardableResult
    func event(at now: UInt64) -> ConnectionState.Settlement? {
        let step = state.event(
            readable: !inbox.isEmpty || hungUp, hangUp: hungUp && inbox.isEmpty, error: false,
            pendingOutput: unread.count, now: now)
        switch step {
        case .close: return nil
        case .read: readAvailable()
        case .flush: break
        }
        return settle()
    }

    /// An event at `now`, then turns from `busy` while the connection waits there (the loop serves `busy` after each
    /// pass over events); the client reads its responses between turns when `clientReading`.
    @discardableResult
    func serve(at now: UInt64, clientReading: Bool = true) -> ConnectionState.Settlement? {
        var settlement = event(at: now)
        var turns = 0
        while settlement != nil && state.queued && turns < 100_000 {
            if clientReading { clientReads() }
            settlement = busyTurn(at: now)
            turns += 1
        }
        return settlement
    }

    /// A turn from the loop's `busy` queue (`EventLoop.serveBusy` and `continueWork`).
    @discardableResult
    func busyTurn(at now: UInt64) -> ConnectionState.Settlement? {
        state.beginBusyTurn(now: now)
        if !state.backlog.isEmpty { takeBacklog() }
        if state.readsAfterBacklog(pendingOutput: unread.count, limits: limits, budgets: budgets) { readAvailable() }
        return settle()
    }

    /// `EventLoop.readAvailable` with `recv` taking from `inbox`.
    func readAvailable() {
        var budget = limits.readsPerTurn
        while budget > 0 {
            budget -= 1
            let wanted = readChunk
            let result: ConnectionState.ReadResult
            if !inbox.isEmpty {
                let received = min(wanted, inbox.count)
                let bytes = Array(inbox.prefix(received))
                inbox.removeFirst(received)
                clock += 1
                _ = bytes.withUnsafeBufferPointer { state.take($0, self, limits: limits, budgets: budgets) }
                result = .bytes(received, wanted: wanted)
            } else {
                result = hungUp ? .endOfInput : .wouldBlock
            }
            guard state.afterRead(result, self, limits: limits) else { return }
        }
        state.readsUsedUp()
    }

    private func takeBacklog() {
        _ = state.takeBacklog(self, limits: limits, budgets: budgets)
    }

    /// `EventLoop.settle`: answer the backlog while allowed, then settle; nil when the connection closes.
    func settle() -> ConnectionState.Settlement? {
        while state.answersBacklog(pendingOutput: unread.count, limits: limits, budgets: budgets) { takeBacklog() }
        if state.readClosed && pastStopDeadline { state.abandonInput() }
        let settlement = state.settle(
            ConnectionState.Buffers(pendingOutput: unread.count, budgetPaused: false),
            maxOutputBytes: limits.maxOutputBytes)
        settlements.append(settlement)
        return settlement == .close ? nil : settlement
    }

    /// Whether the last settlement asked to read the socket.
    var reads: Bool {
        guard case .keep(let interest, _, _)? = settlements.last else { return false }
        return interest & UInt32(CSYS_EPOLLIN) != 0
    }

    /// Whether the last settlement queued the connection in `busy`.
    var enqueued: Bool {
        guard case .keep(_, let enqueue, _)? = settlements.last else { return false }
        return enqueue
    }
}
