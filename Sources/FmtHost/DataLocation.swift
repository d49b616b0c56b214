import EmbeddedData
import FmtCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a daemon's data comes from: `--data-dir`, else an installed copy next to the binary
/// (`<prefix>/share/fmtd`) or in `/usr/share/fmtd`, else the data embedded at build time.
public enum DataLocation {
    /// The directories searched, in order, when no data directory is given.
    public static func installedCandidates(executablePath: String) -> [String] {
        let executable = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath()
        let prefix = executable.deletingLastPathComponent().deletingLastPathComponent()
        return [prefix.appending(path: "share/fmtd").path, "/usr/share/fmtd"]
    }

    /// The source for a daemon started as `executablePath` with `--data-dir dataDirectory` (nil when absent).
    public static func source(dataDirectory: String?, executablePath: String) -> DataStore.Source {
        if let dataDirectory { return .directory(dataDirectory) }
        for candidate in installedCandidates(executablePath: executablePath)
        where FileManager.default.fileExists(atPath: candidate + "/address-formats.json") {
            return .directory(candidate)
        }
        return .embedded(EmbeddedData.files)
    }

    /// The data embedded in the binary at build time.
    public static var embedded: DataStore.Source { .embedded(EmbeddedData.files) }
}
