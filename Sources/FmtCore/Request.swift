/// One decoded request: its op, the caller's `id` (echoed verbatim) and its fields, read with a `FieldReader`
/// that turns a wrong type into `invalid_field` naming the field.
public struct Request: Sendable {
    /// The op and id of a request made from a tree; nil for one read flat from its line (`fields` has them).
    /// Boxed, so a flat request (every one a client sends) copies and destroys one word for it, not a tuple.
    private let envelope: Envelope?

    private final class Envelope: Sendable {
        let op: String
        let id: JSONValue

        init(op: String, id: JSONValue) {
            self.op = op
            self.id = id
        }
    }
    /// A flat request's `op` member: its entry in the record.
    package let opEntry: Int
    /// The request's members, `op` and `id` included.
    public let fields: RequestFields

    public var op: String {
        if let envelope { return envelope.op }
        guard case .flat(let record, _) = fields.storage else { return "" }
        return record.string(opEntry)
    }

    public var id: JSONValue {
        if let envelope { return envelope.id }
        guard case .flat(let record, _) = fields.storage, record.rootId >= 0 else { return .null }
        return record.value(record.rootId)
    }

    public init(op: String, id: JSONValue = .null, fields: JSONObject) {
        envelope = Envelope(op: op, id: id)
        opEntry = -1
        self.fields = FieldReader(fields)
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

    /// Decodes one request line as the dispatcher does: read flat, its values made only when read, or, for a line
    /// the flat reading leaves to `JSONReader` (an error among them), through `JSONReader` and `init(_:)`, whose
    /// `JSONReadError` or `CoreError` is thrown.
    package init(line: UnsafeBufferPointer<UInt8>) throws {
        do {
            self = try Self.decode(line, into: RequestRecord())
        } catch let refusal as Refusal {
            throw refusal.error
        }
    }

    /// A line that is JSON but no request (not an object, or its `op` missing or not a string): why, and the `id`
    /// the object sent (`null` when it sent none), which the answer echoes as every other error's does.
    package struct Refusal: Error {
        package let error: CoreError
        package let id: JSONValue
    }

    /// As `init(line:)`, reading into `record`; a line that is JSON but no request throws a `Refusal`.
    package static func decode(_ line: UnsafeBufferPointer<UInt8>, into record: RequestRecord) throws -> Request {
        if record.scan(line), let request = Request(record: record) { return request }
        let value = try JSONReader.parse(line)
        do {
            return try Request(value)
        } catch {
            throw Refusal(error: error, id: value.objectValue?["id"] ?? .null)
        }
    }

    /// A request read flat from `record`, which has scanned its line: nil unless the line is an object with a
    /// string `op` (the tree's `init(_:)` then says what is wrong).
    init?(record: RequestRecord) {
        let op = record.rootOp
        guard record.kind(0) == .object, op >= 0, record.kind(op) == .string else { return nil }
        envelope = nil
        opEntry = op
        fields = FieldReader(storage: .flat(record, 0), path: nil, failures: RequestFailures())
    }

    /// Whether the request was read flat (from the record that `Dispatcher` read its line into).
    package var isFlat: Bool { envelope == nil }

    /// A flat request's record, whose entry `opEntry` is the op.
    var record: RequestRecord? {
        guard envelope == nil, case .flat(let record, _) = fields.storage else { return nil }
        return record
    }

    /// Writes `{"id":…,"ok":true`, the `id` as `JSONWriter` writes the tree's (`null` when absent).
    package func writeEnvelope(to writer: inout ResponseWriter) {
        if let record {
            record.writeEnvelope(id: record.rootId >= 0 ? record.rootId : nil, to: &writer)
        } else {
            writer.flush()
            ResponseLine.appendEnvelope(id: id, to: &writer.storage)
        }
    }
}
