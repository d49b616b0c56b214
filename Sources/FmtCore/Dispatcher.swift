import Glibc

/// Turns one request line into one response line: decodes the envelope, finds the op's plugin in the
/// current snapshot (or a built-in op), and writes the answer with the caller's `id` echoed (a plugin appends
/// its members straight to the output buffer through a `ResponseWriter`). It never
/// throws and never traps on input: every failure becomes an error response.
public final class Dispatcher: Sendable {
    /// The wire protocol version reported by `info`; it grows only by optional fields.
    public static let protocolVersion = 1

    /// A built-in op answered by the host rather than a plugin (`ping`, `info`, `stats`): it appends its members
    /// after the envelope, as a plugin does, so `ping` builds no `JSONObject` to encode and free.
    public typealias BuiltinOp = @Sendable (Request, inout ResponseWriter) throws -> Void

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
    /// Routes by the op's UTF-8 length, then bytes: ops are ASCII, a String key would normalise whatever a client
    /// sends, and hashing costs more than comparing the one or two ops of a length.
    private let routesByLength: [[(name: [UInt8], route: Route)]]
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
        let longest = routes.keys.map(\.text.utf8.count).max() ?? 0
        var byLength = [[(name: [UInt8], route: Route)]](repeating: [], count: longest + 1)
        for (name, route) in routes { byLength[name.text.utf8.count].append((Array(name.text.utf8), route)) }
        routesByLength = byLength
    }

    /// Appends the response line (with its `\n`) for one request line (without its `\n`), recording it in the
    /// shared stats shard; an event loop answers through its own `Lane` instead.
    public func respond(to line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let started = Self.now()
        let (slot, failed) = answer(line, into: &out, plugins: nil)
        stats.record(slot: slot, failed: failed, nanoseconds: Self.now() &- started)
    }

    /// One event loop's way into the dispatcher: its own stats shard, the plugin set taken once per read batch,
    /// and one clock read per request (a request's time runs from the previous one's end, or the batch's start).
    /// Confined to the loop's thread.
    public final class Lane {
        private let dispatcher: Dispatcher
        private let shard: RequestStats.Shard
        private var plugins: PluginSet?
        private var clock: UInt64 = 0

        public init(_ dispatcher: Dispatcher) {
            self.dispatcher = dispatcher
            shard = dispatcher.stats.makeShard()
        }

        /// Takes the current plugin set for the lines about to be answered, and starts the clock.
        public func beginBatch() {
            plugins = dispatcher.registry.current
            clock = Dispatcher.now()
        }

        /// Lets go of the plugin set, so a reload's old generation is not held by an idle loop.
        public func endBatch() {
            plugins = nil
        }

        /// Restarts the clock: what the loop did since the last answer (a read, a flush) is no request's time.
        public func restartClock() {
            clock = Dispatcher.now()
        }

        /// As `Dispatcher.respond(to:into:)`, with the batch's plugin set.
        public func respond(to line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
            if plugins == nil { beginBatch() }
            let (slot, failed) = dispatcher.answer(line, into: &out, plugins: plugins)
            let ended = Dispatcher.now()
            shard.recordOwned(slot: slot, failed: failed, nanoseconds: ended &- clock)
            clock = ended
        }
    }

    private func route(_ op: String) -> Route? {
        let found = op.utf8.withContiguousStorageIfAvailable { bytes -> Route? in
            guard bytes.count < routesByLength.count else { return nil }
            for entry in routesByLength[bytes.count] {
                let same = entry.name.withUnsafeBufferPointer { $0.hasSameBytes(as: bytes) }
                if same { return entry.route }
            }
            return nil
        }
        if let found { return found }
        let bytes = Array(op.utf8)
        guard bytes.count < routesByLength.count else { return nil }
        return routesByLength[bytes.count].first { $0.name == bytes }?.route
    }

    /// Answers one line with `plugins` (the registry's current set when nil); the stats slot and whether it failed.
    private func answer(
        _ line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], plugins: PluginSet?
    ) -> (slot: Int, failed: Bool) {
        let request: Request
        do {
            request = try Request(try JSONReader.parse(line))
        } catch let error as CoreError {
            Self.appendError(error, id: .null, to: &out)
            return (stats.otherSlot, true)
        } catch let error as JSONReadError where error.isUnsafeText {
            Self.appendError(
                CoreError.badRequest("The request's text is refused: \(error).", field: nil), id: .null, to: &out)
            return (stats.otherSlot, true)
        } catch let error as JSONReadError {
            Self.appendError(CoreError.badJSON(error.description), id: .null, to: &out)
            return (stats.otherSlot, true)
        } catch {
            reportInternal(op: "", "\(error)")
            Self.appendError(CoreError.internal("\(error)"), id: .null, to: &out)
            return (stats.otherSlot, true)
        }
        var slot = stats.otherSlot
        do {
            switch route(request.op) {
            case .builtin(let builtin, let opSlot)?:
                slot = opSlot
                try Self.appendAnswer(id: request.id, to: &out) { try builtin(request, &$0) }
            case .plugin(let index, let op, let opSlot)?:
                slot = opSlot
                let plugin = (plugins ?? registry.current).plugins[index]
                try Self.appendAnswer(id: request.id, to: &out) { try plugin.handle(op: op, request, into: &$0) }
            case nil:
                throw CoreError.unknownOp(String(request.op.prefix(64)))
            }
            return (slot, false)
        } catch let error as any WireError {
            if error.code == CoreError.internal("").code { reportInternal(op: request.op, error.message) }
            Self.appendError(error, id: request.id, to: &out)
        } catch {
            reportInternal(op: request.op, "\(error)")
            Self.appendError(CoreError.internal("\(error)"), id: request.id, to: &out)
        }
        return (slot, true)
    }

    private func reportInternal(op: String, _ message: String) {
        onInternalError?(String(decoding: op.utf8.prefix(64), as: UTF8.self), message)
    }

    public func respond(to line: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        line.withUnsafeBufferPointer { respond(to: $0, into: &out) }
        return out
    }

    /// Appends `{"id":…,"ok":true`, the members `body` writes, `}` and a newline; when `body` throws, nothing.
    private static func appendAnswer(
        id: JSONValue, to out: inout [UInt8], _ body: (inout ResponseWriter) throws -> Void
    ) throws {
        let start = out.count
        appendEnvelope(id: id, to: &out)
        do {
            try ResponseWriter.appendMembers(to: &out, body)
        } catch {
            out.removeSubrange(start...)
            throw error
        }
        JSONWriter.appendLiteral("}\n", to: &out)
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

    fileprivate static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
