import Foundation

/// A fresh private directory for one test's data or configuration files, removed when the value goes away.
public final class TemporaryDirectory {
    public let path: String

    /// Creates the directory, with `files` (path relative to it → content) written into it.
    public init(_ files: [String: String] = [:]) throws {
        path = try Paths.temporaryDirectory()
        for (relativePath, text) in files { try write(relativePath, text) }
    }

    /// Writes `text` to `relativePath`, creating the directories on the way.
    public func write(_ relativePath: String, _ text: String) throws {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
