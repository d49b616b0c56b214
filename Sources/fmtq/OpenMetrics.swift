import FmtClient
import FmtCommandLine
import FmtCore
import Glibc

/// `fmtq stats --openmetrics`: `stats` and `info` as the Prometheus text exposition format (version 0.0.4, the one
/// node_exporter's textfile collector and `promtool check metrics` read), ended by OpenMetrics' `# EOF`. Counters
/// are named with `_total` in their `# TYPE` line as that format wants; info metrics are gauges named `*_info`
/// with the value 1, since that format has no info type.
enum OpenMetrics {
    /// Asks for `stats` and `info` on one connection, prints the metrics and exits (1 on an error response).
    static func print(connection: FmtConnection) -> Never {
        let answers: [Result<JSONObject, FmtResponseError>]
        do {
            answers = try connection.pipeline([["op": "stats"], ["op": "info"]])
        } catch {
            CommandLineExit.writeError("fmtq: the daemon closed the connection before answering\n")
            exit(3)
        }
        switch (answers[0], answers[1]) {
        case (.success(let stats), .success(let info)):
            CommandLineExit.writeOutput(text(stats: stats, info: info))
            exit(0)
        case (.failure(let error), _), (_, .failure(let error)):
            CommandLineExit.writeError("fmtq stats: \(error)\n")
            exit(1)
        }
    }

    /// The exposition of a `stats` and an `info` response.
    static func text(stats: JSONObject, info: JSONObject) -> String {
        var out = Exposition()
        let number = { (value: JSONValue?) in value?.numberValue.map { Double($0.text) ?? 0 } }
        if let uptime = number(stats["uptimeSeconds"]) {
            out.family("fmtd_uptime_seconds", "gauge", "Seconds since the daemon started.")
            out.sample("fmtd_uptime_seconds", [], uptime)
        }

        let perOp = stats["requests"]?.objectValue?["perOp"]?.objectValue ?? [:]
        out.family("fmtd_requests_total", "counter", "Requests answered, per op ((other) for unknown ops).")
        for member in perOp {
            out.sample("fmtd_requests_total", [("op", member.key)], number(member.value.objectValue?["requests"]) ?? 0)
        }
        out.family("fmtd_request_errors_total", "counter", "Requests answered with an error, per op.")
        for member in perOp {
            out.sample(
                "fmtd_request_errors_total", [("op", member.key)], number(member.value.objectValue?["errors"]) ?? 0)
        }

        if let latency = stats["latency"]?.objectValue, let count = number(latency["count"]) {
            let name = "fmtd_request_duration_seconds"
            out.family(name, "histogram", "Handling time from decoded line to encoded response.")
            for bucket in latency["buckets"]?.arrayValue ?? [] {
                guard let pair = bucket.arrayValue, pair.count == 2, let bound = number(pair[0]),
                    let below = number(pair[1])
                else { continue }
                out.sample(name + "_bucket", [("le", Exposition.format(bound / 1_000_000))], below)
            }
            out.sample(name + "_bucket", [("le", "+Inf")], count)
            out.sample(name + "_sum", [], (number(latency["sumUs"]) ?? 0) / 1_000_000)
            out.sample(name + "_count", [], count)
        }

        if let connections = stats["connections"]?.objectValue {
            for member in connections {
                guard let value = number(member.value) else { continue }
                if member.key == "open" {
                    out.family("fmtd_connections_open", "gauge", "Connections open now.")
                    out.sample("fmtd_connections_open", [], value)
                } else {
                    let name =
                        member.key == "total" ? "fmtd_connections_total" : "fmtd_connections_\(snake(member.key))_total"
                    out.family(
                        name, "counter", "Connections: \(member.key) (the stats op's connections.\(member.key)).")
                    out.sample(name, [], value)
                }
            }
        }

        if let reloads = stats["reloads"]?.objectValue {
            out.family("fmtd_reloads_total", "counter", "Reloads (SIGHUP) by result; a failed one keeps the old data.")
            out.sample("fmtd_reloads_total", [("result", "ok")], number(reloads["ok"]) ?? 0)
            out.sample("fmtd_reloads_total", [("result", "failed")], number(reloads["failed"]) ?? 0)
            if let generation = number(reloads["generation"]) {
                out.family("fmtd_data_generation", "gauge", "Generation of the data serving now (1 at start).")
                out.sample("fmtd_data_generation", [], generation)
            }
            if let loaded = number(reloads["loadedAtUnixSeconds"]) {
                out.family(
                    "fmtd_data_loaded_timestamp_seconds", "gauge",
                    "When the data serving now was loaded (start or last successful reload), Unix time.")
                out.sample("fmtd_data_loaded_timestamp_seconds", [], loaded)
            }
            if let duration = number(reloads["lastDurationUs"]) {
                out.family("fmtd_reload_duration_seconds", "gauge", "How long the last reload took.")
                out.sample("fmtd_reload_duration_seconds", [], duration / 1_000_000)
            }
        }

        if let byRule = stats["copyRules"]?.objectValue?["byRule"]?.objectValue {
            out.family(
                "fmtd_copy_rule_findings", "gauge",
                "Copy-rule warnings about the catalogues serving now, per rule (fmtd --check lists them).")
            for member in byRule {
                out.sample("fmtd_copy_rule_findings", [("rule", member.key)], number(member.value) ?? 0)
            }
        }

        out.family("fmtd_build_info", "gauge", "The daemon's version, protocol and ICU (value 1).")
        let icu = info["icu"]?.objectValue ?? [:]
        out.sample(
            "fmtd_build_info",
            [
                ("version", info.text("version")), ("protocol", info.text("protocol")), ("icu", icu.text("version")),
                ("unicode", icu.text("unicode")), ("collation", icu.text("collation")),
            ], 1)
        out.family("fmtd_data_info", "gauge", "The data each plugin loaded: version and checksum (value 1).")
        for plugin in info["plugins"]?.arrayValue ?? [] {
            guard let plugin = plugin.objectValue else { continue }
            let data = plugin["data"]?.objectValue ?? [:]
            out.sample(
                "fmtd_data_info",
                [
                    ("plugin", plugin.text("name")), ("source", data.text("source")), ("version", data.text("version")),
                    ("checksum", data.text("checksum")),
                ], 1)
        }
        return out.text + "# EOF\n"
    }

    /// `idleClosed` → `idle_closed`.
    static func snake(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase { out += "_" + character.lowercased() } else { out.append(character) }
        }
        return out
    }

    /// The text being written: `# HELP`/`# TYPE` lines and samples.
    struct Exposition {
        var text = ""

        mutating func family(_ name: String, _ type: String, _ help: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }

        mutating func sample(_ name: String, _ labels: [(String, String)], _ value: Double) {
            text += name
            if !labels.isEmpty {
                text += "{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}"
            }
            text += " " + Self.format(value) + "\n"
        }

        /// A label value with `\`, `"` and line feeds escaped, read scalar by scalar (a `Character` holds CR LF as
        /// one, which equals neither). The format has no escape for CR, and parsers that read a line at a time
        /// must never see one raw: a CR is written as the line break it is, `\n`, a CR LF pair as one `\n`.
        static func escape(_ value: String) -> String {
            var out = String.UnicodeScalarView()
            var afterCR = false
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
                case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
                case "\n" where afterCR: break
                case "\n", "\r": out.append(contentsOf: #"\n"#.unicodeScalars)
                default: out.append(scalar)
                }
                afterCR = scalar == "\r"
            }
            return String(out)
        }

        /// A whole number without a fraction, else the shortest text that reads back as the same Double.
        static func format(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
            return "\(value)"
        }
    }
}
