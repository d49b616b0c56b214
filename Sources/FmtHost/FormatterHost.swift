import CopyRules
import FmtCore
import FmtDispatch
import FmtServer
import Synchronization

/// The composition root: the enabled plugins loaded from one data store into a registry, behind the dispatcher
/// that answers request lines, with the built-in ops (`ping`, `info`, `stats`). fmtd, fmtbench, the fuzz targets
/// and the tests build the daemon through it, so they all serve the same thing.
///
/// ```swift
/// let host = try FormatterHost(source: .directory("data"), configDirectory: nil)
/// let answer = host.dispatcher.respond(to: Array(#"{"op":"ping"}"#.utf8))
/// ```
public final class FormatterHost: Sendable {
    /// fmtd's version, as `ping` and `info` report it.
    public static let version = "0.1.0"

    public let registry: PluginRegistry
    public let dispatcher: Dispatcher
    public let counters: ServerCounters

    /// Loads the plugins named in `plugins` (all by default) from `source` and `configDirectory`; throws the
    /// first data file that does not load, so a daemon refuses to start rather than serve half its data.
    /// `onInternalError` hears of every `internal` answer (fmtd logs them).
    public init(
        source: DataStore.Source, configDirectory: String?, plugins: [String] = PluginCatalog.names,
        counters: ServerCounters = ServerCounters(configuration: ServerConfiguration(threads: 1)),
        onInternalError: Dispatcher.InternalErrorHandler? = nil
    ) throws {
        let store = DataStore(source: source, localDirectory: configDirectory)
        let registry = try PluginRegistry(
            pluginTypes: PluginCatalog.enabled(plugins), store: store, environmentLoader: Languages.environmentLoader)
        // `stats` reports the dispatcher's own counters, which exist only once the dispatcher does.
        let stats = Mutex<RequestStats?>(nil)
        let builtins = BuiltinOps.make(
            registry: { registry }, stats: { stats.withTracedLock { $0 } }, counters: counters)
        let dispatcher = Dispatcher(registry: registry, builtins: builtins, onInternalError: onInternalError)
        stats.withTracedLock { $0 = dispatcher.stats }
        self.registry = registry
        self.dispatcher = dispatcher
        self.counters = counters
    }

    /// `info`'s answer for the current generation (what `fmtd --check` prints).
    public var info: JSONObject {
        BuiltinOps.info(registry: registry)
    }

    /// The copy rules' findings in the catalogues serving now (warnings; `fmtd --check --strict` fails on them).
    public var copyFindings: [CopyFinding] {
        CopyRuleReport.findings(in: registry.current)
    }

    /// One line for `STATUS=` and the log: which plugins serve, from where.
    public var status: String {
        let plugins = registry.current.plugins.map { type(of: $0).name }
        let names = plugins.isEmpty ? "no plugins" : plugins.joined(separator: ", ")
        return "serving \(names) from \(registry.store.sourceDescription)"
    }

    /// Reloads every plugin whose files changed and says how it went, for the server's SIGHUP handling.
    public func reload() -> (ok: Bool, status: String) {
        switch registry.reload() {
        case .success(let set): (true, status + " (data generation \(set.generation))")
        case .failure(let error): (false, "reload failed, serving previous data: \(error)")
        }
    }
}
