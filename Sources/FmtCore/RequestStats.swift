import Synchronization

/// Counters per op and a latency histogram, updated lock-free from every event loop and read by `stats`.
public final class RequestStats: Sendable {
    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private final class OpCounters: Sendable {
        let requests = Atomic<Int>(0)
        let errors = Atomic<Int>(0)
    }

    private let counters: [OpCounters]
    private let order: [String]
    private let slots: [String: Int]
    /// Four sub-buckets per power of two of nanoseconds: about 19% resolution, enough for percentiles.
    private let buckets: [Counter]
    private let totalNanoseconds = Atomic<Int>(0)
    private static let bucketCount = 64 * 4

    /// Requests whose op is not served (or absent) are counted under `(other)`.
    public static let otherOp = "(other)"

    public init(ops: [String]) {
        var order: [String] = []
        for op in ops + [Self.otherOp] where !order.contains(op) { order.append(op) }
        self.order = order
        counters = order.map { _ in OpCounters() }
        slots = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
        buckets = (0..<Self.bucketCount).map { _ in Counter() }
    }

    /// The counter slot of an op, looked up once so the hot path records by index.
    public func slot(for op: String) -> Int {
        slots[op] ?? otherSlot
    }

    /// The slot of `(other)`.
    public var otherSlot: Int { order.count - 1 }

    public func record(slot: Int, failed: Bool, nanoseconds: UInt64) {
        let counter = counters[slot]
        counter.requests.add(1, ordering: .relaxed)
        if failed { counter.errors.add(1, ordering: .relaxed) }
        buckets[Self.bucket(for: nanoseconds)].value.add(1, ordering: .relaxed)
        totalNanoseconds.add(Int(truncatingIfNeeded: nanoseconds), ordering: .relaxed)
    }

    /// The histogram's upper bounds as `stats` reports them: every other power of two of nanoseconds from 1024 ns
    /// (about 1 µs) to 2^28 ns (about 268 ms), which are bucket edges, so the counts below them are exact.
    public static let reportedBoundPowers = Array(stride(from: 10, through: 28, by: 2))

    private static func bucket(for nanoseconds: UInt64) -> Int {
        guard nanoseconds >= 4 else { return Int(nanoseconds) }
        let power = 63 - nanoseconds.leadingZeroBitCount
        let fraction = Int((nanoseconds >> UInt64(power - 2)) & 3)
        return min(power * 4 + fraction, bucketCount - 1)
    }

    private static func upperBound(of bucket: Int) -> UInt64 {
        guard bucket >= 8 else { return UInt64(bucket) }
        let power = bucket / 4
        let fraction = UInt64(bucket % 4)
        return (UInt64(1) << UInt64(power)) + (fraction + 1) * (UInt64(1) << UInt64(power - 2))
    }

    /// `{"op":{"requests":n,"errors":n},...}` for ops seen at least once.
    public var perOp: JSONObject {
        var object = JSONObject()
        for (op, counter) in zip(order, counters) {
            let requests = counter.requests.load(ordering: .relaxed)
            guard requests > 0 else { continue }
            object.append(
                op, ["requests": JSONValue(requests), "errors": JSONValue(counter.errors.load(ordering: .relaxed))])
        }
        return object
    }

    public var totals: (requests: Int, errors: Int) {
        counters.reduce((0, 0)) {
            ($0.0 + $1.requests.load(ordering: .relaxed), $0.1 + $1.errors.load(ordering: .relaxed))
        }
    }

    /// Handling-time percentiles in microseconds (bucket upper bounds), from decoding a line to its response.
    public var latency: JSONObject {
        let counts = buckets.map { $0.value.load(ordering: .relaxed) }
        let total = counts.reduce(0, +)
        var object = JSONObject()
        for (name, quantile) in [("p50", 0.5), ("p99", 0.99), ("p999", 0.999)] {
            guard total > 0 else {
                object.append(name + "Us", .null)
                continue
            }
            let target = Int((Double(total) * quantile).rounded(.up))
            var seen = 0
            var bound: UInt64 = 0
            for (index, count) in counts.enumerated() {
                seen += count
                if seen >= target {
                    bound = Self.upperBound(of: index)
                    break
                }
            }
            object.append(name + "Us", .number(JSONNumber(Double(bound) / 1000)))
        }
        object.append("count", JSONValue(total))
        object.append("sumUs", .number(JSONNumber(Double(totalNanoseconds.load(ordering: .relaxed) / 1000))))
        // Cumulative: bucket 4p starts at 2^p ns, so the buckets before it hold the requests below 2^p ns.
        object.append(
            "buckets",
            .array(
                Self.reportedBoundPowers.map { power in
                    let below = counts.prefix(power * 4).reduce(0, +)
                    return [.number(JSONNumber(Double(UInt64(1) << UInt64(power)) / 1000)), JSONValue(below)]
                }))
        return object
    }
}
