/// Writes a response's members as JSON bytes straight into the connection's output buffer, in the order they
/// are appended: no `JSONObject` tree is built, encoded and freed per request. The dispatcher writes the envelope
/// (`{"id":…,"ok":true`) and the closing brace; a plugin appends its members after it. Inside `array(_:_:)` the
/// writer appends elements instead (`element`, `objectElement`); inside `object(_:_:)`, members.
/// Member names are protocol names written as given, so they must need no escaping (`StaticString` ones are
/// ASCII literals; `String` ones are escaped).
public struct ResponseWriter: Sendable {
    /// The bytes written so far, the buffer's earlier contents included.
    public var bytes: [UInt8] {
        guard stagedCount > 0 else { return storage }
        var bytes = storage
        withUnsafeBytes(of: staged) { bytes.append(contentsOf: $0[0..<stagedCount]) }
        return bytes
    }
    /// The bytes: its methods are inlined into the plugins, so a member costs no call into this module.
    @usableFromInline var storage: [UInt8]
    /// Bytes written after `storage`'s, not yet appended to it: each append to an array costs more than the few
    /// bytes of a member it copies, so members gather here and go into `storage` a few hundred bytes at a time.
    @usableFromInline var staged: Staging
    @usableFromInline var stagedCount: Int
    /// Whether the next member or element needs a comma before it.
    @usableFromInline var needsComma: Bool

    @usableFromInline
    typealias Staging = (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64
    )
    /// The bytes `Staging` holds.
    @usableFromInline static var stagingCapacity: Int { 256 }

    /// A writer appending to `bytes`; `afterMembers` when members were already written at this level (the
    /// envelope's `ok`).
    @inlinable
    public init(bytes: [UInt8] = [], afterMembers: Bool = false) {
        storage = bytes
        staged = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        stagedCount = 0
        needsComma = afterMembers
    }

    /// Takes up this writer for the members after the envelope in `out`, with `out`'s storage until
    /// `finishLine(into:)` or `discard(into:from:)` gives it back: a writer is reused from answer to answer, its
    /// staging bytes left as they are (only the staged count of them is read), where a new one zeroed them.
    @inlinable
    package mutating func take(_ out: inout [UInt8]) {
        assert(storage.isEmpty, "a writer is taken up again only once it gave its bytes back")
        stagedCount = 0
        needsComma = true
        swap(&storage, &out)
    }

    /// Closes the response (`}` and a newline) and gives the bytes back to `out`.
    package mutating func finishLine(into out: inout [UInt8]) {
        stage("}\n")
        flush()
        swap(&storage, &out)
    }

    /// Gives the bytes back to `out` without what was written from `start` on.
    package mutating func discard(into out: inout [UInt8], from start: Int) {
        stagedCount = 0
        swap(&storage, &out)
        out.removeSubrange(start...)
    }

    /// Appends members after an envelope already in `out`, using `out`'s storage; when `body` throws, whatever
    /// it wrote is removed again.
    @inlinable
    public static func appendMembers<Failure: Error>(
        to out: inout [UInt8], _ body: (inout ResponseWriter) throws(Failure) -> Void
    ) throws(Failure) {
        var writer = ResponseWriter(afterMembers: true)
        swap(&writer.storage, &out)
        let start = writer.storage.count
        defer { swap(&writer.storage, &out) }
        do {
            try body(&writer)
            writer.flush()
        } catch {
            writer.stagedCount = 0
            writer.storage.removeSubrange(start...)
            throw error
        }
    }

    // MARK: - Encoded members

    /// Appends members encoded once (`EncodedMembers`), leaving out their first comma when no member came before
    /// at this level.
    @inlinable @inline(__always)
    public mutating func append(_ members: EncodedMembers) {
        guard !members.bytes.isEmpty else { return }
        flush()
        members.bytes.withUnsafeBufferPointer { bytes in
            storage.append(contentsOf: needsComma ? bytes : UnsafeBufferPointer(rebasing: bytes.dropFirst()))
        }
        needsComma = true
    }

