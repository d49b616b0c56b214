import FmtCore

/// One `fmtq` subcommand: how it turns arguments into a request and a successful response into text.
/// Plugin commands live in their own files; `main.swift` lists them.
protocol Subcommand {
    static var name: String { get }
    /// One line for `fmtq --help`.
    static var summary: String { get }
    /// The full `fmtq <name> --help` text: usage and every option.
    static var help: String { get }
    /// Builds the request object, including `op`.
    static func request(_ arguments: inout Arguments) throws(UsageError) -> JSONObject
    /// Human-readable text for a successful response (without `id` and `ok`).
    static func render(_ response: JSONObject) -> String
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
    static let help = "Usage: fmtq ping\n\nPrints the daemon's version when it answers."
    static func request(_ arguments: inout Arguments) throws(UsageError) -> JSONObject { ["op": "ping"] }
    static func render(_ response: JSONObject) -> String { "fmtd \(response.text("version")) is answering" }
}

struct InfoCommand: Subcommand {
    static let name = "info"
    static let summary = "Show plugins, ops, data versions, languages and ICU versions"
    static let help = "Usage: fmtq info\n\nShows what the daemon serves and which data it loaded."
    static func request(_ arguments: inout Arguments) throws(UsageError) -> JSONObject { ["op": "info"] }

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
                for member in data { lines.append("    \(member.key): \(data.text(member.key))") }
            }
        }
        return lines.joined(separator: "\n")
    }
}

struct StatsCommand: Subcommand {
    static let name = "stats"
    static let summary = "Show uptime, connections, requests and errors per op, reloads, latency"
    static let help = "Usage: fmtq stats\n\nShows the daemon's counters since it started."
    static func request(_ arguments: inout Arguments) throws(UsageError) -> JSONObject { ["op": "stats"] }

    static func render(_ response: JSONObject) -> String {
        var lines = ["uptime: \(response.text("uptimeSeconds")) s"]
        for key in ["connections", "requests", "latency", "reloads"] {
            guard let object = response[key]?.objectValue else { continue }
            lines.append("\(key):")
            for member in object { lines.append("    \(member.key): \(object.text(member.key))") }
        }
        return lines.joined(separator: "\n")
    }
}
