/// What the host gives a plugin when it loads: shared, read-only services.
public struct PluginEnvironment: Sendable {
    /// Resolves viewer locales; the same resolver serves every plugin, so they agree on `lang`.
    public let resolver: LocaleResolver

    public init(resolver: LocaleResolver) {
        self.resolver = resolver
    }
}

/// A formatter plugin. A value of the conforming type *is* a loaded, immutable snapshot of the plugin's
/// data: the host loads a fresh one on reload and swaps it in atomically, or keeps the old one when any
/// plugin fails to load. Plugins are registered at build time; which are enabled is configuration.
public protocol FormatterPlugin: Sendable {
    /// The plugin's name in `--plugins` and `info` (`address`, `date`, `phone`, `names`).
    static var name: String { get }
    /// The ops this plugin answers; an op belongs to exactly one plugin.
    static var ops: [String] { get }

    /// Loads and validates all data the plugin needs. Throws `DataError` naming file and field; a plugin
    /// never serves half-loaded data, because a failed load produces no value.
    init(loading data: DataStore, environment: PluginEnvironment) throws

    /// Describes the loaded data for `info`: at least `source`, `version` and `checksum`.
    var dataInfo: JSONObject { get }

    /// Answers one request for one of `ops` with the response members after `id` and `ok`.
    /// Caller mistakes are thrown as `WireError`s; anything else is reported as `internal`.
    func handle(_ request: Request) throws -> JSONObject
}
