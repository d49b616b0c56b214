import CSystem
import FmtClient
import FmtCore
import Foundation
import Glibc

/// The measurements fmtbench offers, each printing a text report or adding to the JSON summary.
final class Bench {
    let options: Options
    private(set) var summary = JSONObject()
    /// The daemon fmtbench started with `--spawn`, if any (the load modes share one).
    private var spawned: ChildProcess?

    init(options: Options) {
        self.options = options
    }

    func say(_ text: String) {
        guard !options.json else { return }
        try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
    }

    /// The daemon's socket and pid: `--socket` (pid from `--pid` or SO_PEERCRED) or a spawned fmtd.
    func daemon() throws -> (socket: String, pid: Int32?) {
        if let path = options.spawnPath {
            if spawned == nil {
                spawned = try ChildProcess.fmtd(executable: path, arguments: options.fmtdArguments)
                say("started \(path) (pid \(spawned!.pid)) in \(milliseconds(spawned!.secondsToReady)) ms")
            }
            return (spawned!.socketPath, spawned!.pid)
        }
        let socket = options.socketPath!
        return (socket, try options.pid ?? FmtConnection.control(socket).peerPID)
    }

    func record(_ key: String, _ value: JSONValue) {
        summary.append(key, value)
    }

    func finish() {
        spawned?.stop()
        spawned = nil
        if options.json {
            try? FileHandle.standardOutput.write(contentsOf: Data((JSONWriter.string(.object(summary)) + "\n").utf8))
        }
    }

    // MARK: - Load, echo, compare

    /// The mix restricted to the ops `socket` serves (all of it for the echo server).
    private func cycle(servedBy socket: String?) throws -> (RequestCycle, [String]) {
        var ops = options.mix
        if let socket {
            let served = Set(try FmtConnection.control(socket).servedOps())
            for op in ops where !served.contains(op) {
                say("note: skipping \(op): the daemon does not serve it (see `info`)")
            }
            ops = ops.filter { served.contains($0) }
        }
        guard !ops.isEmpty else { throw BenchError("no op of --mix \(options.mix.joined(separator: ",")) is served") }
        let mix = try RequestMix(ops: ops, vectorsDirectory: options.vectorsDirectory)
        let counts = mix.linesByOp.map { "\($0.op) \($0.lines.count)" }.joined(separator: ", ")
        let bytes = String(format: "%.0f", mix.averageLineBytes)
        say("mix: \(counts) distinct requests, \(bytes) bytes per line on average")
        return (RequestCycle(lines: mix.cycle), ops)
    }

    private func runner(socket: String, target: String, pid: Int32?, cycle: RequestCycle, checkOK: Bool) -> LoadRunner {
        LoadRunner(
            socketPath: socket, target: target, pid: pid, cycle: cycle, connections: options.connections,
            depth: options.depth, threads: options.clientThreads, warmup: options.warmup, duration: options.duration,
            checkOK: checkOK)
    }

    /// `--runs` runs of one load against one target, each reported, then their median (reported when there are
    /// several).
    private func measuredRuns(
        socket: String, target: String, pid: Int32?, cycle: RequestCycle, checkOK: Bool
    ) throws -> (runs: [LoadResult], median: LoadResult) {
        let results = try (1...options.runs).map { run in
            let result = try runner(socket: socket, target: target, pid: pid, cycle: cycle, checkOK: checkOK).run()
            report(result, label: "run \(run)")
            return result
        }
        let median = results.medianResult!
        if options.runs > 1 { report(median, label: "median of \(options.runs)") }
        return (results, median)
    }

    func load() throws {
        let (socket, pid) = try daemon()
        let (cycle, ops) = try cycle(servedBy: socket)
        let (results, median) = try measuredRuns(socket: socket, target: "fmtd", pid: pid, cycle: cycle, checkOK: true)
        summary.append("mode", "load")
        summary.append("mix", JSONValue(ops))
        summary.append("fmtd", .object(median.json))
        summary.append("runs", .array(results.map { .object($0.json) }))
    }

    func echo() throws {
        let server = try ChildProcess.echoServer()
        let (cycle, ops) = try cycle(servedBy: nil)
        let (_, median) = try measuredRuns(
            socket: server.socketPath, target: "echo", pid: server.pid, cycle: cycle, checkOK: false)
        summary.append("mode", "echo")
        summary.append("mix", JSONValue(ops))
        summary.append("echo", .object(median.json))
    }

