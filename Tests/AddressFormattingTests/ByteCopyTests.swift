import Testing

@testable import AddressFormatting

/// The byte shortcuts of the answer's writing: copies without `memcpy` and names compared as words must give
/// exactly what a byte-by-byte copy and comparison give, at every length around their thresholds.
@Suite struct ByteCopyTests {
    /// Pieces of every length up to past the longest copied inline, appended after every offset in the buffer (so
    /// the buffer fills and flushes in the middle of them), come out as the bytes appended.
    @Test func appendedPiecesAreTheirBytes() {
        let source = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for lead in [0, 1, 7, 900, 1000, 1017, 1023] {
            for length in 0...140 {
                let piece = Array(source[0..<length])
                let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ByteSink.bufferSize) { buffer in
                    var sink = ByteSink(appendingTo: [], buffer: buffer)
                    for _ in 0..<lead { sink.append(0x2E) }
                    piece.withUnsafeBufferPointer { sink.append($0) }
                    sink.append(0x21)
                    return sink.finish()
                }
                #expect(written == [UInt8](repeating: 0x2E, count: lead) + piece + [0x21], "\(lead) \(length)")
            }
        }
    }

    /// Every member name `read` looks for, against itself, every other name and each one byte changed in turn.
    @Test func namesCompareAsTheirBytes() {
        let names: [StaticString] = [
            "name", "organization", "street", "houseNumber", "extra", "postalCode", "city", "region", "district",
            "sortingCode", "country", "language",
        ]
        for name in names {
            let bytes = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            for other in names {
                let otherBytes = UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount)
                let same = bytes.withUnsafeBufferPointer { $0.hasSameBytes(as: other) }
                #expect(same == bytes.elementsEqual(otherBytes), "\(name) \(other)")
            }
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x20
                #expect(!changed.withUnsafeBufferPointer { $0.hasSameBytes(as: name) }, "\(name) \(index)")
            }
            let shorter = Array(bytes.dropLast())
            #expect(!shorter.withUnsafeBufferPointer { $0.hasSameBytes(as: name) }, "\(name)")
        }
        let empty: [UInt8] = []
        #expect(empty.withUnsafeBufferPointer { $0.hasSameBytes(as: "") })
        #expect(!empty.withUnsafeBufferPointer { $0.hasSameBytes(as: "a") })
        #expect(Array("abc".utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "abc") })
        #expect(!Array("abd".utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "abc") })
        let long = "a member name longer than sixteen bytes"
        #expect(
            Array(long.utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "a member name longer than sixteen bytes") })
        #expect(
            !Array(long.utf8).withUnsafeBufferPointer { $0.hasSameBytes(as: "a member name longer than sixteen byteS") }
        )
    }
}
