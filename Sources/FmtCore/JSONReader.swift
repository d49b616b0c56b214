/// Why a line is not a JSON value we accept; the message is for people and names the byte offset.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    /// True when the line is JSON but a string in it is not Stream-Safe Text (see `JSONReader.maxNonStarters`).
    package let isUnsafeText: Bool

    package init(message: String, offset: Int, isUnsafeText: Bool = false) {
        self.message = message
        self.offset = offset
        self.isUnsafeText = isUnsafeText
    }

    public var description: String { "\(message) at byte \(offset)" }
}

/// A strict RFC 8259 reader working on bytes: validates UTF-8, rejects raw control characters and
/// nesting deeper than `maxDepth`, and never traps on any input (it is fuzzed).
public struct JSONReader {
    /// Deeper documents are refused: real requests nest two levels, and recursion must stay bounded.
    public static let defaultMaxDepth = 64
    /// The most non-starters (combining marks, after canonical decomposition) a string may have in a row:
    /// UAX #15's Stream-Safe Text Format. No language needs more, and the bound keeps every later
    /// normalisation (Swift's String comparison and hashing, ICU's collation) linear in the text's length.
    public static let maxNonStarters = 30

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private let maxDepth: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Parses one complete JSON document; trailing whitespace is allowed, anything else is not.
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = defaultMaxDepth
    ) throws(JSONReadError) -> JSONValue {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        reader.skipWhitespace()
        let value = try reader.readValue(depth: 0)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected data after the JSON value") }
        return value
    }

    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONReadError) -> JSONValue {
        let result: Result<JSONValue, JSONReadError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) -> JSONValue in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONReadError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    private func error(_ message: String) -> JSONReadError {
        JSONReadError(message: message, offset: index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func readValue(depth: Int) throws(JSONReadError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object(try readObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try readArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("unexpected character")
        }
    }

    private mutating func expectWord(_ word: StaticString) throws(JSONReadError) {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw error("invalid literal") }
        let start = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    private mutating func readObject(depth: Int) throws(JSONReadError) -> JSONObject {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONObject(members)
        }
        // The request itself: one allocation for its handful of members instead of growing one at a time.
        if depth == 1 { members.reserveCapacity(8) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name") }
            let key = try readString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try readValue(depth: depth)
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return JSONObject(members)
            } else {
                throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func readArray(depth: Int) throws(JSONReadError) -> [JSONValue] {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return elements
            } else {
                throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func readNumber() throws(JSONReadError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return JSONNumber(literal: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func readString() throws(JSONReadError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. `String(validating:as:)` instantiates generic metadata on every call, so
        // decode instead and validate non-ASCII text by comparing: repairing changes the bytes iff invalid.
        // The highest byte also tells whether the text can hold a combining mark (U+0300 on starts at 0xCC).
        var highest: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                let text = String(decoding: slice, as: UTF8.self)
                if highest >= 0x80 {
                    guard text.utf8.withContiguousStorageIfAvailable({ $0.hasSameBytes(as: slice) }) ?? false else {
                        throw JSONReadError(message: "invalid UTF-8 in a string", offset: start)
                    }
                    if highest >= Self.firstMarkLeadByte { try Self.requireStreamSafe(slice, stringStart: start) }
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            highest = max(highest, byte)
            index += 1
        }
        guard index < bytes.count else { throw error("unterminated string") }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: scalars, as: UTF8.self) else {
                    throw JSONReadError(message: "invalid UTF-8 in a string", offset: start)
                }
                if scalars.contains(where: { $0 >= Self.firstMarkLeadByte }) {
                    try scalars.withUnsafeBufferPointer { (decoded) throws(JSONReadError) in
                        try Self.requireStreamSafe(decoded, stringStart: start)
                    }
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                if escape == UInt8(ascii: "u") {
                    appendUTF8(try readUnicodeEscape(), to: &scalars)
                } else if let unescaped = Self.unescaped(escape) {
                    scalars.append(unescaped)
                } else {
                    throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    /// The UTF-8 lead byte of U+0300, the first combining mark: text without a byte this high or higher has no run
    /// of non-starters longer than two (a precomposed letter's own mark), so it needs no Stream-Safe check.
    private static let firstMarkLeadByte: UInt8 = 0xCC

    /// The value of a hex digit of a `\u` escape (`a` and `A` are 10), nil for any other byte.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The byte a one-letter escape stands for (`\n` is 0x0A), nil for `u` and for what is no escape.
    @inline(__always)
    static func unescaped(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// Refuses a decoded string with more than `maxNonStarters` non-starters in a row.
    private static func requireStreamSafe(
        _ decoded: UnsafeBufferPointer<UInt8>, stringStart: Int
    ) throws(JSONReadError) {
        guard !StreamSafeText.isSafe(decoded) else { return }
        throw JSONReadError(
            message:
                "a string has more than \(maxNonStarters) combining marks in a row (text must be Stream-Safe, UAX #15)",
            offset: stringStart, isUnsafeText: true)
    }

    private mutating func readHex4() throws(JSONReadError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Self.hexValue(bytes[index]) else { throw error("invalid \\u escape") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func readUnicodeEscape() throws(JSONReadError) -> Unicode.Scalar {
        let first = try readHex4()
        if (0xDC00...0xDFFF).contains(first) { throw error("lone low surrogate") }
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("lone high surrogate") }
            index += 2
            let second = try readHex4()
            guard (0xDC00...0xDFFF).contains(second) else { throw error("invalid surrogate pair") }
            let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            return Unicode.Scalar(combined)!
        }
        return Unicode.Scalar(first)!
    }

    private func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        for unit in UTF8.encode(scalar)! { bytes.append(unit) }
    }
}
