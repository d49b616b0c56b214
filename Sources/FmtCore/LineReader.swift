import Glibc

/// The client side of the line framing: reads a blocking socket and hands back one response line at a time,
/// keeping whatever arrived after it. Shared by `fmtq`, `fmtbench` and the tests' client.
public struct LineReader {
    /// Why no line came: the peer closed the stream, or the socket's receive timeout (`SO_RCVTIMEO`) passed.
    public enum Failure: Error, Sendable {
        case closed
        case timedOut
    }

    private var buffer: [UInt8] = []

    public init() {}

    /// The next line from `fd`, without its newline.
    public mutating func readLine(from fd: Int32) throws(Failure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return line
            }
            let received = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if received > 0 {
                buffer.append(contentsOf: chunk[0..<received])
            } else if received == 0 {
                throw .closed
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                throw .timedOut
            } else if errno != EINTR {
                throw .closed
            }
        }
    }
}
