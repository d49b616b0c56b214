import FmtCommandLine
import FmtCore
import FmtHost
import FmtServer
import Glibc

/// fmtd's command line. Every flag has a sensible default, so `fmtd` alone serves on `/run/fmtd/fmtd.sock`.
struct DaemonOptions {
    var socketPath = "/run/fmtd/fmtd.sock"
    var socketMode: mode_t = 0o660
    var dataDirectory: String?
    var configDirectory: String? = "/etc/fmtd"
    var plugins = PluginCatalog.names
    var server = ServerConfiguration(threads: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    var logLevel = LogLevel.info
    var checkOnly = false
    var strict = false
    var wantsHelp = false
    var wantsVersion = false
    var wantsManual = false
    var wantsMarkdown = false

    static var command: CommandSpec<DaemonOptions> {
        CommandSpec(
            name: "fmtd",
            usage: ["fmtd [options]"],
            description:
                "Serves locale formatting (addresses, dates, phone numbers, names) as line-delimited JSON on a Unix socket.",
            options: [
                .text(
                    "--socket", "PATH", help: "socket to listen on; ignored under systemd socket activation",
                    default: "/run/fmtd/fmtd.sock", environment: "FMTD_SOCKET", \.socketPath),
                .octalMode("--socket-mode", "MODE", help: "octal file mode of the socket", default: "0660") {
                    $0.socketMode = mode_t($1)
                },
                .text(
                    "--data-dir", "DIR",
                    help: "data directory",
                    default:
                        "<prefix>/share/fmtd or /usr/share/fmtd when installed, else the data embedded in this binary",
                    \.dataDirectory),
                .text(
                    "--config-dir", "DIR",
                    help: "local additions such as address-formats.d/ and messages.d/; empty for none",
                    default: "/etc/fmtd"
                ) { options, directory in options.configDirectory = directory.isEmpty ? nil : directory },
                .list(
                    "--plugins", "LIST", help: "comma-separated plugins to enable",
                    default: "all: " + PluginCatalog.names.joined(separator: ",")
                ) { options, items throws(UsageError) in
                    let names = items.map { String($0.filter { !$0.isWhitespace }) }
                    for name in names where !PluginCatalog.names.contains(name) {
                        throw UsageError(
                            "unknown plugin \(name); known: \(PluginCatalog.names.joined(separator: ", "))")
                    }
                    options.plugins = names
                },
                .integer("--threads", "N", minimum: 0, help: "event loop threads", default: "one per core") {
                    $0.server.threads = max(1, $1)
                },
                .integer(
                    "--max-line", "BYTES", minimum: 0, help: "longest request line in bytes, at least 64",
                    default: "65536"
                ) {
                    $0.server.maxLineBytes = max(64, $1)
                },
                .integer(
                    "--max-connections", "N", minimum: 0,
                    help: "open connections before new ones are refused with `overloaded`",
                    default: "4096, lowered to what the open-files limit allows"
                ) { $0.server.maxConnections = max(1, $1) },
                .integer(
                    "--max-connections-per-uid", "N", minimum: 0,
                    help: "open connections of one peer uid before its new ones are refused with `overloaded`",
                    default: "1024"
                ) { $0.server.maxConnectionsPerUID = max(1, $1) },
                .integer(
                    "--max-buffered", "BYTES", minimum: 0,
                    help:
                        "input buffered across all connections (unfinished lines, unanswered lines) before only complete "
                        + "lines are read; never below --max-line",
                    default: "67108864, or 16 x --max-line when larger"
                ) { $0.server.maxBufferedBytes = max(1024, $1) },
                .integer(
                    "--max-output", "BYTES", minimum: 0,
                    help: "buffered responses per connection before reading pauses",
                    default: "1048576"
                ) { $0.server.maxOutputBytes = max(1024, $1) },
                .integer(
                    "--max-buffered-output", "BYTES", minimum: 0,
                    help:
                        "responses buffered across all connections before a client that does not read is answered "
                        + "only within its share (this over the open connections)",
                    default: "67108864"
                ) { $0.server.maxBufferedOutputBytes = max(1024, $1) },
                .integer("--idle-timeout", "SEC", minimum: 0, help: "close connections idle this long", default: "300")
                {
                    $0.server.idleTimeout = .seconds(max(1, $1))
                },
                .integer(
                    "--line-timeout", "SEC", minimum: 0,
                    help: "close a connection whose unfinished line is older than this",
                    default: "30"
                ) { $0.server.lineTimeout = .seconds(max(1, $1)) },
                .integer(
                    "--shutdown-timeout", "SEC", minimum: 0,
                    help: "how long SIGTERM answers and flushes what clients sent; then fmtd exits", default: "5"
                ) { $0.server.shutdownTimeout = .seconds($1) },
                .list(
                    "--allow-uid", "LIST",
                    help: "only serve peers with these uids (or --allow-gid); comma-separated numbers"
                ) { options, items throws(UsageError) in options.server.allowedUIDs = try ids("--allow-uid", items) },
                .list("--allow-gid", "LIST", help: "only serve peers with these gids") {
                    options, items throws(UsageError) in
                    options.server.allowedGIDs = try ids("--allow-gid", items)
                },
                .text("--log-level", "LEVEL", help: "error, warning, notice, info or debug", default: "info") {
                    options, name throws(UsageError) in
                    guard let level = LogLevel(name: name) else {
                        throw UsageError("--log-level is one of error, warning, notice, info, debug")
                    }
                    options.logLevel = level
                },
                .flag(
                    "--check",
                    help:
                        "load the data, print info, list the copy rules' findings on stderr, and exit (0 when it loads)",
                    \.checkOnly),
                .flag("--strict", help: "with --check: exit 1 when the copy rules find anything", \.strict),
                .flag("--version", help: "print the version and exit", endsParsing: true) { $0.wantsVersion = true },
                .flag("--help", aliases: ["-h"], help: "print this help and exit", endsParsing: true) {
                    $0.wantsHelp = true
                },
                .flag("--generate-manual", help: "print fmtd(8) in man(7) markup", hidden: true, endsParsing: true) {
                    $0.wantsManual = true
                },
                .flag(
                    "--generate-markdown", help: "print fmtd(8) as a DocC article", hidden: true, endsParsing: true
                ) { $0.wantsMarkdown = true },
            ],
            epilogue:
                "Signals: SIGHUP reloads data (the old data stays when the new fails to load); SIGTERM/SIGINT drain and stop."
        )
    }

    init() {}

    /// The options of this process's command line and environment; `--help`, `--version` and usage mistakes end
    /// the process here.
    static func fromCommandLine(_ arguments: [String], environment: [String: String]) -> DaemonOptions {
        var options = DaemonOptions()
        do throws(UsageError) {
            let parsed = try command.parse(arguments, environment: environment, into: &options)
            if let extra = parsed.positionals.first { throw UsageError("unexpected argument \(extra)") }
            if options.strict && !options.checkOnly { throw UsageError("--strict goes with --check") }
        } catch {
            CommandLineExit.usage(error, command: "fmtd")
        }
        if options.wantsHelp { CommandLineExit.succeed(printing: command.helpText) }
        if options.wantsVersion { CommandLineExit.succeed(printing: "fmtd \(FormatterHost.version)") }
        if options.wantsManual { CommandLineExit.succeed(printing: manualPage(environment: environment).roff) }
        if options.wantsMarkdown {
            CommandLineExit.succeed(printing: manualPage(environment: environment).markdown(title: "fmtd"))
        }
        return options
    }

    /// fmtd(8): the option table of `--help` with the sections an operator looks for.
    static func manualPage(environment: [String: String]) -> ManualPage {
        let command = command
        return ManualPage(
            name: "fmtd", section: "8", summary: "locale formatting daemon",
            date: ManualPage.date(environment: environment),
            source: "fmtd \(FormatterHost.version)",
            sections: [
                ("SYNOPSIS", [command.manualSynopsis]),
                (
                    "DESCRIPTION",
                    command.manualDescription + [
                        .paragraph(
                            "Clients send one JSON object per line and get one line back; fmtd-protocol(7) describes "
                                + "every op. Under systemd, fmtd.socket owns /run/fmtd/fmtd.sock (group fmtd) and the "
                                + "first connection starts fmtd.service; options go in a drop-in "
                                + "(`systemctl edit fmtd.service`).")
                    ]
                ),
                ("OPTIONS", [command.manualOptionList]),
                (
                    "SIGNALS",
                    [
                        .list([
                            (
                                "SIGHUP",
                                "Reload all data; the new data is swapped in only when every plugin loads, otherwise "
                                    + "the old data keeps serving (`fmtq reload` sends it and waits for the outcome)."
                            ),
                            (
                                "SIGTERM, SIGINT",
                                "Stop accepting, answer what was received (bounded by --shutdown-timeout), exit 0."
                            ),
                        ])
                    ]
                ),
                (
                    "FILES",
                    [
                        .list([
                            ("/usr/share/fmtd/", "the packaged data; replaced on upgrade, never edit it"),
                            ("/etc/fmtd/address-formats.d/", "local address formats (*.json)"),
                            ("/etc/fmtd/messages.d/", "sibling services' message catalogues (<service>.<lang>.json)"),
                            (
                                "/etc/fmtd/copy-rules.d/",
                                "local copy rules: glossary terms, forbidden words, names (*.json)"
                            ),
                            ("/run/fmtd/fmtd.sock", "the socket, root:fmtd 0660 under systemd"),
                        ])
                    ]
                ),
                (
                    "EXIT STATUS",
                    [
                        .paragraph(
                            "0 after a clean stop, or when --check loaded the data; 1 when the data does not load, "
                                + "when --check --strict found copy rule findings, or when the socket cannot be "
                                + "served; 2 on a usage error.")
                    ]
                ),
                (
                    "EXAMPLES",
                    [
                        .example("fmtd --check --config-dir /etc/fmtd > /dev/null && systemctl reload fmtd"),
                        .example("fmtd --check --strict --config-dir ci/etc > /dev/null"),
                    ]
                ),
                ("SEE ALSO", [.paragraph("fmtq(1), fmtd-protocol(7), systemd.socket(5)")]),
            ])
    }

    private static func ids(_ flag: String, _ items: [String]) throws(UsageError) -> Set<UInt32> {
        var result = Set<UInt32>()
        for item in items {
            guard let id = UInt32(item) else { throw UsageError("\(flag) takes numeric ids, got \(item)") }
            result.insert(id)
        }
        return result
    }
}
