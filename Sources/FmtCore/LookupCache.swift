import Synchronization

/// A thread-safe memo of values by key, bounded since its keys are the clients': the daemon's one cache of things
/// made per request (resolved locales, ICU objects by tag or by a request's locale text, date routes, entered
/// languages).
///
/// `Keys` says what a lookup gives: values (`HashableKeys`), or a client's UTF-8 where it lies in a request's line
/// (`UTF8Keys`), lent for the call only and hashed without making a `String`. `Full` says what happens at `limit`
/// keys: `ForgetAll` forgets them all and lookups take the cache's lock; `StopRemembering` keeps them, remembers no
/// more, and lookups take no lock and write no shared memory, so two event loops read one cache at once and a value
/// can be lent without a retain (`lookUp(_:)`). A key longer than `longestKey` bytes is never remembered (its value
/// is made afresh each time).
///
/// Open addressing with linear probing in twice as many slots as `limit` (a power of two), the keys' bytes past what
/// a slot packs in one pool. A slot is written whole before its hash is published (stored releasing) and a lookup
/// reads it only after seeing that hash (loaded acquiring); a key is never stored farther than `longestProbe` slots
/// from where its seeded hash points (one that would be is not remembered), so a lookup compares few keys whatever
/// texts clients choose. Inlinable and public, so each plugin's module specialises it for its key, value and policy
/// (the body of a `package` declaration is not specialised in another module): the generic lookup would cost a
/// request thousands of instructions in metadata and witness calls.
///
/// `@unchecked Sendable`: the slots are memory of its own, written only under its lock, each once before its hash is
/// published and not again until it is forgotten (under the lock its readers then take too).
public final class LookupCache<Keys: LookupKeys, Value: Sendable, Full: WhenFull>: @unchecked Sendable {
    @usableFromInline
    struct Slot {
        @usableFromInline let kept: Keys.Kept
        @usableFromInline let value: Value

        @inlinable
        init(kept: Keys.Kept, value: Value) {
            self.kept = kept
            self.value = value
        }
    }

    /// The most entries held at once.
    public let limit: Int
    /// The longest key remembered, in bytes (keys without bytes have none).
    public let longestKey: Int
    /// The per-process seed of the keys' hashes, so a client cannot aim keys at one slot.
    @usableFromInline let seed: UInt64
    @usableFromInline let mask: Int
    @usableFromInline let longestProbe: Int
    /// Each slot's key hash, 0 while the slot is empty.
    @usableFromInline let hashes: UnsafeMutablePointer<Atomic<UInt64>>
    /// Each slot's key and value, written once before its hash is published and read only after it is seen.
    @usableFromInline let slots: UnsafeMutablePointer<Slot>
    /// The bytes of keys that their slots do not hold (`LookupKeys.spilled(_:)`).
    @usableFromInline let pool: UnsafeMutablePointer<UInt8>
    @usableFromInline let poolCapacity: Int
    /// How many keys are remembered and how many pool bytes are used: taken by every insert, and by every lookup of
    /// a cache that forgets.
    @usableFromInline let state = Mutex<(count: Int, poolUsed: Int)>((0, 0))

    /// A cache of at most `limit` keys of at most `longestKey` bytes each.
    public init(limit: Int, longestKey: Int = 0) {
        self.limit = max(1, limit)
        self.longestKey = max(0, longestKey)
        seed = UInt64.random(in: 0...UInt64.max)
        var slotCount = 16
        while slotCount < 2 * self.limit { slotCount *= 2 }
        mask = slotCount - 1
        longestProbe = min(slotCount, 128)
        hashes = .allocate(capacity: slotCount)
        for index in 0..<slotCount { (hashes + index).initialize(to: Atomic(0)) }
        slots = .allocate(capacity: slotCount)
        poolCapacity = self.limit * max(0, self.longestKey - Keys.packedBytes)
        pool = .allocate(capacity: max(1, poolCapacity))
    }

    deinit {
        forgetAll()
        hashes.deinitialize(count: mask + 1)
        hashes.deallocate()
        slots.deallocate()
        pool.deallocate()
    }

    /// The value remembered for `key`, or nil: a hit costs a hash and a lookup (and the lock of a cache that
    /// forgets), with no closure to build.
    @inlinable
    public func value(for key: Keys.Lent) -> Value? {
        guard Keys.byteCount(key) <= longestKey else { return nil }
        let probe = Keys.probe(key, seed: seed)
        guard Full.forgets else { return find(probe, key).map { slots[$0].value } }
        return state.withTracedLock { _ in find(probe, key).map { slots[$0].value } }
    }

    /// The value for `key`, computing and remembering it on a miss; a `nil` from `make` is not remembered. `make`
    /// runs outside the lock, so two threads may compute the same value once each: the first stored wins.
    @inlinable
    public func value<Failure: Error>(
        for key: Keys.Lent, orMake make: () throws(Failure) -> Value?
    ) throws(Failure) -> Value? {
        if let cached = value(for: key) { return cached }
        guard let value = try make() else { return nil }
        return remember(value, for: key)
    }

