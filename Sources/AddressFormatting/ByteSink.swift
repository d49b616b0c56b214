import FmtCore

/// Appends JSON already put together as bytes to a response: members encoded at load (a field's label, a warning)
/// and a request's rendered lines, written through a `ByteSink` instead of one `ResponseWriter` call per member.
extension ResponseWriter {
    /// Appends the members `body` writes, each with its leading comma (`,"lines":[…]`), after the members already
    /// written at this level: the writer's bytes are taken out (so they are the only reference and grow in place),
    /// `body` appends to them through a buffer on the stack, and they go back: one append per kilobyte instead of
    /// one per piece. When no member came before, the first comma is taken out again.
    @inline(__always)
    mutating func appendEncodedMembers(_ body: (inout ByteSink) -> Void) {
        appendEncodedMembers { storage, afterMembers in
            var bytes: [UInt8] = []
            swap(&bytes, &storage)
            let start = bytes.count
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ByteSink.bufferSize) { buffer in
                var sink = ByteSink(appendingTo: bytes, buffer: buffer)
                bytes = []
                body(&sink)
                bytes = sink.finish()
            }
            if !afterMembers, start < bytes.count, bytes[start] == UInt8(ascii: ",") { bytes.remove(at: start) }
            swap(&bytes, &storage)
        }
    }
}

/// A byte buffer on the stack in front of a response's bytes: small pieces are copied into it, and it is
/// appended to the bytes whenever it fills and at the end. Positions are offsets in the final bytes, so a piece
/// written speculatively (a line that turns out to need the careful path) can be taken back.
struct ByteSink: ~Copyable {
    /// Stays within the size `withUnsafeTemporaryAllocation` puts on the stack without asking.
    static let bufferSize = 1024

    private var bytes: [UInt8]
    /// The buffer on the stack, as a pointer and a count: the appends below are the answer's inner loop, so they
    /// check only what can happen (a full buffer) and add without overflow checks (counts are buffer sizes).
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var used = 0

    init(appendingTo bytes: [UInt8], buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.bytes = bytes
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    /// The offset of the next byte in the final bytes.
    var position: Int { bytes.count &+ used }

    /// Drops everything written after `position`.
    mutating func rollBack(to position: Int) {
        if position >= bytes.count {
            used = position - bytes.count
        } else {
            bytes.removeSubrange(position...)
            used = 0
        }
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if used == capacity { flush() }
        base[used] = byte
        used &+= 1
    }

    /// Bytes already encoded (JSON prepared at load, or text known to need no escape).
    @inline(__always)
    mutating func append(_ piece: UnsafeBufferPointer<UInt8>) {
        let count = piece.count
        guard used &+ count <= capacity else {
            appendPastBuffer(piece)
            return
        }
        guard let source = piece.baseAddress else { return }
        let target = base + used
        // Most pieces are short; an encoded label or warning (17 to 64 bytes) goes as 16-byte vectors that
        // overlap at the end, and only a longer one through `memcpy`.
        if count <= 16 {
            target.copyShort(from: source, count: count)
        } else if count <= 64 {
            Self.copyVectors(from: source, to: target, count: count)
        } else {
            target.update(from: source, count: count)
        }
        used &+= count
    }

    /// Copies 17 to 64 bytes as two or four 16-byte vectors, the last ending at the last byte.
    @inline(__always)
    private static func copyVectors(
        from source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int
    ) {
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

    /// A piece that does not fit in what is left of the buffer: the buffer is flushed first, and a piece larger
    /// than the whole buffer goes straight to the bytes.
    private mutating func appendPastBuffer(_ piece: UnsafeBufferPointer<UInt8>) {
        flush()
        guard piece.count <= capacity else {
            bytes.append(contentsOf: piece)
            return
        }
        append(piece)
    }

    /// A literal's bytes (member names, punctuation).
    @inline(__always)
    mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Text as it goes inside a JSON string, escaped exactly as `JSONWriter` escapes: `"`, `\`, `\n`, `\r`, `\t`
    /// and `\u00xx` for the other control characters; everything else as it is.
    mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            append(UnsafeBufferPointer(rebasing: text[runStart..<index]))
            append(0x5C)
            switch byte {
            case 0x22, 0x5C: append(byte)
            case 0x0A: append(UInt8(ascii: "n"))
            case 0x0D: append(UInt8(ascii: "r"))
            case 0x09: append(UInt8(ascii: "t"))
            default:
                append("u00")
                append(Self.hex(byte >> 4))
                append(Self.hex(byte & 0xF))
            }
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: text[runStart...]))
    }

    /// Text as it goes inside a JSON string, `escape` saying whether it needs escaping (known: `ByteScan.needsNoEscape`).
    @inline(__always)
    mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, escape: Bool) {
        if escape { appendEscaped(text) } else { append(text) }
    }

    /// A layout's separator, escaped when it needs to be.
    @inline(__always)
    mutating func appendLiteral(_ separator: LayoutProgram.Step, in literals: UnsafeBufferPointer<UInt8>) {
        appendEscaped(separator.text(in: literals), escape: separator.needsEscape)
    }

    /// Text as a quoted JSON string.
    mutating func appendString(_ text: UnsafeBufferPointer<UInt8>) {
        append(0x22)
        appendEscaped(text)
        append(0x22)
    }

    /// A `String` as a quoted JSON string.
    mutating func appendString(_ text: String) {
        var text = text
        text.withUTF8 { appendString($0) }
    }

    /// A `String` as it goes inside a JSON string.
    mutating func appendEscaped(_ text: String) {
        var text = text
        text.withUTF8 { appendEscaped($0) }
    }

    /// The bytes written from `start` (a `position`) on, lent to `body`: where they are still in the buffer on the
    /// stack, there; else after the buffer is flushed into the final bytes.
    mutating func withWritten<Result>(from start: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if start >= bytes.count {
            return body(UnsafeBufferPointer(start: base + (start &- bytes.count), count: position &- start))
        }
        flush()
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start...])) }
    }

    /// Everything written, the bytes the sink started with first.
    consuming func finish() -> [UInt8] {
        flush()
        return bytes
    }

    private mutating func flush() {
        guard used > 0 else { return }
        bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: used))
        used = 0
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }
}
