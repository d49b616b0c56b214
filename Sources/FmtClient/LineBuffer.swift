import Glibc

/// The client side of the line framing: bytes received from the daemon go in, complete response lines come out
/// (without their newline), and whatever follows the last newline waits for the next bytes. It does no I/O, so
/// `FmtConnection` and fmtbench's non-blocking load generator receive into it however they read.
public struct LineBuffer {
    private var storage: [UInt8]
    /// The first byte not yet handed out as part of a line.
    private var start = 0
    /// The end of the received bytes.
    private var end = 0
    /// Bytes before this offset are known to hold no newline.
    private var scanned = 0

    /// An empty buffer that first holds `capacity` bytes and grows as lines need.
    public init(capacity: Int = 64 * 1024) {
        storage = [UInt8](repeating: 0, count: max(16, capacity))
    }

    /// Bytes received and not yet handed out.
    public var count: Int { end - start }

    /// Lets `receive` write into the free space after the held bytes (making room first) and keeps as many bytes as
    /// it returns; a negative or zero return keeps nothing and is passed back, so `recv`'s result can be returned.
    @discardableResult
    public mutating func append(_ receive: (UnsafeMutableRawBufferPointer) -> Int) -> Int {
        makeRoom()
        let received = storage.withUnsafeMutableBytes { receive(UnsafeMutableRawBufferPointer(rebasing: $0[end...])) }
        if received > 0 { end += received }
        return received
    }

    /// Appends a copy of `bytes`.
    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        var rest = bytes[...]
        while !rest.isEmpty {
            append { free in
                let taken = min(free.count, rest.count)
                free.copyBytes(from: rest.prefix(taken))
                rest = rest.dropFirst(taken)
                return taken
            }
        }
    }

    /// The next complete line without its newline, or nil when none has fully arrived.
    public mutating func nextLine() -> [UInt8]? {
        guard let newline = findNewline() else { return nil }
        let line = Array(storage[start..<newline])
        consume(through: newline)
        return line
    }

    /// Hands every complete line to `body` in order (valid only during the call), then drops them.
    public mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        while let newline = findNewline() {
            storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<newline])) }
            consume(through: newline)
        }
    }

    private mutating func findNewline() -> Int? {
        let from = max(scanned, start)
        guard from < end else { return nil }
        let found = storage.withUnsafeBufferPointer { buffer -> Int? in
            guard let pointer = memchr(buffer.baseAddress! + from, 0x0A, end - from) else { return nil }
            return UnsafePointer(pointer.assumingMemoryBound(to: UInt8.self)) - buffer.baseAddress!
        }
        if found == nil { scanned = end }
        return found
    }

    private mutating func consume(through newline: Int) {
        start = newline + 1
        scanned = start
        if start == end {
            start = 0
            end = 0
            scanned = 0
        }
    }

    private mutating func makeRoom() {
        guard end == storage.count else { return }
        if start > 0 {
            storage.withUnsafeMutableBytes { bytes in
                _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, end - start)
            }
            end -= start
            scanned -= start
            start = 0
        } else {
            storage.append(contentsOf: repeatElement(0, count: storage.count))
        }
    }
}
