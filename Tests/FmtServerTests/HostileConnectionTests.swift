import CSystem
import Testing

@testable import FmtServer

/// The hostile clients of the IntegrationTests' `HostileClientTests`, met by `ConnectionState` without a socket:
/// bytes, hang-ups, the client's reads and every time are the test's, so each case is decided in milliseconds and
/// the same way on every run. `SocketFreeLoop` plays the event loop's part.
@Suite struct HostileConnectionTests {
    static let second: UInt64 = 1_000_000
    static let idleLimit = 300 * second
    static let lineLimit = 30 * second

    static func stall(_ loop: SocketFreeLoop, at now: UInt64) -> ConnectionState.Stall? {
        loop.state.stall(now: now, idleLimit: idleLimit, lineLimit: lineLimit)
    }

    static func ping(_ id: Int) -> String { #"{"op":"ping","id":\#(id)}"# }

    @Test func aLineSentAByteASecondIsClosedAtTheLineTimeoutWhileSlowCompleteLinesAreServed() {
        let slowloris = SocketFreeLoop()
        let line = Array(String(repeating: " ", count: 40).utf8) + Array(Self.ping(1).utf8)
        var closedAt: UInt64?
        for (index, byte) in line.enumerated() {
            let now = UInt64(index + 1) * Self.second
            slowloris.inbox.append(byte)
            #expect(slowloris.event(at: now) != nil)
            if let stall = Self.stall(slowloris, at: now) {
                #expect(stall == .lineTimeout)
                closedAt = now
                break
            }
        }
        // The line began at 0 s; at 31 s it is older than the 30 s line timeout, though a byte came every second.
        #expect(closedAt == 31 * Self.second)
        #expect(slowloris.answered.isEmpty)

        let patient = SocketFreeLoop()
        for turn in 1...20 {
            let now = UInt64(turn) * 20 * Self.second
            patient.send(Self.ping(turn) + "\n")
            #expect(patient.event(at: now) != nil)
            patient.clientReads()
            #expect(Self.stall(patient, at: now + 19 * Self.second) == nil, "line \(turn)")
        }
        #expect(patient.answered == (1...20).map(Self.ping))
    }

    @Test func aLineOverTheLimitIsAnsweredTooLargeOnceAndIsNotHeldWhileItGoesOn() {
        let loop = SocketFreeLoop(maxLineBytes: 64, readChunk: 1000)
        for second in 1...10 {
            loop.send(String(repeating: "x", count: 10_000))
            #expect(loop.serve(at: UInt64(second) * Self.second) != nil)
            #expect(loop.inbox.isEmpty)
            #expect(loop.state.heldInput <= 64, "after \(second * 10_000) bytes")
        }
        #expect(loop.tooLarge == 1)
        #expect(loop.state.framer.isDiscarding)
        // An endless over-long line is still an unfinished line: the line timeout closes it.
        #expect(Self.stall(loop, at: 31 * Self.second) == .lineTimeout)
        loop.send("\n" + Self.ping(2) + "\n")
        #expect(loop.serve(at: 12 * Self.second, clientReading: false) != nil)
        #expect(loop.answered == [Self.ping(2)])
        #expect(loop.tooLarge == 1)
        #expect(Array(loop.unread) == Array(("ok " + Self.ping(2) + "\n").utf8), "the client read `too large` before")
    }

    @Test func halfALineThenHangUpIsAnsweredBeforeTheConnectionCloses() {
        var answered = 0
        var closed = 0
        for index in 0..<200 {
            let loop = SocketFreeLoop()
            let half = index % 2 == 0 ? #"{"op":"pi"# : #"{"op":"date","date":"1990-1"#
            loop.send(half)
            loop.hungUp = true
            // However the bytes and the hang-up fall into events, the half line is answered before any close.
            var settlement = loop.event(at: 1)
            var events = 1
            while settlement != nil && loop.answered.isEmpty && events < 10 {
                settlement = loop.event(at: 1)
                events += 1
            }
            #expect(loop.answered == [half])
            #expect(loop.state.readClosed)
            #expect(settlement != nil, "responses are pending: the connection waits to send them")
            #expect(!loop.reads)
            answered += loop.answered.count
            // The client is gone: once its responses are out (or the send fails) the connection closes.
            loop.clientReads()
            if loop.settle() == nil { closed += 1 }
        }
        #expect(answered == 200)
        #expect(closed == 200)
    }

    @Test func aHundredThousandPipelinedLinesAreAnsweredInOrderInSlicesWithinTheOutputLimit() {
        let loop = SocketFreeLoop()
        let count = 100_000
        loop.send((0..<count).map { Self.ping($0) + "\n" }.joined())
        let longest = ("ok " + Self.ping(count) + "\n").utf8.count
        var now: UInt64 = 1
        var steps = 0
        loop.event(at: now)
        while loop.answered.count < count && steps < 1_000_000 {
            #expect(loop.unread.count < SocketFreeLoop.limits.maxOutputBytes + longest)
            loop.clientReads()
            now += 1
            if loop.state.queued { loop.busyTurn(at: now) } else { loop.event(at: now) }
            steps += 1
        }
        #expect(loop.answered.count == count)
        #expect(loop.answered.elementsEqual((0..<count).lazy.map(Self.ping)))
        // Never more than 4 KiB of responses at once: about 2.8 MB of them took at least 680 steps.
        #expect(steps * (SocketFreeLoop.limits.maxOutputBytes + longest) >= count * (longest - 1))
        #expect(loop.inbox.isEmpty && loop.state.backlog.isEmpty)
    }

    @Test func aClientThatNeverReadsIsPausedAtItsOutputLimitHoldingOneReadAndIsClosedOnlyAsIdle() {
        let loop = SocketFreeLoop(readChunk: 4096)
        loop.send((0..<10_000).map { Self.ping($0) + "\n" }.joined())
        loop.event(at: 1)
        let answered = loop.answered.count
        #expect(answered > 0)
        #expect(loop.unread.count >= SocketFreeLoop.limits.maxOutputBytes)
        #expect(loop.settlements.last == .keep(interest: UInt32(CSYS_EPOLLOUT), enqueue: false, paused: .ownOutput))
        #expect(loop.state.heldInput <= 2 * 4096, "what one read took, not what the client sent")
        // Waking it again answers nothing more and reads nothing more.
        for second in 1...5 { loop.event(at: UInt64(second) * Self.second) }
        #expect(loop.answered.count == answered)
        #expect(loop.settlements.last == .keep(interest: UInt32(CSYS_EPOLLOUT), enqueue: false, paused: nil))
        // It waits for its client, not the other way round: no line timeout, only the idle timeout.
        #expect(Self.stall(loop, at: 5 * Self.second + Self.lineLimit + 1) == nil)
        #expect(Self.stall(loop, at: 5 * Self.second + Self.idleLimit + 1) == .idle)
        // Once its client reads, it is answered and read again.
        loop.clientReads()
        loop.event(at: 6 * Self.second)
        #expect(loop.answered.count > answered)
    }

    @Test func manyIdleConnectionsAreClosedAtTheIdleTimeoutAndOnlyTheSilentOnes() {
        let loops = (0..<1_000).map { _ in SocketFreeLoop() }
        for (index, loop) in loops.enumerated() where index % 2 == 1 {
            loop.send(Self.ping(index) + "\n")
            loop.event(at: 100 * Self.second)
            loop.clientReads()
        }
        let sweep = Self.idleLimit + 1
        let closed = loops.indices.filter { Self.stall(loops[$0], at: sweep) != nil }
        #expect(closed == Array(stride(from: 0, to: 1_000, by: 2)))
        #expect(loops.allSatisfy { Self.stall($0, at: sweep) != .lineTimeout })
        #expect(loops.allSatisfy { $0.state.heldInput == 0 })
        #expect(loops.allSatisfy { Self.stall($0, at: 100 * Self.second + sweep) == .idle })
    }

    @Test func aClientPipeliningCostlyLinesYieldsEverySliceWhileAnotherIsAnsweredOnItsFirstEvent() {
        let hog = SocketFreeLoop()
        hog.answerCost = 50_000
        hog.send((0..<1_000).map { Self.ping($0) + "\n" }.joined())
        let other = SocketFreeLoop()
        hog.event(at: 1)
        // 200 µs of 50 µs answers: 4 lines, then it waits its turn in `busy`, unread meanwhile.
        #expect(hog.answered.count == 4)
        #expect(hog.enqueued && !hog.reads)
        var turns = 0
        while hog.answered.count < 1_000 && turns < 1_000 {
            turns += 1
            other.send(Self.ping(turns) + "\n")
            other.event(at: UInt64(turns))
            other.clientReads()
            #expect(other.answered.count == turns, "the other client waited behind the hog")
            let before = hog.answered.count
            hog.clientReads()
            hog.busyTurn(at: UInt64(turns))
            #expect(hog.answered.count - before <= 4)
        }
        #expect(hog.answered.elementsEqual((0..<1_000).lazy.map(Self.ping)))
        #expect(turns >= 249)
    }

    @Test func whileTheSharedOutputBudgetIsSpentAConnectionIsAnsweredOnlyWithinItsShare() {
        let output = BufferBudget(limit: 1_000)
        let budgets = SharedBudgets(input: BufferBudget(limit: 1 << 30), output: output, open: { 10 })
        output.update(from: 0, to: 1_000)
        let loop = SocketFreeLoop(budgets: budgets)
        loop.send((0..<50).map { Self.ping($0) + "\n" }.joined())
        loop.event(at: 1)
        let share = 1_000 / 10
        let answered = loop.answered.count
        #expect(answered > 0 && answered < 50)
        #expect(loop.unread.count >= share)
        #expect(loop.unread.count - ("ok " + Self.ping(answered - 1) + "\n").utf8.count < share)
        #expect(loop.settlements.last == .keep(interest: UInt32(CSYS_EPOLLOUT), enqueue: false, paused: .outputShare))
        // The other connections read their responses: the budget has room, and this one is answered in full.
        output.update(from: 1_000, to: 0)
        loop.event(at: 2)
        #expect(loop.answered.elementsEqual((0..<50).lazy.map(Self.ping)))
    }

    @Test func pastTheStopDeadlineNoLineIsAnsweredAndTheConnectionClosesWithNothingHeld() {
        let loop = SocketFreeLoop()
        loop.pastStopDeadline = true
        loop.send(Self.ping(1) + "\n" + Self.ping(2) + "\n" + #"{"op":"#)
        #expect(loop.event(at: 1) == nil)
        #expect(loop.answered.isEmpty)
        #expect(loop.state.readClosed)
        #expect(loop.state.heldInput == 0)
    }

    @Test func aBusyPassServesThoseWaitingAtItsStartInOrderAndEndsAtItsTimeLimit() {
        var busy = TurnQueue()
        for fd: Int32 in [1, 2, 3] { busy.append(fd) }
        var pass = busy.beginPass(now: 10)
        #expect(busy.next(&pass) == 1)
        busy.served(&pass, now: 400, limit: 1_000)
        #expect(busy.next(&pass) == 2)
        // Served again within the pass, connection 2 yields again: it waits behind 3 for the next pass.
        busy.append(2)
        busy.served(&pass, now: 1_010, limit: 1_000)
        #expect(busy.next(&pass) == nil, "the pass took its 1,000 µs")
        busy.endPass()
        #expect(busy.count == 2)
        pass = busy.beginPass(now: 2_000)
        #expect(busy.next(&pass) == 3)
        busy.served(&pass, now: 2_001, limit: 1_000)
        busy.append(3)
        #expect(busy.next(&pass) == 2)
        busy.served(&pass, now: 2_002, limit: 1_000)
        #expect(busy.next(&pass) == nil, "3 yielded again during the pass: it waits for the next one")
        busy.endPass()
        #expect(busy.count == 1)
    }

    @Test func aThousandHogsAreEachServedOncePerPassWithoutTheQueueGrowing() {
        var busy = TurnQueue()
        for fd in 0..<Int32(1_000) { busy.append(fd) }
        var served = [Int32: Int]()
        for round in 0..<50 {
            var pass = busy.beginPass(now: 0)
            while let fd = busy.next(&pass) {
                served[fd, default: 0] += 1
                busy.append(fd)
                busy.served(&pass, now: 0, limit: 1_000)
            }
            busy.endPass()
            #expect(busy.count == 1_000, "round \(round)")
        }
        #expect(served.count == 1_000 && served.values.allSatisfy { $0 == 50 })
    }

    @Test func aSocketErrorClosesAtOnceAndAHangUpWaitsForTheResponsesToDrain() {
        var state = ConnectionState(now: 0, maxLineBytes: 64)
        #expect(state.event(readable: true, hangUp: false, error: true, pendingOutput: 10, now: 1) == .close)
        #expect(state.event(readable: false, hangUp: true, error: false, pendingOutput: 10, now: 2) == .flush)
        #expect(state.event(readable: false, hangUp: true, error: false, pendingOutput: 0, now: 3) == .close)
        #expect(state.lastActivity == 3)
        state.queued = true
        #expect(state.event(readable: true, hangUp: true, error: false, pendingOutput: 0, now: 4) == .flush)
    }
}
