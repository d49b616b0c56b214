/// Decimal numbers written as ASCII digits straight into a response (`sort`'s `order`).
enum DecimalDigits {
    /// Writes `value` in decimal at `out`, returning how many digits it wrote (at most 10).
    @inline(__always)
    static func writeDecimal(_ value: UInt32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits &+= 1
        }
        rest = value
        var index = digits
        repeat {
            index &-= 1
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while index > 0
        return digits
    }
}