    /// Echo and fmtd alternately with the same client and requests, then medians and the ratios.
    func compare() throws {
        let (socket, pid) = try daemon()
        let server = try ChildProcess.echoServer()
        let (cycle, ops) = try cycle(servedBy: socket)
        var echoResults: [LoadResult] = []
        var fmtdResults: [LoadResult] = []
        for run in 1...options.runs {
            let echo = try runner(
                socket: server.socketPath, target: "echo", pid: server.pid, cycle: cycle, checkOK: false
            ).run()
            report(echo, label: "run \(run)")
            echoResults.append(echo)
            let fmtd = try runner(socket: socket, target: "fmtd", pid: pid, cycle: cycle, checkOK: true).run()
            report(fmtd, label: "run \(run)")
            fmtdResults.append(fmtd)
        }
        let echo = echoResults.medianResult!
        let fmtd = fmtdResults.medianResult!
        let ratio = echo.requestsPerSecond > 0 ? fmtd.requestsPerSecond / echo.requestsPerSecond : 0
        let p99Difference = (fmtd.p99 - echo.p99) / 1000
        say("")
        say("medians of \(options.runs) run(s), \(options.shape), mix \(ops.joined(separator: ","))")
        say(tableHeader)
        report(echo, label: "median")
        report(fmtd, label: "median")
        say(String(format: "fmtd/echo throughput %.1f%%   p99 fmtd − echo %+.1f µs", ratio * 100, p99Difference))
        summary.append("mode", "compare")
        summary.append("mix", JSONValue(ops))
        summary.append("echo", .object(echo.json))
        summary.append("fmtd", .object(fmtd.json))
        summary.append("throughputRatio", number(ratio, 4))
        summary.append("p99DifferenceUs", number(p99Difference, 2))
        let pairs = zip(echoResults, fmtdResults).map { echo, fmtd -> JSONValue in
            ["echo": .object(echo.json), "fmtd": .object(fmtd.json)]
        }
        summary.append("runs", .array(pairs))
    }

    // MARK: - Reload under load

