import Glibc
import Synchronization

/// A thread-safe memo of values by a client's text, looked up by its UTF-8 where it lies (in a request's line), so a
/// hit makes no `String` and hashes no `String`. Bounded as `BoundedCache` is, since the texts are the client's: at
/// `limit` entries it forgets them all, and a key longer than `longestKey` bytes is never remembered (its value is
/// made afresh each time).
public final class ByteKeyedCache<Value: Sendable>: Sendable {
    @usableFromInline let table: Mutex<ByteKeyedTable<Value>>
    /// The most entries held at once.
    public let limit: Int
    /// The longest key remembered, in bytes.
    public let longestKey: Int
    /// The per-process seed of the keys' hashes.
    @usableFromInline let seed: UInt64

    public init(limit: Int, longestKey: Int) {
        self.limit = max(1, limit)
        self.longestKey = max(0, longestKey)
        seed = UInt64.random(in: 0...UInt64.max)
        table = Mutex(ByteKeyedTable(limit: self.limit, longestKey: self.longestKey))
    }

    /// The value for `key`, computing and remembering it on a miss; a `nil` from `make` is not remembered. `make`
    /// runs outside the lock, so two threads may compute the same value once each: the first stored wins.
    /// Inlinable, so a plugin's module specialises it for its value type.
    @inlinable
    public func value<Failure: Error>(
        for key: UnsafeBufferPointer<UInt8>, orMake make: () throws(Failure) -> Value?
    ) throws(Failure) -> Value? {
        guard key.count <= longestKey else { return try make() }
        let hash = ByteKeyedTable<Value>.hash(key, seed: seed)
        // The table only reads the key's bytes while the lock is held, and copies them to keep them.
        let lent = ByteKeyedTable<Value>.LentKey(bytes: key)
        if let cached = table.withTracedLock({ $0.find(lent.bytes, hash: hash) }) { return cached }
        guard let value = try make() else { return nil }
        return table.withTracedLock { $0.insert(value, for: lent.bytes, hash: hash) }
    }

    /// The value remembered for `key`, or nil: a hit costs a hash, a lock and a lookup, with no closure to build
    /// (the caller makes and remembers a missing value with `value(for:orMake:)`).
    @inlinable
    public func cached(for key: UnsafeBufferPointer<UInt8>) -> Value? {
        guard key.count <= longestKey else { return nil }
        let hash = ByteKeyedTable<Value>.hash(key, seed: seed)
        let lent = ByteKeyedTable<Value>.LentKey(bytes: key)
        return table.withTracedLock { $0.find(lent.bytes, hash: hash) }
    }

    /// How many entries are held now.
    public var count: Int {
        table.withTracedLock { $0.count }
    }
}

/// The table of a `ByteKeyedCache`: open addressing with linear probing in at least twice as many slots as entries
/// (grown as entries come, up to twice `limit`), the keys' bytes in one pool. A key is never stored farther than
/// `longestProbe` slots from where its hash points (one that would be is not remembered), so a lookup compares at
/// most that many keys whatever texts clients choose.
@usableFromInline
struct ByteKeyedTable<Value>: ~Copyable {
    @usableFromInline
    struct Slot {
        /// The key's hash with the low bit set; 0 when the slot is empty.
        @usableFromInline var hash: UInt64
        @usableFromInline var keyStart: Int32
        @usableFromInline var keyCount: Int32

        @inlinable
        init(hash: UInt64, keyStart: Int32, keyCount: Int32) {
            self.hash = hash
            self.keyStart = keyStart
            self.keyCount = keyCount
        }
    }

    /// A key's bytes, lent to the table under its lock.
    @usableFromInline
    struct LentKey: @unchecked Sendable {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>