    /// Writes members whose size is known before they are written, in one piece: `body` gets a `ByteCursor` over
    /// `capacity` bytes of the response's spare capacity, every write of which is checked (a capacity computed wrong
    /// traps rather than writes past it), and whether a member came before at this level (when not, it leaves out
    /// its first comma); what it wrote stays, with no copy. The reserve-then-write of swift-nio's
    /// `writeWithUnsafeMutableBytes(minimumWritableBytes:)`, for the members of a fast path (phone's twelve, sort's
    /// names and order); the caller keeps the JSON well-formed, and its test holds it to the same members written
    /// one by one.
    @inlinable @inline(__always)
    public mutating func writeMembers(reserving capacity: Int, _ body: (inout ByteCursor, _ afterMembers: Bool) -> Void)
    {
        flush()
        let afterMembers = needsComma
        var written = 0
        // Straight into the response's spare capacity: no copy, and the array keeps what was initialized.
        storage.append(addingCapacity: capacity) { room in
            room.withUnsafeMutableBufferPointer { buffer, initialized in
                var cursor = ByteCursor(UnsafeMutableBufferPointer(rebasing: buffer[..<capacity]))
                body(&cursor, afterMembers)
                written = cursor.written
                initialized = written
            }
        }
        if written > 0 { needsComma = true }
    }

