import CSystem
import FmtClient
import Foundation
import Glibc
import Synchronization

/// The request lines a load cycles through, in one contiguous buffer with their newlines, so a batch is
/// composed with `memcpy`. Immutable and shared by every client thread.
final class RequestCycle: Sendable {
    let bytes: [UInt8]
    /// Start of line `i` is `offsets[i]`, its end (after the newline) `offsets[i + 1]`.
    let offsets: [Int]
    var count: Int { offsets.count - 1 }
    let longestLine: Int
    /// The op of each line, as an index into `ops`.
    let lineOps: [Int]
    let ops: [String]

    init(lines: [(op: String, line: [UInt8])]) {
        var ops: [String] = []
        for entry in lines where !ops.contains(entry.op) { ops.append(entry.op) }
        self.ops = ops
        lineOps = lines.map { entry in ops.firstIndex(of: entry.op)! }
        let lines = lines.map(\.line)
        var bytes: [UInt8] = []
        var offsets = [0]
        for line in lines {
            bytes += line
            bytes.append(0x0A)
            offsets.append(bytes.count)
        }
        self.bytes = bytes
        self.offsets = offsets
        longestLine = lines.map(\.count).max().map { $0 + 1 } ?? 1
    }
}

/// Where a load run is: client threads record only while `measuring`, and stop sending once `stopping`.
enum LoadPhase: Int {
    case warmup = 0, measuring = 1, stopping = 2
}

/// The shared switches of one load run.
final class LoadControl: Sendable {
    let phase = Atomic<Int>(LoadPhase.warmup.rawValue)
    /// Latencies at or above this many nanoseconds are kept with their completion time (for `--reload`).
    let slowThreshold: UInt64

    init(slowThreshold: UInt64) {
        self.slowThreshold = slowThreshold
    }
}

/// What one client thread saw.
struct WorkerResult {
    var histogram = Histogram()
    /// Latencies per op (indices of `RequestCycle.ops`).
    var histogramsByOp: [Histogram] = []
    /// Responses received while measuring.
    var completed = 0
    /// Responses with `"ok":false`, in any phase.
    var errors = 0
    /// Requests without a response: the connection closed or the drain timed out.
    var lost = 0
    var firstError: String?
    /// (monotonic completion time, latency) of every response slower than the control's threshold.
    var slow: [(completedAt: UInt64, latency: UInt64)] = []
}

/// One client connection keeping `depth` requests in flight: a ring of send times (responses arrive in
/// request order), FmtClient's line buffer for the responses, and an output buffer for requests the socket has
/// not taken yet. Owned by one thread.
final class ClientConnection {
    let fd: Int32
    private let depth: Int
    private let cycle: RequestCycle
    private var cursor: Int
    private let sendTimes: UnsafeMutablePointer<UInt64>
    /// The cycle line of each request in flight, parallel to `sendTimes`.
    private let sentLines: UnsafeMutablePointer<Int>
    private var head = 0
    private(set) var inFlight = 0
    private var input: LineBuffer
    private let output: UnsafeMutablePointer<UInt8>
    private var outputStart = 0
    private var outputEnd = 0
    var closed = false
    var wantsWrite = false
    /// Whether EPOLLOUT is registered, to avoid an `epoll_ctl` per event.
    var registeredWrite = false

    init(fd: Int32, depth: Int, cycle: RequestCycle, startAt: Int) {
        self.fd = fd
        self.depth = depth
        self.cycle = cycle
        cursor = startAt % cycle.count
        sendTimes = .allocate(capacity: depth)
        sentLines = .allocate(capacity: depth)
        input = LineBuffer(capacity: max(64 * 1024, depth * 2048))
        output = .allocate(capacity: depth * cycle.longestLine)
    }

    deinit {
        sendTimes.deallocate()
        sentLines.deallocate()
        output.deallocate()
        if fd >= 0 { Glibc.close(fd) }
    }

    var pendingOutput: Int { outputEnd - outputStart }

