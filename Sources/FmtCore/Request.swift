/// One decoded request: its op, the caller's `id` (echoed verbatim) and its fields, with typed accessors
/// that turn a wrong type into `invalid_field` naming the field.
public struct Request: Sendable {
    public let op: String
    public let id: JSONValue
    public let fields: JSONObject

    public init(op: String, id: JSONValue = .null, fields: JSONObject) {
        self.op = op
        self.id = id
        self.fields = fields
    }

    /// Decodes the envelope of a parsed line: it must be an object with a string `op`.
    public init(_ value: JSONValue) throws(CoreError) {
        guard case .object(let object) = value else {
            throw .badRequest("A request must be a JSON object, got \(value.typeName).", field: nil)
        }
        let id = object["id"] ?? .null
        guard let opValue = object["op"] else {
            throw .badRequest("The request has no \"op\" field.", field: "op")
        }
        guard case .string(let op) = opValue else {
            throw .badRequest("The field \"op\" must be a string, got \(opValue.typeName).", field: "op")
        }
        self.init(op: op, id: id, fields: object)
    }

    public subscript(name: String) -> JSONValue? {
        fields[name]
    }

    /// A string field; nil when absent or `null`.
    public func string(_ name: String) throws(CoreError) -> String? {
        switch fields[name] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        case let other?: throw Self.wrongType(name, expected: "a string", got: other)
        }
    }

    public func requiredString(_ name: String) throws(CoreError) -> String {
        guard let value = try string(name) else {
            throw .invalidField(name, message: "The field \"\(name)\" is required.")
        }
        return value
    }

    public func bool(_ name: String) throws(CoreError) -> Bool? {
        switch fields[name] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        case let other?: throw Self.wrongType(name, expected: "true or false", got: other)
        }
    }

    public func object(_ name: String) throws(CoreError) -> JSONObject? {
        switch fields[name] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        case let other?: throw Self.wrongType(name, expected: "an object", got: other)
        }
    }

    public func array(_ name: String) throws(CoreError) -> [JSONValue]? {
        switch fields[name] {
        case nil, .null?: return nil
        case .array(let value)?: return value
        case let other?: throw Self.wrongType(name, expected: "an array", got: other)
        }
    }

    /// An array whose every element is a string.
    public func strings(_ name: String) throws(CoreError) -> [String]? {
        guard let values = try array(name) else { return nil }
        var result: [String] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard case .string(let text) = value else {
                throw .invalidField(
                    name, message: "Every element of \"\(name)\" must be a string, got \(value.typeName).")
            }
            result.append(text)
        }
        return result
    }

    public func number(_ name: String) throws(CoreError) -> JSONNumber? {
        switch fields[name] {
        case nil, .null?: return nil
        case .number(let value)?: return value
        case let other?: throw Self.wrongType(name, expected: "a number", got: other)
        }
    }

    /// The `locale` field resolved to a supported language, defaulting to English when absent.
    public func locale(_ resolver: LocaleResolver, field: String = "locale") throws(CoreError) -> ResolvedLocale {
        guard let tag = try string(field) else { return resolver.resolve(LanguageTag.english) }
        return try resolver.resolve(tag, field: field)
    }

    public static func wrongType(_ name: String, expected: String, got value: JSONValue) -> CoreError {
        .invalidField(name, message: "The field \"\(name)\" must be \(expected), got \(value.typeName).")
    }
}
