extension FieldReader {
    /// Calls `body` with a string member's UTF-8, read where it lies in a flat request's line (no `String` is
    /// made); nil when the member is absent, and the failure of `string(_:or:)` when it is not a string.
    @inlinable
    public func withUTF8<Result>(
        _ name: String, or problem: String? = nil, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) throws(Failure) -> Result? {
        switch storage.textMember(name) {
        case .string(let text): return body(text)
        case .absent: return nil
        case .null, .other: break
        }
        guard var text = try string(name, or: problem) else { return nil }
        return text.withUTF8(body)
    }

    /// Calls `body` with the strings of an array member as UTF-8, each read where it lies in a flat request's line
    /// (no `String` per element); nil when the member is absent, and the failure of `strings(_:)` when it is not an
    /// array of strings.
    @inlinable
    public func withUTF8Strings<Result>(
        _ name: String, _ body: (UTF8Strings) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        if case .flat(let record, let index) = storage, let member = record.member(name, in: index),
            record.kind(member) == .array, record.elementsAreStrings(member)
        {
            return try body(
                UTF8Strings(
                    entries: UnsafePointer(record.entries.base! + member + 1), count: record.count(member),
                    line: UnsafePointer(record.bytes.base), decoded: UnsafePointer(record.decoded.base)))
        }
        guard let strings = try strings(name) else { return nil }
        var text: [UInt8] = []
        var entries: [RequestRecord.Entry] = []
        entries.reserveCapacity(strings.count)
        for var string in strings {
            let start = text.count
            string.withUTF8 { text.append(contentsOf: $0) }
            entries.append(RequestRecord.Entry(string: Int32(start), count: Int32(text.count - start)))
        }
        return try text.withUnsafeBufferPointer { (text) throws(Failure) -> Result in
            try entries.withUnsafeBufferPointer { (entries) throws(Failure) -> Result in
                try body(
                    UTF8Strings(
                        entries: entries.baseAddress ?? UnsafePointer(bitPattern: 8)!, count: entries.count,
                        line: text.baseAddress, decoded: nil))
            }
        }
    }
}

/// The strings of an array member as UTF-8, as `FieldReader.withUTF8Strings(_:_:)` lends them: valid only inside
/// its body.
public struct UTF8Strings {
    @usableFromInline let entries: UnsafePointer<RequestRecord.Entry>
    /// How many strings there are.
    public let count: Int
    @usableFromInline let line: UnsafePointer<UInt8>?
    @usableFromInline let decoded: UnsafePointer<UInt8>?

    @inlinable
    init(
        entries: UnsafePointer<RequestRecord.Entry>, count: Int, line: UnsafePointer<UInt8>?,
        decoded: UnsafePointer<UInt8>?
    ) {
        self.entries = entries
        self.count = count
        self.line = line
        self.decoded = decoded
    }

    /// The UTF-8 of the string at `index` (`0..<count`).
    @inlinable
    public subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < count, "UTF8Strings index out of range")
        let entry = entries[index]
        let base = entry.inDecoded ? decoded : line
        return UnsafeBufferPointer(start: base.map { $0 + Int(entry.start) }, count: Int(entry.count))
    }
}

/// A member of a flat request's object, as `FieldReader.forEachMember(_:)` lends it: its value is read with
/// `FieldReader.withUTF8(at:_:)` of the same reader. Where a string's bytes are is found by the walk, so reading
/// them costs no call into the record.
public struct MemberSlot: @unchecked Sendable, Equatable {
    @usableFromInline let entry: Int32
    /// The string's length in bytes, or -1 when the value is no string.
    @usableFromInline let count: Int32
    /// The string's first byte in the record (the line, or its unescaped text).
    @usableFromInline let start: UnsafePointer<UInt8>

    @inlinable
    init(entry: Int32, count: Int32, start: UnsafePointer<UInt8>) {
        self.entry = entry
        self.count = count
        self.start = start
    }
}

extension FieldReader {
    /// Calls `body` with each member's name as UTF-8 and its slot, in the object's order (a repeated name each
    /// time), when the object is read flat from a request line: one pass finds every member, where a lookup by
    /// name walks them all for each name. False, with `body` not called, for an object tree.
    @inlinable
    public func forEachMember(_ body: (UnsafeBufferPointer<UInt8>, MemberSlot) -> Void) -> Bool {
        // The walk is inlined into the caller, with `body`: the record is neither retained nor called back.
        guard let members = storage.flatMembers() else { return false }
        var child = members.first
        while child < members.end {
            let entry = members.entries[child]
            let text = (entry.inDecoded ? members.decoded : members.line) + Int(entry.start)
            body(
                UnsafeBufferPointer(start: members.line + Int(entry.keyStart), count: Int(entry.keyCount)),
                MemberSlot(
                    entry: Int32(truncatingIfNeeded: child), count: entry.kind == .string ? entry.count : -1,
                    start: text))
            child = Int(entry.end)
        }
        return true
    }

    /// Calls `body` with the UTF-8 of the member at `slot` (from `forEachMember(_:)`) when it is a string; nil for
    /// any other value, which `withUTF8(_:or:_:)` by name reads with its failure. The bytes lie in the request's
    /// record and stay where they are while the request lives, so a plugin may keep them while it answers it.
    @inlinable
    public func withUTF8<Result>(at slot: MemberSlot, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        // No payload is bound, so the record is not retained.
        if case .tree = storage { return nil }
        guard slot.count >= 0 else { return nil }
        return body(UnsafeBufferPointer(start: slot.start, count: Int(slot.count)))
    }
}

/// The members of a flat object where they lie in its record, for a walk inlined into a plugin: valid while the
/// storage that lent them is.
@usableFromInline
struct FlatMembers {
    @usableFromInline let entries: UnsafePointer<RequestRecord.Entry>
    @usableFromInline let line: UnsafePointer<UInt8>
    /// The unescaped text of strings with escapes (`RequestRecord.decoded`), or `line` when there is none.
    @usableFromInline let decoded: UnsafePointer<UInt8>
    /// The first member's entry, and the entry after the object's last member.
    @usableFromInline let first: Int
    @usableFromInline let end: Int

    init(
        entries: UnsafePointer<RequestRecord.Entry>, line: UnsafePointer<UInt8>, decoded: UnsafePointer<UInt8>,
        first: Int, end: Int
    ) {
        self.entries = entries
        self.line = line
        self.decoded = decoded
        self.first = first
        self.end = end
    }
}

extension FieldStorage {
    /// The object's members where they lie, or nil for a tree. Out of line, as `textMember(_:)` is, so the
    /// caller's inlined code holds no reference of the record.
    @usableFromInline
    func flatMembers() -> FlatMembers? {
        // A `switch`: `guard case` retained the record and released it again.
        switch self {
        case .tree: return nil
        case .flat(let record, let index):
            let entries = record.entries.base!
            let line = record.bytes.base!
            return FlatMembers(
                entries: entries, line: line, decoded: record.decoded.base ?? line, first: index &+ 1,
                end: Int(entries[index].end))
        }
    }
}
