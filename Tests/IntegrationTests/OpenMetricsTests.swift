import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import fmtq

/// `fmtq stats --openmetrics` against the real daemon, judged by Prometheus' own `promtool check metrics`.
@Suite struct OpenMetricsTests {
    static let promtool = "/usr/bin/promtool"

    /// A daemon that has answered some requests, one of them with an error, and the metrics fmtq prints for it.
    static func metricsAfterSomeRequests() throws -> (daemon: Daemon, text: String) {
        let daemon = try Daemon.start()
        _ = try daemon.request(#"{"op":"date","date":"1990-11-29","locale":"nl"}"#)
        _ = try daemon.request(#"{"op":"date","date":"1990-02-30"}"#)
        _ = try daemon.request(#"{"op":"phone","number":"+31612345678","viewerRegion":"NL"}"#)
        let result = try run(Paths.fmtq, ["--socket", daemon.socketPath, "stats", "--openmetrics"])
        #expect(result.status == 0, "fmtq stats --openmetrics: \(result.stderr)")
        return (daemon, result.stdout)
    }

    @Test func promtoolAcceptsTheMetricsWithoutAProblem() throws {
        let (daemon, text) = try Self.metricsAfterSomeRequests()
        defer { _ = daemon.stop() }
        let check = try run(Self.promtool, ["check", "metrics"], stdin: text)
        #expect(check.status == 0, "promtool check metrics:\n\(check.stdout)\(check.stderr)\n\(text)")
        #expect(check.stdout.isEmpty && check.stderr.isEmpty, "\(check.stdout)\(check.stderr)")
        #expect(text.hasSuffix("\n# EOF\n"))
    }

    /// The sample lines, by name and labels as written.
    static func samples(_ text: String) -> [String: Double] {
        var samples: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            samples[String(line[..<space])] = Double(line[line.index(after: space)...])
        }
        return samples
    }

    @Test func requestsErrorsLatencyConnectionsReloadsAndDataVersionsAreThere() throws {
        let (daemon, text) = try Self.metricsAfterSomeRequests()
        defer { _ = daemon.stop() }
        let samples = Self.samples(text)
        #expect(samples[#"fmtd_requests_total{op="date"}"#] == 2)
        #expect(samples[#"fmtd_request_errors_total{op="date"}"#] == 1)
        #expect(samples[#"fmtd_requests_total{op="phone"}"#] == 1)
        // The stats request itself is counted when it is answered, after its own numbers were read.
        let count = try #require(samples["fmtd_request_duration_seconds_count"])
        #expect(count >= 3)
        #expect(samples[#"fmtd_request_duration_seconds_bucket{le="+Inf"}"#] == count)
        let buckets = samples.filter { $0.key.hasPrefix("fmtd_request_duration_seconds_bucket") }
        #expect(buckets.count == 11)
        #expect(samples[#"fmtd_request_duration_seconds_bucket{le="0.268435456"}"#] == count)
        #expect(samples["fmtd_connections_open"] ?? 0 >= 1)
        #expect(samples["fmtd_connections_total"] ?? 0 >= 1)
        #expect(samples[#"fmtd_reloads_total{result="ok"}"#] == 0)
        #expect(samples[#"fmtd_reloads_total{result="failed"}"#] == 0)
        #expect(samples["fmtd_data_generation"] == 1)
        // The shipped catalogue passes the copy rules: every rule is there, at zero.
        let rules = samples.filter { $0.key.hasPrefix("fmtd_copy_rule_findings{") }
        #expect(rules.values.allSatisfy { $0 == 0 }, "\(rules)")
        #expect(samples[#"fmtd_copy_rule_findings{rule="exclamation_mark"}"#] == 0)
        let loaded = try #require(samples["fmtd_data_loaded_timestamp_seconds"])
        #expect(abs(loaded - Date().timeIntervalSince1970) < 600)
        #expect(samples["fmtd_uptime_seconds"] ?? -1 >= 0)
        #expect(text.contains(#"fmtd_data_info{plugin="phone","#) && text.contains(#"version="9.0.35""#))
        #expect(text.contains(#"fmtd_build_info{version="0.1.0",protocol="1",icu="72.1""#))
    }

    @Test func aReloadMovesTheGenerationAndTheLoadTime() throws {
        let daemon = try Daemon.start()
        defer { _ = daemon.stop() }
        let before = Self.samples(
            try run(Paths.fmtq, ["--socket", daemon.socketPath, "stats", "--openmetrics"]).stdout)
        usleep(20_000)
        try daemon.reload()
        let after = Self.samples(try run(Paths.fmtq, ["--socket", daemon.socketPath, "stats", "--openmetrics"]).stdout)
        #expect(after["fmtd_data_generation"] == 2)
        #expect(after[#"fmtd_reloads_total{result="ok"}"#] == 1)
        #expect(
            (after["fmtd_data_loaded_timestamp_seconds"] ?? 0) > (before["fmtd_data_loaded_timestamp_seconds"] ?? 0))
    }

    /// A data directory whose path holds CR LF (and a line after it shaped like a sample) stays inside its
    /// `source` label: no CR reaches the output and every line is a comment or a sample fmtd writes.
    @Test func aLineBreakInALabelValueStaysInsideTheLabel() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/data\r\nfmtd_injected_total 42\r\n# EOF\rfmtd_cr_total 1\n"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Paths.dataDirectory)
        let daemon = try Daemon.start(dataDirectory: link)
        defer { _ = daemon.stop() }
        let result = try run(Paths.fmtq, ["--socket", daemon.socketPath, "stats", "--openmetrics"])
        #expect(result.status == 0, "\(result.stderr)")
        let bytes = Array(result.stdout.utf8)
        #expect(!bytes.contains(0x0D))
        let lines = bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines.last == "# EOF" && lines.filter { $0 == "# EOF" }.count == 1)
        for line in lines where !line.hasPrefix("# ") {
            #expect(
                line.hasPrefix("fmtd_") && !line.hasPrefix("fmtd_injected") && !line.hasPrefix("fmtd_cr"), "\(line)")
        }
        let escaped = #"source=""# + directory + #"/data\nfmtd_injected_total 42\n# EOF\nfmtd_cr_total 1\n""#
        #expect(lines.filter { $0.contains(escaped) }.count == 3, "\(escaped)\n\(result.stdout)")
    }

    @Test func anUnreachableDaemonExitsThreeAndPrintsNoMetrics() throws {
        let result = try run(Paths.fmtq, ["--socket", "/nonexistent/fmtd.sock", "stats", "--openmetrics"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
    }
}

/// Label values as `fmtq stats --openmetrics` writes them: `\\`, `"` and line feeds escaped as the exposition
/// format says, and a CR, for which it has no escape, written as the line break it is (`\n`, a CR LF as one).
@Suite struct LabelEscapeTests {
    @Test(arguments: [
        ("plain", "plain"), (#"a\b"c"#, #"a\\b\"c"#), ("a\nb", #"a\nb"#), ("a\r\nb", #"a\nb"#), ("a\rb", #"a\nb"#),
        ("a\r\rb", #"a\n\nb"#), ("a\n\rb", #"a\n\nb"#), ("\r\n\r\n", #"\n\n"#), ("é\u{301}\r\n", "é\u{301}\\n"),
        ("\r\u{301}", "\\n\u{301}"),
    ])
    func lineBreaksQuotesAndBackslashesAreEscaped(value: String, written: String) {
        let escaped = OpenMetrics.Exposition.escape(value)
        #expect(escaped == written, "\(Array(value.unicodeScalars))")
        #expect(!escaped.utf8.contains(0x0A) && !escaped.utf8.contains(0x0D))
    }
}
