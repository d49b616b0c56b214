import CSystem
import Testing

@testable import FmtServer

/// A connection's next step without a socket: the times and buffers are the test's, so slowloris, idle clients,
/// clients that do not read and half-closes are decided in microseconds, deterministically.
@Suite struct ConnectionStateTests {
    static let second: UInt64 = 1_000_000
    static let idleLimit = 300 * second
    static let lineLimit = 30 * second
    static let read = UInt32(CSYS_EPOLLIN)
    static let write = UInt32(CSYS_EPOLLOUT)

    /// A connection opened at `now`, holding the start of a line when `unfinished`.
    static func state(now: UInt64 = 0, unfinished: Bool = true) -> ConnectionState {
        let loop = SocketFreeLoop(now: now, maxLineBytes: 64)
        if unfinished {
            _ = Array(#"{"op":"#.utf8).withUnsafeBufferPointer {
                loop.state.take($0, loop, limits: loop.limits, budgets: loop.budgets)
            }
        }
        return loop.state
    }

    static func stall(_ state: ConnectionState, at now: UInt64) -> ConnectionState.Stall? {
        state.stall(now: now, idleLimit: idleLimit, lineLimit: lineLimit)
    }

    static func buffers(output: Int = 0, budgetPaused: Bool = false) -> ConnectionState.Buffers {
        ConnectionState.Buffers(pendingOutput: output, budgetPaused: budgetPaused)
    }

    @Test func aLineTricklingInAByteASecondTimesOutAtTheLineTimeoutThoughNeverIdle() {
        var state = Self.state()
        for second in 1...Self.lineLimit / Self.second {
            state.lastActivity = second * Self.second
            #expect(Self.stall(state, at: state.lastActivity) == nil, "\(second) s")
        }
        state.lastActivity += Self.second
        #expect(Self.stall(state, at: state.lastActivity) == .lineTimeout)
    }

    @Test func aFinishedLineRestartsTheLineClock() {
        var state = Self.state()
        state.lastActivity = 29 * Self.second
        state.lastLineEnd = 29 * Self.second
        #expect(Self.stall(state, at: 40 * Self.second) == nil)
        #expect(Self.stall(state, at: 59 * Self.second + 1) == .lineTimeout)
        #expect(Self.stall(Self.state(unfinished: false), at: 40 * Self.second) == nil)
    }

    @Test func aClientThatDoesNotReadOrHasABacklogIsNotTimedOutForItsLine() {
        var state = Self.state()
        state.lastActivity = 100 * Self.second
        #expect(Self.stall(state, at: 100 * Self.second) == .lineTimeout)
        state.backlog = Array("{}\n".utf8)
        #expect(Self.stall(state, at: 100 * Self.second) == nil)
        state.backlog = []
        state.readPaused = true
        #expect(Self.stall(state, at: 100 * Self.second) == nil)
    }

    @Test func aSilentConnectionIsClosedAsIdleAfterTheIdleTimeoutAndNotBefore() {
        let state = Self.state(now: 5, unfinished: false)
        #expect(Self.stall(state, at: 5 + Self.idleLimit) == nil)
        #expect(Self.stall(state, at: 6 + Self.idleLimit) == .idle)
        #expect(Self.stall(Self.state(now: 5), at: 6 + Self.idleLimit) == .idle)
    }

