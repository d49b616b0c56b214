import FmtCore
import Foundation

// fmtq: the command-line client. Exit status: 0 ok, 1 error response, 2 usage, 3 daemon unreachable.

let commands: [any Subcommand.Type] = [
    PingCommand.self, InfoCommand.self, StatsCommand.self, AddressCommand.self, DateCommand.self, PhoneCommand.self,
    SortCommand.self,
    SortKeyCommand.self, LanguageCommand.self, PluralCommand.self, MessageCommand.self,
]

let usage = """
    Usage: fmtq [--socket PATH] [--json] <command> [options]

    Asks the fmtd daemon over its Unix socket (default /run/fmtd/fmtd.sock, or FMTD_SOCKET).

    Commands:
    \(commands.map { "  " + $0.name.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))
      raw       Send request lines as given (argument or stdin) and print the response lines
      reload    Reload the daemon's data and wait: exit 0 when it loaded, 1 when it was refused

    Options for every command:
      --socket PATH   the daemon's socket
      --json          print the raw response line instead of text
      --help          help for a command (fmtq <command> --help)

    Exit status: 0 ok, 1 the daemon answered with an error, 2 usage error, 3 daemon unreachable.
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
let socketPath =
    arguments.option("--socket") ?? ProcessInfo.processInfo.environment["FMTD_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    ?? "/run/fmtd/fmtd.sock"
let jsonOutput = arguments.flag("--json")
let wantsHelp = arguments.flag("--help") || arguments.flag("-h")
guard let name = arguments.positional() else {
    if wantsHelp {
        print(usage)
        exit(0)
    }
    fail(usage, status: 2)
}

func connect() -> DaemonClient {
    do {
        return try DaemonClient(path: socketPath)
    } catch {
        guard case .unreachable(let path, let reason, let code) = error else {
            fail("fmtq: connection failed", status: 3)
        }
        let hint =
            code == EACCES
            ? "The socket is there but this user may not open it: join its group (fmtd) or ask the operator."
            : """
            Start it with `fmtd --socket \(path)` (or `systemctl start fmtd.socket`), or point fmtq at its socket \
            with --socket PATH or FMTD_SOCKET.
            """
        fail("fmtq: cannot reach fmtd at \(path): \(reason).\n\(hint)", status: 3)
    }
}

if name == "raw" {
    if wantsHelp {
        print(
            "Usage: fmtq raw ['<json>' ...]\n\nSends each argument (or each stdin line) as a request line and prints each response line."
        )
        exit(0)
    }
    var lines = arguments.remaining()
    if lines.isEmpty {
        while let line = readLine(strippingNewline: true) { lines.append(line) }
    }
    var client = connect()
    var status: Int32 = 0
    let requests = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    do {
        for line in requests { try client.send(Array((line + "\n").utf8)) }
        client.shutdownWrite()
        for _ in requests {
            let response = try client.readLine()
            print(String(decoding: response, as: UTF8.self))
            if case .object(let object)? = try? JSONReader.parse(response), object["ok"] != .bool(true) { status = 1 }
        }
    } catch {
        fail("fmtq: the daemon closed the connection before answering", status: 3)
    }
    exit(status)
}

if name == ReloadCommand.name {
    if wantsHelp {
        print(ReloadCommand.help)
        exit(0)
    }
    ReloadCommand.run(&arguments, connect: connect)
}

guard let command = commands.first(where: { $0.name == name }) else {
    fail("fmtq: unknown command \(name)\n\n\(usage)", status: 2)
}
if wantsHelp {
    print(command.help)
    exit(0)
}

let request: JSONObject
do {
    request = try command.request(&arguments)
} catch {
    fail("fmtq \(name): \(error.message)\n\n\(command.help)", status: 2)
}
if let problem = arguments.problems.first {
    fail("fmtq \(name): \(problem)\n\n\(command.help)", status: 2)
}
if let extra = arguments.leftovers.first {
    fail("fmtq \(name): unexpected argument \(extra)\n\n\(command.help)", status: 2)
}

var client = connect()
let responseLine: [UInt8]
do {
    // A daemon that refuses us (forbidden, overloaded) writes one line and closes, maybe before our send: read it.
    try? client.send(JSONWriter.encode(.object(request)) + [0x0A])
    responseLine = try client.readLine()
} catch {
    fail("fmtq: the daemon closed the connection before answering", status: 3)
}
client.close()

guard case .object(let response)? = try? JSONReader.parse(responseLine) else {
    fail(
        "fmtq: the daemon sent something that is not a JSON object: \(String(decoding: responseLine, as: UTF8.self))",
        status: 1)
}
if jsonOutput {
    print(String(decoding: responseLine, as: UTF8.self))
    exit(response["ok"] == .bool(true) ? 0 : 1)
}
guard response["ok"] == .bool(true) else {
    let error = response["error"]?.objectValue ?? [:]
    var message = "fmtq \(name): \(error.text("code")): \(error.text("message"))"
    if case .string(let field)? = error["field"] { message += " (field \(field))" }
    fail(message, status: 1)
}
var body = response
body["id"] = nil
body["ok"] = nil
print(command.render(body))
