import FmtCommandLine

/// What fmtbench was asked to do, parsed from its command line.
struct Options {
    static var command: CommandSpec<Options> {
        CommandSpec(
            name: "fmtbench",
            usage: [
                "fmtbench --socket PATH [load options]            load fmtd over its socket",
                "fmtbench --echo [load options]                   the same load against a built-in line-echo server",
                "fmtbench --compare --socket PATH [load options]  echo and fmtd alternately, medians and ratios",
                "fmtbench --reload --socket PATH [load options]   SIGHUP the daemon during load",
                "fmtbench --idle-connections N --socket PATH      resident memory per idle connection",
                "fmtbench --startup PATH-TO-FMTD [-- FMTD-ARGS]   time from spawn to READY=1, resident after start",
                "fmtbench --micro                                 in-process cost per op (ns and allocations)",
                "fmtbench --worst-lines [--max-line N]            in-process cost of the costliest lines a client can send",
                "fmtbench --busy-peers N --socket PATH            a fresh client's round trip while N peers pipeline them",
            ],
            description: """
                Instead of --socket PATH, --spawn PATH-TO-FMTD [-- FMTD-ARGS] starts fmtd on a private socket (a fresh
                daemon per run for --idle-connections) and stops it at the end.
                """,
            options: [
                .text("--socket", "PATH", help: "the daemon's socket", group: modes, \.socketPath),
                .text(
                    "--spawn", "PATH-TO-FMTD",
                    help: "start this fmtd on a private socket (arguments after --) and stop it at the end",
                    group: modes, \.spawnPath),
                .flag("--echo", help: "load a built-in line-echo server instead of fmtd", group: modes) {
                    $0.mode = .echo
                },
                .flag("--compare", help: "echo and fmtd alternately, with medians and ratios", group: modes) {
                    $0.mode = .compare
                },
                .flag("--reload", help: "SIGHUP the daemon during load", group: modes) { $0.mode = .reload },
                .integer(
                    "--idle-connections", "N", minimum: 1,
                    help: "open N idle connections: resident memory per connection",
                    group: modes
                ) { options, count in
                    options.mode = .idle
                    options.idleConnections = count
                },
                .text(
                    "--startup", "PATH-TO-FMTD", help: "time from spawn to READY=1 and resident memory after start",
                    group: modes
                ) { options, path in
                    options.mode = .startup
                    options.fmtdPath = path
                },
                .flag("--micro", help: "in-process cost per op (ns and allocations)", group: modes) {
                    $0.mode = .micro
                },
                .flag("--worst-lines", help: "in-process cost of the costliest lines a client can send", group: modes) {
                    $0.mode = .worstLines
                },
                .integer(
                    "--busy-peers", "N", minimum: 1,
                    help:
                        "N connections pipeline the costliest line of each op (as --worst-lines, within --max-line) "
                        + "while a probe pings: its round trip alone and under the load",
                    group: modes
                ) { options, count in
                    options.mode = .busyPeers
                    options.connections = count
                },
                .integer(
                    "--connections", "N", minimum: 1, help: "connections", default: "16", group: load, \.connections),
                .integer(
                    "--depth", "D", minimum: 1, help: "requests in flight per connection", default: "32", group: load,
                    \.depth),
                .seconds(
                    "--duration", "S", help: "measured seconds per run (fractions allowed)", default: "5", group: load
                ) { $0.duration = $1 },
                .seconds("--warmup", "S", help: "unmeasured seconds before each run", default: "0.5", group: load) {
                    $0.warmup = $1
                },
                .list(
                    "--mix", "LIST",
                    help:
                        "ops to cycle through: phone,phoneMatch,address,date,sort,plural,ping (phoneMatch: 10,000 entries "
                        + "a request, plural: decimal-string counts, neither in the default mix); ops the daemon does not "
                        + "serve (per `info`) "
                        + "are skipped with a note",
                    default: "phone,address,date,sort", group: load
                ) { options, ops throws(UsageError) in
                    for op in ops where !knownOps.contains(op) {
                        throw UsageError("--mix: unknown op \(op); known: \(knownOps.joined(separator: ", "))")
                    }
                    options.mix = ops
                },
                .integer(
                    "--threads", "T", minimum: 1,
                    help: "client threads; a thread with one connection blocks in recv, threads with several use epoll",
                    default: "min(connections, 2)", group: load
                ) { $0.threads = $1 },
                .integer(
                    "--runs", "K", minimum: 1, help: "repeat each measurement K times and report the median",
                    default: "1", group: load, \.runs),
                .integer(
                    "--pid", "PID", minimum: 1, maximum: Int(Int32.max), help: "the daemon's pid for /proc readings",
                    default: "SO_PEERCRED of the first connection", group: load
                ) { $0.pid = Int32($1) },
                .text(
                    "--vectors", "DIR", help: "the vector files", default: "data/vectors under the current directory",
                    group: load, \.vectorsDirectory),
                .integer(
                    "--reloads", "K", minimum: 1, help: "with --reload: SIGHUPs per run, evenly spaced", default: "4",
                    group: load, \.reloads),
                .text(
                    "--change-data", "DIR",
                    help: "with --reload: append a space to every *.json under DIR before each SIGHUP, so every plugin "
                        + "reading from it loads anew (give fmtd the same DIR: -- --data-dir DIR)",
                    group: load, \.changeDataDirectory),
                .integer(
                    "--iterations", "N", minimum: 1, help: "with --micro: calls per request line and measurement",
                    default: "2000",
                    group: load, \.iterations),
                .text(
                    "--data-dir", "DIR", help: "with --micro and --worst-lines: the data to load plugins from",
                    default: "data",
                    group: load, \.dataDirectory),
                .integer(
                    "--max-line", "N", minimum: 256, help: "with --worst-lines: the line length to fill",
                    default: "65536, fmtd's default", group: load, \.maxLine),
                .flag(
                    "--json", help: "print one JSON object with every figure instead of the text report", group: load,
                    \.json),
                .flag("--help", aliases: ["-h"], help: "this text", group: load, endsParsing: true) {
                    $0.wantsHelp = true
                },
                .text(
                    "--serve-echo", "PATH", help: "serve the line echo on PATH (the child --echo spawns)", hidden: true,
                    \.serveEchoPath),
                .flag(
                    "--generate-manual", help: "print fmtbench(1) in man(7) markup", group: load, hidden: true,
                    endsParsing: true
                ) { $0.wantsManual = true },
            ],
            epilogue: """
                Errors are responses with "ok":false to the well-formed requests of the mix, plus requests lost to a
                closed connection. Daemon CPU per request is the utime+stime delta of /proc/PID/stat over the measured
                window divided by the requests completed in it; peak RSS is VmHWM from /proc/PID/status.
                """,
            passThroughAfterDoubleDash: true)
    }

