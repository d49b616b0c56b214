import Glibc

/// Who may control the path to the listening socket, judged from `lstat` results alone (no I/O here).
///
/// Clients find the daemon by path, so whoever can rename, replace or re-bind any entry on that path can put an
/// impostor in its place. A directory on the path is trusted when it is owned by root or by the daemon's user and
/// no one else can write to it, or when it is sticky (`/tmp`): there only an entry's owner may rename or remove it.
/// A symbolic link on the path (such as `/var/run` → `/run`) is trusted when root or the daemon's user owns it;
/// its target is then judged component by component like the rest of the path.
public struct SocketPathPolicy: Sendable, Equatable {
    /// Owners whose directories and links are trusted: root and the daemon's effective uid.
    public let trustedOwners: Set<UInt32>

    /// A policy trusting directories and links owned by `trustedOwners`.
    public init(trustedOwners: Set<UInt32>) {
        self.trustedOwners = trustedOwners
    }

    /// The policy for this process: root and `geteuid()`.
    public static var current: SocketPathPolicy { SocketPathPolicy(trustedOwners: [0, geteuid()]) }

    /// Why a path component is not trusted, or nil when it is.
    public func problem(owner: UInt32, mode: UInt32) -> String? {
        let type = mode & UInt32(S_IFMT)
        guard trustedOwners.contains(owner) else {
            return "it is owned by uid \(owner), not by root or the daemon's user"
        }
        if type == UInt32(S_IFLNK) { return nil }
        guard type == UInt32(S_IFDIR) else { return "it is not a directory" }
        let sticky = mode & UInt32(S_ISVTX) != 0
        if mode & 0o022 != 0 && !sticky {
            return "it is writable by \(mode & 0o002 != 0 ? "other users" : "its group") and not sticky"
        }
        return nil
    }

    /// What may be at the socket path before binding, judged from its `lstat` mode.
    public enum Existing: Equatable, Sendable {
        /// Nothing there: bind.
        case absent
        /// A socket: replace it only if nothing answers on it.
        case socket
        /// Anything else (a regular file, a directory, a symbolic link, a FIFO...): never remove it.
        case other(kind: String)
    }

    /// Classifies what `lstat` found at the socket path (nil: nothing is there).
    public static func existing(mode: UInt32?) -> Existing {
        guard let mode else { return .absent }
        switch mode & UInt32(S_IFMT) {
        case UInt32(S_IFSOCK): return .socket
        case UInt32(S_IFREG): return .other(kind: "a regular file")
        case UInt32(S_IFDIR): return .other(kind: "a directory")
        case UInt32(S_IFLNK): return .other(kind: "a symbolic link")
        case UInt32(S_IFIFO): return .other(kind: "a FIFO")
        case UInt32(S_IFCHR), UInt32(S_IFBLK): return .other(kind: "a device")
        default: return .other(kind: "not a socket")
        }
    }
}
