import FmtClient
import FmtCommandLine
import FmtCore
import FmtProtocol
import Glibc

// fmtq: the command-line client. Exit status: 0 ok, 1 error response, 2 usage, 3 daemon unreachable.

let commands: [any Subcommand.Type] = [
    PingCommand.self, InfoCommand.self, StatsCommand.self, AddressCommand.self, DateCommand.self, PhoneCommand.self,
    PhoneMatchCommand.self, PhoneExampleCommand.self, SortCommand.self, SortKeyCommand.self, SearchCommand.self,
    SearchFormCommand.self, LanguageCommand.self,
    PluralCommand.self, MessageCommand.self,
]

/// The options every command takes, wherever they appear on the command line.
struct GlobalOptions {
    var socketPath: String?
    var json = false
    var help = false
    /// Hidden: print a manual page (`fmtq` or `fmtd-protocol`) and exit.
    var manual: String?
    /// Hidden: print a manual page as a DocC article and exit.
    var markdown: String?
    /// Hidden: print the completion script for this shell and exit.
    var completion: String?
    /// Hidden: the languages the completion offers for `--locale` (the data's `translations/`).
    var completionLanguages = ["en", "nl", "de"]
}

let global = CommandSpec<GlobalOptions>(
    name: "fmtq", usage: ["fmtq [--socket PATH] [--json] <command> [options]"],
    options: [
        .text(
            "--socket", "PATH", help: "the daemon's socket", default: FmtConnection.defaultSocketPath,
            environment: "FMTD_SOCKET", group: "Options for every command", \.socketPath),
        .flag(
            "--json", help: "print the raw response line instead of text", group: "Options for every command", \.json),
        .flag(
            "--help", aliases: ["-h"], help: "help for a command (fmtq <command> --help)",
            group: "Options for every command", \.help),
        .choice(
            "--generate-manual", "PAGE", ["fmtq", "fmtd-protocol"], help: "print fmtq(1) or fmtd-protocol(7)",
            group: "Options for every command"
        ) { $0.manual = $1 }.hidden,
        .choice(
            "--generate-markdown", "PAGE", ["fmtq", "fmtd-protocol"],
            help: "print fmtq(1) or fmtd-protocol(7) as a DocC article",
            group: "Options for every command"
        ) { $0.markdown = $1 }.hidden,
        .choice(
            "--generate-completion", "SHELL", ["bash"], help: "print the completion script",
            group: "Options for every command"
        ) { $0.completion = $1 }.hidden,
        .list(
            "--completion-languages", "LIST", help: "the languages --locale completes (the data's translations)",
            group: "Options for every command"
        ) { $0.completionLanguages = $1 }.hidden,
    ])

let rawSpec = CommandSpec<QueryOptions>(
    name: "fmtq raw", summary: "Send request lines as given (argument or stdin) and print the response lines",
    usage: ["fmtq raw ['<json>' ...]"],
    description: "Sends each argument (or each stdin line) as a request line and prints each response line.",
    arguments: [CommandArgument("JSON", help: "a request line; without any, the lines of standard input")],
    options: [])

let usage = """
    Usage: fmtq [--socket PATH] [--json] <command> [options]

    Asks the fmtd daemon over its Unix socket (default \(FmtConnection.defaultSocketPath), or FMTD_SOCKET).

    Commands (fmtq help <command>, or fmtq <command> --help, for each one's options):
    \((commands.map { ($0.name, $0.summary) } + [("raw", rawSpec.summary), (ReloadCommand.name, ReloadCommand.summary)])
        .map { "  " + $0.0 + String(repeating: " ", count: max(1, 15 - $0.0.count)) + $0.1 }.joined(separator: "\n"))

    \(global.helpText.split(separator: "\n\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n\n"))

    Exit status: 0 ok, 1 the daemon answered with an error, 2 usage error, 3 daemon unreachable.
    """

func fail(_ message: String, status: Int32) -> Never {
    CommandLineExit.writeError((message + "\n"))
    exit(status)
}

var globalOptions = GlobalOptions()
var rest: [String]
do throws(UsageError) {
    rest = try global.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current,
        into: &globalOptions, keepingUnknownOptions: true
    ).positionals
} catch {
    CommandLineExit.usage(error, command: "fmtq")
}
if let page = globalOptions.manual {
    let date = ManualPage.date(environment: ProcessEnvironment.current)
    CommandLineExit.succeed(
        printing: page == "fmtq"
            ? Manual.fmtqPage(date: date).roff : ProtocolDescription.manualPage(date: date, source: "fmtd").roff)
}
if let page = globalOptions.markdown {
    let date = ManualPage.date(environment: ProcessEnvironment.current)
    CommandLineExit.succeed(
        printing: page == "fmtq"
            ? Manual.fmtqPage(date: date).markdown(title: "fmtq")
            : ProtocolDescription.manualPage(date: date, source: "fmtd").markdown(title: "The fmtd protocol"))
}
if globalOptions.completion != nil {
    CommandLineExit.succeed(printing: Manual.completion(languages: globalOptions.completionLanguages).script)
}
let socketPath = FmtConnection.socketPath(globalOptions.socketPath)

