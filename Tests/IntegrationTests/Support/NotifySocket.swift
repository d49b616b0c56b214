import Foundation
import Glibc

/// A datagram socket bound where a test tells fmtd `NOTIFY_SOCKET` is, collecting sd_notify messages.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(directory: String) throws {
        path = directory + "/notify.sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard rc == 0 else { throw POSIXError(.EADDRINUSE) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
    }

    /// Messages received so far (each datagram is one message of `KEY=value` lines).
    private(set) var messages: [String] = []

    /// Waits until a message satisfying `predicate` arrives; returns it, or nil after `timeout` seconds.
    func waitFor(timeout: Double = 10, _ predicate: (String) -> Bool) -> String? {
        if let seen = messages.first(where: predicate) { return seen }
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { continue }
            let message = String(decoding: buffer[0..<count], as: UTF8.self)
            messages.append(message)
            if predicate(message) { return message }
        }
        return nil
    }
}
