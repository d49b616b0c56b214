import Testing

@testable import FmtCore

/// `copyShort` writes exactly the bytes asked for, at every length and alignment, and nothing around them.
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
}