guard let nameIndex = rest.firstIndex(where: { !$0.hasPrefix("--") || $0 == "--" }) else {
    if globalOptions.help { CommandLineExit.succeed(printing: usage) }
    fail(usage, status: 2)
}
if rest[nameIndex] == "--" { rest.remove(at: nameIndex) }
guard nameIndex < rest.count else { fail(usage, status: 2) }
let name = rest.remove(at: nameIndex)

/// Each command's help text by name, `raw` and `reload` included.
@MainActor func helpText(of command: String) -> String? {
    if command == "raw" { return rawSpec.helpText }
    if command == ReloadCommand.name { return ReloadCommand.spec.helpText }
    return commands.first { $0.name == command }?.spec.helpText
}

// `fmtq help [command]`: the same text as `fmtq [command] --help`.
if name == "help" {
    let topic = rest.first { !$0.hasPrefix("--") }
    guard let topic else { CommandLineExit.succeed(printing: usage) }
    guard let text = helpText(of: topic) else {
        CommandLineExit.usage(UsageError("unknown command \(topic)"), command: "fmtq")
    }
    CommandLineExit.succeed(printing: text)
}

func connect() -> FmtConnection {
    do {
        return try FmtConnection(path: socketPath, timeout: nil)
    } catch {
        guard case .unreachable(let path, let reason, let code) = error else {
            fail("fmtq: connection failed", status: 3)
        }
        // Where systemd runs, its socket unit is the way to start fmtd; elsewhere (a container) fmtd itself.
        let start =
            access("/run/systemd/system", F_OK) == 0
            ? "Start it with `systemctl start fmtd.socket` (or `fmtd --socket \(path)`)"
            : "Start it with `fmtd --socket \(path)` (systemd is not running here)"
        let hint =
            code == EACCES
            ? "The socket is there but this user may not open it: join its group (fmtd) or ask the operator."
            : "\(start), or point fmtq at its socket with --socket PATH or FMTD_SOCKET."
        fail("fmtq: cannot reach fmtd at \(path): \(reason).\n\(hint)", status: 3)
    }
}

/// The command's own options and positional arguments; `--help` and usage mistakes end the process here.
@MainActor func parse(_ spec: CommandSpec<QueryOptions>) -> (QueryOptions, [String]) {
    if globalOptions.help { CommandLineExit.succeed(printing: spec.helpText) }
    var options = QueryOptions()
    do throws(UsageError) {
        let positionals = try spec.parse(rest, into: &options).positionals
        return (options, positionals)
    } catch {
        CommandLineExit.usage(error, command: spec.name)
    }
}

if name == "raw" {
    var (_, lines) = parse(rawSpec)
    if lines.isEmpty {
        while let line = readLine(strippingNewline: true) { lines.append(line) }
    }
    let requests = lines.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }
    let connection = connect()
    let responses: [[UInt8]]
    do {
        responses = try connection.pipeline(lines: requests.map { Array($0.utf8) })
    } catch {
        fail("fmtq: the daemon closed the connection before answering", status: 3)
    }
    var status: Int32 = 0
    for response in responses {
        print(String(decoding: response, as: UTF8.self))
        if let object = try? FmtConnection.decode(response), object["ok"] != .bool(true) { status = 1 }
    }
    exit(status)
}

if name == ReloadCommand.name {
    let (options, positionals) = parse(ReloadCommand.spec)
    ReloadCommand.run(options, positionals, connect: connect)
}

guard let command = commands.first(where: { $0.name == name }) else {
    CommandLineExit.usage(UsageError("unknown command \(name)"), command: "fmtq")
}
let (options, positionals) = parse(command.spec)
if command == StatsCommand.self && options.openMetrics {
    if let extra = positionals.first {
        CommandLineExit.usage(UsageError("unexpected argument \(extra)"), command: "fmtq stats")
    }
    OpenMetrics.print(connection: connect())
}
let request: JSONObject
do {
    request = try command.request(options, positionals)
} catch {
    CommandLineExit.usage(error, command: command.spec.name)
}

let connection = connect()
let responseLine: [UInt8]
do {
    // A daemon that refuses us (forbidden, overloaded) writes one line and closes, maybe before our send: read it.
    try? connection.send(request: request)
    responseLine = try connection.readLineBytes()
} catch {
    fail("fmtq: the daemon closed the connection before answering", status: 3)
}

guard let response = try? FmtConnection.decode(responseLine) else {
    fail(
        "fmtq: the daemon sent something that is not a JSON object: \(String(decoding: responseLine, as: UTF8.self))",
        status: 1)
}
if globalOptions.json {
    print(String(decoding: responseLine, as: UTF8.self))
    exit(response["ok"] == .bool(true) ? command.exitStatus(response) : 1)
}
if let error = FmtResponseError(response: response) { fail("fmtq \(name): \(error)", status: 1) }
var body = response
body["id"] = nil
body["ok"] = nil
print(command.render(body, request: request))
exit(command.exitStatus(body))