    /// Remembers `value` for `key` while there is room (`Full` says what happens when there is not); the first value
    /// stored for a key wins, and is returned.
    @inlinable
    @discardableResult
    public func remember(_ value: Value, for key: Keys.Lent) -> Value {
        guard Keys.byteCount(key) <= longestKey else { return value }
        let probe = Keys.probe(key, seed: seed)
        return state.withTracedLock { state in insert(value, probe, key, &state) }
    }

    /// How many keys are remembered now.
    public var count: Int {
        state.withTracedLock { $0.count }
    }

    /// The slot holding the key, or nil; probing ends at an empty slot or after `longestProbe` slots.
    @inlinable
    func find(_ probe: (probe: Keys.Probe, hash: UInt64), _ key: Keys.Lent) -> Int? {
        var index = Int(truncatingIfNeeded: probe.hash) & mask
        for _ in 0..<longestProbe {
            let hash = hashes[index].load(ordering: .acquiring)
            if hash == 0 { return nil }
            if hash == probe.hash, Keys.matches(slots[index].kept, probe.probe, key, pool: pool) { return index }
            index = (index &+ 1) & mask
        }
        return nil
    }

    /// `remember(_:for:)` under the lock.
    @inlinable
    func insert(
        _ value: Value, _ probe: (probe: Keys.Probe, hash: UInt64), _ key: Keys.Lent,
        _ state: inout (count: Int, poolUsed: Int)
    ) -> Value {
        if let index = find(probe, key) { return slots[index].value }
        let spilled = Keys.spilled(key)
        if state.count >= limit || state.poolUsed + spilled.count > poolCapacity {
            guard Full.forgets else { return value }
            forgetAll()
            state = (0, 0)
        }
        var index = Int(truncatingIfNeeded: probe.hash) & mask
        var probed = 0
        while hashes[index].load(ordering: .relaxed) != 0 {
            probed += 1
            guard probed < longestProbe else { return value }
            index = (index &+ 1) & mask
        }
        if let base = spilled.baseAddress, spilled.count > 0 {
            (pool + state.poolUsed).update(from: base, count: spilled.count)
        }
        (slots + index).initialize(to: Slot(kept: Keys.keep(probe.probe, key, spilledAt: state.poolUsed), value: value))
        hashes[index].store(probe.hash, ordering: .releasing)
        state.count += 1
        state.poolUsed += spilled.count
        return value
    }

    /// Empties every slot: under the lock, or when the cache goes.
    @usableFromInline
    func forgetAll() {
        for index in 0...mask where hashes[index].load(ordering: .relaxed) != 0 {
            hashes[index].store(0, ordering: .relaxed)
            (slots + index).deinitialize(count: 1)
        }
    }
}

extension LookupCache where Full == StopRemembering, Value: AnyObject {
    /// Calls `body` with the value remembered for `key` and returns what it returns, or nil (without calling it)
    /// when nothing is remembered. The value is lent without a retain: the cache keeps it until the cache goes, so
    /// it is held for the whole call. No lock is taken and nothing shared is written.
    @inlinable @inline(__always)
    public func withValue<Result>(for key: Keys.Lent, _ body: (Value) throws -> Result) rethrows -> Result? {
        guard Keys.byteCount(key) <= longestKey, let index = find(Keys.probe(key, seed: seed), key) else { return nil }
        return try Unmanaged.passUnretained(slots[index].value)._withUnsafeGuaranteedRef(body)
    }
}

/// What a `LookupCache` does when it holds `limit` keys.
public protocol WhenFull {
    /// Whether it forgets every key (so its lookups take its lock), rather than keep them and remember no more.
    static var forgets: Bool { get }
}

/// A full cache forgets every key; its lookups take its lock. Clearing is safe: a caller that already holds a value
/// keeps it alive.
public enum ForgetAll: WhenFull {
    @inlinable public static var forgets: Bool { true }
}

/// A full cache keeps its keys and remembers no more; its lookups take no lock and write nothing shared, and its
/// values stay until it goes.
public enum StopRemembering: WhenFull {
    @inlinable public static var forgets: Bool { false }
}

/// How a `LookupCache` finds its keys: what a lookup gives, what a slot keeps of it, and how the two compare.
public protocol LookupKeys {
    /// What a lookup gives; bytes in it are lent for the call only.
    associatedtype Lent
    /// What a slot keeps of a key: its own parts, never a pointer into what was lent.
    associatedtype Kept
    /// What a lookup works out of its key once, to compare it with the slots' keys.
    associatedtype Probe
    /// How many bytes of a key `Kept` holds; the rest go to the cache's pool.
    static var packedBytes: Int { get }
    /// The key's length in bytes, checked against `longestKey` (0 for keys that are values).
    static func byteCount(_ key: Lent) -> Int
    /// The key's probe and its hash from `seed`, never 0.
    static func probe(_ key: Lent, seed: UInt64) -> (probe: Probe, hash: UInt64)
    /// The key's bytes past those `Kept` holds, copied to the pool when it is remembered.
    static func spilled(_ key: Lent) -> UnsafeBufferPointer<UInt8>
    /// What a slot keeps of the key, its spilled bytes at `spilledAt` in the pool.
    static func keep(_ probe: Probe, _ key: Lent, spilledAt: Int) -> Kept
    /// Whether a slot's `kept` key is the one `probe` was made of.
    static func matches(_ kept: Kept, _ probe: Probe, _ key: Lent, pool: UnsafePointer<UInt8>) -> Bool
}

