import Synchronization

/// A cap on bytes buffered across all connections, shared by all loops; no I/O. Two are kept:
///
/// - input (`--max-buffered`): bytes of unfinished lines, and received lines waiting for a client to read its
///   responses. Below the cap a connection reads freely; at the cap it may only take bytes through the last newline
///   it has available (`takeable(_:hasRoom:)`), so complete lines are still answered, and a connection with nothing
///   complete to offer is paused until the total falls.
/// - output (`--max-buffered-output`): responses not yet read by their clients. At the cap a connection is
///   answered only while its unread responses are under its fair share (the cap over the open connections), so
///   clients that never read cannot pin memory, and one that reads is still answered.
public final class BufferBudget: Sendable {
    /// The cap in bytes.
    public let limit: Int
    private let held = Atomic<Int>(0)
    private let pauseCount = Atomic<Int>(0)

    /// A budget of `limit` bytes (at least 1), nothing held.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Bytes held now, across every connection.
    public var bytes: Int { held.load(ordering: .relaxed) }
    /// Times a connection was paused because the total was at the cap.
    public var pauses: Int { pauseCount.load(ordering: .relaxed) }
    /// Whether a connection may read bytes that could stay buffered as an unfinished line.
    public var hasRoom: Bool { held.load(ordering: .relaxed) < limit }

    /// Records that one connection now holds `new` bytes where it held `old`.
    public func update(from old: Int, to new: Int) {
        if new != old { held.add(new - old, ordering: .relaxed) }
    }

    /// Counts one connection paused at the cap, for `stats`.
    public func recordPause() {
        pauseCount.add(1, ordering: .relaxed)
    }

    /// Whether a connection holding `pending` unread response bytes may be answered again: under its own cap
    /// (`connectionLimit`, `--max-output`) and, while this budget is spent, under its fair share of it: the cap over
    /// the `open` connections (asked only then).
    public func admitsAnswer(pending: Int, connectionLimit: Int, open: () -> Int) -> Bool {
        guard pending < connectionLimit else { return false }
        return hasRoom || pending < limit / max(1, open())
    }

    /// How many of the `available` bytes (peeked, not yet taken) a connection may take: all of them while the budget
    /// has room, else those through the last newline (0 when there is none: pause the connection).
    public static func takeable(_ available: UnsafeBufferPointer<UInt8>, hasRoom: Bool) -> Int {
        if hasRoom { return available.count }
        guard let last = available.lastIndex(of: 0x0A) else { return 0 }
        return last + 1
    }
}
