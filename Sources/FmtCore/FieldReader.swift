/// How a `FieldReader` spells its failures: the wire's `invalid_field` for request fields, a `DataError` naming
/// the file for data-file members. Paths are dotted (`address.country`, `formats.BE.lines`).
public protocol FieldFailures: Sendable {
    associatedtype Failure: Error
    /// Whether `null` reads as an absent member (requests) or as a value of the wrong type (data files).
    static var nullIsAbsent: Bool { get }
    /// A member of the wrong JSON type.
    func wrongType(_ path: String, expected: String, got value: JSONValue) -> Failure
    /// A required member that is absent or `null`.
    func missing(_ path: String) -> Failure
    /// A member whose value is refused, with the whole message (request) or problem (data file).
    func invalid(_ path: String, _ message: String) -> Failure
}

/// Request fields: `invalid_field` with `The field "x" must be a string, got number.` and the like.
public struct RequestFailures: FieldFailures {
    public static let nullIsAbsent = true

    @inlinable
    public init() {}

    @inlinable
    public func wrongType(_ path: String, expected: String, got value: JSONValue) -> CoreError {
        .invalidField(path, message: "The field \"\(path)\" must be \(expected), got \(value.typeName).")
    }

    @inlinable
    public func missing(_ path: String) -> CoreError {
        .invalidField(path, message: "The field \"\(path)\" is required.")
    }

    @inlinable
    public func invalid(_ path: String, _ message: String) -> CoreError {
        .invalidField(path, message: message)
    }
}

/// Data-file members: `DataError`s naming the file and member (`address-formats.json: formats.BE.oneLine: …`).
public struct DataFailures: FieldFailures {
    public static let nullIsAbsent = false

    /// The file named in errors.
    public let file: String

    @inlinable
    public init(file: String) {
        self.file = file
    }

    @inlinable
    public func wrongType(_ path: String, expected: String, got value: JSONValue) -> DataError {
        DataError(file: file, field: path, "must be \(expected), got \(value.typeName)")
    }

    @inlinable
    public func missing(_ path: String) -> DataError {
        DataError(file: file, field: path, "is required")
    }

    @inlinable
    public func invalid(_ path: String, _ message: String) -> DataError {
        DataError(file: file, field: path.isEmpty ? nil : path, message)
    }
}

/// A reader of request fields.
public typealias RequestFields = FieldReader<RequestFailures>
/// A reader of a data file's members.
public typealias DataFields = FieldReader<DataFailures>

/// One member's value (or its absence) with its dotted path, read with typed accessors; `null` reads as absent
/// where `Failures.nullIsAbsent` says so.
/// An `or problem` argument replaces the message of a wrong type, for data files whose messages say what the
/// member must be.
public struct FieldValue<Failures: FieldFailures>: Sendable {
    public typealias Failure = Failures.Failure

    /// The value; nil when absent (or `null`, for request fields).
    public let value: JSONValue?
    /// The member's name, or its whole path when `prefix` is empty.
    @usableFromInline let name: String
    /// The path of the object holding it.
    @usableFromInline let prefix: FieldPrefix
    /// How failures are spelled.
    public let failures: Failures

    @inlinable
    public init(_ value: JSONValue?, path: String, failures: Failures) {
        self.init(value, name: path, prefix: FieldPrefix(), failures: failures)
    }

    @inlinable
    init(_ value: JSONValue?, name: String, prefix: FieldPrefix, failures: Failures) {
        if Failures.nullIsAbsent, case .null? = value { self.value = nil } else { self.value = value }
        self.name = name
        self.prefix = prefix
        self.failures = failures
    }

    /// The member's dotted path (`address.country`, `formats.BE.lines`), built only when asked (for errors).
    @inlinable
    public var path: String {
        prefix.path(name)
    }

    @inlinable
    public func string(or problem: String? = nil) throws(Failure) -> String? {
        switch value {
        case nil: return nil
        case .string(let text)?: return text
        case let other?: throw wrongType(expected: "a string", got: other, problem)
        }
    }

