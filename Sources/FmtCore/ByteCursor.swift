/// A write position in a buffer its owner sized for everything it writes (a plugin putting several members together
/// on the stack before appending them to the response at once). Every write is checked against the buffer's end, so
/// a capacity computed wrong traps instead of writing past the buffer. The cursor lives inside the closure that lends
/// the buffer (`withUnsafeTemporaryAllocation`), and so does every pointer it gives.
public struct ByteCursor {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    @usableFromInline var position: UnsafeMutablePointer<UInt8>
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    /// A cursor at the start of `buffer`.
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress ?? UnsafeMutablePointer(bitPattern: 8)!
        position = start
        end = start + buffer.count
    }

    /// A cursor at `start`, over `count` bytes known to be there (`ByteWriter`'s room).
    @inlinable
    init(start: UnsafeMutablePointer<UInt8>, count: Int) {
        self.start = start
        position = start
        end = start + count
    }

    /// How many bytes were written.
    @inlinable
    public var written: Int { start.distance(to: position) }

    /// The rest of the buffer, for a writer that fills it itself (checked against its count) and then `skip`s what
    /// it wrote.
    @inlinable
    public var remaining: UnsafeMutableBufferPointer<UInt8> {
        UnsafeMutableBufferPointer(start: position, count: position.distance(to: end))
    }

    /// Moves past `count` bytes written at the start of `remaining`.
    @inlinable @inline(__always)
    public mutating func skip(_ count: Int) {
        precondition(count >= 0 && count <= position.distance(to: end), "ByteCursor: skipped past the buffer")
        position += count
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    public mutating func write(_ byte: UInt8) {
        precondition(position < end, "ByteCursor: write past the buffer")
        position.pointee = byte
        position += 1
    }

    /// Copies a literal.
    @inlinable @inline(__always)
    public mutating func write(_ literal: StaticString) {
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Copies `bytes` (`copyShort`: the usual short text without a call).
    @inlinable @inline(__always)
    public mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= position.distance(to: end), "ByteCursor: write past the buffer")
        position.copyShort(from: bytes)
        position += bytes.count
    }

    /// Writes `source` with each run of bytes `isSeparator` accepts written as one `separator`, a run at the start
    /// left out (`0-(20) 123` with `-` becomes `0-20-123`). What it writes is never longer than `source`, so room is
    /// checked once. At the first byte `stop` accepts it takes back what it wrote and returns false.
    @inlinable @inline(__always)
    public mutating func write(
        _ source: UnsafeBufferPointer<UInt8>, joiningRunsWith separator: UInt8, where isSeparator: (UInt8) -> Bool,
        stoppingAt stop: (UInt8) -> Bool
    ) -> Bool {
        precondition(source.count <= position.distance(to: end), "ByteCursor: write past the buffer")
        var written = 0
        var wroteAny = false
        var inRun = false
        for byte in source {
            if stop(byte) { return false }
            if isSeparator(byte) {
                inRun = wroteAny
                continue
            }
            if inRun {
                position[written] = separator
                written &+= 1
                inRun = false
            }
            wroteAny = true
            position[written] = byte
            written &+= 1
        }
        if inRun {
            position[written] = separator
            written &+= 1
        }
        position += written
        return true
    }

    /// Takes back everything written (a writer that finds half-way that another way must write it).
    @inlinable @inline(__always)
    public mutating func removeAll() {
        position = start
    }

    /// Overwrites the last byte written (a separator that turns out to be the last: `,` becomes `]`).
    @inlinable @inline(__always)
    public mutating func replaceLast(with byte: UInt8) {
        precondition(position > start, "ByteCursor: nothing written to replace")
        (position - 1).pointee = byte
    }
}
