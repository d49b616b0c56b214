import FmtCore
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

    /// A built-in op with its name. A struct holds its closure as written, where a dictionary's or array's element
    /// is called through a reabstraction thunk (two of them, for a closure passed in a dictionary and kept in an
    /// array).
    public struct Builtin: Sendable {
        public let name: String
        public let answer: BuiltinOp

        public init(_ name: String, _ answer: @escaping BuiltinOp) {
            self.name = name
            self.answer = answer
        }
    }

    /// Where an op goes, with its stats slot: one lookup per request. Plugins are addressed by their position,
    /// which is the same in every generation the registry loads. Plain integers, so finding and dropping a route
    /// touches no reference count the other loops share.
    private struct Route: Sendable {
        /// The op's name: `count` bytes from `start` in `routeNames`; its first 8 bytes (zero-padded) in `head`.
        var start: Int
        var count: Int
        var head: UInt64
        /// A built-in op's index in `builtinOps`, with `plugin` -1; for a plugin's op, `plugin` is the plugin's
        /// position in the set and `op` the op's index in its `Op.allCases`.
        var builtin: Int
        var plugin: Int
        var op: Int
        var slot: Int
    }

    /// Told of every `internal` answer (the op and the error's message), so a bug never goes unlogged.
    public typealias InternalErrorHandler = @Sendable (_ op: String, _ message: String) -> Void

    public let registry: PluginRegistry
    public let stats: RequestStats
    /// Every op served: the built-ins and the enabled plugins' ops.
    public let ops: [String]
    /// Routes by the op's UTF-8 length, then bytes: ops are ASCII, a String key would normalise whatever a client
    /// sends, and hashing costs more than comparing the one or two ops of a length. `routes[routeRanges[n]]` are
    /// the ops of `n` bytes.
    private let routes: [Route]
    private let routeRanges: [Range<Int>]
    /// Every op's name, one after the other.
    private let routeNames: [UInt8]
    private let builtinOps: [Builtin]
    private let onInternalError: InternalErrorHandler?

    /// A dispatcher of `registry`'s plugins' ops and `builtins` (by name, which a built-in op wins).
    public convenience init(
        registry: PluginRegistry, builtins: [String: BuiltinOp], onInternalError: InternalErrorHandler? = nil
    ) {
        self.init(
            registry: registry, builtins: builtins.map { Builtin($0.key, $0.value) }, onInternalError: onInternalError)
    }

    /// A dispatcher of `registry`'s plugins' ops and `builtins`; of built-in ops of one name, the last is kept, and
    /// a built-in op wins over a plugin's op of its name.
    public init(registry: PluginRegistry, builtins: [Builtin], onInternalError: InternalErrorHandler? = nil) {
        var byName: [String: Builtin] = [:]
        for builtin in builtins { byName[builtin.name] = builtin }
        let builtins = byName.values.sorted { $0.name < $1.name }
        self.onInternalError = onInternalError
        self.registry = registry
        ops = builtins.map(\.name) + registry.ops
        stats = RequestStats(ops: ops)
        var named: [(name: String, builtin: Int, plugin: Int, op: Int)] = []
        for (index, type) in registry.pluginTypes.enumerated() {
            for (opIndex, op) in type.ops.enumerated() {
                named.append((op, -1, index, opIndex))
            }
        }
        for (index, builtin) in builtins.enumerated() {
            named.append((builtin.name, index, -1, -1))
        }
        // A built-in op of a plugin op's name wins, as it did when both went into one table.
        var seen = Set<WireName>()
        named = named.reversed().filter { seen.insert(WireName($0.name)).inserted }
        named.sort { ($0.name.utf8.count, $0.name) < ($1.name.utf8.count, $1.name) }
        var routes: [Route] = []
        var names: [UInt8] = []
        var ranges: [Range<Int>] = []
        for entry in named {
            let count = entry.name.utf8.count
            while ranges.count <= count { ranges.append(routes.count..<routes.count) }
            let head = Array(entry.name.utf8).withUnsafeBufferPointer { Self.head($0) }
            routes.append(
                Route(
                    start: names.count, count: count, head: head, builtin: entry.builtin, plugin: entry.plugin,
                    op: entry.op, slot: stats.slot(for: entry.name)))
            names.append(contentsOf: entry.name.utf8)
            ranges[count] = ranges[count].lowerBound..<routes.count
        }
        self.routes = routes
        self.routeRanges = ranges
        self.routeNames = names
        self.builtinOps = builtins
    }

    /// Appends the response line (with its `\n`) for one request line (without its `\n`), recording it in the
    /// shared stats shard; an event loop answers through its own `Lane` instead.
    public func respond(to line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let started = Self.now()
        var writer = ResponseWriter()
        let (slot, failed) = answer(line, into: &out, plugins: nil, record: RequestRecord(), writer: &writer)
        stats.record(slot: slot, failed: failed, nanoseconds: Self.now() &- started)
    }

    /// One event loop's way into the dispatcher: its own stats shard, the plugin set taken once per read batch,
    /// and one clock read per request (a request's time runs from the previous one's end, or the batch's start).
    /// Confined to the loop's thread.
    public final class Lane {
        private let dispatcher: Dispatcher
        private let shard: RequestStats.Shard
        private var plugins: PluginSet?
        /// The monotonic time (nanoseconds) of the last answer's end, or of the last `restartClock()`: read by the
        /// loop to bound the time one connection is answered in a row, at no further clock read.
        public private(set) var clock: UInt64 = 0
        /// The record every line is read into, reused while no request still holds it.
        @exclusivity(unchecked) private var record = RequestRecord()
        /// The writer of every answer, taken up again for each: a new one zeroed its staging bytes per request.
        @exclusivity(unchecked) private var writer = ResponseWriter()

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
            if !isKnownUniquelyReferenced(&record) { record = RequestRecord() }
            // The lane holds both for the call, so they are lent unretained: the plugin set's count is one that
            // both loops would write.
            let (slot, failed) = Unmanaged.passUnretained(record)._withUnsafeGuaranteedRef { record in
                dispatcher.answer(
                    line, into: &out, plugins: .passUnretained(plugins!), record: record, writer: &writer)
            }
            RequestRecord.renewIfLarge(&record)
            let ended = Dispatcher.now()
            shard.recordOwned(slot: slot, failed: failed, nanoseconds: ended &- clock)
            clock = ended
        }
    }

    /// The route of `request`, read from `record` when the request was read flat into it.
    private func route(_ request: Request, in record: RequestRecord) -> Route? {
        guard request.isFlat, let op = record.opInLine(request.opEntry) else { return route(request.op) }
        return route(op.bytes, head: op.head)
    }

    private func route(_ op: String) -> Route? {
        if let found = op.utf8.withContiguousStorageIfAvailable({ route($0) }) { return found }
        return Array(op.utf8).withUnsafeBufferPointer { route($0) }
    }

    private func route(_ op: UnsafeBufferPointer<UInt8>) -> Route? {
        route(op, head: Self.head(op))
    }

    /// The route of `op`, whose `head(_:)` is `head`.
    private func route(_ op: UnsafeBufferPointer<UInt8>, head: UInt64) -> Route? {
        guard op.count < routeRanges.count else { return nil }
        let range = routeRanges[op.count]
        return routes.withUnsafeBufferPointer { routes in
            for index in range where routes[index].head == head {
                let route = routes[index]
                if route.count <= 8 { return route }
                let same = routeNames.withUnsafeBufferPointer { names in
                    UnsafeBufferPointer(rebasing: names[route.start..<route.start + route.count]).hasSameBytes(as: op)
                }
                if same { return route }
            }
            return nil
        }
    }

    /// The first 8 bytes of `name`, zero-padded, as one integer: most ops are no longer, so one compare finds them.
    private static func head(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = name.baseAddress else { return 0 }
        if name.count >= 8 { return UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)) }
        var head: UInt64 = 0
        var offset = 0
        while offset < name.count {
            head |= UInt64(base[offset]) << (8 * UInt64(offset))
            offset += 1
        }
        return head
    }

    /// Answers one line with `plugins` (the registry's current set when nil), which the caller holds: lent as an
    /// `Unmanaged`, since a reference passed down was retained and released around the plugin's call, a count
    /// that every loop would write. The stats slot and whether it failed.
    private func answer(
        _ line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], plugins: Unmanaged<PluginSet>?,
        record: RequestRecord, writer: inout ResponseWriter
    ) -> (slot: Int, failed: Bool) {
        let request: Request
        do {
            request = try Request.decode(line, into: record)
        } catch let refusal as Request.Refusal {
            Self.appendError(refusal.error, id: refusal.id, to: &out)
            return (stats.otherSlot, true)
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
            guard let route = route(request, in: record) else {
                throw CoreError.unknownOp(String(request.op.prefix(64)))
            }
            slot = route.slot
            if route.plugin < 0 {
                try answer(
                    request, builtin: builtinOps[route.builtin].answer, in: record, into: &out, writer: &writer)
            } else if let plugins {
                try answer(request, route: route, with: plugins, in: record, into: &out, writer: &writer)
            } else {
                let current = registry.current
                try withExtendedLifetime(current) {
                    try answer(
                        request, route: route, with: .passUnretained(current), in: record, into: &out,
                        writer: &writer)
                }
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

    /// Answers with the set's handler of the plugin, lent unretained (the set holds it for the call), as the set is.
    private func answer(
        _ request: Request, route: Route, with set: Unmanaged<PluginSet>, in record: RequestRecord,
        into out: inout [UInt8], writer: inout ResponseWriter
    ) throws {
        let start = out.count
        writer.take(&out)
        writeEnvelope(request, in: record, to: &writer)
        do {
            try set._withUnsafeGuaranteedRef { set in
                try set.handlers[route.plugin]._withUnsafeGuaranteedRef { handler in
                    try handler.handle(opAt: route.op, request, into: &writer)
                }
            }
        } catch {
            writer.discard(into: &out, from: start)
            throw error
        }
        writer.finishLine(into: &out)
    }

    private func answer(
        _ request: Request, builtin: BuiltinOp, in record: RequestRecord, into out: inout [UInt8],
        writer: inout ResponseWriter
    ) throws {
        let start = out.count
        writer.take(&out)
        writeEnvelope(request, in: record, to: &writer)
        do {
            try builtin(request, &writer)
        } catch {
            writer.discard(into: &out, from: start)
            throw error
        }
        writer.finishLine(into: &out)
    }

    /// The envelope of `request`, read from `record` (which the caller holds) when the request was read flat.
    private func writeEnvelope(_ request: Request, in record: RequestRecord, to writer: inout ResponseWriter) {
        if request.isFlat {
            record.writeEnvelope(to: &writer)
        } else {
            request.writeEnvelope(to: &writer)
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
        ResponseLine.appendSuccess(body, id: id, to: &out)
    }

    /// Appends `{"id":…,"ok":true`, which a plugin's members and `}` follow.
    public static func appendEnvelope(id: JSONValue, to out: inout [UInt8]) {
        ResponseLine.appendEnvelope(id: id, to: &out)
    }

    /// Appends `{"id":…,"ok":false,"error":{"code","message","field"?,…details}}` and a newline.
    public static func appendError(_ error: any WireError, id: JSONValue, to out: inout [UInt8]) {
        ResponseLine.appendError(error, id: id, to: &out)
    }

    fileprivate static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
