import FmtClient
import FmtCommandLine
import FmtCore
import Glibc

/// What the options of every subcommand set; each subcommand's table declares the ones it takes.
struct QueryOptions {
    var locale: String?
    var viewerRegion: String?
    var defaultRegion: String?
    var country: String?
    var style: String?
    /// `--type` of `phone-example`.
    var numberType: String?
    var yearShared = false
    /// Address fields by wire name (`houseNumber`), from `--house-number` and its siblings.
    var fields: [String: String] = [:]
    /// `--regions` of `address`: list a country's regions (or, with `--region`, a region's cities).
    var regions = false
    var pid: Int32?
    var timeout = 30.0
    var openMetrics = false
}

extension CommandOption<QueryOptions> {
    /// `--locale TAG`, described for the command at hand: one tag, a comma-separated priority list (`nl-BE,de`) or
    /// an `Accept-Language` value (`fr-CH, fr;q=0.9, de;q=0.7`), sent as written for fmtd to resolve.
    static func locale(_ help: String) -> CommandOption {
        .text(
            "--locale", "TAG", help: help + "; or a list in priority order (nl-BE,de) or an Accept-Language value",
            default: "en", \.locale)
    }
}

/// One `fmtq` subcommand: its command line, how it turns that into a request, and how a successful response
/// reads as text. Plugin commands live in their own files; `main.swift` lists them.
protocol Subcommand {
    static var name: String { get }
    /// One line for `fmtq --help`.
    static var summary: String { get }
    /// Usage, arguments and options: parsing and `fmtq <name> --help` come from it.
    static var spec: CommandSpec<QueryOptions> { get }
    /// Builds the request object, including `op`, from the parsed options and the positional arguments.
    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject
    /// Human-readable text for a successful response (without `id` and `ok`).
    static func render(_ response: JSONObject) -> String
    /// The same, for a command whose text shows what it sent (`search` marks the names it found); by default
    /// `render(_:)`.
    static func render(_ response: JSONObject, request: JSONObject) -> String
    /// The exit status for a successful response: 0 unless the command says otherwise (`phone-match` exits 1
    /// when the numbers do not match).
    static func exitStatus(_ response: JSONObject) -> Int32
}

extension Subcommand {
    /// 0: a successful response is success.
    static func exitStatus(_ response: JSONObject) -> Int32 { 0 }

    /// The response's text alone.
    static func render(_ response: JSONObject, request: JSONObject) -> String { render(response) }

    /// The command line of a command with neither arguments nor options.
    static func bare(_ description: String) -> CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq \(name)", summary: summary, usage: ["fmtq \(name)"], description: description, options: [])
    }

    /// Refuses positional arguments beyond the first `count`.
    static func refuseExtra(_ positionals: [String], after count: Int) throws(UsageError) {
        if positionals.count > count { throw UsageError("unexpected argument \(positionals[count])") }
    }
}

extension Subcommand {
    /// The success response read as its op's result type; an answer this fmtq cannot read (a member missing or of
    /// another type) ends the process with the decoding error and exit status 1.
    static func answer<Answer: FmtResult>(_ response: JSONObject, as type: Answer.Type) -> Answer {
        do {
            return try Answer(response: response)
        } catch {
            CommandLineExit.writeError("fmtq \(name): \(error)\n")
            exit(1)
        }
    }
}

extension JSONObject {
    /// A member as display text: strings as they are, everything else as compact JSON.
    func text(_ key: String) -> String {
        switch self[key] {
        case .string(let value)?: value
        case nil, .null?: ""
        case let value?: JSONWriter.string(value)
        }
    }
}

struct PingCommand: Subcommand {
    static let name = "ping"
    static let summary = "Check that the daemon answers"
    static var spec: CommandSpec<QueryOptions> { bare("Prints the daemon's version when it answers.") }
    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try refuseExtra(positionals, after: 0)
        return ["op": "ping"]
    }
    static func render(_ response: JSONObject) -> String {
        "fmtd \(answer(response, as: DaemonVersion.self).version) is answering"
    }
}

