/// A latency histogram in nanoseconds with 32 sub-buckets per power of two (about 3% resolution), cheap
/// enough to update for every response and mergeable across client threads.
struct Histogram {
    private static let subBits = 5
    private static let subCount = 1 << subBits
    private static let bucketCount = 64 * subCount

    private(set) var counts = [UInt64](repeating: 0, count: Histogram.bucketCount)
    private(set) var total: UInt64 = 0
    private(set) var maximum: UInt64 = 0

    mutating func record(_ nanoseconds: UInt64) {
        counts[Self.bucket(nanoseconds)] &+= 1
        total &+= 1
        if nanoseconds > maximum { maximum = nanoseconds }
    }

    mutating func merge(_ other: Histogram) {
        for index in counts.indices { counts[index] &+= other.counts[index] }
        total &+= other.total
        maximum = max(maximum, other.maximum)
    }

    /// The value at `quantile` (0...1) in nanoseconds: the midpoint of the bucket holding it.
    func percentile(_ quantile: Double) -> Double {
        guard total > 0 else { return 0 }
        let target = max(1, UInt64((Double(total) * quantile).rounded(.up)))
        var seen: UInt64 = 0
        for (index, count) in counts.enumerated() where count > 0 {
            seen += count
            if seen >= target { return min(Self.midpoint(index), Double(maximum)) }
        }
        return Double(maximum)
    }

    private static func bucket(_ value: UInt64) -> Int {
        guard value >= UInt64(2 * subCount) else { return Int(value) }
        let power = 63 - value.leadingZeroBitCount
        let shift = power - subBits
        return shift * subCount + Int(value >> UInt64(shift))
    }

    private static func midpoint(_ index: Int) -> Double {
        guard index >= 2 * subCount else { return Double(index) }
        let shift = index / subCount - 1
        let mantissa = UInt64(index - shift * subCount)
        let low = Double(mantissa << UInt64(shift))
        return low + Double(UInt64(1) << UInt64(shift)) / 2
    }
}
