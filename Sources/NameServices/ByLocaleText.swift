import Synchronization

/// ICU objects (collators, plural rules) by the UTF-8 of a request's `locale` text (or its absence), found without
/// making a `String` of the text or hashing it with `Hasher`: a `sort` or `plural` request looks its object up where
/// the text lies in the line, neither resolving the tag nor spelling it again. Bounded as `BoundedCache` is, since the
/// texts are the client's: at `limit` entries it forgets them all, and a text longer than `longestKey` bytes is never
/// remembered (its caller resolves it each time).
final class ByLocaleText<Value: AnyObject & Sendable>: Sendable {
    /// The most bytes of a remembered text: longer than any tag or `Accept-Language` value a client sends in practice.
    static var longestKey: Int { 128 }

    private let table: Mutex<Table>
    /// The per-process basis of the keys' hashes, so a client cannot aim texts at one slot.
    private let seed: UInt64

    init(limit: Int = 256) {
        seed = UInt64.random(in: 0...UInt64.max)
        table = Mutex(Table(limit: max(1, limit)))
    }

    /// The value remembered for `text` (nil for an absent `locale`), or nil.
    func value(for text: UnsafeBufferPointer<UInt8>?) -> Value? {
        guard let text else { return table.withLock { $0.absent } }
        guard text.count <= Self.longestKey else { return nil }
        let key = LocaleTextKey(text, seed: seed)
        return table.withLock { $0.find(key, text) }
    }

    /// Remembers `value` for `text`; the first one stored for a text wins, and is returned.
    func remember(_ value: Value, for text: UnsafeBufferPointer<UInt8>?) -> Value {
        guard let text else {
            return table.withLock { table in
                if let raced = table.absent { return raced }
                table.absent = value
                return value
            }
        }
        guard text.count <= Self.longestKey else { return value }
        let key = LocaleTextKey(text, seed: seed)
        return table.withLock { $0.insert(value, key, text) }
    }

    /// How many texts are remembered (the absent `locale` included).
    var count: Int {
        table.withLock { $0.count + ($0.absent == nil ? 0 : 1) }
    }

    /// An open-addressed table with linear probing, twice as many slots as entries; the bytes of texts longer than
    /// `LocaleTextKey.packed` past their packed ones in one pool.
    private struct Table: ~Copyable {
        struct Slot {
            var hash: UInt64 = 0
            var low: UInt64 = 0
            var high: UInt64 = 0
            var count: Int32 = 0
            var poolStart: Int32 = 0
        }

        let limit: Int
        var absent: Value?
        var count = 0
        var slots: [Slot]
        var values: [Value?]
        var pool: [UInt8] = []

        init(limit: Int) {
            self.limit = limit
            var slots = 2
            while slots < 2 * limit { slots *= 2 }
            self.slots = Array(repeating: Slot(), count: slots)
            values = Array(repeating: nil, count: slots)
        }

        func matches(_ slot: Slot, _ key: LocaleTextKey, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
            guard slot.hash == key.hash, slot.low == key.low, slot.high == key.high, Int(slot.count) == key.count
            else { return false }
            guard key.count > LocaleTextKey.packed else { return true }
            return pool.withUnsafeBufferPointer { pool in
                let start = Int(slot.poolStart)
                return UnsafeBufferPointer(rebasing: pool[start..<start + key.count - LocaleTextKey.packed])
                    .hasSameBytes(as: UnsafeBufferPointer(rebasing: text[LocaleTextKey.packed...]))
            }
        }

        func find(_ key: LocaleTextKey, _ text: UnsafeBufferPointer<UInt8>) -> Value? {
            let mask = slots.count &- 1
            var index = Int(truncatingIfNeeded: key.hash) & mask
            while true {
                let slot = slots[index]
                if slot.hash == 0 { return nil }
                if matches(slot, key, text) { return values[index] }
                index = (index &+ 1) & mask
            }
        }

        mutating func insert(_ value: Value, _ key: LocaleTextKey, _ text: UnsafeBufferPointer<UInt8>) -> Value {
            if let raced = find(key, text) { return raced }
            if count >= limit { removeAll() }
            let mask = slots.count &- 1
            var index = Int(truncatingIfNeeded: key.hash) & mask
            while slots[index].hash != 0 { index = (index &+ 1) & mask }
            slots[index] = Slot(
                hash: key.hash, low: key.low, high: key.high, count: Int32(key.count), poolStart: Int32(pool.count))
            values[index] = value
            if key.count > LocaleTextKey.packed { pool.append(contentsOf: text[LocaleTextKey.packed...]) }
            count += 1
            return value
        }

        mutating func removeAll() {
            for index in slots.indices {
                slots[index] = Slot()
                values[index] = nil
            }
            pool.removeAll(keepingCapacity: true)
            count = 0
        }
    }
}

/// A text's first 16 bytes packed in two words (so most tags compare in two), its length and its hash.
struct LocaleTextKey {
    /// How many bytes `low` and `high` hold; a longer text's other bytes are compared where the table keeps them.
    static let packed = 16

    var low: UInt64 = 0
    var high: UInt64 = 0
    let count: Int
    /// Never 0, which marks an empty slot.
    let hash: UInt64

    /// For a given length the packing is one to one: 8 to 16 bytes are two overlapping 8-byte words, 4 to 7 two
    /// overlapping 4-byte halves of `low`, fewer are `low`'s bytes one by one.
    init(_ text: UnsafeBufferPointer<UInt8>, seed: UInt64) {
        count = text.count
        if let base = text.baseAddress {
            let raw = UnsafeRawPointer(base)
            if count >= 8 {
                low = raw.loadUnaligned(as: UInt64.self)
                high = raw.loadUnaligned(fromByteOffset: min(count, Self.packed) &- 8, as: UInt64.self)
            } else if count >= 4 {
                low =
                    UInt64(raw.loadUnaligned(as: UInt32.self))
                    | UInt64(raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)) &<< 32
            } else {
                for offset in 0..<count { low |= UInt64(base[offset]) &<< UInt64(truncatingIfNeeded: offset &* 8) }
            }
        }
        var hash = (low ^ seed) &* 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ (hash &>> 32) ^ high ^ UInt64(truncatingIfNeeded: count) &<< 56) &* 0xBF58_476D_1CE4_E5B9
        if count > Self.packed {
            for offset in Self.packed..<count { hash = (hash ^ UInt64(text[offset])) &* 0x0000_0100_0000_01B3 }
        }
        self.hash = (hash ^ (hash &>> 31)) | 1
    }
}
