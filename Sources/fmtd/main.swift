import FmtCommandLine
import FmtCore
import FmtHost
import FmtServer
import Glibc

// fmtd: wire the modules together. Flags → the host (data, plugins, dispatcher) → socket → serve until SIGTERM.

let setupFailures = Server.prepareProcess()
let environment = ProcessEnvironment.current

let options = DaemonOptions.fromCommandLine(Array(CommandLine.arguments.dropFirst()), environment: environment)
let logger = Logger(level: options.logLevel)
let notifier = Notifier(environment: environment)
for failure in setupFailures { logger.warning("process setup: \(failure)") }

let counters = ServerCounters(configuration: options.server)
let source = DataLocation.source(dataDirectory: options.dataDirectory, executablePath: CommandLine.arguments[0])
// The data loads on a thread of its own, so SIGTERM and SIGINT stop the daemon (or `--check`) at once meanwhile.
let loading = StartupLoad.run { [configDirectory = options.configDirectory, plugins = options.plugins] in
    Result {
        try FormatterHost(source: source, configDirectory: configDirectory, plugins: plugins, counters: counters) {
            op, message in
            logger.error("internal error answering op \"\(op)\": \(message)")
        }
    }
}
let host: FormatterHost
switch loading {
case .loaded(.success(let loaded)):
    host = loaded
case .loaded(.failure(let error)):
    logger.error("cannot load data from \(DataStore(source: source, localDirectory: nil).sourceDescription): \(error)")
    notifier.send("STATUS=cannot load data: \(error)")
    exit(1)
case .interrupted(let signal):
    // The load still runs: `_exit`, so no exit handler runs beside it. A stop while starting is a stop (status 0);
    // an interrupted `--check` checked nothing, so it fails as a shell reports a signal (128 + its number).
    let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
    if options.checkOnly {
        logger.error("interrupted by \(name) while loading data; nothing was checked")
        _exit(128 + signal)
    }
    logger.notice("stopping on \(name) while loading data")
    notifier.stopping()
    _exit(0)
}

if options.checkOnly {
    print(JSONWriter.string(.object(host.info)))
    let findings = host.copyFindings
    var report = findings.map { "warning: \($0)\n" }.joined()
    if !findings.isEmpty { report += "\(findings.count) copy rule findings\n" }
    report.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    if !findings.isEmpty {
        if options.strict { exit(1) }
    }
    exit(0)
}
for line in CopyRuleReport.logLines(host.copyFindings) { logger.warning(line) }

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
        listener: listener, dispatcher: host.dispatcher, configuration: options.server, counters: counters,
        logger: logger, notifier: notifier)
    let drained = server.run(status: host.status) {
        let outcome = host.reload()
        if outcome.ok { for line in CopyRuleReport.logLines(host.copyFindings) { logger.warning(line) } }
        return outcome
    }
    // A loop still inside a line after the deadline: end now, without exit handlers running beside it.
    if !drained { _exit(0) }
} catch {
    logger.error("cannot start: \(error)")
    listener.close()
    exit(1)
}
exit(0)
