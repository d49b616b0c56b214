/// Serialises `JSONValue`s compactly and deterministically (members in their given order, no spaces),
/// appending to a byte buffer so a response line is built without intermediate strings.
public enum JSONWriter {
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: appendLiteral("null", to: &out)
        case .bool(let flag): appendLiteral(flag ? "true" : "false", to: &out)
        case .number(let number): out.append(contentsOf: number.text.utf8)
        case .string(let text): appendString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            appendMembers(object, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `"k":v,...` without braces, so an envelope can prefix its own members.
    public static func appendMembers(_ object: JSONObject, to out: inout [UInt8]) {
        for (offset, member) in object.members.enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            appendString(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            append(member.value, to: &out)
        }
    }

    /// Appends a literal's bytes with one copy (the generic `append(contentsOf: String.UTF8View)` costs ~20 ns).
    @inlinable
    public static func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Hands `body` an integer's decimal text (with its `-`), put together on the stack: `String(value)` builds a
    /// string to copy.
    @inlinable
    public static func withDecimalDigits<Result>(
        _ value: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var magnitude = value.magnitude
            var index = 21
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                digits[index] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: digits[index..<21]))
        }
    }

    /// Strings up to this many bytes are quoted on the stack.
    private static let shortString = 126

    public static func appendString(_ text: String, to out: inout [UInt8]) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { appendString(utf8: $0, to: &out) }
        if copied == nil {
            out.append(UInt8(ascii: "\""))
            for byte in text.utf8 { appendEscaped(byte, to: &out) }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Appends UTF-8 text (ICU's output written on the stack, say) as a JSON string, without making a `String`.
    public static func appendString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Most strings are short and need no escape: quoted on the stack, they take one append instead of three.
        if bytes.count <= shortString, ByteScan.needsNoEscape(bytes) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: shortString + 2) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                if let base = bytes.baseAddress {
                    UnsafeMutableRawPointer(buffer.baseAddress! + 1).copyMemory(from: base, byteCount: bytes.count)
                }
                buffer[bytes.count + 1] = UInt8(ascii: "\"")
                out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<bytes.count + 2]))
            }
            return
        }
        out.append(UInt8(ascii: "\""))
        // Fast path: copy runs without escapes in bulk; a byte-by-byte append dominated response encoding.
        var runStart = 0
        for (offset, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<offset]))
            appendEscaped(byte, to: &out)
            runStart = offset + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        out.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        if byte < 0x20 || byte == 0x22 || byte == 0x5C {
            withEscape(of: byte) { out.append(contentsOf: $0) }
        } else {
            out.append(byte)
        }
    }

    /// Lends `body` the escape JSON writes for `byte`, a control character, `"` or `\`: `\"`, `\\`, `\n`, `\r`,
    /// `\t`, or `\u00xx` (lowercase hex). The one table of escapes, for every writer of JSON strings.
    static func withEscape<Result>(of byte: UInt8, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }
        var escape: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex(byte >> 4), hex(byte & 0xF)
        )
        var count = 2
        switch byte {
        case 0x22, 0x5C: escape.1 = byte
        case 0x0A: escape.1 = UInt8(ascii: "n")
        case 0x0D: escape.1 = UInt8(ascii: "r")
        case 0x09: escape.1 = UInt8(ascii: "t")
        default: count = 6
        }
        return withUnsafeBytes(of: &escape) {
            body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    public static func encode(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    public static func string(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}