struct InfoCommand: Subcommand {
    static let name = "info"
    static let summary = "Show plugins, ops, data versions, languages and ICU versions"
    static var spec: CommandSpec<QueryOptions> { bare("Shows what the daemon serves and which data it loaded.") }
    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try refuseExtra(positionals, after: 0)
        return ["op": "info"]
    }

    static func render(_ response: JSONObject) -> String {
        var lines = ["fmtd \(response.text("version")), protocol \(response.text("protocol"))"]
        if let icu = response["icu"]?.objectValue {
            lines.append(
                "ICU \(icu.text("version")), Unicode \(icu.text("unicode")), collation \(icu.text("collation"))")
        }
        lines.append(
            "languages: \((response["languages"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", "))")
        if let data = response["data"]?.objectValue { lines.append("data: \(data.text("source"))") }
        for plugin in response["plugins"]?.arrayValue ?? [] {
            guard let plugin = plugin.objectValue else { continue }
            let ops = (plugin["ops"]?.arrayValue ?? []).compactMap(\.stringValue).joined(separator: ", ")
            lines.append("plugin \(plugin.text("name")): ops \(ops)")
            if let data = plugin["data"]?.objectValue {
                for member in data { lines.append("    \(member.key): \(Self.readable(member.value))") }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A data member for people: a long list as its length and first entries, a short one joined, nested
    /// objects as `key value` pairs.
    static func readable(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return text
        case .null: return "none"
        case .array(let items) where items.isEmpty: return "none"
        case .array(let items):
            let texts = items.map(readable)
            guard texts.count > 8 else { return texts.joined(separator: ", ") }
            return "\(texts.count): " + texts.prefix(6).joined(separator: ", ") + ", …"
        case .object(let object):
            return object.map { "\($0.key) \(readable($0.value))" }.joined(separator: ", ")
        default: return JSONWriter.string(value)
        }
    }
}

struct StatsCommand: Subcommand {
    static let name = "stats"
    static let summary = "Show uptime, connections, requests and errors per op, reloads, latency"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq stats", summary: summary, usage: ["fmtq stats [--openmetrics]"],
            description: "Shows the daemon's counters since it started.",
            options: [
                .flag(
                    "--openmetrics",
                    help: "print the counters, latency histogram and data versions as metrics in the Prometheus text "
                        + "format, ended by OpenMetrics' # EOF (what promtool and node_exporter's textfile collector "
                        + "read)",
                    \.openMetrics)
            ],
            epilogue: """
                Examples:
                  fmtq stats
                  fmtq stats --openmetrics | promtool check metrics
                """)
    }
    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try refuseExtra(positionals, after: 0)
        return ["op": "stats"]
    }

    static func render(_ response: JSONObject) -> String {
        var lines = ["uptime: \(response.text("uptimeSeconds")) s"]
        for key in ["connections", "requests", "latency", "reloads", "copyRules"] {
            guard let object = response[key]?.objectValue else { continue }
            lines.append("\(key):")
            for member in object {
                switch (key, member.key, member.value) {
                case ("requests", "perOp", .object(let perOp)):
                    // One line per op: `phone  9 requests, 5 errors`.
                    let width = perOp.map(\.key.count).max() ?? 0
                    for op in perOp {
                        let counts = op.value.objectValue ?? [:]
                        lines.append(
                            "    \(op.key)" + String(repeating: " ", count: width - op.key.count + 2)
                                + "\(counts.text("requests")) requests, \(counts.text("errors")) errors")
                    }
                case ("latency", "buckets", _):
                    continue  // the histogram is for machines: `fmtq stats --json` or `--openmetrics`
                case (_, _, .null):
                    lines.append("    \(member.key): none")
                default:
                    lines.append("    \(member.key): \(InfoCommand.readable(member.value))")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
