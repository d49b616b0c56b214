import FmtCore
import Synchronization

/// ICU objects (collators, plural rules, resolved languages) by the UTF-8 of a request's `locale` text (or its
/// absence), found without making a `String` of the text or hashing it with `Hasher`: a request looks its object up
/// where the text lies in the line, neither resolving the tag nor spelling it again.
///
/// Both event loops look up in one table at once, so a lookup writes no shared memory: no lock, and the value is lent
/// without a retain (a lock and a reference count that two cores take turns at cost more than the lookup's own
/// work). That is why the table only grows: a slot, once its hash is published (stored releasing, after everything
/// else in it), never changes, and the table keeps each value until it goes with its plugin (a restart, or a reload
/// that loads the plugin again). Bounded since the texts are the client's: it remembers at most `limit` texts (at
/// most `capacity`) and then no more, and never a text longer than `longestKey` bytes; a text it does not remember
/// is resolved each time.
final class ByLocaleText<Value: AnyObject & Sendable>: @unchecked Sendable {
    /// The most bytes of a remembered text: longer than any tag or `Accept-Language` value a client sends in practice.
    static var longestKey: Int { 128 }
    /// The most texts a table remembers; its slots are twice as many.
    static var capacity: Int { 256 }
    private static var slotCount: Int { 512 }

    /// The per-process basis of the keys' hashes, so a client cannot aim texts at one slot.
    private let seed: UInt64
    private let limit: Int
    /// Each slot's key hash, 0 while the slot is empty.
    private let hashes: InlineArray<512, Atomic<UInt64>>
    /// Each slot's key and value, written once before its hash is published and only read after it is seen.
    private let slots: UnsafeMutablePointer<Slot>
    /// The bytes past `LocaleTextKey.packed` of texts longer than that, appended once per text.
    private let pool: UnsafeMutablePointer<UInt8>
    private let poolCapacity: Int
    /// Taken by inserts only: how many texts are remembered, and how many pool bytes are used.
    private let writer = Mutex<(count: Int, poolUsed: Int)>((0, 0))

    private struct Slot {
        let low: UInt64
        let high: UInt64
        let count: Int32
        let poolStart: Int32
        /// Retained by the table until it goes.
        let value: Unmanaged<Value>
    }

    init(limit: Int = 256) {
        seed = UInt64.random(in: 0...UInt64.max)
        self.limit = min(max(1, limit), Self.capacity)
        hashes = InlineArray { _ in Atomic(0) }
        slots = .allocate(capacity: Self.slotCount)
        poolCapacity = self.limit * (Self.longestKey - LocaleTextKey.packed)
        pool = .allocate(capacity: poolCapacity)
    }

    deinit {
        for index in 0..<Self.slotCount where hashes[index].load(ordering: .acquiring) != 0 {
            slots[index].value.release()
        }
        slots.deallocate()
        pool.deallocate()
    }

    /// The value remembered for `text` (nil for an absent `locale`), unretained: it stays valid as long as the table.
    @inline(__always)
    func lookUp(_ text: UnsafeBufferPointer<UInt8>?) -> Unmanaged<Value>? {
        if let text, text.count > Self.longestKey { return nil }
        guard let index = find(key(text), text) else { return nil }
        return slots[index].value
    }

    /// The value remembered for `text` (nil for an absent `locale`), or nil.
    func value(for text: UnsafeBufferPointer<UInt8>?) -> Value? {
        lookUp(text)?.takeUnretainedValue()
    }

    /// Remembers `value` for `text` while there is room; the first value stored for a text wins, and is returned.
    func remember(_ value: Value, for text: UnsafeBufferPointer<UInt8>?) -> Value {
        if let text, text.count > Self.longestKey { return value }
        let key = key(text)
        return writer.withTracedLock { state in
            if let index = find(key, text) { return slots[index].value.takeUnretainedValue() }
            let extra = max(0, key.count &- LocaleTextKey.packed)
            guard state.count < limit, state.poolUsed + extra <= poolCapacity else { return value }
            var index = Int(truncatingIfNeeded: key.hash) & (Self.slotCount &- 1)
            while hashes[index].load(ordering: .relaxed) != 0 { index = (index &+ 1) & (Self.slotCount &- 1) }
            if extra > 0, let text {
                (pool + state.poolUsed).update(from: text.baseAddress! + LocaleTextKey.packed, count: extra)
            }
            (slots + index).initialize(
                to: Slot(
                    low: key.low, high: key.high, count: Int32(key.count), poolStart: Int32(state.poolUsed),
                    value: .passRetained(value)))
            hashes[index].store(key.hash, ordering: .releasing)
            state.count += 1
            state.poolUsed += extra
            return value
        }
    }

    /// How many texts are remembered (the absent `locale` included).
    var count: Int {
        writer.withTracedLock { $0.count }
    }

    private func key(_ text: UnsafeBufferPointer<UInt8>?) -> LocaleTextKey {
        guard let text else { return LocaleTextKey(absentWithSeed: seed) }
        return LocaleTextKey(text, seed: seed)
    }

    /// The slot holding `text`, or nil; linear probing ends at an empty slot, and half the slots always are.
    private func find(_ key: LocaleTextKey, _ text: UnsafeBufferPointer<UInt8>?) -> Int? {
        let mask = Self.slotCount &- 1
        var index = Int(truncatingIfNeeded: key.hash) & mask
        while true {
            let hash = hashes[index].load(ordering: .acquiring)
            if hash == 0 { return nil }
            if hash == key.hash, matches(slots[index], key, text) { return index }
            index = (index &+ 1) & mask
        }
    }

    private func matches(_ slot: Slot, _ key: LocaleTextKey, _ text: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard slot.low == key.low, slot.high == key.high, Int(slot.count) == key.count else { return false }
        guard key.count > LocaleTextKey.packed, let text else { return true }
        return UnsafeBufferPointer(start: pool + Int(slot.poolStart), count: key.count &- LocaleTextKey.packed)
            .hasSameBytes(as: UnsafeBufferPointer(rebasing: text[LocaleTextKey.packed...]))
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

    /// The key of an absent `locale`, which no text has.
    init(absentWithSeed seed: UInt64) {
        count = -1
        hash = Self.hash(low: 0, high: 0, count: -1, seed: seed)
    }

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
        var hash = Self.hash(low: low, high: high, count: count, seed: seed)
        if count > Self.packed {
            for offset in Self.packed..<count { hash = (hash ^ UInt64(text[offset])) &* 0x0000_0100_0000_01B3 | 1 }
        }
        self.hash = hash
    }

    private static func hash(low: UInt64, high: UInt64, count: Int, seed: UInt64) -> UInt64 {
        var hash = (low ^ seed) &* 0x9E37_79B9_7F4A_7C15
        hash = (hash ^ (hash &>> 32) ^ high ^ UInt64(truncatingIfNeeded: count) &<< 56) &* 0xBF58_476D_1CE4_E5B9
        return (hash ^ (hash &>> 31)) | 1
    }
}
