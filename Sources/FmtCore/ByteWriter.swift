/// The one growable byte writer: a buffer its owner lends (on the stack) in front of an array. Small pieces are
/// copied into the buffer, which is moved to the array whenever it fills; every append is checked against the
/// buffer's end, and a writer given room (`append(atMost:_:)`) writes through a checked `ByteCursor`. What was
/// written is addressed by its offset in the final bytes, wherever it lies now, so a piece written speculatively
/// can be taken back and an earlier piece read or copied.
///
/// `ResponseWriter.writeMembers(_:)` lends one in front of the response's own bytes, for members whose size is
/// known only as they are written (an address's fields and lines); a plugin lends its own to put texts together
/// (a phone number's forms). The bytes it lends (`withBytes`, `withWritten`) are lent inside a closure, as the
/// buffer behind them is.
public struct ByteWriter: ~Copyable {
    /// Everything written before what is in the buffer; nil until there is any (a plugin's texts that fit in the
    /// buffer never make an array).
    @usableFromInline var spilled: [UInt8]?
    /// `spilled.count`, kept beside the buffer's so the offsets of the inner loop read no array.
    @usableFromInline var spilledCount: Int
    /// The buffer, as a pointer and a count: the appends below are the answer's inner loop, so they check only
    /// what can happen (a full buffer) and add without overflow checks (counts are buffer sizes).
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline var used = 0