    @inlinable
    public func bool(or problem: String? = nil) throws(Failure) -> Bool? {
        switch value {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?: throw wrongType(expected: "true or false", got: other, problem)
        }
    }

    @inlinable
    public func number(or problem: String? = nil) throws(Failure) -> JSONNumber? {
        switch value {
        case nil: return nil
        case .number(let number)?: return number
        case let other?: throw wrongType(expected: "a number", got: other, problem)
        }
    }

    /// A nested object, read with this member's path (`address` → `address.country`).
    @inlinable
    public func object(or problem: String? = nil) throws(Failure) -> FieldReader<Failures>? {
        switch value {
        case nil: return nil
        case .object(let object)?:
            return FieldReader(storage: .tree(object), prefix: prefix.nested(name), failures: failures)
        case let other?: throw wrongType(expected: "an object", got: other, problem)
        }
    }

    /// An array's elements, each with its path (`lines[0]`).
    @inlinable
    public func array(or problem: String? = nil) throws(Failure) -> [FieldValue]? {
        switch value {
        case nil: return nil
        case .array(let values)?:
            return values.enumerated().map { FieldValue($1, path: "\(path)[\($0)]", failures: failures) }
        case let other?: throw wrongType(expected: "an array", got: other, problem)
        }
    }

    /// A failure for this member: `problem`, or the wrong-type message for `expected`.
    @inlinable
    public func wrongType(expected: String, got value: JSONValue, _ problem: String? = nil) -> Failure {
        problem.map { failures.invalid(path, $0) } ?? failures.wrongType(path, expected: expected, got: value)
    }

    /// A failure for this member's value, with its message.
    @inlinable
    public func invalid(_ message: String) -> Failure {
        failures.invalid(path, message)
    }
}

/// Reads the members of one JSON object (a request, a nested object such as `address`, a data file or one of
/// its members) with typed accessors. A wrong type or value fails as `Failures` spells it, naming the member by
/// its dotted path (`address.country`, `args.count`); in a request `null` reads as absent. Member names match byte for byte;
/// the last of duplicate members wins.
public struct FieldReader<Failures: FieldFailures>: Sendable {
    public typealias Failure = Failures.Failure
    /// One member's value, as `member(_:)` gives it.
    public typealias Value = FieldValue<Failures>

    /// The object read, as a tree (a request's members are read flat, and made into a tree only when asked).
    @inlinable
    public var object: JSONObject { storage.object }
    /// How failures are spelled.
    public let failures: Failures
    /// The path of this object's members (`address.`, empty at the top), joined only when an error names one.
    @usableFromInline let prefix: FieldPrefix
    @usableFromInline let storage: FieldStorage

    /// A reader of `object`, whose members are named `path.member` (or `member` when `path` is nil).
    @inlinable
    public init(_ object: JSONObject, path: String? = nil, failures: Failures) {
        self.init(storage: .tree(object), path: path, failures: failures)
    }

    @inlinable
    init(storage: FieldStorage, path: String?, failures: Failures) {
        self.init(storage: storage, prefix: FieldPrefix(path: path), failures: failures)
    }

    @inlinable
    init(storage: FieldStorage, prefix: FieldPrefix, failures: Failures) {
        self.storage = storage
        self.failures = failures
        self.prefix = prefix
    }

    /// How many members the object has, duplicates included.
    @inlinable
    public var count: Int { storage.count }

    /// Every member in order, duplicates included, with its name.
    public var members: [(name: String, value: FieldValue<Failures>)] {
        storage.members.map { ($0.name, FieldValue($0.value, name: $0.name, prefix: prefix, failures: failures)) }
    }

    /// The dotted path of a member, as errors name it.
    @inlinable
    public func path(_ name: String) -> String {
        prefix.path(name)
    }

    /// A member (the last of that name), for the typed accessors of `FieldValue`.
    @inlinable
    public func member(_ name: String) -> FieldValue<Failures> {
        FieldValue(storage.value(name), name: name, prefix: prefix, failures: failures)
    }

    /// The member's value; nil when absent (or `null`, for request fields).
    @inlinable
    public subscript(name: String) -> JSONValue? {
        switch storage.value(name) {
        case .null? where Failures.nullIsAbsent: nil
        case let value: value
        }
    }

