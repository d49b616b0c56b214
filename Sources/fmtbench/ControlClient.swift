import CSystem
import FmtCore
import Glibc

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Opens a blocking connection to a Unix socket path.
func connectUnix(_ path: String) throws(BenchError) -> Int32 {
    let fd = csys_unix_socket(0)
    guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
    guard csys_unix_connect(fd, path) == 0 else {
        let code = errno
        Glibc.close(fd)
        throw BenchError("cannot connect to \(path): \(String(cString: strerror(code)))")
    }
    return fd
}

/// A blocking one-request-at-a-time connection for `info`, `stats` and `ping`, with a receive timeout.
final class ControlClient {
    let fd: Int32
    private var reader = LineReader()

    init(path: String, timeoutSeconds: Int = 10) throws(BenchError) {
        fd = try connectUnix(path)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        Glibc.close(fd)
    }

    /// The peer's pid from SO_PEERCRED.
    var peerPID: Int32? {
        let pid = csys_peer_pid(fd)
        return pid > 0 ? pid : nil
    }

    func send(_ line: String) throws(BenchError) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw BenchError("the connection closed while sending") }
            offset += sent
        }
    }

    func readLine() throws(BenchError) -> [UInt8] {
        do {
            return try reader.readLine(from: fd)
        } catch {
            throw BenchError(error == .closed ? "the connection closed" : "no response (timeout)")
        }
    }

    func request(_ line: String) throws(BenchError) -> JSONObject {
        try send(line)
        let response = try readLine()
        guard case .object(let object)? = try? JSONReader.parse(response) else {
            throw BenchError("not a JSON object: \(String(decoding: response, as: UTF8.self))")
        }
        return object
    }

    /// The ops the daemon serves, from `info`.
    func servedOps() throws(BenchError) -> [String] {
        let info = try request(#"{"op":"info"}"#)
        return info["ops"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// `reloads.ok + reloads.failed` and `reloads.lastDurationUs` from `stats`.
    func reloadState() throws(BenchError) -> (count: Int, lastMicroseconds: Int?) {
        let reloads = try request(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        let ok = reloads["ok"]?.numberValue?.intValue ?? 0
        let failed = reloads["failed"]?.numberValue?.intValue ?? 0
        return (ok + failed, reloads["lastDurationUs"]?.numberValue?.intValue)
    }

    func openConnections() throws(BenchError) -> Int {
        let stats = try request(#"{"op":"stats"}"#)
        return stats["connections"]?.objectValue?["open"]?.numberValue?.intValue ?? 0
    }
}
