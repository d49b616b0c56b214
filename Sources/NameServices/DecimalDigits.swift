import FmtCore

/// Decimal numbers written as ASCII digits straight into a response (`sort`'s `order`).
enum DecimalDigits {
    /// Writes `value` in decimal at the cursor (at most 10 digits), checked against its buffer.
    @inline(__always)
    static func write(_ value: UInt32, to out: inout ByteCursor) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits &+= 1
        }
        let target = out.remaining
        precondition(digits <= target.count, "DecimalDigits: write past the buffer")
        rest = value
        var index = digits
        repeat {
            index &-= 1
            target[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while index > 0
        out.skip(digits)
    }
}
