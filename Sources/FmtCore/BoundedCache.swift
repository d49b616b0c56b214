import Synchronization

/// A thread-safe memo of values by key that forgets everything when it reaches its limit, so a stream of distinct
/// keys (one per request, from any client) costs bounded memory. Clearing is safe: a caller that already holds a
/// value keeps it alive. The cache of the daemon's hot paths keyed by values (collators and plural rules by tag, date
/// routes, entered languages); `ByteKeyedCache` is its sibling for a client's text looked up by its bytes.
public final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline let entries = Mutex<[Key: Value]>([:])
    /// The most entries held at once.
    public let limit: Int

    @inlinable
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The value for `key`, computing and remembering it on a miss; a `nil` from `make` is not remembered. `make`
    /// runs outside the lock, so two threads may compute the same value once each: the first stored wins.
    /// Inlinable, so a plugin's module specialises it for its key and value types: the generic lookup cost a date
    /// request thousands of instructions in metadata and witness calls.
    @inlinable
    public func value<Failure: Error>(
        for key: Key, orMake make: () throws(Failure) -> Value?
    ) throws(Failure) -> Value? {
        if let cached = entries.withTracedLock({ $0[key] }) { return cached }
        guard let value = try make() else { return nil }
        return entries.withTracedLock { entries in
            if let raced = entries[key] { return raced }
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
            return value
        }
    }

    /// How many entries are held now.
    public var count: Int {
        entries.withTracedLock { $0.count }
    }
}
