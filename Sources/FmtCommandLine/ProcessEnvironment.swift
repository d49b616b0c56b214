import Glibc

/// The process's environment as the daemon reads it (`NOTIFY_SOCKET`, `LISTEN_FDS`, `FMTD_*`), taken from libc's
/// `environ` without Foundation.
public enum ProcessEnvironment {
    /// Every `NAME=value` entry; a name given twice keeps its first value, as `getenv` does.
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.utf8.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