    /// A string member; nil when absent.
    @inlinable
    public func string(_ name: String, or problem: String? = nil) throws(Failure) -> String? {
        switch storage.textMember(name) {
        case .string(let text): return String(decoding: text, as: UTF8.self)
        case .absent: return nil
        case .null, .other: break
        }
        switch self[name] {
        case nil: return nil
        case .string(let text)?: return text
        case .some: return try member(name).string(or: problem)
        }
    }

    /// A string member that must be present; absent, it fails with `message` (by default "The field … is
    /// required." for a request, "is required" in a data file), of another type as `string(_:or:)` does.
    @inlinable
    public func required(_ name: String, message: String? = nil, or problem: String? = nil) throws(Failure) -> String {
        guard let value = try string(name, or: problem) else {
            throw message.map { failures.invalid(path(name), $0) } ?? failures.missing(path(name))
        }
        return value
    }

    @inlinable
    public func bool(_ name: String, or problem: String? = nil) throws(Failure) -> Bool? {
        switch self[name] {
        case nil: return nil
        case .bool(let flag)?: return flag
        case .some: return try member(name).bool(or: problem)
        }
    }

    @inlinable
    public func number(_ name: String, or problem: String? = nil) throws(Failure) -> JSONNumber? {
        try member(name).number(or: problem)
    }

    /// A string member naming one case of `type`, matched by bytes; another value is refused with the allowed
    /// list (`"full" is not a date style: use long, medium or short.`).
    @inlinable
    public func `enum`<Value: RawRepresentable & CaseIterable>(
        _ name: String, as type: Value.Type, noun: String
    ) throws(Failure) -> Value? where Value.RawValue == String {
        // The member's bytes where they lie against each case's, without making a `String` of them or hashing it;
        // `textMember` is out of line, so this holds no reference of the record.
        switch storage.textMember(name) {
        case .string(let text):
            for value in Value.allCases {
                var raw = value.rawValue
                if raw.utf8.count == text.count, raw.withUTF8({ $0.hasSameBytes(as: text) }) { return value }
            }
        case .absent: return nil
        case .null, .other: break
        }
        guard let text = try string(name) else { return nil }
        if let value = Value(rawValue: text), value.rawValue.hasSameBytes(as: text) { return value }
        let names = Value.allCases.map(\.rawValue)
        let allowed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names[0]
        throw failures.invalid(path(name), "\"\(text.prefix(32))\" is not \(noun): use \(allowed).")
    }

    /// A nested object member, read with this member's path (`address` → `address.country`).
    @inlinable
    public func object(_ name: String, or problem: String? = nil) throws(Failure) -> FieldReader? {
        if let nested = storage.objectMember(name) {
            return FieldReader(storage: nested, prefix: prefix.nested(name), failures: failures)
        }
        switch self[name] {
        case nil: return nil
        case .object(let object)?:
            return FieldReader(storage: .tree(object), prefix: prefix.nested(name), failures: failures)
        case .some: return try member(name).object(or: problem)
        }
    }

