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
final class RequestRecord: @unchecked Sendable {
    @usableFromInline
    enum Kind: UInt8 {
        case null, `false`, `true`, number, string, array, object
    }

    /// One value, in document order (a container before its members or elements).
    @usableFromInline
    struct Entry {
        /// The member's name (`count` bytes at `keyStart` of the line), or -1 for an element or the root.
        var keyStart: Int32
        var keyCount: Int32
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

        /// Calls `body` with room for the entry index of each container open at once.
        static func withOpenContainers<Result>(_ body: (UnsafeMutablePointer<Int32>) -> Result) -> Result {
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: RequestRecord.maxDepth) { body($0.baseAddress!) }
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

    init() {}

    deinit {
        bytes.deallocate()
        decoded.deallocate()
        entries.deallocate()
    }

    /// Whether a reused record has grown past what a loop keeps between requests.
    var isLarge: Bool { bytes.capacity > 16 * 1024 || entries.capacity > 1024 || decoded.capacity > 16 * 1024 }

    /// Reads `line` into this record; false (the record then holds nothing usable) when the scan leaves the line to
    /// `JSONReader`.
    func scan(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count < Int(Int32.max) else { return false }
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
    /// literal name reaches `member(bytes:in:)` without a reference count or a check of the string's form.
    @inlinable
    func member(_ name: String, in object: Int) -> Int? {
        if let found = name.utf8.withContiguousStorageIfAvailable({ member(bytes: $0, in: object) }) { return found }
        return Array(name.utf8).withUnsafeBufferPointer { member(bytes: $0, in: object) }
    }

    /// The region of the string at `index` as `Region(alpha2:)` reads it, without making a `String`: nil when the
    /// text is no region.
    @usableFromInline
    func region(_ index: Int) -> Region? {
        withText(index) { Region(alpha2: $0) }
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
    @inlinable
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
                guard text.count <= 64, kind == .number || JSONWriter.needsNoEscape(text) else { return false }
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
    let line: UnsafeBufferPointer<UInt8>
    var index = 0
    var entries = TrivialBuffer<RequestRecord.Entry>()
    var decoded = TrivialBuffer<UInt8>()
    /// As `RequestRecord.rootOp` and `rootId`.
    var rootOp = -1
    var rootId = -1

    init(line: UnsafeBufferPointer<UInt8>) {
        self.line = line
    }

    /// The whole line, iteratively: a value, then what may follow it in its container, until the root ends. The
    /// line's trailing zero bytes end every scan that runs off it (no token starts with a zero byte).
    mutating func scanDocument() -> Bool {
        RequestRecord.Entry.withOpenContainers { open in scanDocument(open: open) }
    }

    private enum Next {
        case value, member, afterValue
    }

    private mutating func scanDocument(open: UnsafeMutablePointer<Int32>) -> Bool {
        let bytes = line.baseAddress!
        var depth = 0
        var key: (start: Int32, count: Int32) = (-1, 0)
        var next = Next.value
        skipWhitespace()
        while true {
            switch next {
            case .value:
                let at = entries.count
                // `RequestRecord.scan` keeps lines below `Int32.max` bytes, and there are fewer entries than bytes.
                var entry = RequestRecord.Entry(
                    keyStart: key.start, keyCount: key.count, start: Int32(truncatingIfNeeded: index), count: 0,
                    end: Int32(truncatingIfNeeded: at &+ 1), kind: .null, inDecoded: false)
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard depth < RequestRecord.maxDepth else { return false }
                    let isObject = byte == UInt8(ascii: "{")
                    entry.kind = isObject ? .object : .array
                    entries.append(entry)
                    open[depth] = Int32(truncatingIfNeeded: at)
                    depth &+= 1
                    index &+= 1
                    skipWhitespace()
                    if bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                        depth -= 1
                        next = .afterValue
                    } else {
                        next = isObject ? .member : .value
                        key = (-1, 0)
                    }
                    continue
                case UInt8(ascii: "\""):
                    entry.kind = .string
                    guard scanString(into: &entry) else { return false }
                case UInt8(ascii: "t"):
                    guard expectWord("true") else { return false }
                    entry.kind = .true
                case UInt8(ascii: "f"):
                    guard expectWord("false") else { return false }
                    entry.kind = .false
                case UInt8(ascii: "n"):
                    guard expectWord("null") else { return false }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    guard scanNumber() else { return false }
                    entry.kind = .number
                    entry.count = Int32(truncatingIfNeeded: index) &- entry.start
                default:
                    return false
                }
                entries.append(entry)
                next = .afterValue
            case .member:
                guard bytes[index] == UInt8(ascii: "\"") else { return false }
                var name = RequestRecord.Entry(
                    keyStart: -1, keyCount: 0, start: 0, count: 0, end: 0, kind: .string, inDecoded: false)
                // A name with escapes is left to `JSONReader`: names are compared by their bytes in the line.
                guard scanString(into: &name), !name.inDecoded else { return false }
                key = (name.start, name.count)
                if depth == 1, name.count == 2 {
                    let first = bytes[Int(name.start)]
                    let second = bytes[Int(name.start) &+ 1]
                    if first == UInt8(ascii: "o"), second == UInt8(ascii: "p") {
                        rootOp = entries.count
                    } else if first == UInt8(ascii: "i"), second == UInt8(ascii: "d") {
                        rootId = entries.count
                    }
                }
                skipWhitespace()
                guard bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
                skipWhitespace()
                next = .value
            case .afterValue:
                guard depth > 0 else {
                    skipWhitespace()
                    return index == line.count
                }
                let container = Int(open[depth &- 1])
                entries.base![container].count &+= 1
                skipWhitespace()
                let byte = bytes[index]
                let isObject = entries.base![container].kind == .object
                if byte == UInt8(ascii: ",") {
                    index += 1
                    skipWhitespace()
                    next = isObject ? .member : .value
                    key = (-1, 0)
                } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    entries.base![container].end = Int32(truncatingIfNeeded: entries.count)
                    depth &-= 1
                } else {
                    return false
                }
            }
        }
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while true {
            switch line.baseAddress![index] {
            case 0x20, 0x0A, 0x0D, 0x09: index &+= 1
            default: return
            }
        }
    }

