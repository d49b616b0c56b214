import EmbeddedData
import FmtCore
import FmtServer
import Glibc
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// fmtd: wire the modules together. Flags → data store → plugins → socket → serve until SIGTERM.

let setupFailures = Server.prepareProcess()
let environment = ProcessInfo.processInfo.environment

let options = DaemonOptions.fromCommandLine(Array(CommandLine.arguments.dropFirst()), environment: environment)
let logger = Logger(level: options.logLevel)
let notifier = Notifier(environment: environment)
for failure in setupFailures { logger.warning("process setup: \(failure)") }

/// `--data-dir`, else an installed copy next to the binary (`<prefix>/share/fmtd`) or in `/usr/share/fmtd`,
/// else the data embedded at build time.
func dataSource() -> DataStore.Source {
    if let directory = options.dataDirectory { return .directory(directory) }
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    let besideBinary = executable.deletingLastPathComponent().deletingLastPathComponent().appending(path: "share/fmtd")
        .path
    for candidate in [besideBinary, "/usr/share/fmtd"]
    where FileManager.default.fileExists(atPath: candidate + "/address-formats.json") {
        return .directory(candidate)
    }
    return .embedded(EmbeddedData.files)
}

let store = DataStore(source: dataSource(), localDirectory: options.configDirectory)
/// The product's languages in its own order (English, Dutch, German); languages added as data follow alphabetically.
let productOrder = ["en", "nl", "de"]
let languages = store.list("translations").map {
    String($0.split(separator: "/").last ?? "").replacing(".json", with: "")
}
let resolver = LocaleResolver(
    supported: (languages.isEmpty ? productOrder : languages).sorted { rank($0) < rank($1) })

func rank(_ language: String) -> (Int, String) {
    (productOrder.firstIndex(of: language) ?? productOrder.count, language)
}
let counters = ServerCounters(configuration: options.server)
let shared = Mutex<(registry: PluginRegistry?, stats: RequestStats?)>((nil, nil))

let registry: PluginRegistry
do {
    registry = try PluginRegistry(
        pluginTypes: PluginCatalog.enabled(options.plugins), store: store,
        environment: PluginEnvironment(resolver: resolver))
} catch {
    logger.error("cannot load data from \(store.sourceDescription): \(error)")
    notifier.send("STATUS=cannot load data: \(error)")
    exit(1)
}
let builtins = BuiltinOps.make(
    registry: { shared.withLock { $0.registry } }, stats: { shared.withLock { $0.stats } }, counters: counters,
    resolver: resolver)
let dispatcher = Dispatcher(registry: registry, builtins: builtins) { op, message in
    logger.error("internal error answering op \"\(op)\": \(message)")
}
shared.withLock { $0 = (registry, dispatcher.stats) }

func dataStatus() -> String {
    let plugins = registry.current.plugins.map { type(of: $0).name }
    return "serving \(plugins.isEmpty ? "no plugins" : plugins.joined(separator: ", ")) from \(store.sourceDescription)"
}

if options.checkOnly {
    print(JSONWriter.string(.object(BuiltinOps.info(registry: registry, resolver: resolver))))
    exit(0)
}

let listener: Listener
do {
    if let activated = try Listener.activated(environment: environment) {
        listener = activated
        logger.info("using the socket passed by systemd (fd 3)")
    } else {
        listener = try Listener.bind(path: options.socketPath, mode: options.socketMode)
        logger.info("listening on \(options.socketPath)")
    }
} catch {
    logger.error("cannot listen: \(error)")
    notifier.send("STATUS=cannot listen: \(error)")
    exit(1)
}

do {
    let server = try Server(
        listener: listener, dispatcher: dispatcher, configuration: options.server, counters: counters, logger: logger,
        notifier: notifier)
    let drained = server.run(status: dataStatus()) {
        switch registry.reload() {
        case .success(let set): return (true, dataStatus() + " (data generation \(set.generation))")
        case .failure(let error): return (false, "reload failed, serving previous data: \(error)")
        }
    }
    // A loop still inside a line after the deadline: end now, without exit handlers running beside it.
    if !drained { _exit(0) }
} catch {
    logger.error("cannot start: \(error)")
    listener.close()
    exit(1)
}
exit(0)
