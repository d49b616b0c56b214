import Glibc

/// A request line read flat: one pass over its bytes checks it as `JSONReader` does and records where every value
/// is, and a value becomes a `JSONValue` or `String` only when a plugin reads it, so no tree is built and freed per
/// request. The scan accepts only what `JSONReader` accepts, with the same values; whatever it does not take on
/// (an error, nesting deeper than `maxDepth`, a line longer than `Int32.max`) it leaves to `JSONReader`, which then
/// answers with its own value or its own error message.
///
/// An event loop's `Dispatcher.Lane` reuses one record for every line: it refills it only while no `Request` still
/// holds it (`isKnownUniquelyReferenced`), so a request a plugin kept never sees its bytes change.
@usableFromInline
package final class RequestRecord: @unchecked Sendable {
    @usableFromInline
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, array, object
    }

    /// One value, in document order (a container before its members or elements).
    @usableFromInline
    struct Entry {
        /// The member's name (`count` bytes at `keyStart` of the line), or -1 for an element or the root.
        @usableFromInline var keyStart: Int32
        @usableFromInline var keyCount: Int32
        /// A number's literal or a string's text: `count` bytes at `start` of the line, or of `decoded` when
        /// `inDecoded` (a string with escapes). For an object or array, `count` is its members or elements.
        @usableFromInline var start: Int32
        @usableFromInline var count: Int32
        /// The index of the entry after this value and everything in it.
        @usableFromInline var end: Int32
        @usableFromInline var kind: Kind
        @usableFromInline var inDecoded: Bool

        /// A string of `count` bytes at `start` of the line, outside any container's members.
        @usableFromInline
        init(string start: Int32, count: Int32) {
            self.init(
                keyStart: -1, keyCount: 0, start: start, count: count, end: 0, kind: .string, inDecoded: false)
        }

        @usableFromInline
        init(
            keyStart: Int32, keyCount: Int32, start: Int32, count: Int32, end: Int32, kind: Kind, inDecoded: Bool
        ) {
            self.keyStart = keyStart
            self.keyCount = keyCount
            self.start = start
            self.count = count
            self.end = end
            self.kind = kind
            self.inDecoded = inDecoded
        }
    }

    /// The deepest nesting the scan takes on; deeper lines go to `JSONReader` (which refuses past its own limit).
    static let maxDepth = 16

    /// The line's bytes.
    @exclusivity(unchecked) @usableFromInline var bytes = TrivialBuffer<UInt8>()
    /// The text of strings with escapes, unescaped.
    @exclusivity(unchecked) @usableFromInline var decoded = TrivialBuffer<UInt8>()
    /// Every value; the root is entry 0.
    @exclusivity(unchecked) @usableFromInline var entries = TrivialBuffer<Entry>()
    /// The entries of the root object's last `op` and `id` members, or -1: noted by the scan, so the envelope
    /// costs no member lookup.
    var rootOp = -1
    var rootId = -1
    /// How many lines this record has read: a value that keeps a place in it (`MemberSlot`, `TextRange`)
    /// notes it, and a debug build checks it when the place is read.
    @exclusivity(unchecked) @usableFromInline var generation: UInt64 = 0

    package init() {}

    deinit {
        bytes.deallocate()
        decoded.deallocate()
        entries.deallocate()
    }

    /// Whether a reused record has grown past what a loop keeps between requests.
    var isLarge: Bool { bytes.capacity > 16 * 1024 || entries.capacity > 1024 || decoded.capacity > 16 * 1024 }

    /// Makes `record` a new one when it has grown past what a loop keeps between requests.
    package static func renewIfLarge(_ record: inout RequestRecord) {
        if record.isLarge { record = RequestRecord() }
    }

    /// The op at `entry` as it lies in the line, with its first 8 bytes (zero-padded) as one integer; nil when it
    /// has escapes (its text is in `decoded`). An op of up to 8 bytes is its head in one masked load: the line is
    /// followed by 8 zero bytes (`scan`), so the load stays in the buffer.
    package func opInLine(_ entry: Int) -> (bytes: UnsafeBufferPointer<UInt8>, head: UInt64)? {
        let entry = entries.base![entry]
        guard !entry.inDecoded, let line = bytes.base else { return nil }
        let count = Int(entry.count)
        let word = UInt64(
            littleEndian: UnsafeRawPointer(line).loadUnaligned(fromByteOffset: Int(entry.start), as: UInt64.self))
        let head = count >= 8 ? word : word & ((1 &<< UInt64(truncatingIfNeeded: count &<< 3)) &- 1)
        return (UnsafeBufferPointer(start: line + Int(entry.start), count: count), head)
    }

    /// Writes `{"id":…,"ok":true` with the root object's `id` (`null` when it has none).
    package func writeEnvelope(to writer: inout ResponseWriter) {
        writeEnvelope(id: rootId >= 0 ? rootId : nil, to: &writer)
    }

    /// Reads `line` into this record; false (the record then holds nothing usable) when the scan leaves the line to
    /// `JSONReader`.
    func scan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count < Int(Int32.max) else { return false }
        generation &+= 1
        bytes.count = 0
        bytes.appendZeroPadded(line)
        var scanner = RecordScanner(line: UnsafeBufferPointer(start: bytes.base, count: line.count))
        scanner.entries = entries
        scanner.decoded = decoded
        scanner.entries.count = 0
        scanner.decoded.count = 0
        let scanned = scanner.scanDocument()
        entries = scanner.entries
        decoded = scanner.decoded
        rootOp = scanner.rootOp
        rootId = scanner.rootId
        return scanned && entries.count > 0
    }

    // MARK: - Reading

    /// The index of the last member of the object at `object` named `name`, or nil. Inlined, so that a plugin's
    /// literal name reaches `member(bytes:in:)` without a check of the string's form; the optimizer still retains
    /// and releases the name's object around the call (a no-op count for a small string, but two runtime calls).
    @inlinable @inline(__always)
    func member(_ name: String, in object: Int) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ member(bytes: $0, in: object) }) { return found }
        return Array(name.utf8).withUnsafeBufferPointer { member(bytes: $0, in: object) }
    }

    /// The region of the string at `index` as `Region(alpha2:accepting:)` reads it, without making a `String`: nil
    /// when the text is no region the field accepts.
    @usableFromInline
    func region(_ index: Int, accepting accepted: Region.Accepted) -> Region? {
        withText(index) { Region(alpha2: $0, accepting: accepted) }
    }

    /// The index of the last member of the object at `object` named `name` (a protocol name), or nil.
    func member(_ name: StaticString, in object: Int) -> Int? {
        member(bytes: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), in: object)
    }

    @usableFromInline
    func member(bytes name: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
        let entries = entries.base!
        let line = UnsafeRawPointer(bytes.base!)
        var found = -1
        var index = object &+ 1
        let end = Int(entries[object].end)
        let count = name.count
        if count <= 16 {
            // Most names fit in two words: their first 8 bytes (masked when shorter) and, past 8, their last 8. A key
            // lies in the line, which is followed by 8 zero bytes (`scan`), so a load at its start stays in the
            // buffer, and one of its last 8 bytes is within the key.
            let (head, mask) = WordBytes.head(name)
            let tail = count > 8 ? WordBytes.word(name.baseAddress!, at: count &- 8) : 0
            while index < end {
                let entry = entries[index]
                if Int(entry.keyCount) == count {
                    let start = Int(entry.keyStart)
                    if UInt64(littleEndian: line.loadUnaligned(fromByteOffset: start, as: UInt64.self)) & mask == head,
                        count <= 8
                            || UInt64(
                                littleEndian: line.loadUnaligned(fromByteOffset: start &+ count &- 8, as: UInt64.self))
                                == tail
                    {
                        found = index
                    }
                }
                index = Int(entry.end)
            }
        } else {
            let bytes = line.assumingMemoryBound(to: UInt8.self)
            while index < end {
                let entry = entries[index]
                if Int(entry.keyCount) == count, memcmp(bytes + Int(entry.keyStart), name.baseAddress!, count) == 0 {
                    found = index
                }
                index = Int(entry.end)
            }
        }
        return found < 0 ? nil : found
    }

    @inlinable
    func kind(_ index: Int) -> Kind { entries.base![index].kind }

    /// How many members or elements the container at `index` has.
    @inlinable
    func count(_ index: Int) -> Int { Int(entries.base![index].count) }

    /// The text of the string or number at `index`, as bytes.
    @usableFromInline
    func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entries.base![index]
        let source = entry.inDecoded ? decoded.base : bytes.base
        return body(UnsafeBufferPointer(start: source.map { $0 + Int(entry.start) }, count: Int(entry.count)))
    }

    /// The text of the string or number at `index`, as bytes, valid while the record holds this line.
    @inlinable @inline(__always)
    func text(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries.base![index]
        let source = entry.inDecoded ? decoded.base : bytes.base
        return UnsafeBufferPointer(start: source.map { $0 + Int(entry.start) }, count: Int(entry.count))
    }

    /// The member's name at `index`.
    func key(_ index: Int) -> String {
        let entry = entries.base![index]
        return String(
            decoding: UnsafeBufferPointer(start: bytes.base! + Int(entry.keyStart), count: Int(entry.keyCount)),
            as: UTF8.self)
    }

    /// The string at `index`.
    @usableFromInline
    func string(_ index: Int) -> String {
        withText(index) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value at `index` as `JSONReader` would have given it.
    @usableFromInline
    func value(_ index: Int) -> JSONValue {
        switch kind(index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(JSONNumber(literal: string(index)))
        case .string: return .string(string(index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(count(index))
            forEachChild(of: index) { elements.append(value($0)) }
            return .array(elements)
        case .object: return .object(object(index))
        }
    }

    /// The object at `index` as `JSONReader` would have given it.
    @usableFromInline
    func object(_ index: Int) -> JSONObject {
        var members: [JSONObject.Member] = []
        members.reserveCapacity(count(index))
        forEachChild(of: index) { members.append(JSONObject.Member(key: key($0), value: value($0))) }
        return JSONObject(members)
    }

    /// Calls `body` with the index of every member or element of the container at `index`, in order.
    func forEachChild(of index: Int, _ body: (Int) -> Void) {
        var child = index + 1
        let end = Int(entries.base![index].end)
        while child < end {
            body(child)
            child = Int(entries.base![child].end)
        }
    }

    /// Whether every element of the array at `index` is a string, so that element `i` is entry `index + 1 + i`.
    @usableFromInline
    func elementsAreStrings(_ index: Int) -> Bool {
        let entries = entries.base!
        let end = Int(entries[index].end)
        var child = index + 1
        while child < end {
            guard entries[child].kind == .string else { return false }
            child += 1
        }
        return true
    }

    /// The member names and values of the object at `index`, in order.
    @usableFromInline
    func members(_ index: Int) -> [(name: String, value: JSONValue)] {
        var members: [(name: String, value: JSONValue)] = []
        members.reserveCapacity(count(index))
        forEachChild(of: index) { members.append((key($0), value($0))) }
        return members
    }

    /// Writes `{"id":…,"ok":true` with the value at `id` (`null` when nil) as `appendValue(_:to:)` writes it:
    /// staged with the members that follow when it is short and written as it is.
    func writeEnvelope(id: Int?, to writer: inout ResponseWriter) {
        guard let id else { return writer.stage(#"{"id":null,"ok":true"#) }
        let kind = kind(id)
        if kind == .number || kind == .string {
            let written: Bool = withText(id) { text in
                guard text.count <= 64, kind == .number || ByteScan.needsNoEscape(text) else { return false }
                writer.stage(#"{"id":"#)
                if kind == .string { writer.stage(UInt8(ascii: "\"")) }
                writer.stage(text)
                if kind == .string { writer.stage(UInt8(ascii: "\"")) }
                writer.stage(#","ok":true"#)
                return true
            }
            if written { return }
        }
        writer.stage(#"{"id":"#)
        writer.flush()
        appendValue(id, to: &writer.storage)
        writer.stage(#","ok":true"#)
    }

    /// Appends the value at `index` as `JSONWriter` writes what `JSONReader` read: a number, a string without
    /// escapes and a literal are their own bytes; anything else is written from its value.
    func appendValue(_ index: Int, to out: inout [UInt8]) {
        switch kind(index) {
        case .null: JSONWriter.appendLiteral("null", to: &out)
        case .false: JSONWriter.appendLiteral("false", to: &out)
        case .true: JSONWriter.appendLiteral("true", to: &out)
        case .number: withText(index) { out.append(contentsOf: $0) }
        case .string: withText(index) { JSONWriter.appendString(utf8: $0, to: &out) }
        case .array, .object: JSONWriter.append(value(index), to: &out)
        }
    }
}

/// The one pass of `RequestRecord.scan`: the grammar and checks of `JSONReader`, recording instead of building.
/// Any failure is `false`, and `JSONReader` reads the line again for its answer.
private struct RecordScanner {
    typealias Entry = RequestRecord.Entry

    let line: UnsafeBufferPointer<UInt8>
    /// Where the out-of-line string scan (`scanStringRest`) reads; the document's scan keeps its place in a local.
    var index = 0
    var entries = TrivialBuffer<Entry>()
    var decoded = TrivialBuffer<UInt8>()
    /// As `RequestRecord.rootOp` and `rootId`.
    var rootOp = -1
    var rootId = -1

    init(line: UnsafeBufferPointer<UInt8>) {
        self.line = line
    }

    /// A container open around the scan's place: its entry, and whether it is an object. (Its entry counts its
    /// members or elements as they are read.)
    struct Container {
        var entry: Int
        var isObject: Bool
    }

    /// A string's text: `count` bytes at `start` of the line, or of `decoded` when `inDecoded`.
    struct Text {
        var start: Int32
        var count: Int32
        var inDecoded: Bool
    }

    /// The whole line, iteratively: a value, then what may follow it in its container, until the root ends. The
    /// line's trailing zero bytes end every scan that runs off it (no token starts with a zero byte).
    mutating func scanDocument() -> Bool {
        // The containers outside the innermost open one.
        withUnsafeTemporaryAllocation(of: Container.self, capacity: RequestRecord.maxDepth) {
            scanDocument(outer: $0.baseAddress!)
        }
    }

    /// The scan's place, the entries written and the innermost container are locals (registers), written back
    /// once, and a member's name goes straight into its value's entry: the entries' buffer grows out of line
    /// (`grow(_:)`), and only a string with escapes or non-ASCII bytes, or an error, leaves the inlined path.
    private mutating func scanDocument(outer: UnsafeMutablePointer<Container>) -> Bool {
        let bytes = line.baseAddress!
        if entries.capacity == 0 { entries.reserve(16) }
        var base = entries.base!
        var capacity = entries.capacity
        // The entries written; the next value's is `base[count]`, its name (or none) written already.
        var count = 0
        var depth = 0
        var current = Container(entry: 0, isObject: false)
        base.pointee.keyStart = -1
        base.pointee.keyCount = 0
        var at = Self.skipWhitespace(bytes, 0)
        scanning: while true {
            // `RequestRecord.scan` keeps lines below `Int32.max` bytes, and there are fewer entries than bytes.
            let entry = base + count
            let start = Int32(truncatingIfNeeded: at)
            let byte = bytes[at]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = scanString(bytes, at: &at) else { return false }
                entry.pointee.start = text.start
                entry.pointee.count = text.count
                entry.pointee.kind = .string
                entry.pointee.inDecoded = text.inDecoded
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < RequestRecord.maxDepth else { return false }
                let isObject = byte == UInt8(ascii: "{")
                entry.pointee.start = start
                entry.pointee.count = 0
                entry.pointee.kind = isObject ? .object : .array
                entry.pointee.inDecoded = false
                at = Self.skipWhitespace(bytes, at &+ 1)
                if bytes[at] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    // Empty: its entry is whole once it has its end.
                    at &+= 1
                } else {
                    if depth > 0 { outer[depth &- 1] = current }
                    current = Container(entry: count, isObject: isObject)
                    depth &+= 1
                    count &+= 1
                    if count == capacity { (base, capacity) = grow(count) }
                    guard
                        isObject ? scanName(bytes, at: &at, into: base, count, root: count == 1) : noName(base + count)
                    else { return false }
                    continue scanning
                }
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                // The words' bytes, little-endian.
                let (kind, word, length): (RequestRecord.Kind, UInt64, Int) =
                    switch byte {
                    case UInt8(ascii: "t"): (.true, 0x65_75_72_74, 4)
                    case UInt8(ascii: "f"): (.false, 0x65_73_6C_61_66, 5)
                    default: (.null, 0x6C_6C_75_6E, 4)
                    }
                guard Self.hasWord(bytes, at, word, length: length) else { return false }
                at &+= length
                entry.pointee.start = start
                entry.pointee.count = 0
                entry.pointee.kind = kind
                entry.pointee.inDecoded = false
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                at = Self.numberEnd(bytes, at)
                guard at >= 0 else { return false }
                entry.pointee.start = start
                entry.pointee.count = Int32(truncatingIfNeeded: at) &- start
                entry.pointee.kind = .number
                entry.pointee.inDecoded = false
            default:
                return false
            }
            count &+= 1
            entry.pointee.end = Int32(truncatingIfNeeded: count)
            // What follows a value: a separator and the next, or the ends of containers.
            while true {
                guard depth > 0 else {
                    entries.count = count
                    return Self.skipWhitespace(bytes, at) == line.count
                }
                base[current.entry].count &+= 1
                at = Self.skipWhitespace(bytes, at)
                let byte = bytes[at]
                if byte == UInt8(ascii: ",") {
                    at = Self.skipWhitespace(bytes, at &+ 1)
                    if count == capacity { (base, capacity) = grow(count) }
                    guard
                        current.isObject
                            ? scanName(bytes, at: &at, into: base, count, root: current.entry == 0)
                            : noName(base + count)
                    else { return false }
                    continue scanning
                }
                guard byte == (current.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                at &+= 1
                base[current.entry].end = Int32(truncatingIfNeeded: count)
                depth &-= 1
                if depth > 0 { current = outer[depth &- 1] }
            }
        }
    }

    /// The entries' buffer, with room for one more after the `count` written, and its capacity.
    @inline(never)
    private mutating func grow(_ count: Int) -> (UnsafeMutablePointer<Entry>, Int) {
        entries.count = count
        entries.reserve(count &+ 1)
        return (entries.base!, entries.capacity)
    }

    /// Marks the next value, an element, as having no name; true.
    @inline(__always)
    private func noName(_ entry: UnsafeMutablePointer<Entry>) -> Bool {
        entry.pointee.keyStart = -1
        entry.pointee.keyCount = 0
        return true
    }

    /// A member's name at `at`, its colon and the whitespace around it, leaving `at` at the value: the name goes
    /// into `base[index]`, the value's entry, and in the root object (`root`) an `op` or `id` is noted as the
    /// value's. A name with escapes is left to `JSONReader`: names are compared by their bytes in the line.
    @inline(__always)
    private mutating func scanName(
        _ bytes: UnsafePointer<UInt8>, at: inout Int, into base: UnsafeMutablePointer<Entry>, _ index: Int, root: Bool
    ) -> Bool {
        let entry = base + index
        guard bytes[at] == UInt8(ascii: "\""), let name = scanString(bytes, at: &at), !name.inDecoded else {
            return false
        }
        entry.pointee.keyStart = name.start
        entry.pointee.keyCount = name.count
        if root, name.count == 2 {
            let pair = UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: Int(name.start), as: UInt16.self)
            if pair == UInt16(littleEndian: 0x70_6F) {  // "op"
                rootOp = index
            } else if pair == UInt16(littleEndian: 0x64_69) {  // "id"
                rootId = index
            }
        }
        if bytes[at] != UInt8(ascii: ":") {
            at = Self.skipWhitespace(bytes, at)
            guard bytes[at] == UInt8(ascii: ":") else { return false }
        }
        at = Self.skipWhitespace(bytes, at &+ 1)
        return true
    }

    /// The first byte at or after `at` that is no JSON whitespace (the line's zero padding ends it).
    @inline(__always)
    private static func skipWhitespace(_ bytes: UnsafePointer<UInt8>, _ at: Int) -> Int {
        var at = at
        while true {
            let byte = bytes[at]
            // Every whitespace byte is at most a space.
            if byte > 0x20 { return at }
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09: at &+= 1
            default: return at
            }
        }
    }

    /// Whether the `length` bytes at `at` are `word`'s (little-endian letters), in one load: the line is followed
    /// by 8 zero bytes, so the load stays in the buffer, and a zero byte matches no letter.
    @inline(__always)
    private static func hasWord(_ bytes: UnsafePointer<UInt8>, _ at: Int, _ word: UInt64, length: Int) -> Bool {
        let mask = (1 &<< UInt64(truncatingIfNeeded: length &* 8)) &- 1
        return UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: at, as: UInt64.self))
            & mask == word
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Where the number at `at` ends, or -1 when it is malformed: JSON's grammar, read up to the first byte that
    /// cannot go on (the line's zero padding ends it).
    private static func numberEnd(_ bytes: UnsafePointer<UInt8>, _ at: Int) -> Int {
        var at = at
        if bytes[at] == UInt8(ascii: "-") { at &+= 1 }
        guard isDigit(bytes[at]) else { return -1 }
        if bytes[at] == UInt8(ascii: "0") {
            at &+= 1
        } else {
            while isDigit(bytes[at]) { at &+= 1 }
        }
        if bytes[at] == UInt8(ascii: ".") {
            at &+= 1
            guard isDigit(bytes[at]) else { return -1 }
            while isDigit(bytes[at]) { at &+= 1 }
        }
        if bytes[at] | 0x20 == UInt8(ascii: "e") {
            at &+= 1
            if bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at &+= 1 }
            guard isDigit(bytes[at]) else { return -1 }
            while isDigit(bytes[at]) { at &+= 1 }
        }
        return at
    }

    /// A string from its opening quote at `at`: its text, valid UTF-8 and Stream-Safe as `JSONReader` requires,
    /// with `at` moved past its closing quote; nil when refused. Inlined for the common string, plain ASCII without
    /// escapes; any other goes on in `scanStringRest(start:)` from its first other byte.
    @inline(__always)
    private mutating func scanString(_ bytes: UnsafePointer<UInt8>, at: inout Int) -> Text? {
        let start = at &+ 1
        // Eight bytes at a time up to the first quote, backslash, control character or non-ASCII byte. The line is
        // followed by 8 zero bytes (`RequestRecord.scan`), which read as control characters: the scan stops at the
        // line's end, and no load starts past it.
        let raw = UnsafeRawPointer(bytes)
        var end = start
        var flags: UInt64
        while true {
            flags = ByteScan.stopFlags(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)))
            if flags != 0 { break }
            end &+= 8
        }
        end &+= flags.trailingZeroBitCount &>> 3
        if bytes[end] == UInt8(ascii: "\"") {
            at = end &+ 1
            return Text(
                start: Int32(truncatingIfNeeded: start), count: Int32(truncatingIfNeeded: end &- start),
                inDecoded: false)
        }
        index = end
        guard let text = scanStringRest(start: start) else { return nil }
        at = index
        return text
    }

    /// The rest of `scanString(_:at:)` from its first backslash, control character or non-ASCII byte at `index`:
    /// the string's text, with `index` past its closing quote, or nil. Its UTF-8 is checked where it lies, up to the
    /// first quote, backslash or control character (no such byte is part of a well-formed sequence, and the line's
    /// zero padding ends any that runs off it); a string with escapes is checked again once unescaped.
    private mutating func scanStringRest(start: Int) -> Text? {
        let bytes = line.baseAddress!
        let raw = UnsafeRawPointer(bytes)
        // Whether a byte may start a non-starter (U+0300 and up are 0xCC and up), so Stream-Safe Text is checked.
        var mayCombine = false
        while true {
            let byte = bytes[index]
            if byte >= 0x80 {
                let length = Self.sequenceLength(bytes, at: index, end: line.count)
                guard length > 0 else { return nil }
                mayCombine = mayCombine || byte >= 0xCC
                index &+= length
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            // Plain ASCII, by words to the next quote, backslash, control character or non-ASCII byte (a load never
            // starts past the line's end, as in `scanString(_:at:)`).
            index &+= 1
            while true {
                let flags = ByteScan.stopFlags(
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                if flags != 0 {
                    index &+= flags.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
        }
        guard index < line.count else { return nil }
        if line[index] == UInt8(ascii: "\"") {
            let text = UnsafeBufferPointer(start: bytes + start, count: index &- start)
            index &+= 1
            if mayCombine, !Self.isStreamSafe(text) { return nil }
            return Text(start: Int32(start), count: Int32(text.count), inDecoded: false)
        }
        guard line[index] == UInt8(ascii: "\\") else { return nil }
        guard index < line.count else { return nil }
        let decodedStart = decoded.count
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<index]))
        while index < line.count {
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let text = UnsafeBufferPointer(start: decoded.base! + decodedStart, count: decoded.count - decodedStart)
                guard Self.isValidUTF8(text), !text.contains(where: { $0 >= 0xCC }) || Self.isStreamSafe(text) else {
                    return nil
                }
                return Text(start: Int32(decodedStart), count: Int32(decoded.count - decodedStart), inDecoded: true)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < line.count else { return nil }
                let escape = line[index]
                index += 1
                if escape == UInt8(ascii: "u") {
                    guard let scalar = scanUnicodeEscape() else { return nil }
                    for unit in UTF8.encode(scalar)! { decoded.append(unit) }
                } else if let unescaped = JSONReader.unescaped(escape) {
                    decoded.append(unescaped)
                } else {
                    return nil
                }
            default:
                if byte < 0x20 { return nil }
                decoded.append(byte)
                index += 1
            }
        }
        return nil
    }

    private mutating func scanHex4() -> UInt32? {
        guard line.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONReader.hexValue(line[index]) else { return nil }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func scanUnicodeEscape() -> Unicode.Scalar? {
        guard let first = scanHex4() else { return nil }
        if (0xDC00...0xDFFF).contains(first) { return nil }
        if (0xD800...0xDBFF).contains(first) {
            guard line.count - index >= 2, line[index] == UInt8(ascii: "\\"), line[index + 1] == UInt8(ascii: "u")
            else { return nil }
            index += 2
            guard let second = scanHex4(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        }
        return Unicode.Scalar(first)
    }

    /// Whether `text` is well-formed UTF-8 (Unicode's Table 3-7: no overlong forms, surrogates or values past
    /// U+10FFFF), which is what `String(validating:as:)` accepts.
    static func isValidUTF8(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        var index = 0
        let count = text.count
        while index < count {
            if base[index] < 0x80 {
                index &+= 1
                continue
            }
            let length = sequenceLength(base, at: index, end: count)
            guard length > 0 else { return false }
            index &+= length
        }
        return true
    }

    /// The length of the well-formed UTF-8 sequence (Table 3-7) whose lead byte, not ASCII, is at `at`, within
    /// `end`: 0 when there is none. Its bytes are read in order, up to the first that does not fit.
    @inline(__always)
    static func sequenceLength(_ bytes: UnsafePointer<UInt8>, at: Int, end: Int) -> Int {
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch bytes[at] {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: return 0
        }
        guard end &- at >= length else { return 0 }
        let second = bytes[at &+ 1]
        guard second >= low, second <= high else { return 0 }
        var offset = 2
        while offset < length {
            guard bytes[at &+ offset] & 0xC0 == 0x80 else { return 0 }
            offset &+= 1
        }
        return length
    }

    /// Whether `text` has at most `JSONReader.maxNonStarters` non-starters in a row.
    static func isStreamSafe(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        StreamSafeText.isSafe(text)
    }
}

/// A growable buffer of trivial values (no deinitialisation), owned by the `RequestRecord` that frees it: appending
/// costs a compare and a store, where an `Array`'s checks its uniqueness every time.
@usableFromInline
struct TrivialBuffer<Element> {
    @usableFromInline var base: UnsafeMutablePointer<Element>?
    @usableFromInline var count = 0
    @usableFromInline var capacity = 0

    init() {}

    mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let grown = Swift.max(needed, capacity * 2, 16)
        let new = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        if let base {
            new.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = new
        capacity = grown
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { reserve(count + 1) }
        (base! + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        reserve(count + elements.count)
        if let source = elements.baseAddress, let base {
            (base + count).initialize(from: source, count: elements.count)
        }
        count += elements.count
    }

    func deallocate() {
        base?.deallocate()
    }
}

extension TrivialBuffer<UInt8> {
    /// Appends `bytes` and makes the 8 bytes after them zero, without counting those.
    mutating func appendZeroPadded(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(count + bytes.count + 8)
        let end = base! + count
        if let source = bytes.baseAddress { end.initialize(from: source, count: bytes.count) }
        UnsafeMutableRawPointer(end + bytes.count).storeBytes(of: 0, as: UInt64.self)
        count += bytes.count
    }
}
