/// A JSON value as plugins see requests and build responses: our own type, so the wire codec can be
/// replaced without touching any plugin. Objects keep their members in order, which makes responses
/// byte-stable; numbers keep their source text, so an `id` is echoed exactly as sent.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type name, for error messages ("expected a string, got a number").
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    public var objectValue: JSONObject? {
        if case .object(let value) = self { value } else { nil }
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public var numberValue: JSONNumber? {
        if case .number(let value) = self { value } else { nil }
    }
}

/// A JSON number kept as its literal text (`1e2`, `-0.50`), with exact conversions on demand.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text as it appeared on the wire, or as produced by `init(_:)`.
    public let text: String

    /// Wraps text that is already a valid JSON number literal.
    public init(literal text: String) {
        self.text = text
    }

    public init(_ value: Int) {
        self.text = String(value)
    }

    /// A finite double; infinities and NaN have no JSON spelling and become `0`.
    public init(_ value: Double) {
        if !value.isFinite {
            self.text = "0"
        } else if value == value.rounded(), abs(value) < 1e15 {
            self.text = String(Int(value))
        } else {
            self.text = String(value)
        }
    }

    /// The value as a `Double`, or nil when it is out of a double's range: it overflows to infinity
    /// (`1e999999`) or a non-zero literal underflows to zero (`1e-999999`).
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        if value == 0, mantissaIsNonZero { return nil }
        return value
    }

    /// The literal for decimal arithmetic (ICU's number formatting), or nil when it is out of a double's
    /// range. A zero keeps its digits but loses its exponent (`0e9999999999` → `0`), which decimal
    /// libraries refuse past a limit of their own, and its sign (`-0.0` → `0.0`): zero has no sign in a count.
    public var decimalText: String? {
        guard doubleValue != nil else { return nil }
        guard !mantissaIsNonZero else { return text }
        var zero = Substring(text)
        if let exponent = zero.utf8.firstIndex(where: { $0 | 0x20 == UInt8(ascii: "e") }) {
            zero = zero[..<exponent]
        }
        if zero.utf8.first == UInt8(ascii: "-") { zero = zero.dropFirst() }
        return String(zero)
    }

    /// Whether a digit before the exponent is not `0`.
    private var mantissaIsNonZero: Bool {
        for byte in text.utf8 {
            if byte | 0x20 == UInt8(ascii: "e") { return false }
            if byte > UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { return true }
        }
        return false
    }

    /// The value as an `Int` when it is integral and in range (`5`, `5.0`, `5e0`).
    public var intValue: Int? {
        if let exact = Int(text) { return exact }
        guard let value = doubleValue, value == value.rounded(), abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }

    public var description: String { text }
}

/// An ordered JSON object. Lookup is linear, which is fastest for the handful of members a request has.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var members: [Member]

    public init() {
        members = []
    }

    public init(_ members: [Member]) {
        self.members = members
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    /// The value of the last member with this key (duplicate keys: the last one wins, as in most parsers).
    /// Keys match byte for byte, never by canonical equivalence: they are protocol names.
    public subscript(key: String) -> JSONValue? {
        get {
            members.last(where: { $0.key.hasSameBytes(as: key) })?.value
        }
        set {
            if let index = members.lastIndex(where: { $0.key.hasSameBytes(as: key) }) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}

extension JSONValue {
    /// A string, or `null` when absent: the wire's spelling of an optional text.
    public init(_ optional: String?) {
        self = optional.map(JSONValue.string) ?? .null
    }

    public init(_ value: Int) {
        self = .number(JSONNumber(value))
    }

    public init(_ strings: [String]) {
        self = .array(strings.map(JSONValue.string))
    }
}
