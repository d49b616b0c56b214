import FmtServer
import Testing

/// The cap on input buffered across connections, decided without a socket.
@Suite struct BufferBudgetTests {
    @Test func withRoomEverythingAvailableIsTaken() {
        let bytes = Array(#"{"op":"ping"}"#.utf8) + [0x0A] + Array(#"{"op":"pi"#.utf8)
        #expect(bytes.withUnsafeBufferPointer { BufferBudget.takeable($0, hasRoom: true) } == bytes.count)
    }

    @Test func atTheCapOnlyCompleteLinesAreTaken() {
        let complete = Array("{\"op\":\"ping\"}\n{\"op\":\"ping\"}\n".utf8)
        let bytes = complete + Array(#"{"op":"pi"#.utf8)
        #expect(bytes.withUnsafeBufferPointer { BufferBudget.takeable($0, hasRoom: false) } == complete.count)
    }

    @Test func atTheCapAnUnfinishedLineAloneIsNotTaken() {
        let bytes = Array(String(repeating: "x", count: 60_000).utf8)
        #expect(bytes.withUnsafeBufferPointer { BufferBudget.takeable($0, hasRoom: false) } == 0)
    }

    @Test func heldBytesAreTheSumOfWhatEachConnectionReports() {
        let budget = BufferBudget(limit: 100)
        budget.update(from: 0, to: 60)
        #expect(budget.hasRoom)
        budget.update(from: 0, to: 40)
        #expect(budget.bytes == 100)
        #expect(!budget.hasRoom)
        budget.update(from: 60, to: 0)
        #expect(budget.bytes == 40)
        #expect(budget.hasRoom)
        budget.recordPause()
        #expect(budget.pauses == 1)
    }

    @Test func theDefaultIs64MiBOr16LinesAndNeverBelowOneLine() {
        var configuration = ServerConfiguration(threads: 1)
        #expect(configuration.effectiveMaxBufferedBytes == 64 * 1024 * 1024)
        configuration.maxLineBytes = 16 * 1024 * 1024
        #expect(configuration.effectiveMaxBufferedBytes == 256 * 1024 * 1024)
        configuration.maxBufferedBytes = 1024 * 1024
        #expect(configuration.effectiveMaxBufferedBytes == 16 * 1024 * 1024)
        configuration.maxLineBytes = 65_536
        #expect(configuration.effectiveMaxBufferedBytes == 1024 * 1024)
    }
}

/// The output cap across connections, decided without a socket.
@Suite struct OutputShareTests {
    @Test func withRoomAConnectionIsAnsweredUpToItsOwnCap() {
        let budget = BufferBudget(limit: 1000)
        #expect(budget.admitsAnswer(pending: 999, connectionLimit: 1000, open: { 100 }))
        #expect(!budget.admitsAnswer(pending: 1000, connectionLimit: 1000, open: { 1 }))
    }

    @Test func atTheCapAConnectionIsAnsweredOnlyWithinItsShare() {
        let budget = BufferBudget(limit: 1000)
        budget.update(from: 0, to: 1000)
        #expect(budget.admitsAnswer(pending: 0, connectionLimit: 5000, open: { 10 }))
        #expect(budget.admitsAnswer(pending: 99, connectionLimit: 5000, open: { 10 }))
        #expect(!budget.admitsAnswer(pending: 100, connectionLimit: 5000, open: { 10 }))
        // More connections than bytes: a connection with nothing unread is still answered.
        #expect(budget.admitsAnswer(pending: 0, connectionLimit: 5000, open: { 1 }) == true)
        #expect(!budget.admitsAnswer(pending: 1, connectionLimit: 5000, open: { 5000 }))
    }

    @Test func theShareIsAskedOnlyAtTheCap() {
        let budget = BufferBudget(limit: 1000)
        var asked = 0
        _ = budget.admitsAnswer(
            pending: 10, connectionLimit: 5000,
            open: {
                asked += 1; return 1
            })
        #expect(asked == 0)
        budget.update(from: 0, to: 1000)
        _ = budget.admitsAnswer(
            pending: 10, connectionLimit: 5000,
            open: {
                asked += 1; return 1
            })
        #expect(asked == 1)
    }
}
