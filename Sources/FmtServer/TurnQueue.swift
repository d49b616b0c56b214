/// The loop's `busy` queue: connections that used their slice with work left, served in the order they yielded. A
/// pass serves only those waiting when it began (one that yields again during the pass waits for the next), and
/// ends once it has taken its time limit, so a fresh client's line waits at most about that behind any number of
/// busy peers. No system call: the loop reads the clock and serves each connection it is handed.
struct TurnQueue {
    private var waiting: [Int32] = []
    private var head = 0

    /// One pass over the queue.
    struct Pass {
        /// When the pass began (monotonic microseconds).
        let start: UInt64
        /// Connections still to serve of those waiting when the pass began.
        fileprivate(set) var left: Int
        /// The pass took its time limit.
        fileprivate(set) var over = false
    }

    /// Whether no connection waits.
    var isEmpty: Bool { head == waiting.count }
    /// Connections waiting.
    var count: Int { waiting.count - head }

    /// Queues `fd` behind those waiting.
    mutating func append(_ fd: Int32) {
        waiting.append(fd)
    }

    /// Begins a pass at `now` over the connections waiting now.
    func beginPass(now: UInt64) -> Pass {
        Pass(start: now, left: count)
    }

    /// The next connection of `pass` to serve, taken off the queue; nil once the pass is over.
    mutating func next(_ pass: inout Pass) -> Int32? {
        guard pass.left > 0, !pass.over else { return nil }
        pass.left -= 1
        let fd = waiting[head]
        head += 1
        return fd
    }

    /// A connection of `pass` was served by `now`: the pass is over once it has taken `limit` microseconds.
    func served(_ pass: inout Pass, now: UInt64, limit: UInt64) {
        if now &- pass.start >= limit { pass.over = true }
    }

    /// Ends a pass: drops the served connections from the storage once they are most of it.
    mutating func endPass() {
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
    }
}
