/// Byte helpers for writing names straight into a response.
enum PlainText {
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

    /// Copies `text` to `out` without a call for the usual short name: two overlapping words cover 8 to 16 bytes, two
    /// overlapping halves 4 to 7; longer texts go to `memmove`.
    @inline(__always)
    static func copy(_ text: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) {
        guard let base = text.baseAddress else { return }
        let count = text.count
        let source = UnsafeRawPointer(base)
        let target = UnsafeMutableRawPointer(out)
        switch count {
        case 8...16:
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        case 0..<4:
            for index in 0..<count { out[index] = base[index] }
        default:
            out.update(from: base, count: count)
        }
    }
}
