/// One decoded request: its op, the caller's `id` (echoed verbatim) and its fields, read with a `FieldReader`
/// that turns a wrong type into `invalid_field` naming the field.
public struct Request: Sendable {
    public let op: String
    public let id: JSONValue
    /// The request's members, `op` and `id` included.
    public let fields: RequestFields

    public init(op: String, id: JSONValue = .null, fields: JSONObject) {
        self.op = op
        self.id = id
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
}