    /// Appends a space (JSON whitespace) to every `*.json` file under `directory`: new bytes, same meaning.
    static func touchJSON(under directory: String) throws {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw BenchError("cannot read \(directory)")
        }
        for case let path as String in enumerator where path.hasSuffix(".json") {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/" + path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(" ".utf8))
            try handle.close()
        }
    }

    func reload() throws {
        let (socket, knownPID) = try daemon()
        let control = try FmtConnection.control(socket)
        guard let pid = knownPID ?? control.peerPID else { throw BenchError("no pid for SIGHUP (use --pid)") }
        let (cycle, ops) = try cycle(servedBy: socket)
        var runs: [JSONValue] = []
        var worstDelays: [Double] = []
        var reloadMillis: [Double] = []
        var totalErrors = 0
        for run in 1...options.runs {
            var windows: [(sent: UInt64, done: UInt64, daemonMicros: Int?)] = []
            var load = runner(socket: socket, target: "fmtd", pid: pid, cycle: cycle, checkOK: true)
            load.slowThreshold = 1_000_000
            let reloads = options.reloads
            let result = try load.run { started in
                for index in 1...reloads {
                    let at = started + UInt64(Double(index) * self.options.duration / Double(reloads + 1) * 1e9)
                    let now = csys_monotonic_nsec()
                    if at > now { sleep(seconds: Double(at - now) / 1e9) }
                    if let directory = self.options.changeDataDirectory { try Self.touchJSON(under: directory) }
                    let before = try control.reloadState().count
                    let sent = csys_monotonic_nsec()
                    kill(pid, SIGHUP)
                    var state = try control.reloadState()
                    while state.count == before && csys_monotonic_nsec() - sent < 10_000_000_000 {
                        usleep(1_000)
                        state = try control.reloadState()
                    }
                    windows.append((sent, csys_monotonic_nsec(), state.lastMicroseconds))
                }
            }
            report(result, label: "run \(run)")
            // The worst latency of a request in flight at any moment of a reload window.
            var worstInWindow: UInt64 = 0
            var overTen = 0
            for slow in result.slow {
                let sentAt = slow.completedAt - slow.latency
                if windows.contains(where: { sentAt <= $0.done && slow.completedAt >= $0.sent }) {
                    worstInWindow = max(worstInWindow, slow.latency)
                }
                if slow.latency > 10_000_000 { overTen += 1 }
            }
            let daemonMillis = windows.compactMap(\.daemonMicros).map { Double($0) / 1000 }
            let observed = windows.map { Double($0.done - $0.sent) / 1e6 }
            let daemonList = daemonMillis.map { String(format: "%.1f", $0) }.joined(separator: "/")
            let observedList = observed.map { String(format: "%.1f", $0) }.joined(separator: "/")
            say(
                "  \(windows.count) reloads: daemon-reported \(daemonList) ms, SIGHUP→stats \(observedList) ms; "
                    + String(
                        format: "worst latency of a request overlapping a reload %.2f ms; requests > 10 ms: %d; "
                            + "errors %d, lost %d", Double(worstInWindow) / 1e6, overTen, result.errors, result.lost))
            worstDelays.append(Double(worstInWindow) / 1e6)
            reloadMillis.append(contentsOf: daemonMillis)
            totalErrors += result.errors + result.lost
            var object = result.json
            object.append("reloadMs", .array(daemonMillis.map { number($0, 2) }))
            object.append("sighupToStatsMs", .array(observed.map { number($0, 2) }))
            object.append("worstLatencyDuringReloadMs", number(Double(worstInWindow) / 1e6, 3))
            object.append("requestsOver10Ms", JSONValue(overTen))
            runs.append(.object(object))
        }
        say(
            String(
                format: "reload: median %.1f ms (max %.1f), worst request latency overlapping a reload: median %.2f ms "
                    + "(max %.2f), errors %d", median(reloadMillis), reloadMillis.max() ?? 0, median(worstDelays),
                worstDelays.max() ?? 0, totalErrors))
        summary.append("mode", "reload")
        summary.append("mix", JSONValue(ops))
        summary.append("reloadMsMedian", number(median(reloadMillis), 2))
        summary.append("reloadMsMax", number(reloadMillis.max() ?? 0, 2))
        summary.append("worstLatencyDuringReloadMsMedian", number(median(worstDelays), 3))
        summary.append("errors", JSONValue(totalErrors))
        summary.append("runs", .array(runs))
    }

    // MARK: - Memory per idle connection

    func idleConnections() throws {
        _ = csys_raise_fd_limit()
        let count = options.idleConnections
        var connectOnly: [Double] = []
        var afterPing: [Double] = []
        var baselines: [Double] = []
        for run in 1...options.runs {
            if options.spawnPath != nil, run > 1 {
                spawned?.stop()
                spawned = nil
            }
            let (socket, knownPID) = try daemon()
            let control = try FmtConnection.control(socket)
            guard let pid = knownPID ?? control.peerPID else { throw BenchError("no pid (use --pid)") }
            let probe = ProcessProbe(pid: pid)
            let openBefore = try control.openConnections()
            sleep(seconds: 0.2)
            let before = probe.residentKiB ?? 0
            var fds: [Int32] = []
            defer { for fd in fds { Glibc.close(fd) } }
            for _ in 0..<count { fds.append(try connectUnix(socket)) }
            let deadline = csys_monotonic_nsec() + 20_000_000_000
            while try control.openConnections() < openBefore + count && csys_monotonic_nsec() < deadline {
                usleep(10_000)
            }
            sleep(seconds: 0.3)
            let connected = probe.residentKiB ?? 0
            let ping = Array(#"{"op":"ping"}"#.utf8) + [0x0A]
            for fd in fds {
                _ = ping.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var answered = 0
            for fd in fds {
                var timeout = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if received > 0, buffer[0..<received].contains(0x0A) { answered += 1 }
            }
            sleep(seconds: 0.3)
            let pinged = probe.residentKiB ?? 0
            let perConnect = Double(connected - before) * 1024 / Double(count)
            let perPing = Double(pinged - before) * 1024 / Double(count)
            say(
                String(
                    format: "run %d: %d connections (%d answered a ping): RSS %.1f MB idle, +%.1f MB connected, "
                        + "+%.1f MB after one ping each: %.0f B per connection (connected), %.0f B (after a request)",
                    run, count, answered, Double(before) / 1024, Double(connected - before) / 1024,
                    Double(pinged - before) / 1024, perConnect, perPing))
            baselines.append(Double(before))
            connectOnly.append(perConnect)
            afterPing.append(perPing)
        }
        say(
            String(
                format: "median of %d: %.0f B per idle connection (connected), %.0f B (after one request); "
                    + "baseline RSS %.1f MB", options.runs, median(connectOnly), median(afterPing),
                median(baselines) / 1024))
        summary.append("mode", "idle")
        summary.append("connections", JSONValue(count))
        summary.append("bytesPerConnection", number(median(connectOnly), 0))
        summary.append("bytesPerConnectionAfterRequest", number(median(afterPing), 0))
        summary.append("baselineRssKiB", number(median(baselines), 0))
    }

    // MARK: - Start-up

    func startup() throws {
        guard let executable = options.fmtdPath else { throw BenchError("--startup needs the path of fmtd") }
        var times: [Double] = []
        var residents: [Double] = []
        for run in 1...options.runs {
            let child = try ChildProcess.fmtd(executable: executable, arguments: options.fmtdArguments)
            let resident = Double(ProcessProbe(pid: child.pid).residentKiB ?? 0)
            let ok = (try? FmtConnection.control(child.socketPath).object(["op": "ping"])["ok"]) == .bool(true)
            child.stop()
            say(
                String(
                    format: "run %d: READY=1 after %.1f ms, RSS %.1f MB with all data loaded", run,
                    child.secondsToReady * 1000, resident / 1024) + (ok ? "" : " (ping FAILED)"))
            times.append(child.secondsToReady * 1000)
            residents.append(resident)
        }
        say(
            String(
                format: "median of %d: start to READY=1 %.1f ms, RSS after start %.1f MB", options.runs, median(times),
                median(residents) / 1024))
        summary.append("mode", "startup")
        summary.append("readyMsMedian", number(median(times), 2))
        summary.append("readyMs", .array(times.map { number($0, 2) }))
        summary.append("rssAfterStartKiB", number(median(residents), 0))
    }

    // MARK: - Text report

    private var tableHeader: String {
        "  target  shape        req/s    p50 µs    p99 µs   p999 µs   max µs  errors  CPU µs/req  cores  peak RSS"
    }

    private func tableRow(_ result: LoadResult) -> String {
        let numbers = String(
            format: "%10.0f %9.1f %9.1f %9.1f %8.0f %7d", result.requestsPerSecond, result.p50 / 1000,
            result.p99 / 1000, result.p999 / 1000, result.maximum / 1000, result.errors + result.lost)
        let cpu = result.cpuMicrosPerRequest.map { String(format: "%.3f", $0) } ?? "-"
        let cores = result.serverCores.map { String(format: "%.2f", $0) } ?? "-"
        let rss = result.peakResidentKiB.map { String(format: "%.1f MB", Double($0) / 1024) } ?? "-"
        return "  " + pad(result.target, 6) + "  " + pad("\(result.connections)×\(result.depth)", 7) + " " + numbers
            + "  " + pad(cpu, 10, right: true) + "  " + pad(cores, 5, right: true) + "  " + rss
    }

    private var printedHeader = false

    private func report(_ result: LoadResult, label: String) {
        if !printedHeader {
            say(tableHeader)
            printedHeader = true
        }
        say(tableRow(result) + "   " + label)
        var details: [String] = []
        if result.perOp.count > 1, result.depth == 1 {
            details.append(
                "per op p50/p99 µs: "
                    + result.perOp.map {
                        "\($0.op) " + String(format: "%.1f/%.1f", $0.p50 / 1000, $0.p99 / 1000)
                    }.joined(separator: ", "))
        }
        if !result.threadCores.isEmpty, !label.hasPrefix("median") {
            let split = result.threadCores.map { String(format: "%.2f", $0) }.joined(separator: "+")
            details.append("server threads: \(split) cores")
        }
        if !details.isEmpty { say("          " + details.joined(separator: "; ")) }
        if let firstError = result.firstError { say("    first error: \(firstError)") }
    }
}

func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return right ? padding + text : text + padding
}

func milliseconds(_ seconds: Double) -> String {
    String(format: "%.1f", seconds * 1000)
}
