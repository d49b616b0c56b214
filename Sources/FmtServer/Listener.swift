import CSystem
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why the daemon could not get its listening socket.
public enum ListenerError: Error, CustomStringConvertible {
    case pathTooLong(String)
    case alreadyServed(String)
    case system(String, errno: Int32)

    public var description: String {
        switch self {
        case .pathTooLong(let path): "socket path \(path) is too long for a Unix socket"
        case .alreadyServed(let path):
            "another process is already answering on \(path); refusing to replace its socket (stop it first)"
        case .system(let what, let code): "\(what): \(String(cString: strerror(code)))"
        }
    }
}

/// The listening Unix socket: inherited from systemd (`LISTEN_PID`/`LISTEN_FDS`, fd 3) or bound to a path.
/// A stale socket file is replaced only when nothing answers on it; a socket file we created is removed at
/// exit, one systemd passed us never is.
public final class Listener: Sendable {
    public let fd: Int32
    public let path: String?
    /// True when the socket came from systemd socket activation.
    public let activated: Bool
    private let createdInode: UInt64?

    private init(fd: Int32, path: String?, activated: Bool, createdInode: UInt64?) {
        self.fd = fd
        self.path = path
        self.activated = activated
        self.createdInode = createdInode
    }

    /// The socket systemd passed, if the environment says it is ours.
    public static func activated(environment: [String: String]) -> Listener? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        guard csys_is_listening_unix_socket(fd) == 1 else { return nil }
        _ = csys_set_nonblocking(fd, 1)
        _ = csys_set_cloexec(fd)
        return Listener(fd: fd, path: nil, activated: true, createdInode: nil)
    }

    /// Binds `path` with `mode`, creating its directory when missing.
    public static func bind(path: String, mode: mode_t, backlog: Int32 = 1024) throws(ListenerError) -> Listener {
        guard path.utf8.count < 108 else { throw .pathTooLong(path) }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            } catch {
                throw .system("creating socket directory \(directory)", errno: errno == 0 ? ENOENT : errno)
            }
        }
        if FileManager.default.fileExists(atPath: path) {
            if isAnswering(path) { throw .alreadyServed(path) }
            unlink(path)
        }
        let fd = csys_unix_socket(1)
        guard fd >= 0 else { throw .system("socket", errno: errno) }
        let oldMask = umask(0o177)
        let rc = csys_unix_listen(fd, path, backlog)
        let savedErrno = errno
        umask(oldMask)
        guard rc == 0 else {
            Glibc.close(fd)
            throw .system("binding \(path)", errno: savedErrno)
        }
        guard chmod(path, mode) == 0 else {
            let code = errno
            Glibc.close(fd)
            unlink(path)
            throw .system("chmod \(path)", errno: code)
        }
        var info = stat()
        let inode = stat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        return Listener(fd: fd, path: path, activated: false, createdInode: inode)
    }

    /// Whether some process accepts connections on the socket file at `path`.
    public static func isAnswering(_ path: String) -> Bool {
        let probe = csys_unix_socket(0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        return csys_unix_connect(probe, path) == 0
    }

    /// Closes the socket and removes the file if it is still the one this process created.
    public func close() {
        Glibc.close(fd)
        guard let path, let createdInode else { return }
        var info = stat()
        if stat(path, &info) == 0, UInt64(info.st_ino) == createdInode {
            unlink(path)
        }
    }
}
