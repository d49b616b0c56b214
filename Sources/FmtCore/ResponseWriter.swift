/// Writes a response's members as JSON bytes straight into the connection's output buffer, in the order they
/// are appended: no `JSONObject` tree is built, encoded and freed per request. The dispatcher writes the envelope
/// (`{"id":…,"ok":true`) and the closing brace; a plugin appends its members after it. Inside `array(_:_:)` the
/// writer appends elements instead (`element`, `objectElement`); inside `object(_:_:)`, members.
/// Member names are protocol names written as given, so they must need no escaping (`StaticString` ones are
/// ASCII literals; `String` ones are escaped).
public struct ResponseWriter: Sendable {
    /// The bytes written so far, the buffer's earlier contents included.
    public var bytes: [UInt8] { storage }
    /// The bytes: its methods are inlined into the plugins, so a member costs no call into this module.
    @usableFromInline var storage: [UInt8]
    /// Whether the next member or element needs a comma before it.
    @usableFromInline var needsComma: Bool

    /// A writer appending to `bytes`; `afterMembers` when members were already written at this level (the
    /// envelope's `ok`).
    @inlinable
    public init(bytes: [UInt8] = [], afterMembers: Bool = false) {
        storage = bytes
        needsComma = afterMembers
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
        } catch {
            writer.storage.removeSubrange(start...)
            throw error
        }
    }

    // MARK: - Members

    @inlinable
    public mutating func member(_ name: StaticString, _ value: String) {
        let written: Bool? = value.utf8.withContiguousStorageIfAvailable { appendShortMember(name, $0) }
        if written == true { return }
        appendName(name)
        JSONWriter.appendString(value, to: &storage)
    }

    /// `,"name":"value"` in one append, put together on the stack, when the value is short and needs no escape
    /// (most are); false, writing nothing, otherwise.
    @inlinable
    mutating func appendShortMember(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let nameCount = name.utf8CodeUnitCount
        guard value.count <= 96, nameCount <= 32, JSONWriter.needsNoEscape(value) else { return false }
        let comma = needsComma
        needsComma = true
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 96 + 32 + 6) { buffer in
            var index = 0
            if comma {
                buffer[0] = UInt8(ascii: ",")
                index = 1
            }
            buffer[index] = UInt8(ascii: "\"")
            UnsafeMutableRawPointer(buffer.baseAddress! + index + 1).copyMemory(
                from: name.utf8Start, byteCount: nameCount)
            index += 1 + nameCount
            buffer[index] = UInt8(ascii: "\"")
            buffer[index + 1] = UInt8(ascii: ":")
            buffer[index + 2] = UInt8(ascii: "\"")
            index += 3
            if let base = value.baseAddress {
                UnsafeMutableRawPointer(buffer.baseAddress! + index).copyMemory(from: base, byteCount: value.count)
            }
            index += value.count
            buffer[index] = UInt8(ascii: "\"")
            storage.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<index + 1]))
        }
        return true
    }

    /// A string given as UTF-8 bytes (ICU's output in a stack buffer), escaped as any string.
    @inlinable
    public mutating func member(_ name: StaticString, utf8 value: UnsafeBufferPointer<UInt8>) {
        if appendShortMember(name, value) { return }
        appendName(name)
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
        JSONWriter.appendLiteral(value ? "true" : "false", to: &storage)
    }

    @inlinable
    public mutating func member(_ name: StaticString, _ value: Int) {
        appendName(name)
        JSONWriter.appendInt(value, to: &storage)
    }

    /// An array of strings.
    @inlinable
    public mutating func member(_ name: StaticString, _ values: [String]) {
        appendName(name)
        storage.append(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { storage.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(value, to: &storage)
        }
        storage.append(UInt8(ascii: "]"))
    }

    /// An array of integers.
    @inlinable
    public mutating func member(_ name: StaticString, _ values: [Int]) {
        appendName(name)
        storage.append(UInt8(ascii: "["))
        for (offset, value) in values.enumerated() {
            if offset > 0 { storage.append(UInt8(ascii: ",")) }
            JSONWriter.appendInt(value, to: &storage)
        }
        storage.append(UInt8(ascii: "]"))
    }

    /// A value prepared once (at load) as a tree.
    @inlinable
    public mutating func member(_ name: StaticString, _ value: JSONValue) {
        appendName(name)
        JSONWriter.append(value, to: &storage)
    }

    /// A string member whose name is data (an address field's name), escaped as any string.
    @inlinable
    public mutating func member(named name: String, _ value: String) {
        if needsComma { storage.append(UInt8(ascii: ",")) }
        needsComma = true
        JSONWriter.appendString(name, to: &storage)
        storage.append(UInt8(ascii: ":"))
        JSONWriter.appendString(value, to: &storage)
    }

    /// Every member of an object built as a tree (`info`, `stats`), in order, names escaped.
    @inlinable
    public mutating func members(_ object: JSONObject) {
        for member in object.members {
            appendComma()
            JSONWriter.appendString(member.key, to: &storage)
            storage.append(UInt8(ascii: ":"))
            JSONWriter.append(member.value, to: &storage)
        }
    }

    /// A `null` member.
    @inlinable
    public mutating func null(_ name: StaticString) {
        appendName(name)
        JSONWriter.appendLiteral("null", to: &storage)
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
        JSONWriter.appendString(value, to: &storage)
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
        storage.append(open)
        let outer = needsComma
        needsComma = false
        defer { needsComma = outer }
        try body(&self)
        storage.append(close)
    }

    @inlinable
    mutating func appendComma() {
        if needsComma { storage.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// `,"name":` (the comma when a member came before), put together on the stack and appended at once: each
    /// append to the array costs more than the few bytes it copies.
    @inlinable
    mutating func appendName(_ name: StaticString) {
        let count = name.utf8CodeUnitCount
        let comma = needsComma
        needsComma = true
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 4) { buffer in
            var index = 0
            if comma {
                buffer[0] = UInt8(ascii: ",")
                index = 1
            }
            buffer[index] = UInt8(ascii: "\"")
            UnsafeMutableRawPointer(buffer.baseAddress! + index + 1).copyMemory(from: name.utf8Start, byteCount: count)
            buffer[index + 1 + count] = UInt8(ascii: "\"")
            buffer[index + 2 + count] = UInt8(ascii: ":")
            storage.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<index + 3 + count]))
        }
    }

}
