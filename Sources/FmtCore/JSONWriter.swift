/// Serialises `JSONValue`s compactly and deterministically (members in their given order, no spaces),
/// appending to a byte buffer so a response line is built without intermediate strings.
public enum JSONWriter {
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
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

    public static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
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