    /// Queues requests until `depth` are in flight, stamping them with `now`.
    func refill(now: UInt64) {
        let room = depth - inFlight
        guard room > 0 else { return }
        if outputStart == outputEnd {
            outputStart = 0
            outputEnd = 0
        } else if outputStart > 0 {
            memmove(output, output + outputStart, outputEnd - outputStart)
            outputEnd -= outputStart
            outputStart = 0
        }
        cycle.bytes.withUnsafeBufferPointer { bytes in
            for _ in 0..<room {
                let start = cycle.offsets[cursor]
                let length = cycle.offsets[cursor + 1] - start
                memcpy(output + outputEnd, bytes.baseAddress! + start, length)
                outputEnd += length
                sendTimes[(head + inFlight) % depth] = now
                sentLines[(head + inFlight) % depth] = cursor
                cursor += 1
                if cursor == cycle.count { cursor = 0 }
                inFlight += 1
            }
        }
    }

    /// Sends what the socket takes; false when the connection is gone.
    func flush() -> Bool {
        while outputStart < outputEnd {
            let sent = send(fd, output + outputStart, outputEnd - outputStart, Int32(MSG_NOSIGNAL))
            if sent > 0 {
                outputStart += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                wantsWrite = true
                return true
            } else {
                return false
            }
        }
        wantsWrite = false
        return true
    }

    enum ReadOutcome {
        case progress, wouldBlock, closed
    }

