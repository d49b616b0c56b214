import FmtCore
import Glibc
import Synchronization

/// One consistent generation of loaded plugins. Immutable: a request holds the set it started with.
public final class PluginSet: Sendable {
    public let plugins: [any FormatterPlugin]
    /// Increases by one with every successful reload.
    public let generation: Int
    /// What this generation's plugins were loaded with: its languages are the ones its data has.
    public let environment: PluginEnvironment
    /// Each plugin in a class of its own type, for the dispatcher to call without copying an existential (which
    /// retains the plugin's box, a count both loops write). `handlers` lends them unretained while the set lives.
    private let handlerObjects: [PluginHandler]
    let handlers: [Unmanaged<PluginHandler>]

    init(plugins: [any FormatterPlugin], generation: Int, environment: PluginEnvironment) {
        self.plugins = plugins
        self.environment = environment
        self.generation = generation
        handlerObjects = plugins.map { PluginSet.handler(for: $0) }
        handlers = handlerObjects.map { Unmanaged.passUnretained($0) }
    }

    private static func handler<Plugin: FormatterPlugin>(for plugin: Plugin) -> PluginHandler {
        TypedPluginHandler(plugin)
    }
}

/// Calls one plugin by its op's index; `TypedPluginHandler` holds the plugin as its own type.
class PluginHandler: @unchecked Sendable {
    func handle(opAt index: Int, _ request: Request, into response: inout ResponseWriter) throws {}
}

/// Immutable after init.
final class TypedPluginHandler<Plugin: FormatterPlugin>: PluginHandler, @unchecked Sendable {
    let plugin: Plugin

    init(_ plugin: Plugin) {
        self.plugin = plugin
    }

    override func handle(opAt index: Int, _ request: Request, into response: inout ResponseWriter) throws {
        try plugin.handle(opAt: index, request, into: &response)
    }
}

/// The outcome of the last reload, for `stats`, `STATUS=` and the log.
public struct ReloadRecord: Sendable {
    public var succeeded = 0
    public var failed = 0
    public var lastError: String?
    public var lastDurationMicroseconds: Int?
    /// Plugins the last successful reload kept as they were, because every file they read was unchanged.
    public var lastKept: [String] = []
    /// When the data serving now was loaded (the start, or the last successful reload), in seconds since 1970.
    public var loadedAtUnixSeconds: Double?

    public init() {}

    /// The wall clock now, in seconds since 1970.
    static var unixNow: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec / 1_000_000) / 1000
    }
}

/// Holds the enabled plugins' snapshots and swaps them atomically: a reload loads anew every plugin whose files
/// changed, keeps the others, and installs the new set only when all succeed, so data is never half-loaded.
/// Each load reads through one `DataStore.opened()`: one data set, even if the data directory is swapped meanwhile.
public final class PluginRegistry: Sendable {
    /// Makes a generation's environment from its data (the languages it has); runs once per load, on the same
    /// opened store the plugins then read.
    public typealias EnvironmentLoader = @Sendable (DataStore) throws(DataError) -> PluginEnvironment

    public let pluginTypes: [any FormatterPlugin.Type]
    private let makeEnvironment: EnvironmentLoader
    /// The current set, the store it came from, and per plugin what it read (to know what a reload may keep).
    private let state: Mutex<(set: PluginSet, store: DataStore, inputs: [[DataInput: DataFingerprint]])>
    private let reloads: Mutex<ReloadRecord>

    /// Every op the enabled plugins serve, in registration order.
    public var ops: [String] { pluginTypes.flatMap { $0.ops } }

    /// Loads every plugin with one environment for every generation; throws the first failure.
    public convenience init(
        pluginTypes: [any FormatterPlugin.Type], store: DataStore, environment: PluginEnvironment
    ) throws {
        try self.init(pluginTypes: pluginTypes, store: store, environmentLoader: { _ in environment })
    }

