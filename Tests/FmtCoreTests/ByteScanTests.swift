import FmtCore
import FmtTesting
import Testing

/// Every word test of `ByteScan` flags exactly the bytes its byte-by-byte reading names: none before the first such
/// byte, the first one always, and nothing in a word that has none; and the walk over a buffer finds a byte
/// wherever it lies, in texts of every length from 0 to 40 at every offset. Over every byte value in every lane and
/// over random words biased towards the bytes the tests look for.
@Suite struct ByteScanTests {
    /// A word test and the byte-by-byte reading it must agree with.
    struct Case: CustomStringConvertible, Sendable {
        let description: String
        let word: @Sendable (UInt64) -> UInt64
        let byte: @Sendable (UInt8) -> Bool
    }

    static let cases: [Case] = [
        Case(description: "escape", word: ByteScan.escapeFlags) { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C },
        Case(description: "stop", word: ByteScan.stopFlags) { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x80 },
        Case(description: "not printable", word: ByteScan.notPrintableFlags) {
            $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 >= 0x7F
        },
        Case(description: "equal C2", word: { ByteScan.equalFlags($0, 0xC2) }) { $0 == 0xC2 },
        Case(description: "equal E2", word: { ByteScan.equalFlags($0, 0xE2) }) { $0 == 0xE2 },
    ]

    /// The bytes the tests turn on, and their neighbours.
    static let edges: [UInt8] = [
        0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x41, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0xC1, 0xC2, 0xC3, 0xE1,
        0xE2, 0xE3, 0xFF,
    ]

    /// Whether `flags` for `word` are what `matches` says of its bytes.
    static func agrees(_ flags: UInt64, _ word: UInt64, _ matches: (UInt8) -> Bool) -> Bool {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: word >> ($0 * 8)) }
        guard let first = bytes.firstIndex(where: matches) else { return flags == 0 }
        return flags & (1 << (first * 8 + 7)) != 0 && flags & ((1 << (first * 8)) - 1) == 0
            && flags & ~0x8080_8080_8080_8080 == 0
    }

    @Test(arguments: cases)
    func aWordTestFlagsTheFirstMatchingByteAndNothingBefore(_ test: Case) {
        // Every byte value in every lane, the other lanes a letter.
        for lane in 0..<8 {
            for value in 0...255 {
                let word = 0x4141_4141_4141_4141 & ~(0xFF << (lane * 8)) | UInt64(value) << (lane * 8)
                #expect(Self.agrees(test.word(word), word, test.byte), "\(test) \(String(word, radix: 16))")
            }
        }
        var random = SeededGenerator.forTest("aWordTestFlagsTheFirstMatchingByteAndNothingBefore", seed: 20_261_204)
        for _ in 0..<200_000 {
            var word: UInt64 = 0
            for lane in 0..<8 {
                let byte =
                    Int.random(in: 0..<2, using: &random) == 0
                    ? Self.edges[Int.random(in: 0..<Self.edges.count, using: &random)]
                    : UInt8(truncatingIfNeeded: Int.random(in: 0..<256, using: &random))
                word |= UInt64(byte) << (lane * 8)
            }
            let flags = test.word(word)
            if !Self.agrees(flags, word, test.byte) {
                Issue.record("\(test) \(String(word, radix: 16)) → \(String(flags, radix: 16))")
                return
            }
        }
    }

    @Test(arguments: cases)
    func aBufferWalkFindsAByteWhereverItLies(_ test: Case) {
        var random = SeededGenerator.forTest("aBufferWalkFindsAByteWhereverItLies", seed: 4_172)
        for count in 0...40 {
            for _ in 0..<200 {
                var bytes = (0..<count).map { _ in
                    UInt8(ascii: "a") &+ UInt8(truncatingIfNeeded: Int.random(in: 0..<26, using: &random))
                }
                if count > 0, Int.random(in: 0..<3, using: &random) > 0 {
                    bytes[Int.random(in: 0..<count, using: &random)] =
                        Self.edges[Int.random(in: 0..<Self.edges.count, using: &random)]
                }
                let expected = bytes.contains(where: test.byte)
                let found = bytes.withUnsafeBufferPointer { ByteScan.firstFlags($0, test.word) } != 0
                #expect(found == expected, "\(test) \(bytes)")
            }
        }
    }

    @Test func theBufferTestsAreTheWalkOfTheirWordTests() {
        var random = SeededGenerator.forTest("theBufferTestsAreTheWalkOfTheirWordTests", seed: 77)
        for _ in 0..<5_000 {
            let count = Int.random(in: 0..<24, using: &random)
            let bytes = (0..<count).map { _ in Self.edges[Int.random(in: 0..<Self.edges.count, using: &random)] }
            bytes.withUnsafeBufferPointer { buffer in
                let escapes = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
                #expect(ByteScan.needsNoEscape(buffer) == !escapes, "\(bytes)")
                #expect((ByteScan.escapeFlags(of: buffer) != 0) == escapes, "\(bytes)")
                #expect(
                    ByteScan.isPrintableASCII(buffer)
                        == bytes.allSatisfy { (0x20...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }, "\(bytes)")
            }
        }
    }
}
