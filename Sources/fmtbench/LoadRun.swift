import CSystem
import FmtCore
import Foundation
import Glibc

/// The figures of one measured load run.
struct LoadResult {
    var target: String
    var connections: Int
    var depth: Int
    var requests: Int
    var seconds: Double
    var p50: Double
    var p99: Double
    var p999: Double
    var maximum: Double
    var errors: Int
    var lost: Int
    var firstError: String?
    /// Server CPU seconds (utime + stime) per completed request, in microseconds; nil without a pid.
    var cpuMicrosPerRequest: Double?
    /// Server CPU use over the window, in cores.
    var serverCores: Double?
    /// The same per server thread, busiest first (threads under 0.01 cores left out).
    var threadCores: [Double] = []
    /// (op, p50, p99) in nanoseconds, for ops measured separately within the mix.
    var perOp: [(op: String, requests: Int, p50: Double, p99: Double)] = []
    var peakResidentKiB: Int?
    var residentKiB: Int?
    /// Responses slower than the control's threshold, with their monotonic completion times.
    var slow: [(completedAt: UInt64, latency: UInt64)] = []

    var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }

    var json: JSONObject {
        var object: JSONObject = [
            "target": .string(target), "connections": JSONValue(connections), "depth": JSONValue(depth),
            "requests": JSONValue(requests), "seconds": number(seconds, 3),
            "requestsPerSecond": number(requestsPerSecond, 0),
            "p50Us": number(p50 / 1000, 2), "p99Us": number(p99 / 1000, 2), "p999Us": number(p999 / 1000, 2),
            "maxUs": number(maximum / 1000, 1), "errors": JSONValue(errors), "lost": JSONValue(lost),
        ]
        object.append("serverCpuUsPerRequest", cpuMicrosPerRequest.map { number($0, 3) } ?? .null)
        object.append("serverCores", serverCores.map { number($0, 2) } ?? .null)
        object.append("serverThreadCores", .array(threadCores.map { number($0, 2) }))
        object.append("peakRssKiB", peakResidentKiB.map { JSONValue($0) } ?? .null)
        if let firstError { object.append("firstError", .string(firstError)) }
        var ops = JSONObject()
        for entry in perOp {
            let figures: JSONObject = [
                "requests": JSONValue(entry.requests), "p50Us": number(entry.p50 / 1000, 2),
                "p99Us": number(entry.p99 / 1000, 2),
            ]
            ops.append(entry.op, .object(figures))
        }
        object.append("perOp", .object(ops))
        return object
    }
}

func number(_ value: Double, _ decimals: Int) -> JSONValue {
    .number(JSONNumber(literal: String(format: "%.\(decimals)f", value.isFinite ? value : 0)))
}

/// Runs the client threads against one socket: warm-up, measured window, drain.
struct LoadRunner {
    let socketPath: String
    let target: String
    let pid: Int32?
    let cycle: RequestCycle
    let connections: Int
    let depth: Int
    let threads: Int
    let warmup: Double
    let duration: Double
    /// fmtd's responses must say `"ok":true`; the echo server's lines are the requests themselves.
    let checkOK: Bool
    var slowThreshold: UInt64 = 1_000_000

