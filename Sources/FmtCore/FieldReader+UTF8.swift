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
/// `FieldReader.withUTF8(at:_:)` of the same reader.
public struct MemberSlot: Sendable, Equatable {
    @usableFromInline let entry: Int32

    @inlinable
    init(entry: Int32) {
        self.entry = entry
    }
}

extension FieldReader {
    /// Calls `body` with each member's name as UTF-8 and its slot, in the object's order (a repeated name each
    /// time), when the object is read flat from a request line: one pass finds every member, where a lookup by
    /// name walks them all for each name. False, with `body` not called, for an object tree.
    @inlinable
    public func forEachMember(_ body: (UnsafeBufferPointer<UInt8>, MemberSlot) -> Void) -> Bool {
        switch storage {
        case .tree: return false
        case .flat(let record, let index):
            record.forEachMemberName(of: index) { name, entry in body(name, MemberSlot(entry: entry)) }
            return true
        }
    }

    /// Calls `body` with the UTF-8 of the member at `slot` (from `forEachMember(_:)`) when it is a string; nil for
    /// any other value, which `withUTF8(_:or:_:)` by name reads with its failure. The bytes lie in the request's
    /// record and stay where they are while the request lives, so a plugin may keep them while it answers it.
    @inlinable
    public func withUTF8<Result>(at slot: MemberSlot, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        switch storage {
        case .tree: return nil
        case .flat(let record, _):
            let entry = Int(slot.entry)
            guard record.kind(entry) == .string else { return nil }
            return body(record.text(entry))
        }
    }
}

extension RequestRecord {
    /// Calls `body` with the name and entry index of every member of the object at `object`, in order.
    @usableFromInline
    func forEachMemberName(of object: Int, _ body: (UnsafeBufferPointer<UInt8>, Int32) -> Void) {
        let entries = entries.base!
        let line = bytes.base!
        var child = object &+ 1
        let end = Int(entries[object].end)
        while child < end {
            let entry = entries[child]
            body(
                UnsafeBufferPointer(start: line + Int(entry.keyStart), count: Int(entry.keyCount)),
                Int32(truncatingIfNeeded: child))
            child = Int(entry.end)
        }
    }
}
