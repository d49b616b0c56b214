extension FieldReader {
    /// Calls `body` with a string member's UTF-8, read where it lies in a flat request's line (no `String` is
    /// made); nil when the member is absent, and the failure of `string(_:or:)` when it is not a string. The bytes
    /// are lent as a `Span`: the compiler keeps them inside `body`. Always inlined, so `body` needs no context.
    @inlinable @inline(__always)
    public func withUTF8<Result>(
        _ name: String, or problem: String? = nil, _ body: (Span<UInt8>) -> Result
    ) throws(Failure) -> Result? {
        switch storage.textMember(name) {
        case .string(let text): return body(text.span)
        case .absent: return nil
        case .null, .other: break
        }
        guard var text = try string(name, or: problem) else { return nil }
        return text.withUTF8 { body($0.span) }
    }

    /// Calls `body` with the strings of an array member as UTF-8, each read where it lies in a flat request's line
    /// (no `String` per element); nil when the member is absent, and the failure of `strings(_:)` when it is not an
    /// array of strings.
    @inlinable
    public func withUTF8Strings<Result>(
        _ name: String, _ body: (borrowing UTF8Strings) throws(Failure) -> Result
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

/// The strings of an array member as UTF-8, as `FieldReader.withUTF8Strings(_:_:)` lends them. Not escapable: the
/// compiler keeps it, and every `Span` it gives, inside the body it is lent to.
public struct UTF8Strings: ~Escapable {
    @usableFromInline let entries: UnsafePointer<RequestRecord.Entry>
    /// How many strings there are.
    public let count: Int
    @usableFromInline let line: UnsafePointer<UInt8>?
    @usableFromInline let decoded: UnsafePointer<UInt8>?

    @inlinable @_lifetime(immortal)
    init(
        entries: UnsafePointer<RequestRecord.Entry>, count: Int, line: UnsafePointer<UInt8>?,
        decoded: UnsafePointer<UInt8>?
    ) {
        self.entries = entries
        self.count = count
        self.line = line
        self.decoded = decoded
    }

    /// The UTF-8 of the string at `index` (`0..<count`), lent no longer than this value.
    @inlinable
    public subscript(index: Int) -> Span<UInt8> {
        @_lifetime(copy self)
        get { _overrideLifetime(unsafeUTF8(at: index).span, copying: self) }
    }

    /// The UTF-8 of the string at `index` as a pointer, for the package's sort and search, which hold every name
    /// at once while the strings are lent: valid only while this value is.
    @inlinable
    package func unsafeUTF8(at index: Int) -> UnsafeBufferPointer<UInt8> {
        precondition(index >= 0 && index < count, "UTF8Strings index out of range")
        let entry = entries[index]
        let base = entry.inDecoded ? decoded : line
        return UnsafeBufferPointer(start: base.map { $0 + Int(entry.start) }, count: Int(entry.count))
    }
}

/// A member of a flat request's object, as `FieldReader.forEachMember(_:)` gives it: where the member is in its
/// request, by index, and no pointer. Its value is read with `FieldReader.withUTF8(at:_:)`, or its place kept with
/// `FieldReader.textRange(at:trimmedTo:)`, both of the reader that gave it; a debug build traps when another
/// request's reader is asked.
public struct MemberSlot: Sendable, Equatable {
    @usableFromInline let entry: Int32
    /// The string's length in bytes, or -1 when the value is no string.
    @usableFromInline let count: Int32
    /// The string's first byte in the line, or in its unescaped text when `inDecoded`.
    @usableFromInline let start: Int32
    @usableFromInline let inDecoded: Bool
    #if DEBUG
    /// The record and its generation when the slot was given, checked when it is read (debug builds only: a
    /// release build keeps the slot small).
    @usableFromInline let record: ObjectIdentifier
    @usableFromInline let generation: UInt64
    #endif

    @inlinable
    init(entry: Int32, count: Int32, start: Int32, inDecoded: Bool, record: ObjectIdentifier, generation: UInt64) {
        self.entry = entry
        self.count = count
        self.start = start
        self.inDecoded = inDecoded
        #if DEBUG
        self.record = record
        self.generation = generation
        #endif
    }

    /// The record's generation the slot noted, for a place kept from it (0 in a release build, which checks none).
    @inlinable
    var notedGeneration: UInt64 {
        #if DEBUG
        generation
        #else
        0
        #endif
    }
}

extension FieldReader {
    /// Calls `body` with each member's name as UTF-8 and its slot, in the object's order (a repeated name each
    /// time), when the object is read flat from a request line: one pass finds every member, where a lookup by
    /// name walks them all for each name. False, with `body` not called, for an object tree.
    @inlinable
    public func forEachMember(_ body: (Span<UInt8>, MemberSlot) -> Void) -> Bool {
        // The walk is inlined into the caller, with `body`: the record is neither retained nor called back.
        guard let members = storage.flatMembers() else { return false }
        var child = members.first
        while child < members.end {
            let entry = members.entries[child]
            let name = UnsafeBufferPointer(start: members.line + Int(entry.keyStart), count: Int(entry.keyCount))
            let slot = MemberSlot(
                entry: Int32(truncatingIfNeeded: child), count: entry.kind == .string ? entry.count : -1,
                start: entry.start, inDecoded: entry.inDecoded, record: members.record, generation: members.generation)
            body(name.span, slot)
            child = Int(entry.end)
        }
        return true
    }

    /// Calls `body` with the UTF-8 of the member at `slot` (from `forEachMember(_:)` of this reader) when it is a
    /// string; nil for any other value, which `withUTF8(_:or:_:)` by name reads with its failure.
    @inlinable @inline(__always)
    public func withUTF8<Result>(at slot: MemberSlot, _ body: (Span<UInt8>) -> Result) -> Result? {
        guard slot.count >= 0, let text = storage.flatText(of: slot) else { return nil }
        return body(text.span)
    }

    /// Where the string at `slot` (from `forEachMember(_:)` of this reader) lies, trimmed to `range` of its
    /// UTF-8: a place to keep and read back through this reader's `text`; nil for any other value.
    @inlinable
    public func textRange(at slot: MemberSlot, trimmedTo range: Range<Int>? = nil) -> TextRange? {
        guard slot.count >= 0 else { return nil }
        let range = range ?? 0..<Int(slot.count)
        precondition(range.lowerBound >= 0 && range.upperBound <= Int(slot.count), "range outside the string")
        return TextRange(
            start: slot.start &+ Int32(truncatingIfNeeded: range.lowerBound),
            count: Int32(truncatingIfNeeded: range.count), inDecoded: slot.inDecoded, generation: slot.notedGeneration)
    }

    /// The text of the request this reader reads flat, to keep `TextRange`s of and read them back; nil for a
    /// tree.
    @inlinable
    public var text: RequestText? {
        guard case .flat(let record, _) = storage else { return nil }
        return RequestText(record: record)
    }
}

/// A place in a request's text (`FieldReader.textRange(at:trimmedTo:)`): offsets, no pointer, read back through the
/// `RequestText` of the same request.
public struct TextRange: Sendable, Equatable {
    @usableFromInline let start: Int32
    @usableFromInline let byteCount: Int32
    @usableFromInline let inDecoded: Bool
    #if DEBUG
    /// The record's generation when the range was given, checked when it is read (debug builds only).
    @usableFromInline let generation: UInt64
    #endif

    @inlinable
    init(start: Int32, count: Int32, inDecoded: Bool, generation: UInt64) {
        self.start = start
        self.byteCount = count
        self.inDecoded = inDecoded
        #if DEBUG
        self.generation = generation
        #endif
    }

    /// The length of the text in bytes.
    @inlinable
    public var count: Int { Int(byteCount) }
}

/// The text of one request, kept: it holds the request's record, which the loop's lane refills only when nothing
/// holds it (`Dispatcher.Lane`), so the bytes stay as they were while this value lives, and it may be kept, sent
/// to another thread or outlive the answer at no risk but the memory of one request line. Its bytes are lent by
/// `TextRange` as a `Span`.
public struct RequestText: Sendable {
    @usableFromInline let record: RequestRecord

    @inlinable
    init(record: RequestRecord) {
        self.record = record
    }

    /// Calls `body` with the UTF-8 at `range`, which a reader of this request gave. Checks that the range lies in
    /// the record; a debug build also checks that it is this request's.
    @inlinable
    public func withUTF8<Result, Failure: Error>(
        _ range: TextRange, _ body: (Span<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(unsafeUTF8(range).span)
    }

    /// The UTF-8 at `range` as a pointer, for the package's fast paths that hold several values at once while this
    /// text is held: valid only while it is.
    @inlinable @inline(__always)
    package func unsafeUTF8(_ range: TextRange) -> UnsafeBufferPointer<UInt8> {
        #if DEBUG
        precondition(record.generation == range.generation, "a TextRange read with another request's text")
        #endif
        let buffer = range.inDecoded ? record.decoded : record.bytes
        precondition(
            range.start >= 0 && Int(range.start) &+ Int(range.byteCount) <= buffer.count,
            "a TextRange reaches past its record")
        return UnsafeBufferPointer(start: buffer.base.map { $0 + Int(range.start) }, count: Int(range.byteCount))
    }

    /// The text at `range` as a `String`.
    public func string(_ range: TextRange) -> String {
        String(decoding: unsafeUTF8(range), as: UTF8.self)
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
    @usableFromInline let record: ObjectIdentifier
    @usableFromInline let generation: UInt64

    init(
        entries: UnsafePointer<RequestRecord.Entry>, line: UnsafePointer<UInt8>, decoded: UnsafePointer<UInt8>,
        first: Int, end: Int, of record: RequestRecord
    ) {
        self.entries = entries
        self.line = line
        self.decoded = decoded
        self.first = first
        self.end = end
        self.record = ObjectIdentifier(record)
        generation = record.generation
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
                end: Int(entries[index].end), of: record)
        }
    }

    /// The UTF-8 of the string at `slot`, which this storage's `flatMembers()` gave, or nil for a tree. Out of
    /// line, as `flatMembers()` is: the caller's inlined code holds no reference of the record.
    @usableFromInline
    func flatText(of slot: MemberSlot) -> UnsafeBufferPointer<UInt8>? {
        switch self {
        case .tree: return nil
        case .flat(let record, _):
            #if DEBUG
            precondition(
                ObjectIdentifier(record) == slot.record && record.generation == slot.generation,
                "a MemberSlot was read with another request's reader")
            #endif
            let buffer = slot.inDecoded ? record.decoded : record.bytes
            precondition(Int(slot.start) &+ Int(slot.count) <= buffer.count, "a MemberSlot reaches past its record")
            return UnsafeBufferPointer(start: buffer.base.map { $0 + Int(slot.start) }, count: Int(slot.count))
        }
    }
}