    /// A writer over `buffer`, which must outlive it (one from `withUnsafeTemporaryAllocation`).
    @inlinable
    public init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.init(appendingTo: nil, buffer: buffer)
    }

    /// A writer that appends to `bytes` (a response's), through `buffer`.
    @inlinable
    init(appendingTo bytes: [UInt8]?, buffer: UnsafeMutableBufferPointer<UInt8>) {
        precondition(buffer.count >= 64, "ByteWriter: a buffer of fewer than 64 bytes")
        spilled = bytes
        spilledCount = bytes?.count ?? 0
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// How many bytes were written: the offset of the next.
    @inlinable
    public var count: Int { spilledCount &+ used }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if used == capacity { flush() }
        base[used] = byte
        used &+= 1
    }

    /// Appends `bytes`: a short text (a calling code, a member name) without a call, one of 17 to 64 bytes (an
    /// encoded label or warning) as 16-byte vectors that overlap at the end, a longer one through `memmove`.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard used &+ count <= capacity else {
            appendPastBuffer(bytes)
            return
        }
        guard let source = bytes.baseAddress else { return }
        let target = base + used
        if count <= 16 {
            target.copyShort(from: source, count: count)
        } else if count <= 64 {
            Self.copyVectors(from: source, to: target, count: count)
        } else {
            target.update(from: source, count: count)
        }
        used &+= count
    }

    /// A piece that does not fit in what is left of the buffer: the buffer is moved to the array first, and a
    /// piece larger than the whole buffer goes straight to the array.
    @usableFromInline
    mutating func appendPastBuffer(_ bytes: UnsafeBufferPointer<UInt8>) {
        flush()
        guard bytes.count <= capacity else {
            spill(bytes)
            return
        }
        append(bytes)
    }

    /// Moves the buffer's bytes to the array.
    @usableFromInline
    mutating func flush() {
        guard used > 0 else { return }
        spill(UnsafeBufferPointer(start: base, count: used))
        used = 0
    }

    /// Appends `bytes` to the array, making it when there is none.
    @usableFromInline
    mutating func spill(_ bytes: UnsafeBufferPointer<UInt8>) {
        if spilled == nil { spilled = [] }
        spilled!.append(contentsOf: bytes)
        spilledCount &+= bytes.count
    }

    /// Copies 17 to 64 bytes as two or four 16-byte vectors, the last ending at the last byte.
    @inlinable @inline(__always)
    static func copyVectors(from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        let first = from.loadUnaligned(as: SIMD16<UInt8>.self)
        let last = from.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self)
        if count > 32 {
            let second = from.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)
            let third = from.loadUnaligned(fromByteOffset: count &- 32, as: SIMD16<UInt8>.self)
            to.storeBytes(of: second, toByteOffset: 16, as: SIMD16<UInt8>.self)
            to.storeBytes(of: third, toByteOffset: count &- 32, as: SIMD16<UInt8>.self)
        }
        to.storeBytes(of: first, as: SIMD16<UInt8>.self)
        to.storeBytes(of: last, toByteOffset: count &- 16, as: SIMD16<UInt8>.self)
    }

    /// Appends a literal's bytes (member names, punctuation).
    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a copy of bytes already written (`range` of this writer).
    @inlinable @inline(__always)
    public mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteWriter: copy of bytes not written")
        let start = range.lowerBound &- spilledCount
        guard start >= 0, range.count <= capacity &- used else {
            appendCopyPastBuffer(of: range)
            return
        }
        (base + used).copyShort(from: base + start, count: range.count)
        used &+= range.count
    }

    @usableFromInline
    mutating func appendCopyPastBuffer(of range: Range<Int>) {
        let bytes = withBytes(range) { Array($0) }
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Gives `body` room for at most `maximum` bytes at the end, through a checked cursor, and keeps what it wrote.
    @inlinable @inline(__always)
    public mutating func append(atMost maximum: Int, _ body: (inout ByteCursor) -> Void) {
        guard _fastPath(maximum <= capacity &- used) else {
            appendPastBuffer(atMost: maximum, body)
            return
        }
        var cursor = ByteCursor(start: base + used, count: maximum)
        body(&cursor)
        used &+= cursor.written
    }

    /// As `append(atMost:_:)`, lending `body` as well the bytes of `range` already written, from which it derives
    /// what it writes (a form of a number from another).
    @inlinable @inline(__always)
    public mutating func append(
        atMost maximum: Int, from range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>, inout ByteCursor) -> Void
    ) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteWriter: bytes not written")
        let start = range.lowerBound &- spilledCount
        guard _fastPath(maximum <= capacity &- used && start >= 0) else {
            let source = withBytes(range) { Array($0) }
            appendPastBuffer(atMost: maximum) { cursor in
                source.withUnsafeBufferPointer { body($0, &cursor) }
            }
            return
        }
        var cursor = ByteCursor(start: base + used, count: maximum)
        body(UnsafeBufferPointer(start: base + start, count: range.count), &cursor)
        used &+= cursor.written
    }

    /// Room for more than is left in the buffer: the buffer is moved to the array, and the cursor is over the
    /// buffer when the room fits in it, else over memory of its own whose bytes go to the array.
    @usableFromInline
    mutating func appendPastBuffer(atMost maximum: Int, _ body: (inout ByteCursor) -> Void) {
        flush()
        if maximum <= capacity {
            var cursor = ByteCursor(start: base, count: maximum)
            body(&cursor)
            used = cursor.written
            return
        }
        let room = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maximum)
        defer { room.deallocate() }
        var cursor = ByteCursor(room)
        body(&cursor)
        spill(UnsafeBufferPointer(rebasing: room[..<cursor.written]))
    }

    /// Text as it goes inside a JSON string: each control character, `"` and `\` escaped through `JSONWriter`'s one
    /// table, everything else as it is.
    public mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            append(UnsafeBufferPointer(rebasing: text[runStart..<index]))
            JSONWriter.withEscape(of: byte) { append($0) }
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: text[runStart...]))
    }

    /// Text as it goes inside a JSON string, `escape` saying whether it needs escaping (known: `ByteScan.needsNoEscape`).
    @inlinable @inline(__always)
    public mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, escape: Bool) {
        if escape { appendEscaped(text) } else { append(text) }
    }

    /// Text as a quoted JSON string.
    public mutating func appendString(_ text: UnsafeBufferPointer<UInt8>) {
        append(0x22)
        appendEscaped(text)
        append(0x22)
    }

    /// A `String` as a quoted JSON string.
    public mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString($0) }
    }

    /// A `String` as it goes inside a JSON string.
    public mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// Drops every byte written from `offset` on (a piece written speculatively that is to be written again).
    @inlinable
    public mutating func removeAll(from offset: Int) {
        precondition(offset >= 0 && offset <= count, "ByteWriter: no such offset")
        if offset >= spilledCount {
            used = offset &- spilledCount
        } else {
            spilled!.removeSubrange(offset...)
            spilledCount = offset
            used = 0
        }
    }

    /// The byte at `offset`.
    @inlinable @inline(__always)
    public subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < count, "ByteWriter: read of a byte not written")
        return offset >= spilledCount ? base[offset &- spilledCount] : spilled![offset]
    }

    /// Lends `body` the bytes of `range`, which it must not keep: where they are still in the buffer, there; else
    /// after the buffer is moved to the array.
    @inlinable @inline(__always)
    public mutating func withBytes<Result>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteWriter: bytes not written")
        let start = range.lowerBound &- spilledCount
        if start >= 0 { return body(UnsafeBufferPointer(start: base + start, count: range.count)) }
        flush()
        return spilled!.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Lends `body` everything written.
    @inlinable @inline(__always)
    public mutating func withWritten<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withBytes(0..<count, body)
    }

    /// Everything written, the bytes the writer started with first.
    @inlinable
    consuming func finish() -> [UInt8] {
        flush()
        return spilled ?? []
    }
}