    /// An array member whose every element `element` reads; an element it refuses (nil) fails as not being
    /// `expected`.
    @inlinable
    public func array<Element>(
        _ name: String, of element: (JSONValue) -> Element?, expected: String
    ) throws(Failure) -> [Element]? {
        let values: [JSONValue]
        switch self[name] {
        case nil: return nil
        case .array(let array)?: values = array
        case let other?: throw wrongType(name, expected: "an array", got: other)
        }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let read = element(value) else {
                throw failures.invalid(
                    path(name), "Every element of \"\(path(name))\" must be \(expected), got \(value.typeName).")
            }
            result.append(read)
        }
        return result
    }

    /// An array member of strings.
    @inlinable
    public func strings(_ name: String) throws(Failure) -> [String]? {
        try array(name, of: \.stringValue, expected: "a string")
    }

    /// A region member (`NL`, `nl`, `UK` → `GB`) as `Region(alpha2:accepting:)` reads it; another string is
    /// refused as not a `noun` code the field accepts, with `example`.
    @inlinable
    public func region(
        _ name: String, accepting accepted: Region.Accepted = .territory, noun: String = "region",
        example: String = "NL"
    ) throws(Failure) -> Region? {
        if case .found(let region) = storage.regionMember(name, accepting: accepted) { return region }
        guard let text = try string(name) else { return nil }
        guard let region = Region(alpha2: text, accepting: accepted) else {
            let quoted = "\"\(text.prefix(16))\""
            let message: String
            switch accepted {
            case .territory: message = "\(quoted) is not an ISO 3166-1 alpha-2 \(noun) code (e.g. \(example))."
            case .territoryOrUnknown:
                message =
                    "\(quoted) is not an ISO 3166-1 alpha-2 \(noun) code (e.g. \(example)), nor ZZ for an unknown one."
            case .anyLetters:
                message = "\(quoted) is not a \(noun) code: two ASCII letters (e.g. \(example); ZZ for none)."
            }
            throw failures.invalid(path(name), message)
        }
        return region
    }

    /// The member resolved to a supported language, defaulting to English when absent: one tag, an array of tags
    /// in priority order, or an `Accept-Language` value (`LocalePriorityList`). A malformed list entry fails naming
    /// it by index (`locale[2]`).
    @inlinable
    public func locale(
        _ resolver: LocaleResolver, field name: String = "locale"
    ) throws(Failure) -> ResolvedLocale {
        // A string member is resolved from its bytes where they lie: no `String` unless the cache misses.
        switch storage.textMember(name) {
        case .absent: return resolver.english
        case .null where Failures.nullIsAbsent: return resolver.english
        case .string(let text):
            do throws(CoreError) {
                return try resolver.resolve(utf8: text, field: path(name))
            } catch {
                throw failures.invalid(error.field ?? path(name), error.message)
            }
        case .null, .other: break
        }
        let resolved: Result<ResolvedLocale, CoreError>
        switch self[name] {
        case nil: return resolver.english
        case .string(let text)?:
            resolved = Result { () throws(CoreError) in try resolver.resolve(text, field: path(name)) }
        case .array(let values)?:
            resolved = Result { () throws(CoreError) in try resolver.resolve(array: values, field: path(name)) }
        case let other?:
            throw wrongType(name, expected: "a string or an array of strings", got: other)
        }
        switch resolved {
        case .success(let locale): return locale
        case .failure(let error): throw failures.invalid(error.field ?? path(name), error.message)
        }
    }

    /// A failure for a member of the wrong JSON type: `The field "x" must be a string, got number.` in a
    /// request, `must be a string, got number` in a data file.
    @inlinable
    public func wrongType(_ name: String, expected: String, got value: JSONValue) -> Failure {
        failures.wrongType(path(name), expected: expected, got: value)
    }
}

/// The dotted path of an object's members (`address.`, `formats.BE.`), kept without its final dot, so that reading a
/// nested object of the root joins no `String`: only an error naming a member does.
@usableFromInline
struct FieldPrefix: Sendable {
    /// The path, without the final dot when `dotted` is false.
    @usableFromInline let head: String
    /// Whether `head` ends in its dot already (or is empty, for a root).
    @usableFromInline let dotted: Bool

    /// A root's: its members' paths are their names.
    @inlinable
    init() {
        self.init(head: "", dotted: true)
    }

    /// The prefix of the members of the object at `path` (nil for a root).
    @inlinable
    init(path: String?) {
        self.init(head: path ?? "", dotted: path == nil)
    }

    @inlinable
    init(head: String, dotted: Bool) {
        self.head = head
        self.dotted = dotted
    }

    /// The prefix as text, ending in a dot, or empty for a root.
    @inlinable
    var text: String {
        dotted ? head : head + "."
    }

    /// The prefix of the object named `member` in this one.
    @inlinable
    func nested(_ member: String) -> FieldPrefix {
        FieldPrefix(head: path(member), dotted: false)
    }

    /// The path of the member named `member`.
    @inlinable
    func path(_ member: String) -> String {
        guard dotted else { return head + "." + member }
        return head.isEmpty ? member : head + member
    }
}

