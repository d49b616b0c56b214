import Glibc
import Synchronization

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
///
/// Every file is opened without blocking (`O_NONBLOCK`, so a FIFO cannot stall a reload) and read only when it
/// is a regular file of at most `maximumFileBytes`; a generation reads at most `maximumGenerationBytes` in all.
/// A store from `opened()` reads every file and listing relative to the data root and local directory as they
/// were when it was opened, so a directory swapped meanwhile (a symlink flipped to another release) cannot mix
/// two data sets in one generation. `PluginRegistry` opens one per load.
public struct DataStore: Sendable {
    public enum Source: Sendable {
        case directory(String)
        case embedded([String: String])
    }

    /// The largest data file read, in bytes: 16 MiB, about 75 times the largest shipped file (the phone
    /// metadata, 219 KB). A larger file is refused before it is read, naming the file and the limit.
    public static let maximumFileBytes = 16 << 20
    /// The most bytes one load reads in all files together, so many files under the limit cannot add up.
    public static let maximumGenerationBytes = 64 << 20
    /// The most `.json` files one listing returns (`translations/`, `messages.d/`).
    public static let maximumListing = 4096

    public let source: Source
    /// The local configuration directory (default `/etc/fmtd`); nil disables local additions.
    public let localDirectory: String?
    /// When set, every read and listing is fingerprinted into it (see `PluginRegistry.reload`).
    let readLog: DataReadLog?
    /// The directories this store reads through, once `opened()`; nil opens them anew for each read.
    let directories: DataDirectories?

    public init(source: Source, localDirectory: String?) {
        self.init(source: source, localDirectory: localDirectory, readLog: nil, directories: nil)
    }

    init(source: Source, localDirectory: String?, readLog: DataReadLog?, directories: DataDirectories?) {
        self.source = source
        self.localDirectory = localDirectory
        self.readLog = readLog
        self.directories = directories
    }

    /// The same store, fingerprinting what is read through it into `log`.
    package func recording(into log: DataReadLog?) -> DataStore {
        DataStore(source: source, localDirectory: localDirectory, readLog: log, directories: directories)
    }

    /// The same store reading through its directories opened now (`O_DIRECTORY`): one data set, whatever
    /// happens to the paths later. A missing local directory is no local additions.
    package func opened() throws(DataError) -> DataStore {
        if directories != nil { return self }
        return DataStore(
            source: source, localDirectory: localDirectory, readLog: readLog,
            directories: try DataDirectories(opening: self))
    }

    /// The same store without its open directories, to be opened again by the next load.
    package var closed: DataStore {
        DataStore(source: source, localDirectory: localDirectory, readLog: nil, directories: nil)
    }

