import FmtClient
import Testing

/// The client's line framing, fed bytes by hand: responses come out whole and in order however the bytes arrive.
@Suite struct LineBufferTests {
    private func lines(_ buffer: inout LineBuffer) -> [String] {
        var result: [String] = []
        while let line = buffer.nextLine() { result.append(String(decoding: line, as: UTF8.self)) }
        return result
    }

    @Test func completeLinesComeOutWithoutTheirNewline() {
        var buffer = LineBuffer()
        buffer.append(contentsOf: Array("{\"ok\":true}\n{\"ok\":false}\n".utf8))
        #expect(lines(&buffer) == [#"{"ok":true}"#, #"{"ok":false}"#])
        #expect(buffer.count == 0)
    }

    @Test func anUnfinishedLineWaitsForItsNewline() {
        var buffer = LineBuffer()
        buffer.append(contentsOf: Array("{\"id\":".utf8))
        #expect(buffer.nextLine() == nil)
        buffer.append(contentsOf: Array("1}\n{\"id\"".utf8))
        #expect(lines(&buffer) == [#"{"id":1}"#])
        #expect(buffer.count == 5)
    }

    @Test func aLineLongerThanTheInitialCapacityGrowsTheBuffer() {
        var buffer = LineBuffer(capacity: 16)
        let long = String(repeating: "x", count: 100_000)
        for chunk in Array((long + "\nend\n").utf8).chunks(of: 7) { buffer.append(contentsOf: chunk) }
        #expect(lines(&buffer) == [long, "end"])
    }

    @Test func forEachLineHandsOutEveryCompleteLineAndKeepsTheRest() {
        var buffer = LineBuffer(capacity: 16)
        buffer.append(contentsOf: Array("a\nbb\n\nccc".utf8))
        var seen: [String] = []
        buffer.forEachLine { seen.append(String(decoding: $0, as: UTF8.self)) }
        #expect(seen == ["a", "bb", ""])
        buffer.append(contentsOf: Array("\n".utf8))
        #expect(lines(&buffer) == ["ccc"])
    }

    @Test func receivingDirectlyIntoTheBufferKeepsWhatTheReceiverReports() {
        var buffer = LineBuffer(capacity: 16)
        let bytes = Array("ping\npo".utf8)
        let kept = buffer.append { free in
            free.copyBytes(from: bytes)
            return bytes.count
        }
        #expect(kept == 7)
        #expect(buffer.append { _ in -1 } == -1)
        #expect(lines(&buffer) == ["ping"])
        #expect(buffer.count == 2)
    }

    @Test func heldBytesMoveToTheFrontWhenTheBufferFills() {
        var buffer = LineBuffer(capacity: 16)
        buffer.append(contentsOf: Array("0123456789\nabcd".utf8))
        #expect(lines(&buffer) == ["0123456789"])
        buffer.append(contentsOf: Array("efghijklmnopq\n".utf8))
        #expect(lines(&buffer) == ["abcdefghijklmnopq"])
    }
}

extension Array {
    fileprivate func chunks(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
