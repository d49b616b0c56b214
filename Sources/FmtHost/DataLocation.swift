import EmbeddedData
import FmtCore
import Glibc

/// Where a daemon's data comes from: `--data-dir`, else an installed copy next to the binary
/// (`<prefix>/share/fmtd`) or in `/usr/share/fmtd`, else the data embedded at build time.
public enum DataLocation {
    /// The directories searched, in order, when no data directory is given.
    /// A name without a slash was found on `PATH`, so the kernel's `/proc/self/exe` says where it is.
    public static func installedCandidates(executablePath: String) -> [String] {
        let named = executablePath.utf8.contains(UInt8(ascii: "/")) ? executablePath : "/proc/self/exe"
        guard let resolved = realpath(named, nil) else { return ["/usr/share/fmtd"] }
        defer { free(resolved) }
        var path = String(cString: resolved)
        for _ in 0..<2 {
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { break }
            path = String(path[..<slash])
        }
        return [path + "/share/fmtd", "/usr/share/fmtd"]
    }

    /// The source for a daemon started as `executablePath` with `--data-dir dataDirectory` (nil when absent).
    public static func source(dataDirectory: String?, executablePath: String) -> DataStore.Source {
        if let dataDirectory { return .directory(dataDirectory) }
        for candidate in installedCandidates(executablePath: executablePath)
        where access(candidate + "/address-formats.json", F_OK) == 0 {
            return .directory(candidate)
        }
        return .embedded(EmbeddedData.files)
    }

    /// The data embedded in the binary at build time.
    public static var embedded: DataStore.Source { .embedded(EmbeddedData.files) }
}
