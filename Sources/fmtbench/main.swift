import CSystem
import FmtCommandLine
import FmtHost
import Foundation
import Glibc

// fmtbench: load fmtd over its socket side by side with a line-echo ceiling, and time its lifecycle.

let options: Options
do throws(UsageError) {
    options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    CommandLineExit.usage(error, command: "fmtbench")
}
if options.wantsHelp { CommandLineExit.succeed(printing: Options.command.helpText) }
if options.wantsManual {
    CommandLineExit.succeed(
        printing: Options.manualPage(environment: ProcessInfo.processInfo.environment, version: FormatterHost.version)
            .roff)
}
signal(SIGPIPE, SIG_IGN)
// A parent (a test runner) may hand down blocked signals; the echo child must die on SIGTERM.
_ = csys_unblock_all_signals()
signal(SIGTERM, SIG_DFL)

if let path = options.serveEchoPath { EchoServer.serve(path: path) }

let bench = Bench(options: options)
do {
    switch options.mode {
    case .load: try bench.load()
    case .echo: try bench.echo()
    case .compare: try bench.compare()
    case .reload: try bench.reload()
    case .idle: try bench.idleConnections()
    case .startup: try bench.startup()
    case .micro:
        let report = try MicroBenchmark(options: options, say: bench.say).run()
        bench.record("micro", .object(report))
    case .busyPeers: try bench.busyPeers()
    case .worstLines:
        let dispatcher = try MicroBenchmark.dispatcher(dataDirectory: options.dataDirectory)
        let report = WorstLines(options: options, dispatcher: dispatcher, say: bench.say).run(limit: options.maxLine)
        bench.record("worstLines", .object(report))
    }
    bench.finish()
} catch {
    bench.finish()
    try? FileHandle.standardError.write(contentsOf: Data("fmtbench: \(error)\n".utf8))
    exit(1)
}
