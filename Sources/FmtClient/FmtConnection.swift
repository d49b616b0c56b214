import CSystem
import FmtCore
import Glibc

/// A connection to fmtd's Unix socket: one request line out, one response line back, in order.
///
/// The daemon answers requests on a connection in the order they were sent, so a connection can carry many
/// requests at once (`pipeline`). A connection is used from one thread at a time; open one per thread (they are
/// cheap) rather than sharing one. The socket is closed when the connection is released.
///
/// ```swift
/// import FmtClient
///
/// let fmtd = try FmtConnection()  // FMTD_SOCKET, else /run/fmtd/fmtd.sock
/// let phone = try fmtd.phone("+31 20 794 0958", viewerRegion: "NL")
/// print(phone.display)  // 020 794 0958
/// do {
///     _ = try fmtd.date("1990-13-01", locale: "nl")
/// } catch {
///     if case .daemon(let response) = error { print(response.code, response.field ?? "") }  // invalid_date date
/// }
/// ```
public final class FmtConnection {
    /// The socket path when none is given and `FMTD_SOCKET` is unset.
    public static let defaultSocketPath = "/run/fmtd/fmtd.sock"

    /// `path` when given, else `FMTD_SOCKET` when set and not empty, else `defaultSocketPath`.
    public static func socketPath(_ path: String? = nil) -> String {
        if let path { return path }
        if let variable = getenv("FMTD_SOCKET"), variable.pointee != 0 { return String(cString: variable) }
        return defaultSocketPath
    }

    /// Opens a blocking socket connected to `path` (`nonblocking` for an event loop's own use).
    public static func connectSocket(path: String, nonblocking: Bool = false) throws(FmtClientError) -> Int32 {
        let fd = csys_unix_socket(nonblocking ? 1 : 0)
        guard fd >= 0 else { throw .unreachable(path: path, reason: String(cString: strerror(errno)), errno: errno) }
        let rc = csys_unix_connect(fd, path)
        guard rc == 0 else {
            let code = rc == -2 ? 0 : errno
            Glibc.close(fd)
            throw .unreachable(
                path: path, reason: code == 0 ? "path too long" : String(cString: strerror(code)), errno: code)
        }
        return fd
    }

    /// The connected socket.
    public let fd: Int32
    /// The socket path this connection reached.
    public let path: String
    /// How long a read waits for the daemon (nil: as long as it takes).
    public let timeout: Duration?
    private var input = LineBuffer()

    /// Connects to the daemon at `FmtConnection.socketPath(path)`. Reads give up after `timeout` (nil waits for
    /// ever); sends block until the daemon takes the bytes.
    public init(path: String? = nil, timeout: Duration? = .seconds(10)) throws(FmtClientError) {
        self.path = Self.socketPath(path)
        self.timeout = timeout
        fd = try Self.connectSocket(path: self.path)
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            var value = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
            if value.tv_sec == 0 && value.tv_usec == 0 { value.tv_usec = 1 }
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    deinit {
        Glibc.close(fd)
    }

    /// The daemon's pid from `SO_PEERCRED`, when the kernel reports one.
    public var peerPID: Int32? {
        let pid = csys_peer_pid(fd)
        return pid > 0 ? pid : nil
    }

    /// Sends `bytes` as they are (no newline is added): for callers that frame requests themselves.
    public func send(_ bytes: [UInt8]) throws(FmtClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && errno == EINTR {
                continue
            } else {
                throw .closed
            }
        }
    }

    /// Sends the UTF-8 bytes of `text` as they are (no newline is added).
    public func send(_ text: String) throws(FmtClientError) {
        try send(Array(text.utf8))
    }

    /// Sends one request object as a line.
    public func send(request: JSONObject) throws(FmtClientError) {
        try send(JSONWriter.encode(.object(request)) + [0x0A])
    }

    /// The next response line without its newline.
    public func readLineBytes() throws(FmtClientError) -> [UInt8] {
        try input.readLine(from: fd)
    }

    /// The next response line without its newline, as text.
    public func readLine() throws(FmtClientError) -> String {
        String(decoding: try readLineBytes(), as: UTF8.self)
    }

    /// The next response, decoded; an `"ok":false` response is returned, not thrown.
    public func readResponse() throws(FmtClientError) -> JSONObject {
        try Self.decode(try readLineBytes())
    }