    @Test func aHalfClosedConnectionClosesOnlyOnceEveryResponseAndLineIsOut() {
        var state = ConnectionState(now: 0, maxLineBytes: 64)
        state.readClosed = true
        #expect(
            state.settle(Self.buffers(output: 10), maxOutputBytes: 100)
                == .keep(interest: Self.write, enqueue: false, paused: nil))
        state.backlog = Array("{}\n".utf8)
        #expect(state.settle(Self.buffers(), maxOutputBytes: 100) != .close)
        state.backlog = []
        #expect(state.settle(Self.buffers(), maxOutputBytes: 100) == .close)
    }

    @Test func responsesPilingUpUnreadPauseReadingOnceUntilTheClientReads() {
        var state = ConnectionState(now: 0, maxLineBytes: 64)
        #expect(
            state.settle(Self.buffers(output: 10), maxOutputBytes: 100)
                == .keep(interest: Self.read | Self.write, enqueue: false, paused: nil))
        #expect(
            state.settle(Self.buffers(output: 100), maxOutputBytes: 100)
                == .keep(interest: Self.write, enqueue: false, paused: .ownOutput))
        #expect(state.readPaused)
        // Still full: paused, but the pause is counted once.
        #expect(
            state.settle(Self.buffers(output: 150), maxOutputBytes: 100)
                == .keep(interest: Self.write, enqueue: false, paused: nil))
        #expect(
            state.settle(Self.buffers(output: 0), maxOutputBytes: 100)
                == .keep(interest: Self.read, enqueue: false, paused: nil))
        #expect(!state.readPaused)
    }

    @Test func linesWaitingForTheSharedOutputBudgetPauseReadingAsItsShare() {
        var state = ConnectionState(now: 0, maxLineBytes: 64)
        state.backlog = Array("{}\n".utf8)
        #expect(
            state.settle(Self.buffers(output: 10), maxOutputBytes: 100)
                == .keep(interest: Self.write, enqueue: false, paused: .outputShare))
    }

    @Test func aConnectionThatUsedItsSliceIsQueuedOnceAndNotReadUntilItsTurn() {
        var state = ConnectionState(now: 0, maxLineBytes: 64)
        state.yielded = true
        state.backlog = Array("{}\n".utf8)
        #expect(
            state.settle(Self.buffers(), maxOutputBytes: 100)
                == .keep(interest: 0, enqueue: true, paused: nil))
        #expect(state.queued)
        #expect(!state.readPaused)
        #expect(
            state.settle(Self.buffers(output: 5), maxOutputBytes: 100)
                == .keep(interest: Self.write, enqueue: false, paused: nil))
        state.backlog = []
        state.readClosed = true
        #expect(state.settle(Self.buffers(), maxOutputBytes: 100) != .close, "a queued connection closes from its turn")
    }

    @Test func aConnectionThePausedInputBudgetHoldsIsWokenOnlyByNewBytes() {
        var state = ConnectionState(now: 0, maxLineBytes: 64)
        #expect(
            state.settle(Self.buffers(budgetPaused: true), maxOutputBytes: 100)
                == .keep(interest: Self.read | UInt32(CSYS_EPOLLET), enqueue: false, paused: nil))
    }

    @Test func withTheBudgetSpentOnlyABufferingConnectionThatIsNotTheFinisherPeeks() {
        #expect(ConnectionState.mustPeek(budgetHasRoom: false, discarding: false, isFinisher: false))
        #expect(!ConnectionState.mustPeek(budgetHasRoom: true, discarding: false, isFinisher: false))
        #expect(!ConnectionState.mustPeek(budgetHasRoom: false, discarding: true, isFinisher: false))
        #expect(!ConnectionState.mustPeek(budgetHasRoom: false, discarding: false, isFinisher: true))
    }

    @Test func atTheCapCompleteLinesAreReadAndOneUnfinishedLinePerLoopFinishes() {
        let complete = Array("{\"op\":\"ping\"}\n".utf8)
        let peeked = complete + Array("{\"op\":\"pi".utf8)
        let throughNewline = peeked.withUnsafeBufferPointer { BufferBudget.takeable($0, hasRoom: false) }
        #expect(ConnectionState.readPlan(takeable: throughNewline, finisherTaken: true) == .read(complete.count))
        let unfinished = Array("{\"op\":\"pi".utf8).withUnsafeBufferPointer {
            BufferBudget.takeable($0, hasRoom: false)
        }
        #expect(ConnectionState.readPlan(takeable: unfinished, finisherTaken: false) == .finish)
        #expect(ConnectionState.readPlan(takeable: unfinished, finisherTaken: true) == .pause)
    }

    @Test func whenTheFinisherIsDoneThePausedConnectionHoldingTheMostInputFinishesNext() {
        let held = [3, 40, 12, 40].map { count in
            let loop = SocketFreeLoop(maxLineBytes: 64)
            _ = Array(repeating: UInt8(ascii: "x"), count: count).withUnsafeBufferPointer {
                loop.state.take($0, loop, limits: loop.limits, budgets: loop.budgets)
            }
            return loop.state
        }
        #expect(ConnectionState.nextFinisher(held) == 1)
        #expect(ConnectionState.nextFinisher(held.prefix(1)) == 0)
        #expect(ConnectionState.nextFinisher([ConnectionState]()) == nil)
    }

    /// Stopping: a connection reads what its peer sent first unless paused for output, then reads no more; it stays
    /// until its answers are flushed, and past the deadline it drops its unfinished line and backlog and closes.
    @Test func aStoppingConnectionReadsFirstThenClosesOnceFlushedAndDropsWhatIsUnansweredAtTheDeadline() {
        var state = Self.state()
        #expect(state.readsBeforeStopping)
        state.readPaused = true
        #expect(!state.readsBeforeStopping)
        state.readPaused = false
        state.stopReading()
        #expect(!state.readsBeforeStopping)
        // Answers still unread by the peer keep it open, and it no longer asks to read.
        #expect(
            state.settle(Self.buffers(output: 10), maxOutputBytes: 1_000)
                == .keep(interest: Self.write, enqueue: false, paused: nil))
        state.backlog = Array("{}\n".utf8)
        #expect(state.settle(Self.buffers(), maxOutputBytes: 1_000) != .close)
        state.stopDeadlinePassed()
        #expect(state.backlog.isEmpty && !state.framer.hasUnfinishedLine)
        #expect(state.settle(Self.buffers(), maxOutputBytes: 1_000) == .close)
    }

    /// The deadline leaves a connection that still reads (a loop not stopping) as it is.
    @Test func theStopDeadlineDropsNothingOfAConnectionStillReading() {
        var state = Self.state()
        state.stopDeadlinePassed()
        #expect(state.framer.hasUnfinishedLine)
    }
}
