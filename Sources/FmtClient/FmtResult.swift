import FmtCore

/// Why a success response could not be read as its op's result type: a member the type reads is missing, or holds
/// another JSON type than the protocol says.
public struct FmtDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable kind of failure.
    public enum Code: String, Sendable, Equatable {
        /// A member the protocol always sends is absent.
        case missingMember = "missing_member"
        /// A member holds another JSON type (or, for a pair such as a name-search range, another shape).
        case wrongType = "wrong_type"
        /// The op has no result type in this client (a newer daemon's op): read the response object instead.
        case unknownOp = "unknown_op"
    }

    /// What went wrong, with a stable snake_case `rawValue`.
    public let code: Code
    /// The op whose answer was read, such as `phone`.
    public let op: String
    /// Where in the answer, as a path of wire names and indexes: `fields[2].label`.
    public let member: String
    /// What the member should hold: `a string`, `an integer`, `a string or null`, …
    public let expected: String

    /// A decoding failure of `op`'s answer at `member`.
    public init(code: Code, op: String, member: String, expected: String) {
        self.code = code
        self.op = op
        self.member = member
        self.expected = expected
    }

    public var description: String {
        switch code {
        case .missingMember: "\(code.rawValue): the \(op) answer has no \(member) (\(expected))"
        case .wrongType: "\(code.rawValue): \(member) of the \(op) answer is not \(expected)"
        case .unknownOp: "\(code.rawValue): this client has no result type for \(op)"
        }
    }
}

/// One success answer of an op, decoded into Swift members named as on the wire.
///
/// Every result keeps the decoded line as `raw` (with `id` and `ok`), so a member added to the protocol later is
/// reachable before the type grows a property for it; `members` writes the typed properties back in wire order,
/// which is how the tests prove no member of a recorded answer goes unread.
public protocol FmtResult: Sendable, Equatable {
    /// The op whose answers this type reads.
    static var op: String { get }
    /// The response object as the daemon sent it, `id` and `ok` included.
    var raw: JSONObject { get }
    /// Reads a success response of `op`.
    init(response: JSONObject) throws(FmtDecodingError)
    /// The typed properties written back as the response's members after `id` and `ok`, in wire order.
    var members: JSONObject { get }
}

extension FmtResult {
    /// Reads a success response line (its bytes, without the newline).
    public init(line: [UInt8]) throws(FmtClientError) {
        let object = try FmtConnection.decode(line)
        if let error = FmtResponseError(response: object) { throw .daemon(error) }
        do {
            try self.init(response: object)
        } catch {
            throw .undecodable(error)
        }
    }
}

/// The result type of each op, by the op's wire name.
public enum FmtResults {
    /// Every result type, `phoneExample` sharing `phone`'s.
    public static let byOp: [String: any FmtResult.Type] = [
        "ping": DaemonVersion.self, "info": DaemonInfo.self, "stats": DaemonStats.self, "phone": PhoneDisplay.self,
        "phoneMatch": PhoneMatchResult.self, "phoneExample": PhoneDisplay.self, "date": FormattedDate.self,
        "address": FormattedAddress.self, "addressFormat": AddressFormatDescription.self, "sort": SortedNames.self,
        "sortKey": SortKeys.self, "searchForm": SearchForms.self, "nameSearch": NameMatches.self,
        "language": LanguageResolution.self, "plural": PluralCategory.self, "message": RenderedMessage.self,
    ]

    /// A success response of `op` decoded as its result type.
    public static func decode(_ response: JSONObject, op: String) throws(FmtDecodingError) -> any FmtResult {
        guard let type = byOp[op] else {
            throw FmtDecodingError(code: .unknownOp, op: op, member: "op", expected: "an op with a result type")
        }
        return try type.init(response: response)
    }
}

/// Reads the members of one response object (or a nested object), naming each failure by its path.
struct WireReader {
    let object: JSONObject
    let op: String
    let path: String

