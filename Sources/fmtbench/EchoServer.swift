import CSystem
import Foundation
import Glibc

/// The transport ceiling: a one-thread epoll server on a Unix socket that answers every complete line with
/// itself (same framing as fmtd, no work), run as a child process so `/proc` sees it like the daemon.
enum EchoServer {
    private final class Peer {
        let fd: Int32
        let buffer: UnsafeMutablePointer<UInt8>
        let capacity = 256 * 1024
        /// `[sendStart, sendEnd)` are complete lines not yet sent; `[sendEnd, count)` an unfinished line.
        var sendStart = 0
        var sendEnd = 0
        var count = 0
        var writing = false

        init(fd: Int32) {
            self.fd = fd
            buffer = .allocate(capacity: capacity)
        }

        deinit {
            buffer.deallocate()
            Glibc.close(fd)
        }
    }

    /// Serves on `path` forever (the parent ends it with SIGTERM).
    static func serve(path: String) -> Never {
        unlink(path)
        let listener = csys_unix_socket(1)
        guard listener >= 0, csys_unix_listen(listener, path, 1024) == 0 else {
            let message = "fmtbench echo: cannot listen on \(path): \(String(cString: strerror(errno)))\n"
            try? FileHandle.standardError.write(contentsOf: Data(message.utf8))
            exit(1)
        }
        let epoll = csys_epoll_create()
        let listenerToken = UInt64.max
        _ = csys_epoll_add(epoll, listener, UInt32(CSYS_EPOLLIN), listenerToken)
        var peers: [Int32: Peer] = [:]
        var events = [csys_event](repeating: csys_event(), count: 256)
        while true {
            let count = events.withUnsafeMutableBufferPointer { csys_epoll_wait(epoll, $0.baseAddress, 256, -1) }
            for event in events.prefix(Int(max(count, 0))) {
                if event.data == listenerToken {
                    while true {
                        let fd = csys_accept(listener)
                        guard fd >= 0 else { break }
                        peers[fd] = Peer(fd: fd)
                        _ = csys_epoll_add(epoll, fd, UInt32(CSYS_EPOLLIN), UInt64(fd))
                    }
                    continue
                }
                guard let peer = peers[Int32(truncatingIfNeeded: event.data)] else { continue }
                if !serve(peer, events: event.events, epoll: epoll) {
                    _ = csys_epoll_del(epoll, peer.fd)
                    peers[peer.fd] = nil
                }
            }
        }
    }

    /// Reads (unless output is pending), echoes complete lines, and keeps an unfinished one. False when closed.
    private static func serve(_ peer: Peer, events: UInt32, epoll: Int32) -> Bool {
        if !peer.writing {
            if peer.count == peer.capacity { return false }
            let received = recv(peer.fd, peer.buffer + peer.count, peer.capacity - peer.count, 0)
            if received == 0 { return false }
            if received < 0 { return errno == EAGAIN || errno == EINTR }
            let scanFrom = peer.count
            peer.count += received
            var index = peer.count - 1
            while index >= scanFrom && peer.buffer[index] != 0x0A { index -= 1 }
            if index >= scanFrom { peer.sendEnd = index + 1 }
        }
        while peer.sendStart < peer.sendEnd {
            let sent = csys_send(peer.fd, peer.buffer + peer.sendStart, peer.sendEnd - peer.sendStart)
            if sent > 0 {
                peer.sendStart += sent
            } else if sent < 0 && errno == EAGAIN {
                break
            } else {
                return false
            }
        }
        let pending = peer.sendStart < peer.sendEnd
        if !pending && peer.sendEnd > 0 {
            memmove(peer.buffer, peer.buffer + peer.sendEnd, peer.count - peer.sendEnd)
            peer.count -= peer.sendEnd
            peer.sendStart = 0
            peer.sendEnd = 0
        }
        if pending != peer.writing {
            peer.writing = pending
            _ = csys_epoll_mod(epoll, peer.fd, UInt32(pending ? CSYS_EPOLLOUT : CSYS_EPOLLIN), UInt64(peer.fd))
        }
        return true
    }
}

/// A child process: the echo server, or fmtd itself when fmtbench starts the daemon.
final class ChildProcess {
    let process: Process
    let directory: String
    let socketPath: String
    /// Seconds from spawning to `READY=1` (fmtd) or to the first successful connect (echo).
    private(set) var secondsToReady = 0.0

    var pid: Int32 { process.processIdentifier }

    private init(process: Process, directory: String, socketPath: String) {
        self.process = process
        self.directory = directory
        self.socketPath = socketPath
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func temporaryDirectory() throws(BenchError) -> String {
        var template = Array("/tmp/fmtbench-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw BenchError("mkdtemp failed")
        }
        return String(cString: path)
    }

    /// Spawns this executable as the echo server and waits until it accepts.
    static func echoServer() throws -> ChildProcess {
        let directory = try temporaryDirectory()
        let socketPath = directory + "/echo.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--serve-echo", socketPath]
        let child = ChildProcess(process: process, directory: directory, socketPath: socketPath)
        let started = csys_monotonic_nsec()
        try process.run()
        let deadline = started + 10_000_000_000
        while csys_monotonic_nsec() < deadline {
            if let fd = try? connectUnix(socketPath) {
                Glibc.close(fd)
                child.secondsToReady = Double(csys_monotonic_nsec() - started) / 1e9
                return child
            }
            usleep(2_000)
        }
        throw BenchError("the echo server did not start")
    }

    /// Spawns fmtd on a fresh socket with `NOTIFY_SOCKET` set and waits for `READY=1`, timing it.
    static func fmtd(executable: String, arguments: [String]) throws -> ChildProcess {
        let directory = try temporaryDirectory()
        let socketPath = directory + "/fmtd.sock"
        let notify = try NotifyListener(path: directory + "/notify.sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--socket", socketPath, "--config-dir", directory + "/etc"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notify.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let child = ChildProcess(process: process, directory: directory, socketPath: socketPath)
        let started = csys_monotonic_nsec()
        try process.run()
        guard notify.waitForReady(until: started + 30_000_000_000, alive: { process.isRunning }) else {
            let status = process.isRunning ? "still running" : "exit status \(process.terminationStatus)"
            throw BenchError("\(executable) did not send READY=1 (\(status))")
        }
        child.secondsToReady = Double(csys_monotonic_nsec() - started) / 1e9
        return child
    }

    func stop() {
        guard process.isRunning else { return }
        kill(pid, SIGTERM)
        let deadline = csys_monotonic_nsec() + 10_000_000_000
        while process.isRunning && csys_monotonic_nsec() < deadline { usleep(5_000) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}

/// The datagram socket a spawned fmtd sends its sd_notify messages to.
final class NotifyListener {
    let path: String
    private let fd: Int32

    init(path: String) throws(BenchError) {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw BenchError("path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, rc == 0 else { throw BenchError("cannot bind \(path)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 20_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        Glibc.close(fd)
    }

    /// Waits until a datagram with a `READY=1` line arrives; false on the deadline or when the child exits.
    func waitForReady(until deadline: UInt64, alive: () -> Bool) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while csys_monotonic_nsec() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let message = String(decoding: buffer[0..<count], as: UTF8.self)
                if message.split(separator: "\n").contains("READY=1") { return true }
            } else if !alive() {
                return false
            }
        }
        return false
    }
}
