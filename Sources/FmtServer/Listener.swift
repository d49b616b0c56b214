import CSystem
import Glibc

/// Why the daemon could not get its listening socket.
public enum ListenerError: Error, CustomStringConvertible {
    /// The path does not fit `sun_path` (107 bytes).
    case pathTooLong(String)
    /// A process answers on the socket at the path; it is left alone.
    case alreadyServed(String)
    /// Something other than a socket is at the socket path; fmtd never removes it.
    case notASocket(String, kind: String)
    /// A directory or link on the socket path is controlled by someone other than root or the daemon's user.
    case untrustedPath(String, component: String, reason: String)
    /// A system call failed: what fmtd was doing, and `errno`.
    case system(String, errno: Int32)

    /// Stable, snake_case code for scripts and tests.
    public var code: String {
        switch self {
        case .pathTooLong: "path_too_long"
        case .alreadyServed: "already_served"
        case .notASocket: "not_a_socket"
        case .untrustedPath: "untrusted_path"
        case .system: "system"
        }
    }

    public var description: String {
        switch self {
        case .pathTooLong(let path): "socket path \(path) is too long for a Unix socket"
        case .alreadyServed(let path):
            "another process is already answering on \(path); refusing to replace its socket (stop it first)"
        case .notASocket(let path, let kind):
            "\(path) is \(kind), not a socket; refusing to remove it (move it away or choose another --socket)"
        case .untrustedPath(let path, let component, let reason):
            "refusing to listen on \(path): \(component) is not safe for a socket, because \(reason)"
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

    /// The socket systemd passed, if the environment says it is ours; throws when it cannot be made non-blocking
    /// and close-on-exec.
    public static func activated(environment: [String: String]) throws(ListenerError) -> Listener? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        guard csys_is_listening_unix_socket(fd) == 1 else { return nil }
        if let failure = SystemCallError.failure(
            "setting the activated socket non-blocking", csys_set_nonblocking(fd, 1))
            ?? SystemCallError.failure("setting the activated socket close-on-exec", csys_set_cloexec(fd))
        {
            throw ListenerError(failure)
        }
        return Listener(fd: fd, path: nil, activated: true, createdInode: nil)
    }

    /// Binds `path` with `mode`, creating its directory when missing.
    ///
    /// Every directory and link on the way to the socket must pass `policy`, so no other user can swap the socket
    /// for an impostor's. What is already at the path is replaced only when it is a socket that nothing answers
    /// on; anything else is left alone and refused. The mode is set through the umask while binding, so the file
    /// has it from the moment it exists and nothing follows a path (and a link an attacker put there) afterwards.
    public static func bind(
        path: String, mode: mode_t, backlog: Int32 = 1024, policy: SocketPathPolicy = .current
    ) throws(ListenerError) -> Listener {
        guard path.utf8.count < 108 else { throw .pathTooLong(path) }
        let abstract = path.hasPrefix("@")
        if !abstract {
            let directory = directoryOf(path)
            if access(directory, F_OK) != 0 {
                try createDirectories(directory)
            }
            try checkPath(toDirectory: directory, of: path, policy: policy)
            try removeStaleSocket(at: path)
        }
        let fd = csys_unix_socket(1)
        guard fd >= 0 else { throw .system("socket", errno: errno) }
        let oldMask = umask(~mode & 0o777)
        let rc = csys_unix_listen(fd, path, backlog)
        let savedErrno = errno
        umask(oldMask)
        guard rc == 0 else {
            Glibc.close(fd)
            throw .system("binding \(path)", errno: savedErrno)
        }
        var info = stat()
        let inode = !abstract && lstat(path, &info) == 0 ? UInt64(info.st_ino) : nil
        return Listener(fd: fd, path: abstract ? nil : path, activated: false, createdInode: inode)
    }

    /// `mkdir -p` with mode 0755 whatever the umask (clients of other users must reach the socket): every missing
    /// directory on the way, parents first.
    private static func createDirectories(_ directory: String) throws(ListenerError) {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            guard access(prefix, F_OK) != 0 else { continue }
            if mkdir(prefix, 0o755) == 0 {
                chmod(prefix, 0o755)
            } else if errno != EEXIST {
                throw .system("creating socket directory \(directory)", errno: errno)
            }
        }
    }

