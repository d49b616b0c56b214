import CSystem
import FmtCore
import Foundation
import Glibc

/// A blocking test client on the daemon's socket with a receive timeout, so a broken daemon fails a test
/// instead of hanging it.
final class LineClient {
    struct Timeout: Error {}
    struct Closed: Error {}

    let fd: Int32
    private var reader = LineReader()

    init(path: String, timeoutSeconds: Int = 10) throws {
        fd = csys_unix_socket(0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // On failure `deinit` closes the descriptor (it runs for a throwing initializer of a class too).
        guard csys_unix_connect(fd, path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit {
        Glibc.close(fd)
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw Closed() }
            offset += sent
        }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// The next line without its newline; throws `Closed` at end of stream and `Timeout` after the timeout.
    func readLine() throws -> String {
        do {
            return String(decoding: try reader.readLine(from: fd), as: UTF8.self)
        } catch {
            if error == .timedOut { throw Timeout() }
            throw Closed()
        }
    }

    /// True when the daemon closed the connection (end of stream) within the timeout.
    func isClosedByPeer() -> Bool {
        do {
            _ = try readLine()
            return false
        } catch {
            return error is Closed
        }
    }

    func request(_ line: String) throws -> String {
        try send(line + "\n")
        return try readLine()
    }

    func requestObject(_ line: String) throws -> JSONObject {
        try Self.object(try request(line))
    }

    func shutdownWrite() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    static func object(_ line: String) throws -> JSONObject {
        guard case .object(let object) = try JSONReader.parse(line) else { throw Closed() }
        return object
    }
}
