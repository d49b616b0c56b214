import CSystem
import FmtClient
import FmtCore
import Foundation

extension Bench {
    /// A fresh client's round trip while `--busy-peers` connections pipeline the costliest line of each op in
    /// `--mix` (the lines of `--worst-lines`, within `--max-line`), reading their answers: the figure that says
    /// whether one loop turn is shared fairly. The probe pings every 2 ms, alone for a second, then under the load;
    /// median, p99 and worst of each, per run.
    func busyPeers() throws {
        let (socket, pid) = try daemon()
        let ops = Set(options.mix + ["language", "plural", "message", "sortKey"])
        let lines = WorstLines.lines(limit: options.maxLine).compactMap { _, line -> (op: String, line: [UInt8])? in
            guard case .object(let request)? = try? JSONReader.parse(line),
                let op = request["op"]?.stringValue, ops.contains(op)
            else { return nil }
            return (op, line)
        }
        guard !lines.isEmpty else { throw BenchError("no costly line for the ops of --mix") }
        let cycle = RequestCycle(lines: lines)
        say(
            "\(options.connections) busy peers pipelining \(lines.count) costly lines (\(cycle.ops.joined(separator: ", "))) "
                + "of up to \(options.maxLine) bytes, depth \(options.depth)")
        var runs: [JSONValue] = []
        var worstUnderLoad: [Double] = []
        for run in 1...options.runs {
            let alone = try Self.probe(socket: socket, seconds: 1)
            var loaded: [Double] = []
            let runner = LoadRunner(
                socketPath: socket, target: "busy peers", pid: pid, cycle: cycle, connections: options.connections,
                depth: options.depth, threads: options.clientThreads, warmup: options.warmup,
                duration: options.duration, checkOK: false)
            let result = try runner.run { started in
                let left = self.options.duration - Double(csys_monotonic_nsec() - started) / 1e9 - 0.1
                loaded = try Self.probe(socket: socket, seconds: left)
            }
            let row = { (label: String, samples: [Double]) in
                String(
                    format: "  run %d %@ probe round trip: median %.2f ms, p99 %.2f ms, worst %.2f ms (%d pings)", run,
                    label, Self.percentile(samples, 0.5), Self.percentile(samples, 0.99), samples.max() ?? 0,
                    samples.count)
            }
            say(row("alone", alone))
            say(row("busy ", loaded))
            say(String(format: "  run %d peers answered %.0f lines/s", run, result.requestsPerSecond))
            worstUnderLoad.append(loaded.max() ?? 0)
            runs.append([
                "aloneMedianMs": number(Self.percentile(alone, 0.5), 3),
                "aloneWorstMs": number(alone.max() ?? 0, 3),
                "busyMedianMs": number(Self.percentile(loaded, 0.5), 3),
                "busyP99Ms": number(Self.percentile(loaded, 0.99), 3),
                "busyWorstMs": number(loaded.max() ?? 0, 3),
                "peerLinesPerSecond": number(result.requestsPerSecond, 0),
            ])
        }
        if options.runs > 1 {
            say(String(format: "median of the runs' worst round trips under load: %.2f ms", median(worstUnderLoad)))
        }
        record("mode", "busyPeers")
        record("peers", JSONValue(options.connections))
        record("ops", JSONValue(cycle.ops))
        record("runs", .array(runs))
        record("busyWorstMsMedian", number(median(worstUnderLoad), 3))
    }

    /// Round trips in milliseconds of pings on one fresh connection, one every 2 ms for `seconds`.
    static func probe(socket: String, seconds: Double) throws -> [Double] {
        let connection = try FmtConnection(path: socket, timeout: .seconds(30))
        var samples: [Double] = []
        let end = csys_monotonic_nsec() + UInt64(max(0.1, seconds) * 1e9)
        while csys_monotonic_nsec() < end {
            let sent = csys_monotonic_nsec()
            _ = try connection.request(#"{"op":"ping"}"#)
            samples.append(Double(csys_monotonic_nsec() - sent) / 1e6)
            sleep(seconds: 0.002)
        }
        return samples
    }

    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        guard !samples.isEmpty else { return 0 }
        let sorted = samples.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }
}