    /// Whether every input in `inputs` still reads the same through this store; an unreadable one has changed.
    package func stillReads(_ inputs: [DataInput: DataFingerprint]) -> Bool {
        inputs.allSatisfy { input, fingerprint in
            let current: DataFingerprint?
            switch input {
            case .file(let path): current = (try? read(path, charged: false)).map { DataFingerprint($0) }
            case .listing(let directory): current = (try? list(directory)).map { DataFingerprint($0) }
            case .localFiles(let subdirectory):
                current = (try? readLocalFiles(subdirectory, charged: false)).map { DataFingerprint($0) }
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

    private func openedDirectories() throws(DataError) -> DataDirectories {
        if let directories { return directories }
        return try DataDirectories(opening: self)
    }

    /// Reads a data file by its path under the data root (`address-formats.json`).
    public func read(_ path: String) throws(DataError) -> [UInt8] {
        try read(path, charged: true)
    }

    /// `charged`: whether the bytes count against the load's `maximumGenerationBytes` (not for the unchanged-check,
    /// whose bytes are only fingerprinted).
    private func read(_ path: String, charged: Bool) throws(DataError) -> [UInt8] {
        let bytes: [UInt8]
        switch source {
        case .directory:
            let directories = try openedDirectories()
            bytes = try directories.readFile(in: directories.root, path, name: path, charged: charged)
        case .embedded(let files):
            guard let text = files[path] else { throw DataError(file: path, "missing from the embedded data") }
            bytes = Array(text.utf8)
        }
        readLog?.record(.file(path), DataFingerprint(bytes))
        return bytes
    }

    /// Reads the JSON file `path` when the data has it, nil when it does not: for a file a data set may lack
    /// (`copy-rules.json` in a test's data). In a directory the absence is read as its folder's listing, recorded
    /// like every read, so a reload notices the file appearing or going.
    public func readIfPresent(_ path: String) throws(DataError) -> [UInt8]? {
        switch source {
        case .embedded(let files):
            guard files[path] != nil else { return nil }
        case .directory:
            let slash = path.lastIndex(of: "/")
            let directory = slash.map { String(path[..<$0]) } ?? "."
            let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
            guard try list(directory).contains(directory + "/" + name) else { return nil }
        }
        return try read(path)
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

    /// The `.json` files directly inside a data subdirectory (`translations` → `translations/de.json`), sorted;
    /// none when the subdirectory does not exist.
    public func list(_ directory: String) throws(DataError) -> [String] {
        let paths: [String]
        switch source {
        case .directory:
            let directories = try openedDirectories()
            let names = try DataDirectories.names(in: directories.root, directory, name: directory) ?? []
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
        let files = try readLocalFiles(subdirectory, charged: true)
        readLog?.record(.localFiles(subdirectory), DataFingerprint(files))
        return files
    }

    private func readLocalFiles(
        _ subdirectory: String, charged: Bool
    ) throws(DataError) -> [(path: String, bytes: [UInt8])] {
        guard let localDirectory else { return [] }
        let directories = try openedDirectories()
        guard directories.local >= 0 else { return [] }
        let directory = localDirectory + "/" + subdirectory
        guard let names = try DataDirectories.names(in: directories.local, subdirectory, name: directory) else {
            return []
        }
        var files: [(path: String, bytes: [UInt8])] = []
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let bytes = try directories.readFile(
                in: directories.local, subdirectory + "/" + name, name: directory + "/" + name, charged: charged)
            files.append((directory + "/" + name, bytes))
        }
        return files
    }
}

/// The data root and local directory of one load, opened once; every read of that load goes through these
/// descriptors (`openat`), which are closed when the last store holding them goes. Also counts the bytes the
/// load has read against `DataStore.maximumGenerationBytes`.
final class DataDirectories: Sendable {
    /// The data root's descriptor, -1 for embedded data.
    let root: Int32
    /// The local directory's descriptor, -1 when there is none.
    let local: Int32
    private let bytesRead = Atomic<Int>(0)

    init(opening store: DataStore) throws(DataError) {
        var root: Int32 = -1
        if case .directory(let path) = store.source {
            root = Self.openDirectory(AT_FDCWD, path)
            guard root >= 0 else { throw DataError(file: path, "cannot open the data directory: \(Self.reason())") }
        }
        var local: Int32 = -1
        if let path = store.localDirectory {
            local = Self.openDirectory(AT_FDCWD, path)
            if local < 0 && errno != ENOENT {
                let reason = Self.reason()
                if root >= 0 { Glibc.close(root) }
                throw DataError(file: path, "cannot open the local directory: \(reason)")
            }
        }
        self.root = root
        self.local = local
    }

    deinit {
        if root >= 0 { Glibc.close(root) }
        if local >= 0 { Glibc.close(local) }
    }

    private static func openDirectory(_ base: Int32, _ path: String) -> Int32 {
        openat(base, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
    }

    private static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// The entry names of `path` under `base` (without `.` and `..`), or nil when it does not exist.
    static func names(in base: Int32, _ path: String, name: String) throws(DataError) -> [String]? {
        let fd = openDirectory(base, path)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw DataError(file: name, "cannot list the directory: \(reason())")
        }
        guard let stream = fdopendir(fd) else {
            let reason = reason()
            Glibc.close(fd)
            throw DataError(file: name, "cannot list the directory: \(reason)")
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let entryName = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard entryName != ".", entryName != ".." else { continue }
            if entryName.hasSuffix(".json") && names.count >= DataStore.maximumListing {
                throw DataError(file: name, "holds more than \(DataStore.maximumListing) .json files")
            }
            names.append(entryName)
        }
        return names
    }

    /// Reads the regular file `path` under `base`: checked with `fstatat` before it is opened (opening a device
    /// can have effects of its own), opened without blocking and without becoming a controlling terminal, checked
    /// again with `fstat` on what was opened, then read up to the size limit (a file that grows while it is read
    /// is refused too).
    func readFile(in base: Int32, _ path: String, name: String, charged: Bool) throws(DataError) -> [UInt8] {
        var status = stat()
        guard fstatat(base, path, &status, 0) == 0 else { throw DataError(file: name, Self.reason()) }
        try Self.requireRegular(status, name: name)
        let fd = openat(base, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw DataError(file: name, Self.reason()) }
        defer { Glibc.close(fd) }
        guard fstat(fd, &status) == 0 else { throw DataError(file: name, "cannot stat: \(Self.reason())") }
        try Self.requireRegular(status, name: name)
        let limit = DataStore.maximumFileBytes
        guard status.st_size <= limit else {
            throw DataError(
                file: name, "is \(status.st_size) bytes, more than the limit of \(Self.mebibytes(limit)) per data file")
        }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard bytes.count <= limit else {
                    throw DataError(
                        file: name, "grew past the limit of \(Self.mebibytes(limit)) per data file while it was read")
                }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let received = bytes.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress! + count, $0.count - count)
            }
            if received > 0 {
                count += received
            } else if received == 0 {
                break
            } else if errno != EINTR {
                throw DataError(file: name, "read failed: \(Self.reason())")
            }
        }
        bytes.removeSubrange(count...)
        guard charged else { return bytes }
        let total = bytesRead.add(count, ordering: .relaxed).newValue
        guard total <= DataStore.maximumGenerationBytes else {
            throw DataError(
                file: name,
                "takes the data read by this load past the limit of \(Self.mebibytes(DataStore.maximumGenerationBytes))"
            )
        }
        return bytes
    }

    private static func requireRegular(_ status: stat, name: String) throws(DataError) {
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw DataError(
                file: name, "is \(describe(type)), not a regular file; data files must be regular files")
        }
    }

    private static func describe(_ type: mode_t) -> String {
        switch type {
        case S_IFDIR: "a directory"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "of an unknown type"
        }
    }

    private static func mebibytes(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB (\(bytes) bytes)"
    }
}

/// One thing a plugin read from a `DataStore`.
package enum DataInput: Hashable, Sendable {
    case file(String)
    case listing(String)
    case localFiles(String)
}

/// Length and a keyed 64-bit hash (Swift's per-process seeded SipHash) of what was read: enough to tell whether a
/// reload would read the same bytes again, without keeping a copy of them.
package struct DataFingerprint: Hashable, Sendable {
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
package final class DataReadLog: Sendable {
    private let inputs = Mutex<[DataInput: DataFingerprint]>([:])

    package init() {}

    func record(_ input: DataInput, _ fingerprint: DataFingerprint) {
        inputs.withTracedLock { $0[input] = fingerprint }
    }

    package var recorded: [DataInput: DataFingerprint] { inputs.withTracedLock { $0 } }
}