    init(_ object: JSONObject, op: String, path: String = "") {
        self.object = object
        self.op = op
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func wrongType(_ name: String, _ expected: String) -> FmtDecodingError {
        FmtDecodingError(code: .wrongType, op: op, member: name, expected: expected)
    }

    /// The member's value; absent is `missing_member`.
    func value(_ key: String, _ expected: String) throws(FmtDecodingError) -> JSONValue {
        guard let value = object[key] else {
            throw FmtDecodingError(code: .missingMember, op: op, member: name(key), expected: expected)
        }
        return value
    }

    /// `value` converted, or `wrong_type` naming `name`.
    func convert<T>(
        _ value: JSONValue, _ name: String, _ expected: String, _ conversion: (JSONValue) -> T?
    ) throws(FmtDecodingError) -> T {
        guard let converted = conversion(value) else { throw wrongType(name, expected) }
        return converted
    }

    func member<T>(
        _ key: String, _ expected: String, _ conversion: (JSONValue) -> T?
    ) throws(FmtDecodingError) -> T {
        try convert(try value(key, expected), name(key), expected, conversion)
    }

    /// A member that is present and may be `null`.
    func nullable<T>(
        _ key: String, _ expected: String, _ conversion: (JSONValue) -> T?
    ) throws(FmtDecodingError) -> T? {
        let value = try value(key, expected + " or null")
        if value == .null { return nil }
        return try convert(value, name(key), expected + " or null", conversion)
    }

    /// A member the protocol sends only in some answers: absent is nil, present must convert.
    func optional<T>(
        _ key: String, _ expected: String, _ conversion: (JSONValue) -> T?
    ) throws(FmtDecodingError) -> T? {
        guard let value = object[key] else { return nil }
        return try convert(value, name(key), expected, conversion)
    }

    func string(_ key: String) throws(FmtDecodingError) -> String { try member(key, "a string", \.stringValue) }
    func bool(_ key: String) throws(FmtDecodingError) -> Bool { try member(key, "a boolean", \.boolValue) }
    func int(_ key: String) throws(FmtDecodingError) -> Int { try member(key, "an integer", Self.int) }
    func double(_ key: String) throws(FmtDecodingError) -> Double { try member(key, "a number", Self.double) }
    func strings(_ key: String) throws(FmtDecodingError) -> [String] {
        try elements(key, "a string", \.stringValue)
    }

    /// An array member, each element converted (a failing element is named by its index).
    func elements<T>(
        _ key: String, _ expected: String, _ conversion: (JSONValue) -> T?
    ) throws(FmtDecodingError) -> [T] {
        let items = try member(key, "an array", \.arrayValue)
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            result.append(try convert(item, name(key) + "[\(index)]", expected, conversion))
        }
        return result
    }

    /// A nested object member.
    func object(_ key: String) throws(FmtDecodingError) -> WireReader {
        WireReader(try member(key, "an object", \.objectValue), op: op, path: name(key))
    }

    /// An array of objects, each read by `read`.
    func objects<T>(
        _ key: String, _ read: (WireReader) throws(FmtDecodingError) -> T
    ) throws(FmtDecodingError) -> [T] {
        let items = try member(key, "an array", \.arrayValue)
        var result: [T] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let itemName = name(key) + "[\(index)]"
            let object = try convert(item, itemName, "an object", \.objectValue)
            result.append(try read(WireReader(object, op: op, path: itemName)))
        }
        return result
    }

    /// Each member of an object member, read by `read` with its key (an op's counters, a language's names).
    func entries<T>(
        _ key: String, _ read: (String, WireReader) throws(FmtDecodingError) -> T
    ) throws(FmtDecodingError) -> [T] {
        let entries = try object(key)
        var result: [T] = []
        for entry in entries.object {
            let entryName = entries.name(entry.key)
            let object = try convert(entry.value, entryName, "an object", \.objectValue)
            result.append(try read(entry.key, WireReader(object, op: op, path: entryName)))
        }
        return result
    }

    static func int(_ value: JSONValue) -> Int? {
        guard let number = value.numberValue, Int(number.text) != nil else { return nil }
        return number.intValue
    }

    static func double(_ value: JSONValue) -> Double? { value.numberValue?.doubleValue }

    /// `[a, b]`: a pair of numbers.
    static func pair<A, B>(
        _ value: JSONValue, _ first: (JSONValue) -> A?, _ second: (JSONValue) -> B?
    ) -> (A, B)? {
        guard let items = value.arrayValue, items.count == 2, let a = first(items[0]), let b = second(items[1]) else {
            return nil
        }
        return (a, b)
    }
}

extension JSONValue {
    /// A number, for a result's `members`.
    init(_ value: Double) {
        self = .number(JSONNumber(value))
    }

    /// A number or `null`.
    init(_ value: Int?) {
        self = value.map { JSONValue($0) } ?? .null
    }

    /// A number or `null`.
    init(_ value: Double?) {
        self = value.map { JSONValue($0) } ?? .null
    }

    /// A boolean or `null`.
    init(_ value: Bool?) {
        self = value.map { .bool($0) } ?? .null
    }

    /// An array of numbers.
    init(_ values: [Int]) {
        self = .array(values.map { JSONValue($0) })
    }
}

extension JSONObject {
    /// Appends `value` under `key` when there is one: a member the protocol sends only in some answers.
    mutating func appendPresent(_ key: String, _ value: JSONValue?) {
        if let value { append(key, value) }
    }
}
