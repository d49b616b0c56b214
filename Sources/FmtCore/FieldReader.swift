/// Reads the members of one JSON object (a request, a nested object such as `address`, a data file's member)
/// with typed accessors. A wrong type or value is `invalid_field` naming the member by its dotted path
/// (`address.country`, `args.count`), with the message every op has always given; `null` reads as absent.
/// Member names match byte for byte; the last of duplicate members wins.
public struct FieldReader: Sendable {
    /// The object read.
    public let object: JSONObject
    /// The path of this object, ending in a dot (`address.`), or empty at the top of a request.
    private let prefix: String

    /// A reader of `object`, whose members are named `path.member` (or `member` when `path` is nil).
    public init(_ object: JSONObject, path: String? = nil) {
        self.object = object
        prefix = path.map { $0 + "." } ?? ""
    }

    /// How many members the object has, duplicates included.
    public var count: Int { object.count }

    /// The dotted path of a member, as errors name it.
    public func path(_ name: String) -> String {
        prefix.isEmpty ? name : prefix + name
    }

    /// The member's value; nil when absent or `null`.
    public subscript(name: String) -> JSONValue? {
        switch object[name] {
        case nil, .null?: nil
        case let value?: value
        }
    }

    /// A string member; nil when absent or `null`.
    public func string(_ name: String) throws(CoreError) -> String? {
        switch self[name] {
        case nil: return nil
        case .string(let value)?: return value
        case let other?: throw wrongType(name, expected: "a string", got: other)
        }
    }

    /// A string member that must be present, refused with `message` (default: "The field … is required.").
    public func required(_ name: String, message: String? = nil) throws(CoreError) -> String {
        guard let value = try string(name) else {
            throw .invalidField(path(name), message: message ?? "The field \"\(path(name))\" is required.")
        }
        return value
    }

    public func bool(_ name: String) throws(CoreError) -> Bool? {
        switch self[name] {
        case nil: return nil
        case .bool(let value)?: return value
        case let other?: throw wrongType(name, expected: "true or false", got: other)
        }
    }

    public func number(_ name: String) throws(CoreError) -> JSONNumber? {
        switch self[name] {
        case nil: return nil
        case .number(let value)?: return value
        case let other?: throw wrongType(name, expected: "a number", got: other)
        }
    }

    /// A string member naming one case of `type`, matched by bytes; another value is refused with the allowed
    /// list (`"full" is not a date style: use long, medium or short.`).
    public func `enum`<Value: RawRepresentable & CaseIterable>(
        _ name: String, as type: Value.Type, noun: String
    ) throws(CoreError) -> Value? where Value.RawValue == String {
        guard let text = try string(name) else { return nil }
        if let value = Value.allCases.first(where: { $0.rawValue.hasSameBytes(as: text) }) { return value }
        let names = Value.allCases.map(\.rawValue)
        let allowed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names[0]
        throw .invalidField(path(name), message: "\"\(text.prefix(32))\" is not \(noun): use \(allowed).")
    }

    /// A nested object member, read with this member's path (`address` → `address.country`).
    public func object(_ name: String) throws(CoreError) -> FieldReader? {
        switch self[name] {
        case nil: return nil
        case .object(let value)?: return FieldReader(value, path: path(name))
        case let other?: throw wrongType(name, expected: "an object", got: other)
        }
    }

    /// An array member whose every element `element` reads (nil from it refuses the element with its type).
    public func array<Element>(
        _ name: String, of element: (JSONValue) -> Element?, expected: String
    ) throws(CoreError) -> [Element]? {
        switch self[name] {
        case nil: return nil
        case .array(let values)?:
            var result: [Element] = []
            result.reserveCapacity(values.count)
            for value in values {
                guard let read = element(value) else {
                    throw .invalidField(
                        path(name),
                        message: "Every element of \"\(path(name))\" must be \(expected), got \(value.typeName).")
                }
                result.append(read)
            }
            return result
        case let other?: throw wrongType(name, expected: "an array", got: other)
        }
    }

    /// An array member of strings.
    public func strings(_ name: String) throws(CoreError) -> [String]? {
        try array(name, of: \.stringValue, expected: "a string")
    }

    /// A region member (`NL`, `nl`, `UK` → `GB`) as `Region(alpha2:)` reads it; another string is refused as
    /// not an ISO 3166-1 alpha-2 `noun` code, with `example`.
    public func region(_ name: String, noun: String = "region", example: String = "NL") throws(CoreError) -> Region? {
        guard let text = try string(name) else { return nil }
        guard let region = Region(alpha2: text) else {
            throw .invalidField(
                path(name),
                message: "\"\(text.prefix(16))\" is not an ISO 3166-1 alpha-2 \(noun) code (e.g. \(example)).")
        }
        return region
    }

    /// The member resolved to a supported language, defaulting to English when absent.
    public func locale(_ resolver: LocaleResolver, field name: String = "locale") throws(CoreError) -> ResolvedLocale {
        guard let tag = try string(name) else { return resolver.resolve(LanguageTag.english) }
        return try resolver.resolve(tag, field: path(name))
    }

    /// `invalid_field` for a member of the wrong JSON type: `The field "x" must be a string, got number.`
    public func wrongType(_ name: String, expected: String, got value: JSONValue) -> CoreError {
        .invalidField(path(name), message: "The field \"\(path(name))\" must be \(expected), got \(value.typeName).")
    }
}
