import FmtCore
import Synchronization

/// Counters per op and a latency histogram, read by `stats`. Each event loop records into its own `Shard`
/// (one writer, so no contended cache lines and no locked instructions); `record` writes a shared shard for
/// any other caller. Readers merge every shard when `stats` is asked.
public final class RequestStats: Sendable {
    /// One writer's counters: per op requests and errors, the latency buckets and the total time, in one block.
    public final class Shard: @unchecked Sendable {
        /// Atomics only, each written either by the shard's one owner or with atomic adds.
        private let storage: UnsafeMutablePointer<Atomic<Int>>
        private let count: Int
        private let ops: Int

        fileprivate init(ops: Int) {
            self.ops = ops
            count = 2 * ops + RequestStats.bucketCount + 1
            storage = .allocate(capacity: count)
            for index in 0..<count { (storage + index).initialize(to: Atomic<Int>(0)) }
        }

        deinit {
            storage.deinitialize(count: count)
            storage.deallocate()
        }

        /// Counts one request; only the shard's owner may call it (the counters are written without a lock).
        public func recordOwned(slot: Int, failed: Bool, nanoseconds: UInt64) {
            bump(slot)
            if failed { bump(ops + slot) }
            bump(2 * ops + RequestStats.bucket(for: nanoseconds))
            bump(count - 1, by: Int(truncatingIfNeeded: nanoseconds))
        }

        /// Counts one request from any thread.
        fileprivate func recordShared(slot: Int, failed: Bool, nanoseconds: UInt64) {
            storage[slot].add(1, ordering: .relaxed)
            if failed { storage[ops + slot].add(1, ordering: .relaxed) }
            storage[2 * ops + RequestStats.bucket(for: nanoseconds)].add(1, ordering: .relaxed)
            storage[count - 1].add(Int(truncatingIfNeeded: nanoseconds), ordering: .relaxed)
        }

        @inline(__always)
        private func bump(_ index: Int, by amount: Int = 1) {
            let counter = storage + index
            counter.pointee.store(counter.pointee.load(ordering: .relaxed) &+ amount, ordering: .relaxed)
        }

        fileprivate func requests(_ slot: Int) -> Int { storage[slot].load(ordering: .relaxed) }
        fileprivate func errors(_ slot: Int) -> Int { storage[ops + slot].load(ordering: .relaxed) }
        fileprivate func bucket(_ index: Int) -> Int { storage[2 * ops + index].load(ordering: .relaxed) }
        fileprivate var totalNanoseconds: Int { storage[count - 1].load(ordering: .relaxed) }
    }

    private let order: [String]
    private let slots: [String: Int]
    /// The shard `record` writes, shared by every thread without one of its own.
    private let shared: Shard
    private let shards: Mutex<[Shard]>
    /// Four sub-buckets per power of two of nanoseconds: about 19% resolution, enough for percentiles.
    fileprivate static let bucketCount = 64 * 4

    /// Requests whose op is not served (or absent) are counted under `(other)`.
    public static let otherOp = "(other)"

    public init(ops: [String]) {
        var order: [String] = []
        for op in ops + [Self.otherOp] where !order.contains(op) { order.append(op) }
        self.order = order
        slots = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
        shared = Shard(ops: order.count)
        shards = Mutex([shared])
    }

    /// A new shard for one writer (an event loop), merged into every reading from now on.
    public func makeShard() -> Shard {
        let shard = Shard(ops: order.count)
        shards.withTracedLock { $0.append(shard) }
        return shard
    }

    /// The counter slot of an op, looked up once so the hot path records by index.
    public func slot(for op: String) -> Int {
        slots[op] ?? otherSlot
    }

    /// The slot of `(other)`.
    public var otherSlot: Int { order.count - 1 }

    /// Counts one request from any thread (into the shared shard).
    public func record(slot: Int, failed: Bool, nanoseconds: UInt64) {
        shared.recordShared(slot: slot, failed: failed, nanoseconds: nanoseconds)
    }

    private var allShards: [Shard] { shards.withTracedLock { $0 } }

    /// The histogram's upper bounds as `stats` reports them: every other power of two of nanoseconds from 1024 ns
    /// (about 1 µs) to 2^28 ns (about 268 ms), which are bucket edges, so the counts below them are exact.
    public static let reportedBoundPowers = Array(stride(from: 10, through: 28, by: 2))

    fileprivate static func bucket(for nanoseconds: UInt64) -> Int {
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
        let shards = allShards
        var object = JSONObject()
        for (slot, op) in order.enumerated() {
            let requests = shards.reduce(0) { $0 + $1.requests(slot) }
            guard requests > 0 else { continue }
            let errors = shards.reduce(0) { $0 + $1.errors(slot) }
            object.append(op, ["requests": JSONValue(requests), "errors": JSONValue(errors)])
        }
        return object
    }

    public var totals: (requests: Int, errors: Int) {
        let shards = allShards
        var totals = (requests: 0, errors: 0)
        for shard in shards {
            for slot in order.indices {
                totals.requests += shard.requests(slot)
                totals.errors += shard.errors(slot)
            }
        }
        return totals
    }

    /// Handling-time percentiles in microseconds (bucket upper bounds): in an event loop from the end of the previous
    /// answer (or the read that brought the line) to the line's response, so the framing of the line counts too.
    public var latency: JSONObject {
        let shards = allShards
        let counts = (0..<Self.bucketCount).map { index in shards.reduce(0) { $0 + $1.bucket(index) } }
        let totalNanoseconds = shards.reduce(0) { $0 &+ $1.totalNanoseconds }
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
        object.append("sumUs", .number(JSONNumber(Double(totalNanoseconds / 1000))))
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
