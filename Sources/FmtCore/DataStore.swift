import Glibc
import Synchronization

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
    /// When set, every read and listing is fingerprinted into it (see `PluginRegistry.reload`).
    let readLog: DataReadLog?

    public init(source: Source, localDirectory: String?) {
        self.init(source: source, localDirectory: localDirectory, readLog: nil)
    }

    init(source: Source, localDirectory: String?, readLog: DataReadLog?) {
        self.source = source
        self.localDirectory = localDirectory
        self.readLog = readLog
    }

    /// The same store, fingerprinting what is read through it into `log`.
    func recording(into log: DataReadLog?) -> DataStore {
        DataStore(source: source, localDirectory: localDirectory, readLog: log)
    }

    /// Whether every input in `inputs` still reads the same through this store; an unreadable one has changed.
    func stillReads(_ inputs: [DataInput: DataFingerprint]) -> Bool {
        inputs.allSatisfy { input, fingerprint in
            let current: DataFingerprint?
            switch input {
            case .file(let path): current = (try? read(path)).map { DataFingerprint($0) }
            case .listing(let directory): current = DataFingerprint(list(directory))
            case .localFiles(let subdirectory): current = (try? localFiles(subdirectory)).map { DataFingerprint($0) }
            }
            return current == fingerprint
        }
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
        let bytes: [UInt8]
        switch source {
        case .directory(let root):
            bytes = try Self.readFile(root + "/" + path, name: path)
        case .embedded(let files):
            guard let text = files[path] else { throw DataError(file: path, "missing from the embedded data") }
            bytes = Array(text.utf8)
        }
        readLog?.record(.file(path), DataFingerprint(bytes))
        return bytes
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
        let paths: [String]
        switch source {
        case .directory(let root):
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + directory)) ?? []
            paths = names.filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
        case .embedded(let files):
            paths = files.keys.filter {
                $0.hasPrefix(directory + "/") && $0.hasSuffix(".json")
                    && !$0.dropFirst(directory.count + 1).contains("/")
            }.sorted()
        }
        readLog?.record(.listing(directory), DataFingerprint(paths))
        return paths
    }

    /// The local `*.json` files in `<localDirectory>/<subdirectory>` (`address-formats.d`), sorted by name,
    /// as full paths with their bytes. A missing directory is no additions; an unreadable file is an error.
    public func localFiles(_ subdirectory: String) throws(DataError) -> [(path: String, bytes: [UInt8])] {
        let files = try readLocalFiles(subdirectory)
        readLog?.record(.localFiles(subdirectory), DataFingerprint(files))
        return files
    }

    private func readLocalFiles(_ subdirectory: String) throws(DataError) -> [(path: String, bytes: [UInt8])] {
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

/// One thing a plugin read from a `DataStore`.
enum DataInput: Hashable, Sendable {
    case file(String)
    case listing(String)
    case localFiles(String)
}

/// Length and a keyed 64-bit hash (Swift's per-process seeded SipHash) of what was read: enough to tell whether a
/// reload would read the same bytes again, without keeping a copy of them.
struct DataFingerprint: Hashable, Sendable {
    let count: Int
    let hash: Int

    init(_ bytes: [UInt8]) {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        count = bytes.count
        hash = hasher.finalize()
    }

    init(_ paths: [String]) {
        self.init(Array(paths.joined(separator: "\n").utf8))
    }

    init(_ files: [(path: String, bytes: [UInt8])]) {
        var hasher = Hasher()
        for file in files {
            hasher.combine(file.path)
            hasher.combine(file.bytes.count)
            file.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        count = files.count
        hash = hasher.finalize()
    }
}

/// What one plugin read while loading.
final class DataReadLog: Sendable {
    private let inputs = Mutex<[DataInput: DataFingerprint]>([:])

    func record(_ input: DataInput, _ fingerprint: DataFingerprint) {
        inputs.withLock { $0[input] = fingerprint }
    }

    var recorded: [DataInput: DataFingerprint] { inputs.withLock { $0 } }
}
