import FmtCore
import FmtDispatch
import FmtHost
import Foundation
import Glibc

/// In-process cost per op of the same requests the load sends: the whole `Dispatcher.respond` (decode,
/// dispatch, plugin, encode, stats) and each stage alone, in thread CPU nanoseconds per request.
struct MicroBenchmark {
    let options: Options
    let say: (String) -> Void

    struct Stage {
        var name: String
        var nanoseconds: Double
    }

    /// The plugins of fmtd's catalogue on `--data-dir`, behind the dispatcher a loop of fmtd holds.
    static func dispatcher(dataDirectory: String) throws -> Dispatcher {
        try FormatterHost(source: .directory(dataDirectory), configDirectory: nil).dispatcher
    }

    func run() throws -> JSONObject {
        let dispatcher = try Self.dispatcher(dataDirectory: options.dataDirectory)
        let registry = dispatcher.registry
        let served = Set(registry.ops + ["ping"])
        for op in options.mix where !served.contains(op) {
            say("note: skipping \(op): no registered plugin serves it")
        }
        let ops = options.mix.filter { served.contains($0) }
        let mix = try RequestMix(ops: ops, vectorsDirectory: options.vectorsDirectory)
        say("thread CPU ns per request (median of 5 rounds of \(options.iterations) passes over each op's requests)")
        say("  (handle: the plugin's work and its members written; encode: the envelope around them)")
        say("  op        reqs    respond     decode     handle     encode")
        var report = JSONObject()
        var sink = 0
        for (op, lines) in mix.linesByOp {
            let requests = try lines.map { try Request(try JSONReader.parse($0)) }
            let plugins = requests.map { request in
                registry.current.plugins.first { type(of: $0).ops.contains(request.op) }
            }
            var out: [UInt8] = []
            out.reserveCapacity(64 * 1024)
            // As a loop of fmtd answers: through its own lane, one plugin set per pass over the op's lines.
            let lane = Dispatcher.Lane(dispatcher)
            let stages: [Stage] = [
                measure("respond", count: lines.count) { index in
                    if index == 0 { lane.beginBatch() }
                    lines[index].withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
                    sink &+= out.count
                    out.removeAll(keepingCapacity: true)
                },
                measure("decode", count: lines.count) { index in
                    // As a loop reads it (flat), though into a record of its own where a loop reuses one.
                    let request = lines[index].withUnsafeBufferPointer { try? Request(line: $0) }
                    if let request { sink &+= request.fields.count }
                },
                measure("handle", count: lines.count) { index in
                    if let plugin = plugins[index] {
                        try? ResponseWriter.appendMembers(to: &out) { try plugin.handle(requests[index], into: &$0) }
                    }
                    sink &+= out.count
                    out.removeAll(keepingCapacity: true)
                },
                measure("encode", count: lines.count) { index in
                    Dispatcher.appendEnvelope(id: requests[index].id, to: &out)
                    JSONWriter.appendLiteral("}\n", to: &out)
                    sink &+= out.count
                    out.removeAll(keepingCapacity: true)
                },
            ]
            var row = "  " + pad(op, 8) + String(format: "%5d", lines.count)
            var object = JSONObject()
            for stage in stages {
                row += String(format: " %10.0f", stage.nanoseconds)
                object.append(stage.name + "Ns", number(stage.nanoseconds, 0))
            }
            say(row)
            report.append(op, .object(object))
        }
        // The per-request fixed costs of `Dispatcher.respond` around the plugin, measured alone.
        let builtinOps = ["ping", "info", "stats"]
        let dateSlot = dispatcher.stats.slot(for: "date")
        let shard = dispatcher.stats.makeShard()
        let builtins = Dictionary(uniqueKeysWithValues: builtinOps.map { ($0, $0.count) })
        let probes: [(String, (Int) -> Void)] = [
            ("PluginRegistry.current (Mutex + retain)", { _ in withExtendedLifetime(registry.current) {} }),
            (
                "builtins[op] (String-keyed dictionary, 3 entries)",
                { index in
                    sink &+= builtins[builtinOps[index % 3]] ?? 0
                }
            ),
            (
                "RequestStats.record (shared shard: atomic adds)",
                { index in
                    dispatcher.stats.record(slot: dateSlot, failed: false, nanoseconds: UInt64(index &+ 1000))
                }
            ),
            (
                "RequestStats.Shard.recordOwned (a loop's own shard, as fmtd records)",
                { index in
                    shard.recordOwned(slot: dateSlot, failed: false, nanoseconds: UInt64(index &+ 1000))
                }
            ),
            (
                "clock_gettime(CLOCK_MONOTONIC) (a loop reads it once per request)",
                { _ in
                    var time = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &time)
                    sink &+= time.tv_nsec
                }
            ),
        ]
        var core = JSONObject()
        for (name, probe) in probes {
            let stage = measure(name, count: 3, probe)
            say(String(format: "  %8.1f ns  ", stage.nanoseconds) + name)
            core.append(name, number(stage.nanoseconds, 1))
        }
        withExtendedLifetime(sink) {}
        report.append("core", .object(core))
        return report
    }

    /// Median over five rounds of thread CPU time per call.
    private func measure(_ name: String, count: Int, _ body: (Int) -> Void) -> Stage {
        for index in 0..<count { body(index) }
        var samples: [Double] = []
        let calls = options.iterations * count
        for _ in 0..<5 {
            let started = Self.threadCPU()
            for _ in 0..<options.iterations {
                for index in 0..<count { body(index) }
            }
            let elapsed = Self.threadCPU() - started
            samples.append(Double(elapsed) / Double(calls))
        }
        return Stage(name: name, nanoseconds: median(samples))
    }

    private static func threadCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
