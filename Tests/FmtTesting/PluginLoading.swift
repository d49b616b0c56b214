import FmtCore
import FmtDispatch
import FmtHost

/// Loads one plugin the way fmtd loads it (the same registry, store and languages from the data), for tests of
/// a single plugin's behaviour that need the plugin value itself rather than a daemon.
public func loadPlugin<Plugin: FormatterPlugin>(
    _ type: Plugin.Type, dataDirectory: String = Paths.dataDirectory, configDirectory: String? = nil
) throws -> Plugin {
    let registry = try PluginRegistry(
        pluginTypes: [type], store: DataStore(source: .directory(dataDirectory), localDirectory: configDirectory),
        environmentLoader: Languages.environmentLoader)
    guard let plugin = registry.current.plugins.first as? Plugin else {
        throw DaemonFailed(log: "the registry did not load \(type.name)")
    }
    return plugin
}

extension FormatterPlugin {
    /// Answers one request line as the dispatcher does after decoding the envelope: the response's members
    /// after `id` and `ok`, or the `WireError` the daemon would answer with.
    public func answer(_ line: String) throws -> JSONObject {
        try handle(Request(JSONReader.parse(line)))
    }

    /// The `code` and `field` a failing request line is answered with; nil when it succeeds.
    public func failure(_ line: String) -> (code: String, field: String?)? {
        do {
            _ = try answer(line)
            return nil
        } catch let error as any WireError {
            return (error.code, error.field)
        } catch {
            return ("unexpected", "\(error)")
        }
    }
}
