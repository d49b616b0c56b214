import FmtTesting
import Testing

@testable import FmtCore

/// The one growable writer writes what a plain array given the same appends holds, across its growth from the
/// stack to the heap; what it lends through a cursor is checked; `ResponseWriter.writeMembers(_:)` drops only a
/// first comma with no member before it.
@Suite struct ByteWriterTests {
    /// Pieces of every length up to past the longest copied inline, appended after every lead around the end of
    /// the lent buffer (so the writer grows in the middle of them), come out as the bytes appended.
    @Test func appendedPiecesAreTheirBytesAcrossGrowth() {
        let source = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for lead in [0, 1, 7, 60, 63, 64, 65, 100] {
            for length in 0...140 {
                let piece = Array(source[0..<length])
                let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                    var writer = ByteWriter(buffer)
                    for _ in 0..<lead { writer.append(0x2E) }
                    piece.withUnsafeBufferPointer { writer.append($0) }
                    writer.append(0x21)
                    return writer.withWritten { Array($0) }
                }
                #expect(written == [UInt8](repeating: 0x2E, count: lead) + piece + [0x21], "\(lead) \(length)")
            }
        }
    }

    /// Offsets stay where they were written when the writer's buffer fills and moves to the array.
    @Test func aWriterThatOutgrowsItsBufferKeepsWhatItWroteAtTheSameOffsets() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { storage in
            var out = ByteWriter(storage)
            out.appendEscaped(String(repeating: "-", count: 60))
            out.append("+31")
            JSONWriter.withDecimalDigits(-612) { out.append($0) }
            let start = out.count
            Array("12345678".utf8).withUnsafeBufferPointer { out.append($0) }
            out.appendCopy(of: 60..<63)
            out.append(atMost: 3) { $0.write(UInt8(ascii: "x")) }
            #expect(
                out.withWritten { String(decoding: $0, as: UTF8.self) } == String(repeating: "-", count: 60)
                    + "+31-61212345678+31x")
            #expect(out.withBytes(start..<start + 2) { $0.elementsEqual("12".utf8) })
            #expect(out[start] == UInt8(ascii: "1"))
        }
    }

    /// Random appends of every kind, copies of what was written and take-backs, on a buffer of 64 bytes (the
    /// least it takes): the writer holds what an array given the same operations holds.
    @Test func randomOperationsMatchAPlainArray() {
        var generator = SeededGenerator.forTest("randomOperationsMatchAPlainArray", seed: 37)
        for _ in 0..<300 {
            var model: [UInt8] = []
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                var writer = ByteWriter(buffer)
                for _ in 0..<Int.random(in: 1...40, using: &generator) {
                    let text = (0..<Int.random(in: 0...80, using: &generator)).map { _ in
                        UInt8.random(in: 0...0x7F, using: &generator)
                    }
                    switch Int.random(in: 0..<7, using: &generator) {
                    case 0:
                        writer.append(text.first ?? 0x41)
                        model.append(text.first ?? 0x41)
                    case 1:
                        text.withUnsafeBufferPointer { writer.append($0) }
                        model += text
                    case 2:
                        text.withUnsafeBufferPointer { writer.appendEscaped($0) }
                        model += Self.escaped(text)
                    case 3 where !model.isEmpty:
                        let lower = Int.random(in: 0..<model.count, using: &generator)
                        let upper = Int.random(in: lower...model.count, using: &generator)
                        writer.appendCopy(of: lower..<upper)
                        model += model[lower..<upper]
                    case 4:
                        writer.append(atMost: text.count) { cursor in
                            text.withUnsafeBufferPointer { cursor.write($0) }
                        }
                        model += text
                    case 5 where !model.isEmpty:
                        let lower = Int.random(in: 0..<model.count, using: &generator)
                        let upper = Int.random(in: lower...model.count, using: &generator)
                        writer.append(atMost: upper - lower, from: lower..<upper) { source, cursor in
                            cursor.write(source)
                        }
                        model += model[lower..<upper]
                        #expect(writer[lower] == model[lower])
                    default:
                        let offset = Int.random(in: 0...model.count, using: &generator)
                        writer.removeAll(from: offset)
                        model.removeSubrange(offset...)
                    }
                    #expect(writer.count == model.count)
                }
                return writer.withWritten { Array($0) }
            }
            #expect(written == model)
        }
    }

    /// Joining runs of separators writes what a byte-by-byte reading writes, and nothing at a stop byte.
    @Test func joiningRunsWritesAsAByteLoop() {
        var generator = SeededGenerator.forTest("joiningRunsWritesAsAByteLoop", seed: 38)
        let alphabet: [UInt8] = Array("0123 -().+/".utf8) + [0xC3]
        let separators = Set("-().+/ ".utf8)
        for _ in 0..<2_000 {
            let source = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }
            var expected: [UInt8]? = []
            var wroteAny = false
            var inRun = false
            for byte in source {
                if byte >= 0x80 {
                    expected = nil
                    break
                }
                if separators.contains(byte) {
                    inRun = wroteAny
                    continue
                }
                if inRun { expected?.append(UInt8(ascii: "-")) }
                inRun = false
                wroteAny = true
                expected?.append(byte)
            }
            if inRun, expected != nil { expected?.append(UInt8(ascii: "-")) }
            var room = [UInt8](repeating: 0, count: source.count)
            let (finished, count) = room.withUnsafeMutableBufferPointer { room in
                var cursor = ByteCursor(room)
                let finished = source.withUnsafeBufferPointer {
                    cursor.write(
                        $0, joiningRunsWith: UInt8(ascii: "-"), where: { separators.contains($0) },
                        stoppingAt: { $0 >= 0x80 })
                }
                return (finished, cursor.written)
            }
            if let expected {
                #expect(finished && Array(room[0..<count]) == expected, "\(source)")
            } else {
                #expect(!finished && count == 0, "\(source)")
            }
        }
    }

    /// Members written through the growable writer lose their first comma only when no member came before.
    @Test func writtenMembersLoseOnlyAFirstCommaWithNothingBefore() {
        func line(_ before: Bool) -> String {
            var response = ResponseWriter()
            if before { response.member("a", 1) }
            response.writeMembers { writer in
                writer.append(#","b":"#)
                writer.appendString(String(repeating: "x", count: 3_000))
                writer.append(#","c":2"#)
            }
            var out: [UInt8] = []
            response.finishLine(into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        let long = String(repeating: "x", count: 3_000)
        // The envelope's `{"id":…` is the host's; the plugin's members follow it.
        #expect(line(false) == #""b":""# + long + #"","c":2}"# + "\n")
        #expect(line(true) == #""a":1,"b":""# + long + #"","c":2}"# + "\n")
    }

    /// What the writer lends through `append(atMost:_:)` is a checked cursor: writing past the room asked for
    /// traps rather than writes past it, and so does reading or copying bytes not written.
    @Test func writingPastTheRoomAskedForTraps() async {
        await #expect(processExitsWith: .failure) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                var writer = ByteWriter(buffer)
                writer.append(atMost: 3) { $0.write("1234") }
            }
        }
        await #expect(processExitsWith: .failure) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
                var writer = ByteWriter(buffer)
                writer.append("12")
                writer.appendCopy(of: 1..<3)
            }
        }
    }

    /// JSON's escapes, byte by byte.
    static func escaped(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for byte in text {
            switch byte {
            case 0x22: out += Array(#"\""#.utf8)
            case 0x5C: out += Array(#"\\"#.utf8)
            case 0x0A: out += Array(#"\n"#.utf8)
            case 0x0D: out += Array(#"\r"#.utf8)
            case 0x09: out += Array(#"\t"#.utf8)
            case ..<0x20: out += Array("\\u00".utf8) + Array(String(byte, radix: 16).leftPadded(to: 2).utf8)
            default: out.append(byte)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
