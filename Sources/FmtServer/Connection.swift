import CSystem
import FmtCore
import Glibc

/// One client connection, owned by exactly one event loop thread: its socket, the responses written as the socket
/// accepts them, and its `ConnectionState` (input framing, backlog, flags and times: what to do next).
///
/// Confined to its loop's thread, and no two accesses to one of its properties overlap, so the hot ones skip the
/// run-time exclusivity check (about 45 instructions a request for `state`, `output` and `outputStart`).
final class Connection {
    let fd: Int32
    let peer: PeerCredentials
    /// Responses not yet accepted by the socket, from `outputStart` on.
    @exclusivity(unchecked) var output: [UInt8] = []
    @exclusivity(unchecked) var outputStart = 0
    /// Input, flags and times, and the rules for the next step: no system call in there.
    @exclusivity(unchecked) var state: ConnectionState
    /// Bytes of the unfinished line and the backlog last reported to the input budget.
    var charged = 0
    /// Unread response bytes last reported to the output budget.
    var chargedOutput = 0
    /// The epoll interest currently registered, to avoid redundant `epoll_ctl` calls.
    var interest: UInt32 = 0

    init(fd: Int32, peer: PeerCredentials, maxLineBytes: Int, now: UInt64) {
        self.fd = fd
        self.peer = peer
        self.state = ConnectionState(now: now, maxLineBytes: maxLineBytes)
    }

    var pendingOutput: Int { output.count - outputStart }

    /// Writes as much buffered output as the socket takes. Returns false when the peer is gone.
    func flush() -> Bool {
        while outputStart < output.count {
            let sent = output.withUnsafeBytes { buffer in
                csys_send(fd, buffer.baseAddress! + outputStart, buffer.count - outputStart)
            }
            if sent > 0 {
                outputStart += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                break
            } else {
                return false
            }
        }
        if outputStart == output.count {
            // Release big buffers once drained, so idle connections stay small.
            if output.capacity > 64 * 1024 {
                output = []
            } else {
                output.removeAll(keepingCapacity: true)
            }
            outputStart = 0
        } else if outputStart > 256 * 1024 {
            output.removeFirst(outputStart)
            outputStart = 0
        }
        return true
    }
}

/// The peer's process credentials from `SO_PEERCRED`, taken when the connection is accepted.
public struct PeerCredentials: Sendable, CustomStringConvertible {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32

    public static func of(fd: Int32) -> PeerCredentials? {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
        guard csys_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}