        @inlinable
        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }
    }

    @usableFromInline static var longestProbe: Int { 128 }

    @usableFromInline let limit: Int
    /// The most bytes of keys held at once: `limit` keys of the longest length.
    @usableFromInline let poolLimit: Int
    @usableFromInline var count = 0
    @usableFromInline var slots: [Slot]
    @usableFromInline var values: [Value?]
    @usableFromInline var pool: [UInt8] = []

    init(limit: Int, longestKey: Int) {
        self.limit = limit
        poolLimit = limit * longestKey
        slots = Array(repeating: Slot(hash: 0, keyStart: 0, keyCount: 0), count: 16)
        values = Array(repeating: nil, count: 16)
    }

    /// A hash of the bytes from a per-process seed, eight bytes at a time; the low bit set, so no key hashes to
    /// "empty".
    @inlinable
    static func hash(_ key: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        let count = key.count
        let hash = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard count > 8 else { return mix(hash ^ WordBytes.head(key).head) | 1 }
        let base = key.baseAddress!
        var mixed = hash
        var at = 0
        while count &- at > 8 {
            mixed = mix(mixed ^ WordBytes.word(base, at: at))
            at &+= 8
        }
        // The last 8 bytes, overlapping the word before when the count is no multiple of 8.
        return mix(mixed ^ WordBytes.word(base, at: count &- 8)) | 1
    }

    /// The finaliser of SplitMix64: every input bit reaches every output bit.
    @inlinable
    static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value &>> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value &>> 31)
    }

    @inlinable
    func keyEquals(_ slot: Slot, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard Int(slot.keyCount) == key.count else { return false }
        guard key.count > 0 else { return true }
        return pool.withUnsafeBufferPointer { pool in
            WordBytes.equal(pool.baseAddress! + Int(slot.keyStart), key.baseAddress!, count: key.count)
        }
    }

    @inlinable
    func find(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Value? {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count &- 1
            var index = Int(truncatingIfNeeded: hash) & mask
            for _ in 0..<Self.longestProbe {
                let slot = slots[index]
                if slot.hash == 0 { return nil }
                if slot.hash == hash, keyEquals(slot, key) { return values[index] }
                index = (index &+ 1) & mask
            }
            return nil
        }
    }

    /// Remembers `value` for `key` (unless the key is there already: the value remembered then is returned).
    @usableFromInline
    mutating func insert(_ value: Value, for key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Value {
        if let raced = find(key, hash: hash) { return raced }
        // Entries a growth could not place again leave their bytes in the pool: it is bounded on its own too.
        if count >= limit || pool.count &+ key.count > poolLimit { removeAll() }
        if 2 &* (count &+ 1) > slots.count { grow() }
        guard let index = freeSlot(hash) else { return value }
        slots[index] = Slot(
            hash: hash, keyStart: Int32(truncatingIfNeeded: pool.count), keyCount: Int32(truncatingIfNeeded: key.count))
        values[index] = value
        pool.append(contentsOf: key)
        count &+= 1
        return value
    }

    /// The empty slot within `longestProbe` of where `hash` points, or nil.
    private func freeSlot(_ hash: UInt64) -> Int? {
        let mask = slots.count &- 1
        var index = Int(truncatingIfNeeded: hash) & mask
        for _ in 0..<Self.longestProbe {
            if slots[index].hash == 0 { return index }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// Twice the slots, every entry placed again (one that no longer fits within `longestProbe` is forgotten).
    private mutating func grow() {
        let old = slots
        let oldValues = values
        slots = Array(repeating: Slot(hash: 0, keyStart: 0, keyCount: 0), count: old.count * 2)
        values = Array(repeating: nil, count: old.count * 2)
        count = 0
        for (index, slot) in old.enumerated() where slot.hash != 0 {
            guard let free = freeSlot(slot.hash) else { continue }
            slots[free] = slot
            values[free] = oldValues[index]
            count += 1
        }
    }

    private mutating func removeAll() {
        for index in slots.indices {
            slots[index].hash = 0
            values[index] = nil
        }
        pool.removeAll(keepingCapacity: true)
        count = 0
    }
}

/// Short byte strings read a word at a time by overlapping loads within them, for names and keys that are compared
/// and hashed per request (`RequestRecord.member(bytes:in:)`, `ByteKeyedCache`).
@usableFromInline
enum WordBytes {
    /// The first 8 bytes of `bytes` as a little-endian word, zero past its end, and the mask of its bytes.
    @inlinable @inline(__always)
    static func head(_ bytes: UnsafeBufferPointer<UInt8>) -> (head: UInt64, mask: UInt64) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return (0, 0) }
        let raw = UnsafeRawPointer(base)
        switch count {
        case 1:
            return (UInt64(base[0]), 0xFF)
        case 2, 3:
            let low = UInt64(UInt16(littleEndian: raw.loadUnaligned(as: UInt16.self)))
            let high = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
            return (low | high &<< UInt64(truncatingIfNeeded: (count &- 2) &<< 3), count == 2 ? 0xFFFF : 0xFF_FFFF)
        case 4...7:
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            let shift = UInt64(truncatingIfNeeded: (count &- 4) &<< 3)
            return (low | high &<< shift, (1 &<< UInt64(truncatingIfNeeded: count &<< 3)) &- 1)
        default:
            return (word(base, at: 0), UInt64.max)
        }
    }

    /// The 8 bytes at `offset` of `bytes`, as a little-endian word.
    @inlinable @inline(__always)
    static func word(_ bytes: UnsafePointer<UInt8>, at offset: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Whether the `count` bytes at `first` and at `second` are the same.
    @inlinable
    static func equal(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count <= 16 else { return memcmp(first, second, count) == 0 }
        guard count > 8 else {
            return head(UnsafeBufferPointer(start: first, count: count)).head
                == head(UnsafeBufferPointer(start: second, count: count)).head
        }
        return word(first, at: 0) == word(second, at: 0) && word(first, at: count &- 8) == word(second, at: count &- 8)
    }
}
