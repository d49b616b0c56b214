import FmtTesting
import Testing

@testable import FmtCore

/// `copyShort` writes exactly the bytes asked for, at every length and alignment, and nothing around them; the same
/// copy checking for escapes answers as a plain loop over the bytes does.
@Suite struct ShortCopyTests {
    @Test func copiesExactlyTheBytesAskedFor() {
        let source = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for count in 0...100 {
            for offset in 0..<8 {
                var target = [UInt8](repeating: 0xEE, count: 120)
                source.withUnsafeBufferPointer { source in
                    target.withUnsafeMutableBufferPointer { target in
                        let from = UnsafeBufferPointer(rebasing: source[offset..<offset + count])
                        (target.baseAddress! + 8).copyShort(from: from)
                    }
                }
                #expect(Array(target[8..<8 + count]) == Array(source[offset..<offset + count]), "\(count) at \(offset)")
                #expect(target[0..<8].allSatisfy { $0 == 0xEE } && target[(8 + count)...].allSatisfy { $0 == 0xEE })
            }
        }
    }

    @Test func copyCheckingEscapesCopiesAndAnswersAsAByteLoop() {
        var generator = SeededGenerator.forTest("copyCheckingEscapesCopiesAndAnswersAsAByteLoop", seed: 35)
        // Mostly plain bytes, sometimes one a JSON string escapes, so both answers come at every length.
        let plain: [UInt8] = Array(0x20...0xFF).filter { $0 != 0x22 && $0 != 0x5C }
        let escaped: [UInt8] = Array(0x00..<0x20) + [0x22, 0x5C]
        for round in 0..<4_000 {
            let count = round % 97
            var source = (0..<count).map { _ in plain.randomElement(using: &generator)! }
            if count > 0, Bool.random(using: &generator) {
                source[Int.random(in: 0..<count, using: &generator)] = escaped.randomElement(using: &generator)!
            }
            let expected = !source.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            var target = [UInt8](repeating: 0xEE, count: count + 16)
            let answer = source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    ResponseWriter.copyUnlessEscaped(
                        from.baseAddress ?? UnsafePointer(to.baseAddress!), count, to: to.baseAddress! + 8)
                }
            }
            #expect(answer == expected, "\(source)")
            #expect(Array(target[8..<8 + count]) == source)
            #expect(target[0..<8].allSatisfy { $0 == 0xEE } && target[(8 + count)...].allSatisfy { $0 == 0xEE })
        }
    }
}