    private static func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Walks `directory` from `/` one component at a time with `lstat`, judging every directory and every link
    /// (and, through a link, every component of its target) by `policy`.
    static func checkPath(
        toDirectory directory: String, of path: String, policy: SocketPathPolicy
    ) throws(ListenerError) {
        var absolute = directory
        if !absolute.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else { throw .system("getcwd", errno: errno) }
            defer { free(cwd) }
            absolute = String(cString: cwd) + "/" + absolute
        }
        var pending = absolute.split(separator: "/").map(String.init)
        var resolved: [String] = []
        var links = 0
        try judge("/", of: path, policy: policy)
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == "." { continue }
            if name == ".." {
                _ = resolved.popLast()
                continue
            }
            let candidate = "/" + (resolved + [name]).joined(separator: "/")
            let mode = try judge(candidate, of: path, policy: policy)
            if mode & UInt32(S_IFMT) == UInt32(S_IFLNK) {
                links += 1
                guard links <= 40 else { throw .system("resolving \(directory)", errno: ELOOP) }
                let target = try readLink(candidate)
                if target.hasPrefix("/") { resolved = [] }
                pending = target.split(separator: "/").map(String.init) + pending
            } else {
                resolved.append(name)
            }
        }
    }

    @discardableResult
    private static func judge(
        _ component: String, of path: String, policy: SocketPathPolicy
    ) throws(ListenerError) -> UInt32 {
        var info = stat()
        guard lstat(component, &info) == 0 else { throw .system("lstat \(component)", errno: errno) }
        if let reason = policy.problem(owner: info.st_uid, mode: info.st_mode) {
            throw .untrustedPath(path, component: component, reason: reason)
        }
        return info.st_mode
    }

    private static func readLink(_ path: String) throws(ListenerError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { throw .system("readlink \(path)", errno: errno) }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes what is at `path` only when it is a socket nothing answers on (`ECONNREFUSED`).
    private static func removeStaleSocket(at path: String) throws(ListenerError) {
        var info = stat()
        let found: UInt32?
        if lstat(path, &info) == 0 {
            found = info.st_mode
        } else if errno == ENOENT {
            found = nil
        } else {
            throw .system("lstat \(path)", errno: errno)
        }
        switch SocketPathPolicy.existing(mode: found) {
        case .absent: return
        case .other(let kind): throw .notASocket(path, kind: kind)
        case .socket:
            switch probe(path) {
            case .answering: throw .alreadyServed(path)
            case .failed(let code): throw .system("probing the existing socket \(path)", errno: code)
            case .refused:
                var again = stat()
                guard lstat(path, &again) == 0, again.st_ino == info.st_ino, again.st_dev == info.st_dev else {
                    throw .system("\(path) changed while fmtd checked it", errno: EAGAIN)
                }
                guard unlink(path) == 0 || errno == ENOENT else { throw .system("unlink \(path)", errno: errno) }
            }
        }
    }

    private enum Probe {
        case answering, refused
        case failed(Int32)
    }

    /// Connects to `path`: a refusal means no process holds the socket; a full backlog means one does.
    private static func probe(_ path: String) -> Probe {
        let socket = csys_unix_socket(1)
        guard socket >= 0 else { return .failed(errno) }
        defer { Glibc.close(socket) }
        if csys_unix_connect(socket, path) == 0 { return .answering }
        switch errno {
        case EINPROGRESS, EAGAIN: return .answering
        case ECONNREFUSED: return .refused
        default: return .failed(errno)
        }
    }

    /// Whether some process accepts connections on the socket file at `path`.
    public static func isAnswering(_ path: String) -> Bool {
        if case .answering = probe(path) { return true }
        return false
    }

    /// Closes the socket and removes the file if it is still the one this process created.
    public func close() {
        Glibc.close(fd)
        guard let path, let createdInode else { return }
        var info = stat()
        if lstat(path, &info) == 0, UInt64(info.st_ino) == createdInode {
            unlink(path)
        }
    }
}