    /// One `recv`, then every complete line: its latency, and whether it says `"ok":true`.
    func readOnce(checkOK: Bool, record: Bool, control: LoadControl, result: inout WorkerResult) -> ReadOutcome {
        let received = input.append { recv(fd, $0.baseAddress, $0.count, 0) }
        if received == 0 { return .closed }
        if received < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wouldBlock }
            return .closed
        }
        let now = csys_monotonic_nsec()
        input.forEachLine { line in
            guard inFlight > 0 else {
                result.errors += 1
                if result.firstError == nil { result.firstError = "a response line nobody asked for" }
                return
            }
            let latency = now &- sendTimes[head]
            let sent = sentLines[head]
            head += 1
            if head == depth { head = 0 }
            inFlight -= 1
            if record {
                result.histogram.record(latency)
                result.histogramsByOp[cycle.lineOps[sent]].record(latency)
                result.completed += 1
            }
            if latency >= control.slowThreshold, result.slow.count < 1_000_000 {
                result.slow.append((now, latency))
            }
            if checkOK && !Self.isSuccess(line) {
                result.errors += 1
                if result.firstError == nil {
                    result.firstError = String(decoding: UnsafeBufferPointer(rebasing: line.prefix(400)), as: UTF8.self)
                }
            }
        }
        return .progress
    }

    private static let successPrefix = Array(#"{"id":null,"ok":true"#.utf8)
    private static let successMember = Array(#""ok":true"#.utf8)

    /// True when the line is a success response: the envelope's fixed prefix, or an `"ok":true` member.
    private static func isSuccess(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        if contains(successPrefix, at: 0, of: line) { return true }
        let member = successMember
        guard line.count >= member.count else { return false }
        for start in 0...(line.count - member.count) where line[start] == member[0] {
            if contains(member, at: start, of: line) { return true }
        }
        return false
    }

    private static func contains(_ needle: [UInt8], at start: Int, of line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard start + needle.count <= line.count else { return false }
        return needle.withUnsafeBytes { memcmp(line.baseAddress! + start, $0.baseAddress!, needle.count) } == 0
    }

    func lose(into result: inout WorkerResult) {
        result.lost += inFlight
        inFlight = 0
    }
}

/// One client thread's connections and loop. Handed to exactly one thread, which alone touches it until
/// the run's completion semaphore is signalled.
final class ClientWorker: @unchecked Sendable {
    let connections: [ClientConnection]
    private let control: LoadControl
    private let checkOK: Bool
    private(set) var result = WorkerResult()
    private static let drainLimit: UInt64 = 3_000_000_000

    init(connections: [ClientConnection], control: LoadControl, checkOK: Bool, ops: Int) {
        self.connections = connections
        self.control = control
        self.checkOK = checkOK
        result.histogramsByOp = Array(repeating: Histogram(), count: ops)
    }

    func run() {
        if connections.count == 1 {
            runBlocking(connections[0])
        } else {
            runPolling()
        }
        for connection in connections { connection.lose(into: &result) }
    }

    private var phase: LoadPhase { LoadPhase(rawValue: control.phase.load(ordering: .relaxed)) ?? .stopping }

    /// One connection on a blocking socket: send the batch, block in `recv` (with a timeout to see the phase).
    private func runBlocking(_ connection: ClientConnection) {
        _ = csys_set_nonblocking(connection.fd, 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(connection.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var drainDeadline: UInt64?
        while true {
            let current = phase
            if current == .stopping {
                if connection.inFlight == 0 { return }
                let now = csys_monotonic_nsec()
                if drainDeadline == nil { drainDeadline = now + Self.drainLimit }
                if now > drainDeadline! { return }
            } else {
                connection.refill(now: csys_monotonic_nsec())
            }
            guard connection.flush() else { return }
            let outcome = connection.readOnce(
                checkOK: checkOK, record: current == .measuring, control: control, result: &result)
            if outcome == .closed { return }
        }
    }

    /// Several non-blocking connections on one epoll set.
    private func runPolling() {
        let epoll = csys_epoll_create()
        defer { Glibc.close(epoll) }
        for (index, connection) in connections.enumerated() {
            _ = csys_set_nonblocking(connection.fd, 1)
            _ = csys_epoll_add(epoll, connection.fd, UInt32(CSYS_EPOLLIN), UInt64(index))
            connection.refill(now: csys_monotonic_nsec())
            if !connection.flush() { connection.closed = true }
            if connection.wantsWrite { interest(epoll, index, connection) }
        }
        var events = [csys_event](repeating: csys_event(), count: 256)
        var drainDeadline: UInt64?
        var open = connections.filter { !$0.closed }.count
        while open > 0 {
            let current = phase
            if current == .stopping {
                if connections.allSatisfy({ $0.closed || $0.inFlight == 0 }) { return }
                let now = csys_monotonic_nsec()
                if drainDeadline == nil { drainDeadline = now + Self.drainLimit }
                if now > drainDeadline! { return }
            }
            let count = events.withUnsafeMutableBufferPointer { csys_epoll_wait(epoll, $0.baseAddress, 256, 100) }
            for event in events.prefix(Int(max(count, 0))) {
                let index = Int(event.data)
                let connection = connections[index]
                guard !connection.closed else { continue }
                var alive = true
                // Level-triggered: one recv per event; whatever is left wakes the next epoll_wait.
                if event.events & UInt32(CSYS_EPOLLIN | CSYS_EPOLLERR | CSYS_EPOLLHUP) != 0 {
                    let outcome = connection.readOnce(
                        checkOK: checkOK, record: current == .measuring, control: control, result: &result)
                    if outcome == .closed { alive = false }
                }
                if alive && current != .stopping { connection.refill(now: csys_monotonic_nsec()) }
                if alive { alive = connection.flush() }
                if !alive {
                    connection.closed = true
                    connection.lose(into: &result)
                    _ = csys_epoll_del(epoll, connection.fd)
                    open -= 1
                    continue
                }
                interest(epoll, index, connection)
            }
        }
    }

    private func interest(_ epoll: Int32, _ index: Int, _ connection: ClientConnection) {
        guard connection.wantsWrite != connection.registeredWrite else { return }
        connection.registeredWrite = connection.wantsWrite
        let events = UInt32(CSYS_EPOLLIN) | (connection.wantsWrite ? UInt32(CSYS_EPOLLOUT) : 0)
        _ = csys_epoll_mod(epoll, connection.fd, events, UInt64(index))
    }
}