    /// Loads every plugin, with the environment `environmentLoader` makes from the data; throws the first
    /// failure, naming the file (the daemon refuses to start).
    public init(
        pluginTypes: [any FormatterPlugin.Type], store: DataStore, environmentLoader: @escaping EnvironmentLoader
    ) throws {
        self.pluginTypes = pluginTypes
        makeEnvironment = environmentLoader
        var record = ReloadRecord()
        record.loadedAtUnixSeconds = ReloadRecord.unixNow
        reloads = Mutex(record)
        let opened = try store.opened()
        let environment = try environmentLoader(opened)
        let loaded = try pluginTypes.map { type throws(DataError) in
            try Self.load(type, store: opened, environment: environment)
        }
        state = Mutex(
            (
                PluginSet(plugins: loaded.map(\.plugin), generation: 1, environment: environment), store.closed,
                loaded.map(\.inputs)
            ))
    }

    /// The current generation's environment.
    public var environment: PluginEnvironment {
        current.environment
    }

    /// The current generation; cheap enough to take per request.
    public var current: PluginSet {
        state.withTracedLock { $0.set }
    }

    public var store: DataStore {
        state.withTracedLock { $0.store }
    }

    public var lastReload: ReloadRecord {
        reloads.withTracedLock { $0 }
    }

    /// Reloads from `store` (default: the current one). A plugin whose files all read the same as last time keeps
    /// its snapshot (the phone metadata alone takes about 35 ms to compile), unless the languages changed; the
    /// others load anew. On any failure the old set stays and the error is returned and recorded.
    @discardableResult
    public func reload(from newStore: DataStore? = nil) -> Result<PluginSet, DataError> {
        let started = ContinuousClock.now
        let (previous, previousStore, previousInputs) = state.withTracedLock { ($0.set, $0.store, $0.inputs) }
        let result: Result<PluginSet, DataError>
        var kept: [String] = []
        do throws(DataError) {
            let store = try (newStore ?? previousStore).opened()
            // Plugins describe their source in `info`, so only a reload from the same place may keep them.
            let samePlace =
                previousStore.sourceDescription == store.sourceDescription
                && previousStore.localDirectory == store.localDirectory
            var environment = try makeEnvironment(store)
            let sameLanguages = environment.resolver.supported == previous.environment.resolver.supported
            if sameLanguages { environment = previous.environment }
            var loaded: [(plugin: any FormatterPlugin, inputs: [DataInput: DataFingerprint])] = []
            for (index, type) in pluginTypes.enumerated() {
                if samePlace && sameLanguages && store.stillReads(previousInputs[index]) {
                    loaded.append((previous.plugins[index], previousInputs[index]))
                    kept.append(type.name)
                } else {
                    loaded.append(try Self.load(type, store: store, environment: environment))
                }
            }
            result = .success(
                state.withTracedLock { state in
                    let set = PluginSet(
                        plugins: loaded.map(\.plugin), generation: state.set.generation + 1, environment: environment)
                    state = (set, store.closed, loaded.map(\.inputs))
                    return set
                })
        } catch {
            result = .failure(error)
        }
        let micros = Int(started.duration(to: .now).wholeMicroseconds)
        reloads.withTracedLock { record in
            record.lastDurationMicroseconds = micros
            switch result {
            case .success:
                record.succeeded += 1
                record.lastKept = kept
                record.loadedAtUnixSeconds = ReloadRecord.unixNow
            case .failure(let error):
                record.failed += 1
                record.lastError = error.description
            }
        }
        return result
    }

    private static func load(
        _ type: any FormatterPlugin.Type, store: DataStore, environment: PluginEnvironment
    ) throws(DataError) -> (plugin: any FormatterPlugin, inputs: [DataInput: DataFingerprint]) {
        let log = DataReadLog()
        do {
            let plugin = try type.init(loading: store.recording(into: log), environment: environment)
            return (plugin, log.recorded)
        } catch let error as DataError {
            throw error
        } catch {
            throw DataError(file: store.sourceDescription, "plugin \(type.name): \(error)")
        }
    }
}