    /// Sends a request line (a newline is added) and returns the response line.
    public func request(_ line: String) throws(FmtClientError) -> String {
        try send(line + "\n")
        return try readLine()
    }

    /// Sends a request line (a newline is added) and returns the decoded response, `"ok":false` included.
    public func requestObject(_ line: String) throws(FmtClientError) -> JSONObject {
        try send(line + "\n")
        return try readResponse()
    }

    /// Sends `request` and returns the response object; an error response throws `.daemon` with its code, message
    /// and field.
    @discardableResult
    public func call(_ request: JSONObject) throws(FmtClientError) -> JSONObject {
        try send(request: request)
        let response = try readResponse()
        if let error = FmtResponseError(response: response) { throw .daemon(error) }
        return response
    }

    /// Sends every request, then reads one response per request, in order; sending and reading overlap, so any
    /// number of requests may be in flight. Each response is a success or its `FmtResponseError`.
    public func pipeline(_ requests: [JSONObject]) throws(FmtClientError) -> [Result<JSONObject, FmtResponseError>] {
        let lines = try pipeline(lines: requests.map { JSONWriter.encode(.object($0)) })
        var results: [Result<JSONObject, FmtResponseError>] = []
        results.reserveCapacity(lines.count)
        for line in lines {
            let response = try Self.decode(line)
            results.append(FmtResponseError(response: response).map { .failure($0) } ?? .success(response))
        }
        return results
    }

    /// Sends each line (a newline is added to each) and returns the response lines, in order. Reading starts while
    /// sending goes on, so a daemon pausing a client that does not read its responses cannot stall the pipeline.
    public func pipeline(lines: [[UInt8]]) throws(FmtClientError) -> [[UInt8]] {
        var output: [UInt8] = []
        for line in lines {
            output += line
            output.append(0x0A)
        }
        var sent = 0
        var responses: [[UInt8]] = []
        responses.reserveCapacity(lines.count)
        let waitMilliseconds = timeout.map { timeout in
            let (seconds, attoseconds) = timeout.components
            return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        }
        while responses.count < lines.count {
            while let line = input.nextLine(), responses.count < lines.count { responses.append(line) }
            if responses.count == lines.count { break }
            var descriptor = pollfd(
                fd: fd, events: Int16(POLLIN) | (sent < output.count ? Int16(POLLOUT) : 0), revents: 0)
            let ready = poll(&descriptor, 1, waitMilliseconds ?? -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { throw ready == 0 ? .timedOut : .closed }
            if descriptor.revents & Int16(POLLOUT) != 0 && sent < output.count {
                let count = output.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if count > 0 {
                    sent += count
                } else if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                    throw .closed
                }
            }
            if descriptor.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let received = input.append { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                    while let line = input.nextLine(), responses.count < lines.count { responses.append(line) }
                    guard responses.count == lines.count else { throw .closed }
                }
            }
        }
        return responses
    }

    /// Tells the daemon nothing more is coming; it answers what it received and then closes.
    public func shutdownWrite() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// True when the daemon closed the connection (end of stream) within the timeout, rather than sending a line
    /// or staying silent.
    public func isClosedByPeer() -> Bool {
        do {
            _ = try readLineBytes()
            return false
        } catch {
            return error == .closed
        }
    }

    /// The JSON object a response line (as text) holds.
    public static func decode(_ line: String) throws(FmtClientError) -> JSONObject {
        try decode(Array(line.utf8))
    }

    /// The JSON object a response line holds.
    public static func decode(_ line: [UInt8]) throws(FmtClientError) -> JSONObject {
        guard case .object(let object)? = try? JSONReader.parse(line) else {
            throw .malformedResponse(String(decoding: line, as: UTF8.self))
        }
        return object
    }
}

extension LineBuffer {
    /// Blocks on `fd` until a complete line is buffered and returns it; the socket's receive timeout
    /// (`SO_RCVTIMEO`) turns into `.timedOut`, end of stream into `.closed`.
    public mutating func readLine(from fd: Int32) throws(FmtClientError) -> [UInt8] {
        while true {
            if let line = nextLine() { return line }
            let received = append { recv(fd, $0.baseAddress, $0.count, 0) }
            if received > 0 { continue }
            if received == 0 { throw .closed }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw .timedOut }
            if errno != EINTR { throw .closed }
        }
    }
}