    /// Runs once; `during` is called on the main thread once measuring starts (for SIGHUPs) and must return
    /// within the duration.
    func run(during: ((_ measuringSince: UInt64) throws -> Void)? = nil) throws -> LoadResult {
        var sockets: [ClientConnection] = []
        for index in 0..<connections {
            let fd = try connectUnix(socketPath)
            sockets.append(ClientConnection(fd: fd, depth: depth, cycle: cycle, startAt: index * 37))
        }
        var serverPID = pid
        if serverPID == nil {
            var peer: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
            if csys_peer_credentials(sockets[0].fd, &peer, &uid, &gid) == 0, peer > 0 { serverPID = peer }
        }
        let probe = serverPID.map { ProcessProbe(pid: $0) }
        let control = LoadControl(slowThreshold: slowThreshold)
        let workers = (0..<threads).map { thread in
            ClientWorker(
                connections: stride(from: thread, to: sockets.count, by: threads).map { sockets[$0] },
                control: control, checkOK: checkOK, ops: cycle.ops.count)
        }
        sockets = []
        let finished = DispatchSemaphore(value: 0)
        for worker in workers {
            let thread = Thread {
                worker.run()
                finished.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        sleep(seconds: warmup)
        let cpuBefore = probe?.cpuSeconds()
        let threadsBefore = probe?.threadCPUSeconds() ?? [:]
        let started = csys_monotonic_nsec()
        control.phase.store(LoadPhase.measuring.rawValue, ordering: .relaxed)
        if let during { try during(started) }
        let remaining = duration - Double(csys_monotonic_nsec() - started) / 1e9
        if remaining > 0 { sleep(seconds: remaining) }
        control.phase.store(LoadPhase.stopping.rawValue, ordering: .relaxed)
        let ended = csys_monotonic_nsec()
        let cpuAfter = probe?.cpuSeconds()
        let threadsAfter = probe?.threadCPUSeconds() ?? [:]
        for _ in workers { finished.wait() }

        var merged = WorkerResult()
        merged.histogramsByOp = Array(repeating: Histogram(), count: cycle.ops.count)
        for worker in workers {
            let result = worker.result
            merged.histogram.merge(result.histogram)
            for (index, histogram) in result.histogramsByOp.enumerated() {
                merged.histogramsByOp[index].merge(histogram)
            }
            merged.completed += result.completed
            merged.errors += result.errors
            merged.lost += result.lost
            merged.firstError = merged.firstError ?? result.firstError
            merged.slow += result.slow
        }
        let seconds = Double(ended - started) / 1e9
        var cpuPerRequest: Double?
        var cores: Double?
        if let cpuBefore, let cpuAfter {
            cores = (cpuAfter - cpuBefore) / seconds
            if merged.completed > 0 { cpuPerRequest = (cpuAfter - cpuBefore) / Double(merged.completed) * 1e6 }
        }
        let threadCores = threadsAfter.compactMap { tid, after in
            threadsBefore[tid].map { (after - $0) / seconds }
        }.filter { $0 >= 0.01 }.sorted(by: >)
        return LoadResult(
            target: target, connections: connections, depth: depth, requests: merged.completed, seconds: seconds,
            p50: merged.histogram.percentile(0.5), p99: merged.histogram.percentile(0.99),
            p999: merged.histogram.percentile(0.999), maximum: Double(merged.histogram.maximum),
            errors: merged.errors, lost: merged.lost, firstError: merged.firstError,
            cpuMicrosPerRequest: cpuPerRequest, serverCores: cores, threadCores: threadCores,
            perOp: zip(cycle.ops, merged.histogramsByOp).map { op, histogram in
                (op, Int(histogram.total), histogram.percentile(0.5), histogram.percentile(0.99))
            },
            peakResidentKiB: probe?.peakResidentKiB, residentKiB: probe?.residentKiB, slow: merged.slow)
    }
}

func sleep(seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension Array where Element == LoadResult {
    /// Each figure's median over the runs (errors and lost summed: any is too many).
    var medianResult: LoadResult? {
        guard var result = first else { return nil }
        func med(_ key: (LoadResult) -> Double) -> Double { median(map(key)) }
        result.requests = Int(med { Double($0.requests) })
        result.seconds = med(\.seconds)
        result.p50 = med(\.p50)
        result.p99 = med(\.p99)
        result.p999 = med(\.p999)
        result.maximum = med(\.maximum)
        result.errors = reduce(0) { $0 + $1.errors }
        result.lost = reduce(0) { $0 + $1.lost }
        result.firstError = lazy.compactMap(\.firstError).first
        let cpu = compactMap(\.cpuMicrosPerRequest)
        result.cpuMicrosPerRequest = cpu.isEmpty ? nil : median(cpu)
        let cores = compactMap(\.serverCores)
        result.serverCores = cores.isEmpty ? nil : median(cores)
        result.peakResidentKiB = compactMap(\.peakResidentKiB).max()
        let requestRate = median(map(\.requestsPerSecond))
        result.requests = Int((requestRate * result.seconds).rounded())
        result.slow = []
        result.threadCores = first?.threadCores ?? []
        result.perOp = result.perOp.indices.map { index in
            let entries = map { $0.perOp[index] }
            return (
                entries[0].op, Int(median(entries.map { Double($0.requests) })), median(entries.map(\.p50)),
                median(entries.map(\.p99))
            )
        }
        return result
    }
}