    private mutating func expectWord(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard line.count - index >= count else { return false }
        let start = word.utf8Start
        for offset in 0..<count where line[index + offset] != start[offset] { return false }
        index += count
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func scanNumber() -> Bool {
        if line[index] == UInt8(ascii: "-") { index += 1 }
        guard index < line.count, isDigit(line[index]) else { return false }
        if line[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < line.count, isDigit(line[index]) { index += 1 }
        }
        if index < line.count, line[index] == UInt8(ascii: ".") {
            index += 1
            guard index < line.count, isDigit(line[index]) else { return false }
            while index < line.count, isDigit(line[index]) { index += 1 }
        }
        if index < line.count, line[index] == UInt8(ascii: "e") || line[index] == UInt8(ascii: "E") {
            index += 1
            if index < line.count, line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < line.count, isDigit(line[index]) else { return false }
            while index < line.count, isDigit(line[index]) { index += 1 }
        }
        return true
    }

    /// A string from its opening quote: its text's place in `entry` (in the line, or unescaped into `decoded`),
    /// valid UTF-8 and Stream-Safe as `JSONReader` requires. Inlined for the common string, plain ASCII without
    /// escapes; any other goes on in `scanStringRest(start:nonASCII:into:)`.
    @inline(__always)
    private mutating func scanString(into entry: inout RequestRecord.Entry) -> Bool {
        let start = index &+ 1
        // Eight bytes at a time up to the first quote, backslash or control character (the bit tricks of
        // `JSONWriter.wordNeedsEscape`, whose lowest flagged byte is exact). The line is followed by 8 zero bytes
        // (`RequestRecord.scan`), which read as control characters: the scan stops at the line's end.
        let raw = UnsafeRawPointer(line.baseAddress!)
        var nonASCII: UInt64 = 0
        var at = start
        var word: UInt64
        var flags: UInt64
        while true {
            word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            flags = JSONWriter.escapeFlags(word)
            if flags != 0 { break }
            nonASCII |= word
            at &+= 8
        }
        let plain = flags.trailingZeroBitCount &>> 3
        // The bytes before the flagged one (none when `plain` is 0).
        nonASCII |= word & ~(UInt64.max &<< UInt64(truncatingIfNeeded: plain &<< 3))
        at &+= plain
        index = at
        // `at` is at most the line's end, whose padding is zero: no quote.
        if line.baseAddress![at] == UInt8(ascii: "\""), nonASCII & 0x8080_8080_8080_8080 == 0 {
            index = at &+ 1
            entry.start = Int32(truncatingIfNeeded: start)
            entry.count = Int32(truncatingIfNeeded: at &- start)
            return true
        }
        return scanStringRest(start: start, nonASCII: nonASCII, into: &entry)
    }

    /// The rest of `scanString(into:)` from its first quote, backslash or control character at `index`, for a
    /// string with non-ASCII bytes before it (`nonASCII` has a high bit set) or escapes, or one that fails.
    private mutating func scanStringRest(start: Int, nonASCII: UInt64, into entry: inout RequestRecord.Entry) -> Bool {
        guard index < line.count else { return false }
        if line[index] == UInt8(ascii: "\"") {
            let text = UnsafeBufferPointer(rebasing: line[start..<index])
            index += 1
            if nonASCII & 0x8080_8080_8080_8080 != 0 {
                guard Self.isValidUTF8(text) else { return false }
                if text.contains(where: { $0 >= 0xCC }), !Self.isStreamSafe(text) { return false }
            }
            entry.start = Int32(start)
            entry.count = Int32(text.count)
            return true
        }
        guard line[index] == UInt8(ascii: "\\") else { return false }
        guard index < line.count else { return false }
        let decodedStart = decoded.count
        decoded.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<index]))
        while index < line.count {
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                let text = UnsafeBufferPointer(start: decoded.base! + decodedStart, count: decoded.count - decodedStart)
                guard Self.isValidUTF8(text), !text.contains(where: { $0 >= 0xCC }) || Self.isStreamSafe(text) else {
                    return false
                }
                entry.start = Int32(decodedStart)
                entry.count = Int32(decoded.count - decodedStart)
                entry.inDecoded = true
                return true
            case UInt8(ascii: "\\"):
                index += 1
                guard index < line.count else { return false }
                let escape = line[index]
                index += 1
                if escape == UInt8(ascii: "u") {
                    guard let scalar = scanUnicodeEscape() else { return false }
                    for unit in UTF8.encode(scalar)! { decoded.append(unit) }
                } else if let unescaped = JSONReader.unescaped(escape) {
                    decoded.append(unescaped)
                } else {
                    return false
                }
            default:
                if byte < 0x20 { return false }
                decoded.append(byte)
                index += 1
            }
        }
        return false
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
        var index = 0
        let count = text.count
        while index < count {
            let lead = text[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
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
            default: return false
            }
            guard count - index >= length else { return false }
            let second = text[index + 1]
            guard second >= low, second <= high else { return false }
            for offset in 2..<max(2, length) where text[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
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