/// Where a `FieldReader`'s members are: an object tree (data files, requests made in code), or one object of a
/// request line read flat (`RequestRecord`), whose values are made only as they are read.
@usableFromInline
enum FieldStorage: Sendable {
    case tree(JSONObject)
    /// The record, and the index of the object's entry in it.
    case flat(RequestRecord, Int)

    @usableFromInline
    var object: JSONObject {
        switch self {
        case .tree(let object): object
        case .flat(let record, let index): record.object(index)
        }
    }

    @usableFromInline
    var count: Int {
        switch self {
        case .tree(let object): object.count
        case .flat(let record, let index): record.count(index)
        }
    }

    @usableFromInline
    var members: [(name: String, value: JSONValue)] {
        switch self {
        case .tree(let object): object.members.map { ($0.key, $0.value) }
        case .flat(let record, let index): record.members(index)
        }
    }

    /// The value of the last member named `name`, or nil.
    @usableFromInline
    func value(_ name: String) -> JSONValue? {
        switch self {
        case .tree(let object): return object[name]
        case .flat(let record, let index):
            guard let member = record.member(name, in: index) else { return nil }
            return record.value(member)
        }
    }

    /// What `textMember(_:)` found. Internal, and read only by FmtCore's inlined readers within the call that
    /// asked (which lend the bytes on as a `Span`). Not made `~Escapable`: a result borrowing the storage has the
    /// caller retain the record around every lookup.
    @usableFromInline
    enum TextMember {
        /// The last member of that name is a string: its UTF-8, valid while the storage is.
        case string(UnsafeBufferPointer<UInt8>)
        /// There is no member of that name.
        case absent
        /// The last member of that name is `null`.
        case null
        /// Anything else (another type), or a tree: read through `value(_:)`.
        case other
    }

    /// The last member named `name` when it is a string, as the bytes of its text where they lie (flat storage
    /// only). Out of line, so the caller's code holds no reference of the record: a `switch` binding it in inlined
    /// code retained and released it around each lookup.
    @usableFromInline
    func textMember(_ name: String) -> TextMember {
        switch self {
        case .tree: return .other
        case .flat(let record, let index):
            guard let member = record.member(name, in: index) else { return .absent }
            switch record.kind(member) {
            case .string: return .string(record.text(member))
            case .null: return .null
            default: return .other
            }
        }
    }

    /// What `regionMember(_:accepting:)` found.
    @usableFromInline
    enum RegionMember {
        /// A string member that names a region, read from its bytes.
        case found(Region)
        /// Anything else: absent, another type, a string naming no region, or a tree (read through `String`).
        case other
    }

    /// The last member named `name` when it is a string naming a region (flat storage only).
    @usableFromInline
    func regionMember(_ name: String, accepting accepted: Region.Accepted) -> RegionMember {
        switch self {
        case .tree: return .other
        case .flat(let record, let index):
            guard let member = record.member(name, in: index), record.kind(member) == .string,
                let region = record.region(member, accepting: accepted)
            else { return .other }
            return .found(region)
        }
    }

    /// The last member named `name` when it is an object, read as this storage reads; nil otherwise.
    @usableFromInline
    func objectMember(_ name: String) -> FieldStorage? {
        switch self {
        case .tree(let object):
            guard case .object(let nested)? = object[name] else { return nil }
            return .tree(nested)
        case .flat(let record, let index):
            guard let member = record.member(name, in: index), record.kind(member) == .object else { return nil }
            return .flat(record, member)
        }
    }
}

extension FieldReader where Failures == RequestFailures {
    /// A reader of request fields.
    @inlinable
    public init(_ object: JSONObject, path: String? = nil) {
        self.init(object, path: path, failures: RequestFailures())
    }
}

extension FieldReader where Failures == DataFailures {
    /// A reader of a data file's root object (`path` nil) or of one of its members.
    @inlinable
    public init(_ object: JSONObject, path: String? = nil, file: String) {
        self.init(object, path: path, failures: DataFailures(file: file))
    }
}
