/// An error that reaches the wire as `{"ok":false,"error":{"code","message","field",...}}`.
/// Every module's error enum conforms; `code` is a stable contract with callers, `message` is for people.
public protocol WireError: Error, Sendable {
    /// Stable, snake_case code (`invalid_field`, `invalid_date`, ...).
    var code: String { get }
    /// One sentence for people reading logs and `fmtq` output.
    var message: String { get }
    /// The request field at fault, when there is one.
    var field: String? { get }
    /// Extra members of the error object (`reason` for phone numbers); empty by default.
    var details: JSONObject { get }
}

extension WireError {
    public var field: String? { nil }
    public var details: JSONObject { [:] }
}

/// The core's error codes, shared by every op.
public enum CoreError: WireError, Equatable {
    /// The line is not JSON (or not UTF-8, or nested too deeply).
    case badJSON(String)
    /// JSON, but not a request: not an object, or `op` missing or not a string.
    case badRequest(String, field: String?)
    case unknownOp(String)
    /// A field has the wrong type or an unacceptable value.
    case invalidField(String, message: String)
    /// The line exceeds the configured maximum length.
    case tooLarge(limit: Int)
    /// An unfinished line took longer than the line timeout to arrive (a slowloris client); the connection closes.
    case lineTimeout(seconds: Int)
    /// The daemon is at a limit (connections) and refuses this client.
    case overloaded(String)
    /// The peer is not in the allowed uid/gid lists.
    case forbidden(String)
    /// A bug: reported, logged, never crashes the daemon.
    case `internal`(String)

    public var code: String {
        switch self {
        case .badJSON: "bad_json"
        case .badRequest: "bad_request"
        case .unknownOp: "unknown_op"
        case .invalidField: "invalid_field"
        case .tooLarge: "too_large"
        case .lineTimeout: "line_timeout"
        case .overloaded: "overloaded"
        case .forbidden: "forbidden"
        case .internal: "internal"
        }
    }

    public var message: String {
        switch self {
        case .badJSON(let detail): "The request is not valid JSON: \(detail)."
        case .badRequest(let detail, _): detail
        case .unknownOp(let op): "Unknown op \"\(op)\"; `fmtq info` lists the ops this daemon serves."
        case .invalidField(_, let message): message
        case .tooLarge(let limit): "The request line is longer than \(limit) bytes; it was discarded."
        case .lineTimeout(let seconds):
            "The request line was still unfinished after \(seconds) s; the connection is closed."
        case .overloaded(let detail): detail
        case .forbidden(let detail): detail
        case .internal(let detail): "Internal error: \(detail)."
        }
    }

    public var field: String? {
        switch self {
        case .badRequest(_, let field): field
        case .invalidField(let field, _): field
        default: nil
        }
    }
}