    private static let modes = "Modes"
    private static let load = "Load options"
    private static let knownOps = ["phone", "phoneMatch", "address", "date", "sort", "plural", "ping"]

    enum Mode {
        case load, echo, compare, reload, idle, startup, micro, worstLines, busyPeers
    }

    var mode = Mode.load
    var socketPath: String?
    var connections = 16
    var depth = 32
    var duration = 5.0
    var warmup = 0.5
    var mix = ["phone", "address", "date", "sort"]
    var threads: Int?
    var runs = 1
    var pid: Int32?
    var vectorsDirectory = "data/vectors"
    var dataDirectory = "data"
    var reloads = 4
    /// With --reload: a data directory whose JSON files all change (a trailing space) before each SIGHUP.
    var changeDataDirectory: String?
    var iterations = 2000
    var maxLine = 65536
    var idleConnections = 2000
    var fmtdPath: String?
    /// Start this fmtd binary instead of using `--socket`.
    var spawnPath: String?
    var fmtdArguments: [String] = []
    var json = false
    /// Hidden: serve the line echo on this path (the child process `--echo` spawns).
    var serveEchoPath: String?

    var clientThreads: Int { max(1, min(threads ?? min(connections, 2), connections)) }

    var wantsHelp = false
    var wantsManual = false

    init(arguments: [String]) throws(UsageError) {
        let parsed = try Self.command.parse(arguments, into: &self)
        if wantsHelp || wantsManual { return }
        if let extra = parsed.positionals.first { throw UsageError("unexpected argument \(extra)") }
        fmtdArguments = parsed.passedThrough
        let needsSocket: Set<Mode> = [.load, .compare, .reload, .idle, .busyPeers]
        if serveEchoPath == nil, needsSocket.contains(mode), socketPath == nil, spawnPath == nil {
            throw UsageError("--socket PATH (the daemon's socket) or --spawn PATH-TO-FMTD is required")
        }
    }

    /// fmtbench(1), from the option table of `--help`.
    static func manualPage(environment: [String: String], version: String) -> ManualPage {
        let command = command
        return ManualPage(
            name: "fmtbench", section: "1", summary: "load, latency and lifecycle benchmarks for fmtd",
            date: ManualPage.date(environment: environment), source: "fmtd \(version)",
            sections: [
                ("SYNOPSIS", [command.manualSynopsis]),
                ("DESCRIPTION", command.manualDescription + [.paragraph(command.epilogue)]),
                ("OPTIONS", [command.manualOptionList]),
                ("EXIT STATUS", [.paragraph("0 when the run completed, 1 when it failed, 2 on a usage error.")]),
                ("EXAMPLES", [.example("fmtbench --compare --socket /run/fmtd/fmtd.sock --duration 5 --runs 5")]),
                ("SEE ALSO", [.paragraph("fmtd(8), fmtq(1), fmtd-protocol(7)")]),
            ])
    }

    /// The load parameters of one run, as printed in reports.
    var shape: String { "\(connections)×\(depth)" }
}
