/// Decodes `Decodable` types from a parsed `JSONValue`, so data files with Codable schemas load through the
/// daemon's own reader instead of Foundation's `JSONDecoder` (whose library alone costs the daemon about 4 MB of
/// resident memory). Failures are the standard library's `DecodingError`s, with the coding path.
public struct JSONValueDecoder {
    public init() {}

    /// The value decoded as `T`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: ValueDecoder(value: value, codingPath: []))
    }
}

/// A coding key for array positions and for the path of errors.
private struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch(JSONObject.self, "an object")
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([JSONValue].self, "an array")
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValue(value: value, codingPath: codingPath)
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected \(expected), got \(value.typeName)."))
    }
}

/// Scalars, shared by the three containers.
private enum Scalar {
    static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue, path: [any CodingKey]) throws -> T {
        func mismatch(_ expected: String) -> DecodingError {
            .typeMismatch(
                T.self, .init(codingPath: path, debugDescription: "Expected \(expected), got \(value.typeName)."))
        }
        switch type {
        case is String.Type:
            guard case .string(let text) = value else { throw mismatch("a string") }
            return text as! T
        case is Bool.Type:
            guard case .bool(let flag) = value else { throw mismatch("a boolean") }
            return flag as! T
        case let integer as any FixedWidthInteger.Type:
            guard case .number(let number) = value else { throw mismatch("a number") }
            guard let int = number.intValue, let exact = integer.init(exactly: int) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "The number \(number) is not a \(T.self)."))
            }
            return exact as! T
        case is Double.Type, is Float.Type:
            guard case .number(let number) = value else { throw mismatch("a number") }
            guard let double = number.doubleValue else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "The number \(number) is out of range."))
            }
            return (T.self == Float.self ? Float(double) as Any : double) as! T
        default:
            return try T(from: ValueDecoder(value: value, codingPath: path))
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        object[key.stringValue] != nil
    }

    private func value(_ key: Key) throws -> JSONValue {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "No value for key \"\(key.stringValue)\"."))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try value(key) { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try Scalar.decode(type, try value(key), path: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return try Scalar.decode(type, value, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: codingPath, debugDescription: "The array has no more elements."))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = elements[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try Scalar.decode(type, value, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next(JSONObject.self)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleValue: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Scalar.decode(type, value, path: codingPath)
    }
}
