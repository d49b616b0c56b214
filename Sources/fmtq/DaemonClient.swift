import CSystem
import FmtCore
import Glibc

/// A blocking line client for the daemon's socket: fmtq sends a request line and reads one response line.
struct DaemonClient {
    enum Failure: Error {
        case unreachable(path: String, reason: String, code: Int32)
        case closed
    }

    private let fd: Int32
    private var reader = LineReader()

    init(path: String) throws(Failure) {
        fd = csys_unix_socket(0)
        guard fd >= 0 else { throw .unreachable(path: path, reason: String(cString: strerror(errno)), code: errno) }
        let rc = csys_unix_connect(fd, path)
        guard rc == 0 else {
            let code = errno
            let reason = rc == -2 ? "path too long" : String(cString: strerror(code))
            Glibc.close(fd)
            throw .unreachable(path: path, reason: reason, code: rc == -2 ? 0 : code)
        }
    }

    func send(_ line: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < line.count {
            let sent = line.withUnsafeBytes { csys_send(fd, $0.baseAddress! + offset, $0.count - offset) }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EINTR) {
                var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 1000)
            } else {
                throw .closed
            }
        }
    }

    /// Reads the next response line (without its newline).
    mutating func readLine() throws(Failure) -> [UInt8] {
        do {
            return try reader.readLine(from: fd)
        } catch {
            throw .closed
        }
    }

    /// The daemon's pid from SO_PEERCRED.
    var peerPID: Int32? {
        let pid = csys_peer_pid(fd)
        return pid > 0 ? pid : nil
    }

    /// Sends one request and returns the response object (nil when the line is not a JSON object).
    mutating func ask(_ request: JSONObject) throws(Failure) -> JSONObject? {
        try send(JSONWriter.encode(.object(request)) + [0x0A])
        guard case .object(let response)? = try? JSONReader.parse(try readLine()) else { return nil }
        return response
    }

    func shutdownWrite() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    func close() {
        Glibc.close(fd)
    }
}
