import FmtCore
import FmtTesting
import Foundation
import Glibc
import Testing

/// What `DataStore` reads: only regular files within the size limits, without blocking, and, once opened,
/// through the directories as they were when opened.
@Suite struct DataStoreTests {
    /// A scratch data root with `files`, removed when the value goes.
    final class Root {
        let path: String

        init(_ files: [String: String] = [:]) throws {
            path = NSTemporaryDirectory() + "fmtd-store-" + UUID().uuidString
            for (name, text) in files { try write(name, text) }
        }

        func write(_ name: String, _ text: String) throws {
            let full = path + "/" + name
            try FileManager.default.createDirectory(
                atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }

        /// A sparse file of `size` bytes (no disk blocks, so a test can make a 300 MB one).
        func sparse(_ name: String, size: Int) throws {
            try write(name, "")
            #expect(truncate(path + "/" + name, off_t(size)) == 0)
        }

        var store: DataStore { DataStore(source: .directory(path), localDirectory: nil) }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func refusal(_ body: () throws -> Void) -> DataError? {
        do {
            try body()
            return nil
        } catch let error as DataError {
            return error
        } catch {
            Issue.record("not a DataError: \(error)")
            return nil
        }
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let root = try Root()
        try FileManager.default.createDirectory(atPath: root.path, withIntermediateDirectories: true)
        #expect(mkfifo(root.path + "/address-formats.json", 0o644) == 0)
        let store = root.store
        let outcome = try #require(
            runWithDeadline(seconds: 5) { () -> DataError? in
                self.refusal { _ = try store.read("address-formats.json") }
            }, "reading a FIFO blocked")
        let error = try #require(outcome)
        #expect(error.file == "address-formats.json")
        #expect(error.problem.contains("a FIFO"), "\(error)")
    }

    @Test func aSymlinkToADeviceIsRefusedAndNothingIsRead() throws {
        let root = try Root()
        try FileManager.default.createDirectory(atPath: root.path + "/translations", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.path + "/translations/de.json", withDestinationPath: "/dev/zero")
        let store = root.store
        #expect(try store.list("translations") == ["translations/de.json"])
        let error = try #require(refusal { _ = try store.read("translations/de.json") })
        #expect(error.file == "translations/de.json")
        #expect(error.problem.contains("a character device"), "\(error)")
        let directory = try #require(refusal { _ = try store.read("translations") })
        #expect(directory.problem.contains("a directory"), "\(directory)")
    }

    @Test func aFileOverTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let root = try Root()
        try root.sparse("exact.json", size: DataStore.maximumFileBytes)
        try root.sparse("over.json", size: DataStore.maximumFileBytes + 1)
        try root.sparse("huge.json", size: 300 << 20)
        var exact = 0
        let reading = try Timing.fastest { exact = try root.store.read("exact.json").count }
        #expect(exact == DataStore.maximumFileBytes)
        for name in ["over.json", "huge.json"] {
            var error: DataError?
            let refusing = Timing.fastest { error = refusal { _ = try root.store.read(name) } }
            #expect(error?.file == name)
            #expect(error?.problem.contains("more than the limit of 16 MiB") == true, "\(String(describing: error))")
            // Refused from the file's size alone: a tenth of reading the largest file allowed is room for a stat
            // (microseconds) under any load, while reading even one byte over the limit first would cost a whole
            // read (a ratio of about 1, and 19 for the 300 MiB file).
            #expect(
                Timing.ratio(refusing, to: reading) < 0.1,
                "\(name) refused in \(refusing); reading 16 MiB took \(reading)")
        }
    }

    @Test func oneLoadReadsAtMostTheGenerationLimitInAll() throws {
        let root = try Root()
        let perFile = DataStore.maximumFileBytes - 1
        let count = DataStore.maximumGenerationBytes / perFile + 1
        for index in 0..<count { try root.sparse("part\(index).json", size: perFile) }
        let opened = try root.store.opened()
        for index in 0..<count - 1 { #expect(try opened.read("part\(index).json").count == perFile) }
        let error = try #require(refusal { _ = try opened.read("part\(count - 1).json") })
        #expect(error.problem.contains("past the limit of 64 MiB"), "\(error)")
        // A store that is not opened counts each read on its own.
        #expect(try root.store.read("part\(count - 1).json").count == perFile)
    }

    @Test func anOpenedStoreReadsTheDirectoryItOpenedAfterThePathMoves() throws {
        let parent = try Root(["a/translations/en.json": #"{"k": "A"}"#, "b/translations/en.json": #"{"k": "B"}"#])
        let link = parent.path + "/current"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: parent.path + "/a")
        let opened = try DataStore(source: .directory(link), localDirectory: link).opened()
        unlink(link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: parent.path + "/b")
        #expect(try opened.read("translations/en.json") == Array(#"{"k": "A"}"#.utf8))
        #expect(try opened.list("translations") == ["translations/en.json"])
        #expect(try opened.localFiles("translations").map(\.bytes) == [Array(#"{"k": "A"}"#.utf8)])
        #expect(try opened.closed.read("translations/en.json") == Array(#"{"k": "B"}"#.utf8))
    }

    @Test func anOptionalFileIsReadWhereTheDataHasItAndNilWhereItDoesNot() throws {
        let root = try Root(["copy-rules.json": "{}", "nested/extra.json": "[]"])
        let store = try root.store.opened()
        #expect(try store.readIfPresent("copy-rules.json") == Array("{}".utf8))
        #expect(try store.readIfPresent("nested/extra.json") == Array("[]".utf8))
        #expect(try store.readIfPresent("absent.json") == nil)
        #expect(try store.readIfPresent("nested/absent.json") == nil)
        let embedded = DataStore(source: .embedded(["copy-rules.json": "{}"]), localDirectory: nil)
        #expect(try embedded.readIfPresent("copy-rules.json") == Array("{}".utf8))
        #expect(try embedded.readIfPresent("absent.json") == nil)
    }

    @Test func aMissingLocalDirectoryIsNoAdditionsAndAnOverfullListingIsRefused() throws {
        let root = try Root(["address-formats.json": "{}"])
        let store = DataStore(source: .directory(root.path), localDirectory: root.path + "/missing")
        #expect(try store.opened().localFiles("messages.d").isEmpty)
        #expect(try store.list("translations").isEmpty)
        try FileManager.default.createDirectory(atPath: root.path + "/many", withIntermediateDirectories: true)
        for index in 0...DataStore.maximumListing {
            #expect(FileManager.default.createFile(atPath: root.path + "/many/\(index).json", contents: nil))
        }
        let error = try #require(refusal { _ = try store.list("many") })
        #expect(error.problem.contains("more than \(DataStore.maximumListing)"), "\(error)")
    }
}

/// Runs `body` on another thread; nil when it has not returned within `seconds` (the thread is left behind).
func runWithDeadline<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () -> T) -> T? {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        result.set(body())
        done.signal()
    }
    guard done.wait(timeout: .now() + seconds) == .success else { return nil }
    return result.value
}

final class ResultBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?

    func set(_ value: T) {
        lock.withLock { stored = value }
    }

    var value: T? { lock.withLock { stored } }
}
