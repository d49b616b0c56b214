import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A data file that could not be loaded: names the file and, when known, the field at fault.
public struct DataError: WireError, CustomStringConvertible {
    public let file: String
    public let field: String?
    public let problem: String

    public init(file: String, field: String? = nil, _ problem: String) {
        self.file = file
        self.field = field
        self.problem = problem
    }

    public var code: String { "data_error" }
    public var message: String { description }
    public var description: String {
        if let field { "\(file): \(field): \(problem)" } else { "\(file): \(problem)" }
    }
}

/// Where data comes from: a directory (`--data-dir`, an install's `share/fmtd`) or the copy embedded in
/// the binary, plus the local additions directory (`/etc/fmtd`) whose `*.d/` folders plugins read.
public struct DataStore: Sendable {
    public enum Source: Sendable {
        case directory(String)
        case embedded([String: String])
    }

    public let source: Source
    /// The local configuration directory (default `/etc/fmtd`); nil disables local additions.
    public let localDirectory: String?

    public init(source: Source, localDirectory: String?) {
        self.source = source
        self.localDirectory = localDirectory
    }

    /// `embedded` or the directory path, for `info` and logs.
    public var sourceDescription: String {
        switch source {
        case .directory(let path): path
        case .embedded: "embedded"
        }
    }

    /// Reads a data file by its path under the data root (`address-formats.json`).
    public func read(_ path: String) throws(DataError) -> [UInt8] {
        switch source {
        case .directory(let root):
            return try Self.readFile(root + "/" + path, name: path)
        case .embedded(let files):
            guard let text = files[path] else { throw DataError(file: path, "missing from the embedded data") }
            return Array(text.utf8)
        }
    }

    /// Reads and parses a JSON data file; a syntax error names the file and byte offset.
    public func readJSON(_ path: String) throws(DataError) -> JSONValue {
        let bytes = try read(path)
        do {
            return try JSONReader.parse(bytes, maxDepth: 32)
        } catch {
            throw DataError(file: path, "not valid JSON: \(error)")
        }
    }

    /// The `.json` files directly inside a data subdirectory (`translations` → `translations/de.json`), sorted.
    public func list(_ directory: String) -> [String] {
        switch source {
        case .directory(let root):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + directory)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
        case .embedded(let files):
            return files.keys.filter {
                $0.hasPrefix(directory + "/") && $0.hasSuffix(".json")
                    && !$0.dropFirst(directory.count + 1).contains("/")
            }.sorted()
        }
    }

    /// The local `*.json` files in `<localDirectory>/<subdirectory>` (`address-formats.d`), sorted by name,
    /// as full paths with their bytes. A missing directory is no additions; an unreadable file is an error.
    public func localFiles(_ subdirectory: String) throws(DataError) -> [(path: String, bytes: [UInt8])] {
        guard let localDirectory else { return [] }
        let directory = localDirectory + "/" + subdirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [(path: String, bytes: [UInt8])] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = directory + "/" + name
            files.append((path, try Self.readFile(path, name: path)))
        }
        return files
    }

    private static func readFile(_ path: String, name: String) throws(DataError) -> [UInt8] {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DataError(file: name, String(cString: strerror(errno))) }
        defer { Glibc.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw DataError(file: name, "read failed: \(String(cString: strerror(errno)))")
            }
        }
    }
}
