import Synchronization

/// One consistent generation of loaded plugins. Immutable: a request holds the set it started with.
public final class PluginSet: Sendable {
    public let plugins: [any FormatterPlugin]
    private let byOp: [String: any FormatterPlugin]
    /// Increases by one with every successful reload.
    public let generation: Int

    init(plugins: [any FormatterPlugin], generation: Int) {
        self.plugins = plugins
        var byOp: [String: any FormatterPlugin] = [:]
        for plugin in plugins {
            for op in type(of: plugin).ops { byOp[op] = plugin }
        }
        self.byOp = byOp
        self.generation = generation
    }

    public func plugin(for op: String) -> (any FormatterPlugin)? {
        byOp[op]
    }
}

/// The outcome of the last reload, for `stats`, `STATUS=` and the log.
public struct ReloadRecord: Sendable {
    public var succeeded = 0
    public var failed = 0
    public var lastError: String?
    public var lastDurationMicroseconds: Int?

    public init() {}
}

/// Holds the enabled plugins' snapshots and swaps them atomically: a reload loads every plugin anew and
/// installs the new set only when all succeed, so data is never half-loaded.
public final class PluginRegistry: Sendable {
    public let pluginTypes: [any FormatterPlugin.Type]
    public let environment: PluginEnvironment
    private let state: Mutex<(set: PluginSet, store: DataStore)>
    private let reloads = Mutex(ReloadRecord())

    /// Every op the enabled plugins serve, in registration order.
    public var ops: [String] { pluginTypes.flatMap { $0.ops } }

    /// Loads every plugin; throws the first failure, naming the plugin (the daemon refuses to start).
    public init(pluginTypes: [any FormatterPlugin.Type], store: DataStore, environment: PluginEnvironment) throws {
        self.pluginTypes = pluginTypes
        self.environment = environment
        let plugins = try Self.load(pluginTypes, store: store, environment: environment)
        state = Mutex((PluginSet(plugins: plugins, generation: 1), store))
    }

    /// The current generation; cheap enough to take per request.
    public var current: PluginSet {
        state.withLock { $0.set }
    }

    public var store: DataStore {
        state.withLock { $0.store }
    }

    public var lastReload: ReloadRecord {
        reloads.withLock { $0 }
    }

    /// Reloads all plugins from `store` (default: the current one). On any failure the old set stays and the
    /// error is returned and recorded.
    @discardableResult
    public func reload(from newStore: DataStore? = nil) -> Result<PluginSet, DataError> {
        let started = ContinuousClock.now
        let store = newStore ?? self.store
        let result: Result<PluginSet, DataError>
        do {
            let plugins = try Self.load(pluginTypes, store: store, environment: environment)
            result = .success(
                state.withLock { state in
                    state = (PluginSet(plugins: plugins, generation: state.set.generation + 1), store)
                    return state.set
                })
        } catch let error as DataError {
            result = .failure(error)
        } catch {
            result = .failure(DataError(file: store.sourceDescription, "\(error)"))
        }
        let elapsed = started.duration(to: .now)
        let micros =
            Int(elapsed.components.seconds) * 1_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000_000)
        reloads.withLock { record in
            record.lastDurationMicroseconds = micros
            switch result {
            case .success: record.succeeded += 1
            case .failure(let error):
                record.failed += 1
                record.lastError = error.description
            }
        }
        return result
    }

    private static func load(
        _ types: [any FormatterPlugin.Type], store: DataStore, environment: PluginEnvironment
    ) throws -> [any FormatterPlugin] {
        try types.map { type in
            do {
                return try type.init(loading: store, environment: environment)
            } catch let error as DataError {
                throw error
            } catch {
                throw DataError(file: store.sourceDescription, "plugin \(type.name): \(error)")
            }
        }
    }
}
