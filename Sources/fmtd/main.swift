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
let host: FormatterHost
do {
    host = try FormatterHost(
        source: source, configDirectory: options.configDirectory, plugins: options.plugins, counters: counters
    ) { op, message in
        logger.error("internal error answering op \"\(op)\": \(message)")
    }
} catch {
    logger.error("cannot load data from \(DataStore(source: source, localDirectory: nil).sourceDescription): \(error)")
    notifier.send("STATUS=cannot load data: \(error)")
    exit(1)
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