/// Keys that are values, hashed with `Hasher` (seeded per process) and compared with `==`.
public enum HashableKeys<Key: Hashable & Sendable>: LookupKeys {
    @inlinable public static var packedBytes: Int { 0 }

    @inlinable
    public static func byteCount(_ key: Key) -> Int { 0 }

    @inlinable
    public static func probe(_ key: Key, seed: UInt64) -> (probe: Void, hash: UInt64) {
        ((), UInt64(UInt(bitPattern: key.hashValue)) | 1)
    }

    @inlinable
    public static func spilled(_ key: Key) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: nil, count: 0)
    }

    @inlinable
    public static func keep(_ probe: Void, _ key: Key, spilledAt: Int) -> Key { key }

    @inlinable
    public static func matches(_ kept: Key, _ probe: Void, _ key: Key, pool: UnsafePointer<UInt8>) -> Bool {
        kept == key
    }
}

/// Keys that are a client's UTF-8, lent where it lies (nil for an absent text, which no text matches). A slot packs
/// a text's first 16 bytes in two words, so most tags compare in two; the rest are kept in the pool.
public enum UTF8Keys: LookupKeys {
    /// A text's first 16 bytes, its length (-1 for an absent text) and where its other bytes lie in the pool.
    public struct Packed {
        @usableFromInline var low: UInt64
        @usableFromInline var high: UInt64
        @usableFromInline var count: Int32
        @usableFromInline var spilledAt: Int32

        @inlinable
        init(low: UInt64, high: UInt64, count: Int32, spilledAt: Int32) {
            self.low = low
            self.high = high
            self.count = count
            self.spilledAt = spilledAt
        }
    }

    @inlinable public static var packedBytes: Int { 16 }

    @inlinable
    public static func byteCount(_ key: UnsafeBufferPointer<UInt8>?) -> Int { key?.count ?? 0 }

    /// For a given length the packing is one to one: more than 8 bytes are two 8-byte words (overlapping below 16),
    /// fewer are `low`'s bytes. The hash mixes the packed words and then every further word of the text.
    @inlinable
    public static func probe(_ key: UnsafeBufferPointer<UInt8>?, seed: UInt64) -> (probe: Packed, hash: UInt64) {
        guard let key, let base = key.baseAddress, key.count > 0 else {
            let count: Int32 = key == nil ? -1 : 0
            let hash = mix(seed ^ UInt64(truncatingIfNeeded: Int64(count)) &* 0x9E37_79B9_7F4A_7C15) | 1
            return (Packed(low: 0, high: 0, count: count, spilledAt: 0), hash)
        }
        let count = key.count
        var hash = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard count > 8 else {
            let low = WordBytes.head(key).head
            return (
                Packed(low: low, high: 0, count: Int32(truncatingIfNeeded: count), spilledAt: 0), mix(hash ^ low) | 1
            )
        }
        let low = WordBytes.word(base, at: 0)
        let high = WordBytes.word(base, at: min(count, packedBytes) &- 8)
        hash = mix(mix(hash ^ low) ^ high)
        if count > packedBytes {
            var at = packedBytes
            while count &- at > 8 {
                hash = mix(hash ^ WordBytes.word(base, at: at))
                at &+= 8
            }
            hash = mix(hash ^ WordBytes.word(base, at: count &- 8))
        }
        return (Packed(low: low, high: high, count: Int32(truncatingIfNeeded: count), spilledAt: 0), hash | 1)
    }

    @inlinable
    public static func spilled(_ key: UnsafeBufferPointer<UInt8>?) -> UnsafeBufferPointer<UInt8> {
        guard let key, key.count > packedBytes else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: key[packedBytes...])
    }

    @inlinable
    public static func keep(_ probe: Packed, _ key: UnsafeBufferPointer<UInt8>?, spilledAt: Int) -> Packed {
        var kept = probe
        kept.spilledAt = Int32(truncatingIfNeeded: spilledAt)
        return kept
    }

    @inlinable
    public static func matches(
        _ kept: Packed, _ probe: Packed, _ key: UnsafeBufferPointer<UInt8>?, pool: UnsafePointer<UInt8>
    ) -> Bool {
        guard kept.low == probe.low, kept.high == probe.high, kept.count == probe.count else { return false }
        let count = Int(probe.count)
        guard count > packedBytes, let base = key?.baseAddress else { return true }
        return WordBytes.equal(pool + Int(kept.spilledAt), base + packedBytes, count: count &- packedBytes)
    }

    /// The finaliser of SplitMix64: every input bit reaches every output bit.
    @inlinable
    static func mix(_ value: UInt64) -> UInt64 {
        var value = value
        value = (value ^ (value &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value &>> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value &>> 31)
    }
}
