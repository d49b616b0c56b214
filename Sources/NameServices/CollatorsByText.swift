import Synchronization

/// Collators by the UTF-8 of a request's `locale` text (or its absence), found without making a `String` of the
/// text or hashing it with `Hasher`: a `sort` request looks its collator up where the text lies in the line.
/// Bounded as `BoundedCache` is, since the texts are the client's: at `limit` entries it forgets them all, and a text
/// longer than `longestKey` bytes is never remembered (its caller resolves it each time).
final class CollatorsByText: Sendable {
    /// The most bytes of a remembered text: longer than any tag or `Accept-Language` value a client sends in practice.
    static let longestKey = 128

    private let table: Mutex<Table>

    init(limit: Int = 256) {
        table = Mutex(Table(limit: max(1, limit), seed: UInt64.random(in: 0...UInt64.max)))
    }

    /// The collator remembered for `text` (nil for an absent `locale`), or nil.
    func collator(for text: UnsafeBufferPointer<UInt8>?) -> Collator? {
        guard let text else { return table.withLock { $0.absent } }
        guard text.count <= Self.longestKey else { return nil }
        return table.withLock { $0.find(text) }
    }

    /// Remembers `collator` for `text`; the first one stored for a text wins, and is returned.
    func remember(_ collator: Collator, for text: UnsafeBufferPointer<UInt8>?) -> Collator {
        guard let text else {
            return table.withLock { table in
                if let raced = table.absent { return raced }
                table.absent = collator
                return collator
            }
        }
        guard text.count <= Self.longestKey else { return collator }
        return table.withLock { $0.insert(collator, for: text) }
    }

    /// How many texts are remembered (the absent `locale` included).
    var count: Int {
        table.withLock { $0.count + ($0.absent == nil ? 0 : 1) }
    }

    /// An open-addressed table with linear probing, twice as many slots as entries, keys' bytes in one pool.
    private struct Table: ~Copyable {
        let limit: Int
        let seed: UInt64
        var absent: Collator?
        var count = 0
        /// A slot's key hash with the low bit set, 0 when the slot is empty.
        var hashes: [UInt64]
        var keyStarts: [Int32]
        var keyCounts: [Int32]
        var values: [Collator?]
        var pool: [UInt8] = []

        init(limit: Int, seed: UInt64) {
            self.limit = limit
            self.seed = seed
            var slots = 2
            while slots < 2 * limit { slots *= 2 }
            hashes = Array(repeating: 0, count: slots)
            keyStarts = Array(repeating: 0, count: slots)
            keyCounts = Array(repeating: 0, count: slots)
            values = Array(repeating: nil, count: slots)
        }

        /// FNV-1a over the bytes from a per-process basis, low bit set so no key hashes to "empty".
        func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash = seed ^ 0xCBF2_9CE4_8422_2325
            for byte in text { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash | 1
        }

        func keyEquals(_ slot: Int, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard Int(keyCounts[slot]) == text.count else { return false }
            return pool.withUnsafeBufferPointer { pool in
                UnsafeBufferPointer(rebasing: pool[Int(keyStarts[slot])..<Int(keyStarts[slot]) + text.count])
                    .hasSameBytes(as: text)
            }
        }

        func find(_ text: UnsafeBufferPointer<UInt8>) -> Collator? {
            let hash = hash(text)
            let mask = hashes.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while hashes[slot] != 0 {
                if hashes[slot] == hash && keyEquals(slot, text) { return values[slot] }
                slot = (slot + 1) & mask
            }
            return nil
        }

        mutating func insert(_ collator: Collator, for text: UnsafeBufferPointer<UInt8>) -> Collator {
            if let raced = find(text) { return raced }
            if count >= limit { removeAll() }
            let hash = hash(text)
            let mask = hashes.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while hashes[slot] != 0 { slot = (slot + 1) & mask }
            hashes[slot] = hash
            keyStarts[slot] = Int32(pool.count)
            keyCounts[slot] = Int32(text.count)
            values[slot] = collator
            pool.append(contentsOf: text)
            count += 1
            return collator
        }

        mutating func removeAll() {
            for slot in hashes.indices {
                hashes[slot] = 0
                values[slot] = nil
            }
            pool.removeAll(keepingCapacity: true)
            count = 0
        }
    }
}
