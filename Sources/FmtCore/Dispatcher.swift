import Glibc

/// Turns one request line into one response line: decodes the envelope, finds the op's plugin in the
/// current snapshot (or a built-in op), and writes the answer with the caller's `id` echoed (a plugin appends
/// its members straight to the output buffer through a `ResponseWriter`). It never
/// throws and never traps on input: every failure becomes an error response.
public final class Dispatcher: Sendable {
    /// The wire protocol version reported by `info`; it grows only by optional fields.
    public static let protocolVersion = 1

    /// A built-in op answered by the host rather than a plugin (`ping`, `info`, `stats`).
    public typealias BuiltinOp = @Sendable (Request) throws -> JSONObject

    /// Where an op goes, with its stats slot: one lookup per request. Plugins are addressed by their position,
    /// which is the same in every generation the registry loads.
    private enum Route: Sendable {
        case builtin(BuiltinOp, slot: Int)
        case plugin(index: Int, op: String, slot: Int)
    }

    /// Told of every `internal` answer (the op and the error's message), so a bug never goes unlogged.
    public typealias InternalErrorHandler = @Sendable (_ op: String, _ message: String) -> Void

    public let registry: PluginRegistry
    public let stats: RequestStats
    /// Every op served: the built-ins and the enabled plugins' ops.
    public let ops: [String]
    /// Keyed by the op's UTF-8 bytes: ops are ASCII, and a String key would normalise whatever a client sends.
    private let routes: [WireName: Route]
    private let onInternalError: InternalErrorHandler?

    public init(
        registry: PluginRegistry, builtins: [String: BuiltinOp], onInternalError: InternalErrorHandler? = nil
    ) {
        self.onInternalError = onInternalError
        self.registry = registry
        ops = Array(builtins.keys).sorted() + registry.ops
        stats = RequestStats(ops: ops)
        var routes: [WireName: Route] = [:]
        for (index, type) in registry.pluginTypes.enumerated() {
            for op in type.ops { routes[WireName(op)] = .plugin(index: index, op: op, slot: stats.slot(for: op)) }
        }
        for (op, builtin) in builtins { routes[WireName(op)] = .builtin(builtin, slot: stats.slot(for: op)) }
        self.routes = routes
    }

    /// Appends the response line (with its `\n`) for one request line (without its `\n`).
    public func respond(to line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let started = Self.now()
        var slot = stats.otherSlot
        var failed = true
        defer { stats.record(slot: slot, failed: failed, nanoseconds: Self.now() &- started) }

        let request: Request
        do {
            request = try Request(try JSONReader.parse(line))
        } catch let error as CoreError {
            Self.appendError(error, id: .null, to: &out)
            return
        } catch let error as JSONReadError where error.isUnsafeText {
            Self.appendError(
                CoreError.badRequest("The request's text is refused: \(error).", field: nil), id: .null, to: &out)
            return
        } catch let error as JSONReadError {
            Self.appendError(CoreError.badJSON(error.description), id: .null, to: &out)
            return
        } catch {
            reportInternal(op: "", "\(error)")
            Self.appendError(CoreError.internal("\(error)"), id: .null, to: &out)
            return
        }
        do {
            switch routes[WireName(request.op)] {
            case .builtin(let builtin, let opSlot)?:
                slot = opSlot
                Self.appendSuccess(try builtin(request), id: request.id, to: &out)
            case .plugin(let index, let op, let opSlot)?:
                slot = opSlot
                let plugin = registry.current.plugins[index]
                let start = out.count
                Self.appendEnvelope(id: request.id, to: &out)
                do {
                    try ResponseWriter.appendMembers(to: &out) { try plugin.handle(op: op, request, into: &$0) }
                } catch {
                    out.removeSubrange(start...)
                    throw error
                }
                JSONWriter.appendLiteral("}\n", to: &out)
            case nil:
                throw CoreError.unknownOp(String(request.op.prefix(64)))
            }
            failed = false
        } catch let error as any WireError {
            if error.code == CoreError.internal("").code { reportInternal(op: request.op, error.message) }
            Self.appendError(error, id: request.id, to: &out)
        } catch {
            reportInternal(op: request.op, "\(error)")
            Self.appendError(CoreError.internal("\(error)"), id: request.id, to: &out)
        }
    }

    private func reportInternal(op: String, _ message: String) {
        onInternalError?(String(decoding: op.utf8.prefix(64), as: UTF8.self), message)
    }

    public func respond(to line: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        line.withUnsafeBufferPointer { respond(to: $0, into: &out) }
        return out
    }

    /// Appends `{"id":…,"ok":true,…body}` and a newline.
    public static func appendSuccess(_ body: JSONObject, id: JSONValue, to out: inout [UInt8]) {
        appendEnvelope(id: id, to: &out)
        if body.count > 0 {
            out.append(UInt8(ascii: ","))
            JSONWriter.appendMembers(body, to: &out)
        }
        JSONWriter.appendLiteral("}\n", to: &out)
    }

    /// Appends `{"id":…,"ok":true`, which a plugin's members and `}` follow.
    public static func appendEnvelope(id: JSONValue, to out: inout [UInt8]) {
        JSONWriter.appendLiteral(#"{"id":"#, to: &out)
        JSONWriter.append(id, to: &out)
        JSONWriter.appendLiteral(#","ok":true"#, to: &out)
    }

    /// Appends `{"id":…,"ok":false,"error":{"code","message","field"?,…details}}` and a newline.
    public static func appendError(_ error: any WireError, id: JSONValue, to out: inout [UInt8]) {
        var object: JSONObject = ["code": .string(error.code), "message": .string(error.message)]
        if let field = error.field { object.append("field", .string(field)) }
        for member in error.details { object.append(member.key, member.value) }
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.append(id, to: &out)
        out.append(contentsOf: #","ok":false,"error":"#.utf8)
        JSONWriter.append(.object(object), to: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
