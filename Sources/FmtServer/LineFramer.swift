import Glibc

/// Cuts a connection's byte stream into request lines; it does no I/O, so it is tested without a socket.
///
/// A line ends at `\n`. What comes before the newline is delivered with trailing CR, spaces and tabs and leading
/// spaces and tabs trimmed; blank lines are skipped. A line longer than `maxLineBytes` (not counting its line
/// ending, `\n` or `\r\n`) is reported once as `.tooLarge` and the rest of it, up to its newline, is dropped
/// unbuffered. Bytes after the last newline are kept until the next call, and `finish` delivers them as a final
/// line at end of input.
///
/// ```swift
/// var framer = LineFramer(maxLineBytes: 65536)
/// let taken = framer.consume(bytes) { frame in
///     switch frame {
///     case .line(let line): answer(line)
///     case .tooLarge: reject()
///     }
/// }
/// ```
public struct LineFramer {
    /// What the framer found in the bytes it was given.
    public enum Frame {
        /// A complete, trimmed, non-empty line; the buffer is valid only during the call that delivers it.
        case line(UnsafeBufferPointer<UInt8>)
        /// A line exceeded the limit; its bytes are dropped up to its newline.
        case tooLarge
    }

    /// The longest line accepted, in bytes, without its line ending (`\n`, or `\r\n`: the CR does not count).
    public let maxLineBytes: Int
    /// Bytes of an unfinished line (only when a line spans calls).
    private var partial: [UInt8] = []
    /// Dropping the rest of a line that exceeded the limit, up to its newline.
    public private(set) var isDiscarding = false
    /// Newlines seen so far (wrapping), so a caller can tell that a line finished during a call.
    public private(set) var newlines: UInt = 0

    /// A framer at the start of a stream.
    public init(maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
    }

    /// Bytes held for an unfinished line.
    public var bufferedCount: Int { partial.count }
    /// Memory held for an unfinished line (what an input budget charges).
    public var bufferedCapacity: Int { partial.capacity }
    /// Whether a line has begun and not ended: bytes are held, or an over-long line is being dropped.
    public var hasUnfinishedLine: Bool { !partial.isEmpty || isDiscarding }

    /// Frames `bytes`, calling `handle` for each line or limit violation in stream order. Before each line it asks
    /// `canContinue`; when that says no, it stops and returns how many bytes it took (the caller keeps the rest and
    /// offers it again later). Returns `bytes.count` when it took everything.
    public mutating func consume(
        _ bytes: UnsafeBufferPointer<UInt8>, while canContinue: () -> Bool = { true }, _ handle: (Frame) -> Void
    ) -> Int {
        var start = 0
        while start < bytes.count {
            guard canContinue() else { return start }
            let rest = UnsafeBufferPointer(rebasing: bytes[start...])
            guard let offset = Self.newline(in: rest) else {
                appendPartial(rest, handle)
                return bytes.count
            }
            let newline = start + offset
            newlines &+= 1
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<newline])
            start = newline + 1
            if isDiscarding {
                isDiscarding = false
                continue
            }
            if partial.isEmpty {
                if Self.length(piece.count, endsInCR: piece.last == 0x0D) > maxLineBytes {
                    handle(.tooLarge)
                } else {
                    deliver(piece, handle)
                }
            } else if Self.length(partial.count + piece.count, endsInCR: (piece.last ?? partial.last) == 0x0D)
                > maxLineBytes
            {
                partial = []
                handle(.tooLarge)
            } else {
                partial.append(contentsOf: piece)
                let line = partial
                partial = []
                line.withUnsafeBufferPointer { deliver($0, handle) }
            }
        }
        return bytes.count
    }

    /// End of input: a final line without a newline still counts, unless it is being dropped as over-long.
    public mutating func finish(_ handle: (Frame) -> Void) {
        if !partial.isEmpty && !isDiscarding {
            let line = partial
            partial = []
            line.withUnsafeBufferPointer { deliver($0, handle) }
        }
        partial = []
    }

    /// Drops the unfinished line's bytes (a connection that will not be answered any more).
    public mutating func dropPartial() {
        partial = []
    }

    /// The length of a line of `count` bytes before its newline, its CR not counted: the CR of a `\r\n` ending.
    private static func length(_ count: Int, endsInCR: Bool) -> Int {
        endsInCR ? count - 1 : count
    }

    /// Holds the bytes of a line whose newline has not come; one CR past the limit is held too, since a newline
    /// after it makes it the line's ending (any byte after it makes the line too large).
    private mutating func appendPartial(_ bytes: UnsafeBufferPointer<UInt8>, _ handle: (Frame) -> Void) {
        guard !isDiscarding else { return }
        if Self.length(partial.count + bytes.count, endsInCR: (bytes.last ?? partial.last) == 0x0D) > maxLineBytes {
            partial = []
            isDiscarding = true
            handle(.tooLarge)
        } else {
            partial.append(contentsOf: bytes)
        }
    }

    /// The offset of the first newline, found by `memchr` (a byte-by-byte search was most of the framing's cost).
    private static func newline(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, 0x0A, bytes.count) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    private func deliver(_ line: UnsafeBufferPointer<UInt8>, _ handle: (Frame) -> Void) {
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        var begin = 0
        while begin < end, line[begin] == 0x20 || line[begin] == 0x09 { begin += 1 }
        guard begin < end else { return }
        handle(.line(UnsafeBufferPointer(rebasing: line[begin..<end])))
    }
}
