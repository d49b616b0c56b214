import FmtCore
import Glibc

/// Why a call to the daemon produced no answer, or produced an error answer.
public enum FmtClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing accepted the connection at `path`: `reason` says why, `errno` is 0 when the path is too long.
    case unreachable(path: String, reason: String, errno: Int32)
    /// The daemon closed the connection before the answer was complete.
    case closed
    /// No answer within the connection's timeout.
    case timedOut
    /// The daemon sent a line that is not a JSON object.
    case malformedResponse(String)
    /// The daemon answered `"ok":false`.
    case daemon(FmtResponseError)
    /// The daemon answered `"ok":true`, but a member the op's result type reads is missing or of another type.
    case undecodable(FmtDecodingError)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason, _): "cannot reach fmtd at \(path): \(reason)"
        case .closed: "the daemon closed the connection before answering"
        case .timedOut: "no answer from the daemon within the timeout"
        case .malformedResponse(let line): "the daemon sent something that is not a JSON object: \(line)"
        case .daemon(let error): error.description
        case .undecodable(let error): error.description
        }
    }
}

/// An error response (`"ok":false`): the wire's `error` object.
public struct FmtResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable snake_case code, such as `bad_request`, `unknown_op` or `too_large`.
    public let code: String
    /// The human-readable explanation.
    public let message: String
    /// The request field at fault, such as `address.country`, when there is one.
    public let field: String?

    /// An error with the wire's members.
    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The `error` member of a response object, or nil when the response succeeded.
    public init?(response: JSONObject) {
        guard response["ok"] != .bool(true) else { return nil }
        let error = response["error"]?.objectValue ?? [:]
        code = error["code"]?.stringValue ?? ""
        message = error["message"]?.stringValue ?? ""
        field = error["field"]?.stringValue
    }

    public var description: String { "\(code): \(message)" + (field.map { " (field \($0))" } ?? "") }
}
