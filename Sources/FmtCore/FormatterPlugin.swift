/// What the host gives a plugin when it loads: shared, read-only services.
public struct PluginEnvironment: Sendable {
    /// Resolves viewer locales; the same resolver serves every plugin, so they agree on `lang`.
    public let resolver: LocaleResolver

    public init(resolver: LocaleResolver) {
        self.resolver = resolver
    }
}

/// The ops of one plugin, one case each, spelled as on the wire (`case addressFormat`): the op table the
/// dispatcher routes by, so no plugin switches on op strings.
public protocol PluginOp: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {}

/// A formatter plugin. A value of the conforming type *is* a loaded, immutable snapshot of the plugin's
/// data: the host loads a fresh one on reload and swaps it in atomically, or keeps the old one when any
/// plugin fails to load. Plugins are registered at build time; which are enabled is configuration.
public protocol FormatterPlugin: Sendable {
    /// The plugin's name in `--plugins` and `info` (`address`, `date`, `phone`, `names`).
    static var name: String { get }
    /// The ops this plugin answers; an op belongs to exactly one plugin.
    associatedtype Op: PluginOp

    /// Loads and validates all data the plugin needs. Throws `DataError` naming file and field; a plugin
    /// never serves half-loaded data, because a failed load produces no value.
    init(loading data: DataStore, environment: PluginEnvironment) throws

    /// Describes the loaded data for `info`: at least `source`, `version` and `checksum`.
    var dataInfo: JSONObject { get }

    /// Answers one request for `op` by appending the response's members (after `id` and `ok`) to `response`,
    /// in the op's fixed member order. Caller mistakes are thrown as `WireError`s, anything else is reported as
    /// `internal`; what was appended before a throw is discarded.
    func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws

    /// Answers a request for the op at `index` in `Op.allCases`: how the dispatcher calls a plugin, by the route's
    /// integer instead of the op's text. The default (inlined into the plugin's conformance, so specialised for
    /// its `Op`) calls `handle(_:_:into:)`; a plugin has no reason to implement it.
    func handle(opAt index: Int, _ request: Request, into response: inout ResponseWriter) throws
}

extension FormatterPlugin {
    /// The wire names of `Op`'s cases, in declaration order.
    public static var ops: [String] { Op.allCases.map(\.rawValue) }

    /// Answers a request by its `op` text, matched by bytes (`unknown_op` unless this plugin serves it).
    public func handle(_ request: Request, into response: inout ResponseWriter) throws {
        guard let op = Op.allCases.first(where: { $0.rawValue.hasSameBytes(as: request.op) }) else {
            throw CoreError.unknownOp(String(request.op.prefix(64)))
        }
        try handle(op, request, into: &response)
    }

    /// Answers a request by its `op` text with the response's members as an object: for tests and tools, not
    /// the daemon's path.
    public func handle(_ request: Request) throws -> JSONObject {
        var writer = ResponseWriter(bytes: [UInt8(ascii: "{")])
        try handle(request, into: &writer)
        let bytes = writer.bytes + [UInt8(ascii: "}")]
        guard let object = try JSONReader.parse(bytes).objectValue else {
            throw CoreError.internal("the plugin wrote no object")
        }
        return object
    }

    @inlinable
    public func handle(opAt index: Int, _ request: Request, into response: inout ResponseWriter) throws {
        let cases = Op.allCases
        guard index >= 0, index < cases.count else { throw CoreError.internal("no op at index \(index)") }
        try handle(cases[cases.index(cases.startIndex, offsetBy: index)], request, into: &response)
    }
}