    /// Writes members whose size is known only as they are written (an address's fields and lines), each with its
    /// leading comma: `body` gets a `ByteWriter` over 1 KiB on the stack in front of the response's own bytes (so
    /// they are the only reference and grow in place, one append per kilobyte, and nothing is cut), and when no
    /// member came before at this level the first comma is taken out again. The caller keeps the JSON
    /// well-formed; its tests hold the bytes to the recorded answers.
    @inlinable
    public mutating func writeMembers(_ body: (inout ByteWriter) -> Void) {
        flush()
        var bytes: [UInt8] = []
        swap(&bytes, &storage)
        let start = bytes.count
        // 1 KiB: what `withUnsafeTemporaryAllocation` puts on the stack without asking the runtime.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
            var writer = ByteWriter(appendingTo: bytes, buffer: buffer)
            bytes = []
            body(&writer)
            bytes = writer.finish()
        }
        if start < bytes.count {
            if !needsComma, bytes[start] == UInt8(ascii: ",") { bytes.remove(at: start) }
            needsComma = true
        }
        swap(&bytes, &storage)
    }

    // MARK: - Members

    @inlinable
    public mutating func member(_ name: StaticString, _ value: String) {
        let written: Bool? = value.utf8.withContiguousStorageIfAvailable { appendShortMember(name, $0) }
        if written == true { return }
        appendName(name)
        flush()
        JSONWriter.appendString(value, to: &storage)
    }

    /// `,"name":"value"` staged at once when the value is short and needs no escape (most are); false, writing
    /// nothing, otherwise. The value is checked as it is copied.
    @inlinable
    mutating func appendShortMember(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let nameCount = name.utf8CodeUnitCount
        let count = value.count
        guard count <= 96, nameCount <= 32 else { return false }
        reserveStaging(nameCount &+ count &+ 6)
        let comma = needsComma
        var index = stagedCount
        let plain = withUnsafeMutableBytes(of: &staged) { staging in
            let buffer = staging.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if comma {
                buffer[index] = UInt8(ascii: ",")
                index &+= 1
            }
            buffer[index] = UInt8(ascii: "\"")
            (buffer + (index &+ 1)).copyShort(from: name.utf8Start, count: nameCount)
            index &+= 1 &+ nameCount
            buffer[index] = UInt8(ascii: "\"")
            buffer[index &+ 1] = UInt8(ascii: ":")
            buffer[index &+ 2] = UInt8(ascii: "\"")
            index &+= 3
            guard let base = value.baseAddress else { return true }
            return Self.copyUnlessEscaped(base, count, to: buffer + index)
        }
        guard plain else { return false }
        index &+= count
        withUnsafeMutableBytes(of: &staged) { $0[index] = UInt8(ascii: "\"") }
        stagedCount = index &+ 1
        needsComma = true
        return true
    }

    /// Copies `count` bytes as `UnsafeMutablePointer.copyShort(from:count:)` does, checking each word as
    /// `ByteScan.needsNoEscape(_:)` does: whether the text needs no escape (when it does, what was copied is to be
    /// ignored).
    @inlinable @inline(__always)
    static func copyUnlessEscaped(
        _ source: UnsafePointer<UInt8>, _ count: Int, to target: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        var escapes = EscapesSeen()
        target.copyWords(from: source, count: count, showing: &escapes)
        return !escapes.any
    }

    /// A string given as UTF-8 bytes (ICU's output in a stack buffer), escaped as any string.
    @inlinable
    public mutating func member(_ name: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
        if appendShortMember(name, value) { return }
        appendName(name)
        flush()
        JSONWriter.appendString(utf8: value, to: &storage)
    }

    /// A string, or `null` when nil.
    @inlinable
    public mutating func member(_ name: StaticString, _ value: String?) {
        if let value {
            member(name, value)
        } else {
            null(name)
        }
    }

    @inlinable
    public mutating func member(_ name: StaticString, _ value: Bool) {
        appendName(name)
        if value { stage("true") } else { stage("false") }
    }

    @inlinable
    public mutating func member(_ name: StaticString, _ value: Int) {
        appendName(name)
        stageInt(value)
    }

    /// An array of strings.
    @inlinable
    public mutating func member(_ name: StaticString, _ values: [String]) {
        stageArray(name, values) { $0.stageString($1) }
    }

    /// An array of integers.
    @inlinable
    public mutating func member(_ name: StaticString, _ values: [Int]) {
        stageArray(name, values) { $0.stageInt($1) }
    }

    /// `"name":[…]`, each element staged by `stageElement`.
    @inlinable
    mutating func stageArray<Element>(
        _ name: StaticString, _ values: [Element], _ stageElement: (inout Self, Element) -> Void
    ) {
        appendName(name)
        stage(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { stage(UInt8(ascii: ",")) }
            stageElement(&self, value)
        }
        stage(UInt8(ascii: "]"))
    }

    /// A value prepared once (at load) as a tree.
    @inlinable
    public mutating func member(_ name: StaticString, _ value: JSONValue) {
        appendName(name)
        flush()
        JSONWriter.append(value, to: &storage)
    }

    /// A string member whose name is data (an address field's name), escaped as any string.
    @inlinable
    public mutating func member(named name: String, _ value: String) {
        appendComma()
        stageString(name)
        stage(UInt8(ascii: ":"))
        stageString(value)
    }

    /// Every member of an object built as a tree (`info`, `stats`), in order, names escaped.
    @inlinable
    public mutating func members(_ object: JSONObject) {
        for member in object.members {
            appendComma()
            flush()
            JSONWriter.appendString(member.key, to: &storage)
            storage.append(UInt8(ascii: ":"))
            JSONWriter.append(member.value, to: &storage)
        }
    }

    /// A `null` member.
    @inlinable
    public mutating func null(_ name: StaticString) {
        appendName(name)
        stage("null")
    }

    /// An object member whose members `body` appends.
    @inlinable
    public mutating func object<Failure: Error>(
        _ name: StaticString, _ body: (inout ResponseWriter) throws(Failure) -> Void
    ) throws(Failure) {
        appendName(name)
        try nested(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// An array member whose elements `body` appends.
    @inlinable
    public mutating func array<Failure: Error>(
        _ name: StaticString, _ body: (inout ResponseWriter) throws(Failure) -> Void
    ) throws(Failure) {
        appendName(name)
        try nested(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    // MARK: - Elements

    @inlinable
    public mutating func element(_ value: String) {
        appendComma()
        stageString(value)
    }

    /// A string element given as UTF-8 (a name read where it lies in the request), escaped as any string.
    @inlinable
    public mutating func element(utf8 value: UnsafeBufferPointer<UInt8>) {
        appendComma()
        stageString(utf8: value)
    }

    /// An object element whose members `body` appends.
    @inlinable
    public mutating func objectElement<Failure: Error>(
        _ body: (inout ResponseWriter) throws(Failure) -> Void
    ) throws(Failure) {
        appendComma()
        try nested(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    // MARK: - Bytes

    @inlinable
    mutating func nested<Failure: Error>(
        open: UInt8, close: UInt8, _ body: (inout ResponseWriter) throws(Failure) -> Void
    ) throws(Failure) {
        stage(open)
        let outer = needsComma
        needsComma = false
        defer { needsComma = outer }
        try body(&self)
        stage(close)
    }

    @inlinable
    mutating func appendComma() {
        if needsComma { stage(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// `,"name":` (the comma when a member came before), staged.
    @inlinable
    mutating func appendName(_ name: StaticString) {
        let count = name.utf8CodeUnitCount
        let comma = needsComma
        needsComma = true
        guard count <= 64 else {
            if comma { stage(UInt8(ascii: ",")) }
            flush()
            JSONWriter.appendString(utf8: UnsafeBufferPointer(start: name.utf8Start, count: count), to: &storage)
            storage.append(UInt8(ascii: ":"))
            return
        }
        reserveStaging(count + 4)
        var index = stagedCount
        withUnsafeMutableBytes(of: &staged) { staging in
            let buffer = staging.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if comma {
                buffer[index] = UInt8(ascii: ",")
                index += 1
            }
            buffer[index] = UInt8(ascii: "\"")
            (buffer + index + 1).copyShort(from: name.utf8Start, count: count)
            buffer[index + 1 + count] = UInt8(ascii: "\"")
            buffer[index + 2 + count] = UInt8(ascii: ":")
            index += 3 + count
        }
        stagedCount = index
    }

    /// A string, quoted and escaped: staged when short and needing no escape, else appended after the staged bytes.
    @inlinable
    mutating func stageString(_ value: String) {
        let staged: Bool? = value.utf8.withContiguousStorageIfAvailable { stageShortString($0) }
        if staged == true { return }
        flush()
        JSONWriter.appendString(value, to: &storage)
    }

    /// A string given as UTF-8, quoted and escaped as `stageString(_:)` does.
    @inlinable
    mutating func stageString(utf8 value: UnsafeBufferPointer<UInt8>) {
        if stageShortString(value) { return }
        flush()
        JSONWriter.appendString(utf8: value, to: &storage)
    }

    /// Stages `"text"` when it is short and needs no escape; false, staging nothing, otherwise. The text is
    /// checked as it is copied.
    @inlinable
    mutating func stageShortString(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        guard count <= 96 else { return false }
        reserveStaging(count &+ 2)
        let start = stagedCount
        let plain = withUnsafeMutableBytes(of: &staged) { staging in
            let buffer = staging.baseAddress!.assumingMemoryBound(to: UInt8.self)
            buffer[start] = UInt8(ascii: "\"")
            guard let base = text.baseAddress else { return true }
            return Self.copyUnlessEscaped(base, count, to: buffer + (start &+ 1))
        }
        guard plain else { return false }
        let end = start &+ 1 &+ count
        withUnsafeMutableBytes(of: &staged) { $0[end] = UInt8(ascii: "\"") }
        stagedCount = end &+ 1
        return true
    }

    @inlinable
    mutating func stageInt(_ value: Int) {
        JSONWriter.withDecimalDigits(value) { stage($0) }
    }

    /// Makes room for `count` more staged bytes, appending what is staged to `storage` when they would not fit
    /// (`count` is at most `stagingCapacity`).
    @inlinable @inline(__always)
    mutating func reserveStaging(_ count: Int) {
        if stagedCount + count > Self.stagingCapacity { flush() }
    }

    @inlinable
    mutating func stage(_ byte: UInt8) {
        reserveStaging(1)
        withUnsafeMutableBytes(of: &staged) { $0[stagedCount] = byte }
        stagedCount += 1
    }

    @inlinable
    mutating func stage(_ literal: StaticString) {
        stage(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inlinable
    mutating func stage(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count <= Self.stagingCapacity else {
            flush()
            storage.append(contentsOf: bytes)
            return
        }
        reserveStaging(bytes.count)
        if let base = bytes.baseAddress {
            let at = stagedCount
            withUnsafeMutableBytes(of: &staged) {
                ($0.baseAddress!.assumingMemoryBound(to: UInt8.self) + at).update(from: base, count: bytes.count)
            }
        }
        stagedCount += bytes.count
    }

    /// Appends the staged bytes to `storage`.
    @inlinable
    mutating func flush() {
        guard stagedCount > 0 else { return }
        let count = stagedCount
        // As typed bytes: appending a slice of raw bytes goes through a generic copy.
        withUnsafeBytes(of: &staged) {
            storage.append(
                contentsOf: UnsafeBufferPointer(
                    start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
        stagedCount = 0
    }
}

/// Members written once through a `ResponseWriter`, so they are well-formed JSON, and kept to be appended whole to
/// many answers with `ResponseWriter.append(_:)` (a route's members prepared at load): the one way a plugin appends
/// JSON it did not write in the answer itself.
public struct EncodedMembers: Sendable {
    /// `,"name":value…`: each member with its leading comma.
    @usableFromInline let bytes: [UInt8]

    /// The members `write` writes.
    @inlinable
    public init<Failure: Error>(_ write: (inout ResponseWriter) throws(Failure) -> Void) throws(Failure) {
        var writer = ResponseWriter(afterMembers: true)
        try write(&writer)
        bytes = writer.bytes
    }

    /// Whether there are none.
    @inlinable
    public var isEmpty: Bool { bytes.isEmpty }
}
