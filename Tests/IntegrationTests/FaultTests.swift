import CSystem
import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Glibc
import Synchronization
import Testing

/// Faults around the daemon rather than in its clients: broken data at reload, signal storms, a missing
/// socket directory, `kill -9`, and peers with another uid.
@Suite(.serialized) struct FaultTests {
    /// How a data file is broken before a reload.
    enum Breakage: String, CaseIterable, Sendable {
        case corrupted, truncated, removed, unreadable

        /// The file each breakage hits (a different plugin's file each time) and what the error must name.
        var file: String {
            switch self {
            case .corrupted: "address-formats.json"
            case .truncated: "messages/nl.json"
            case .removed: "phone-metadata.json"
            case .unreadable: "translations/de.json"
            }
        }

        func apply(to path: String) throws {
            switch self {
            case .corrupted:
                try Data(#"{"version": "2025.1", "formats": {"NL": [}"#.utf8).write(to: URL(fileURLWithPath: path))
            case .truncated:
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))
            case .removed:
                try FileManager.default.removeItem(atPath: path)
            case .unreadable:
                // Root reads a 0000 file anyway, so as root the file becomes a directory, which no read gets through.
                if getuid() == 0 {
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                } else {
                    chmod(path, 0)
                }
            }
        }
    }

    @Test(arguments: Breakage.allCases)
    func aBrokenDataFileAtReloadKeepsTheOldDataAndReportsTheFailure(breakage: Breakage) throws {
        let data = try DataCopy()
        let notifyDirectory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: notifyDirectory) }
        let notify = try NotifySocket(directory: notifyDirectory)
        let daemon = try Daemon.start(dataDirectory: data.path, environment: ["NOTIFY_SOCKET": notify.path])
        #expect(notify.waitFor { $0.contains("READY=1") } != nil)
        let infoBefore = try daemon.requestObject(#"{"op":"info"}"#)["plugins"]
        let answersBefore = try Self.sampleRequests.map { try daemon.request($0) }

        let original = data.path + "/" + breakage.file
        let saved = try Data(contentsOf: URL(fileURLWithPath: original))
        try breakage.apply(to: original)
        try daemon.reload()

        let reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        #expect(reloads["failed"] == .number(JSONNumber(1)))
        #expect(reloads["ok"] == .number(JSONNumber(0)))
        #expect(reloads["generation"] == .number(JSONNumber(1)))
        let lastError = reloads["lastError"]?.stringValue ?? ""
        #expect(lastError.contains(breakage.file), "lastError: \(lastError)")
        let status = notify.waitFor { $0.contains("STATUS=reload failed") }
        #expect(status?.contains(breakage.file) == true, "\(notify.messages)")
        let logLine = daemon.log.split(separator: "\n").first { $0.hasPrefix("<3>") && $0.contains("reload failed") }
        #expect(logLine?.contains(breakage.file) == true, "\(daemon.log)")
        // The previous generation answers exactly as before.
        #expect(try daemon.requestObject(#"{"op":"info"}"#)["plugins"] == infoBefore)
        #expect(try Self.sampleRequests.map { try daemon.request($0) } == answersBefore)

        if breakage == .unreadable { try? FileManager.default.removeItem(atPath: original) }
        chmod(original, 0o644)
        try saved.write(to: URL(fileURLWithPath: original))
        try daemon.reload()
        let recovered = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        #expect(recovered["ok"] == .number(JSONNumber(1)))
        #expect(recovered["generation"] == .number(JSONNumber(2)))
        #expect(notify.waitFor { $0.contains("READY=1") && $0.contains("generation 2") } != nil)
    }

    /// One request per plugin whose answer depends on its data file.
    static let sampleRequests = [
        #"{"op":"address","address":{"country":"NL","street":"Damrak","houseNumber":"1","city":"Amsterdam"}}"#,
        #"{"op":"phone","number":"+31 20 123 4567","viewerRegion":"NL"}"#,
        #"{"op":"message","key":"contacts.details_updated","locale":"de","args":{"name":"Anna","count":3}}"#,
        #"{"op":"addressFormat","country":"DE","locale":"de"}"#,
    ]

    @Test func aStormOfReloadsUnderLoadFailsNoRequest() throws {
        let daemon = try Daemon.start()
        let load = LoadGenerator(socketPath: daemon.socketPath, clients: 4, requests: Self.sampleRequests)
        load.start()
        usleep(200_000)
        for _ in 0..<100 {
            daemon.signal(SIGHUP)
            usleep(10_000)
        }
        usleep(300_000)
        let result = load.stop()
        #expect(result.failures.isEmpty, "\(result.failures.prefix(3))")
        #expect(result.answered > 100)
        let reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        // Signals that arrive while one is pending merge, so fewer than 100 reloads may run; none may fail.
        let succeeded = reloads["ok"]?.numberValue?.intValue ?? 0
        #expect(succeeded >= 1)
        #expect(reloads["failed"] == .number(JSONNumber(0)))
        #expect(reloads["generation"] == .number(JSONNumber(succeeded + 1)))
        print("reload storm: 100 SIGHUPs in about 1 s; \(succeeded) reloads ran; \(result.answered) requests answered")
    }

    @Test func aMissingSocketDirectoryIsCreated() throws {
        let root = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/run/fmtd/fmtd.sock"
        let daemon = try Daemon.start(socketPath: path)
        #expect(try FmtConnection(path: path).requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        let mode = try FileManager.default.attributesOfItem(atPath: root + "/run/fmtd")[.posixPermissions] as? Int
        #expect(mode == 0o755)
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func killedWithSIGKILLInTheMiddleOfLoadItRestartsOnTheSamePath() throws {
        let root = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/fmtd.sock"
        let first = try Daemon.start(socketPath: path)
        let load = LoadGenerator(socketPath: path, clients: 4, requests: Self.sampleRequests)
        load.start()
        usleep(300_000)
        kill(first.pid, SIGKILL)
        first.process.waitUntilExit()
        let interrupted = load.stop()
        #expect(interrupted.answered > 0)
        // The clients saw the connection end; none hung past its timeout.
        #expect(interrupted.failures.allSatisfy { $0.hasPrefix("connection:") }, "\(interrupted.failures.prefix(3))")
        #expect(FileManager.default.fileExists(atPath: path))

        let second = try Daemon.start(socketPath: path)
        let resumed = LoadGenerator(socketPath: path, clients: 4, requests: Self.sampleRequests)
        resumed.start()
        usleep(300_000)
        let result = resumed.stop()
        #expect(result.failures.isEmpty, "\(result.failures.prefix(3))")
        #expect(result.answered > 0)
        #expect(second.stop() == 0)
    }

    /// A real second uid: `fmtq` run as `nobody` through `setpriv`, against a socket anyone may open.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func peersWithAnotherUidAreRefusedOrServedByTheAllowLists() throws {
        let refusing = try Daemon.start(arguments: ["--socket-mode", "0666", "--allow-uid", "0"])
        let fmtq = try Self.fmtqForNobody(in: refusing.directory)
        // fmtq sends its request right after connecting; when the daemon has already refused and closed, that
        // send fails and fmtq exits 3 without reading the `forbidden` line waiting for it. Retry until one
        // attempt reads it; every attempt is refused and logged.
        var attempts: [(status: Int32, stdout: String, pid: Int32)] = []
        while attempts.count < 20, attempts.last?.status != 1 {
            attempts.append(try Self.runAsNobody(fmtq, ["--socket", refusing.socketPath, "--json", "ping"]))
        }
        #expect(attempts.allSatisfy { $0.status == 1 || $0.status == 3 })
        let refused = try #require(attempts.last)
        #expect(refused.status == 1)
        let line = try FmtConnection.decode(refused.stdout.trimmingCharacters(in: .newlines))
        #expect(line["error"]?.objectValue?["code"] == .string("forbidden"))
        for attempt in attempts {
            #expect(refusing.log.contains("refused connection from pid \(attempt.pid) uid 65534 gid 65534"))
        }
        let stats = try refusing.requestObject(#"{"op":"stats"}"#)
        #expect(stats["connections"]?.objectValue?["forbidden"] == .number(JSONNumber(attempts.count)))

        for allowList in [["--allow-uid", "0,65534"], ["--allow-gid", "65534"]] {
            // The test itself runs as the daemon's own user, which is always served.
            let allowing = try Daemon.start(arguments: ["--socket-mode", "0666"] + allowList, waitForPing: false)
            let fmtq = try Self.fmtqForNobody(in: allowing.directory)
            let served = try Self.runAsNobody(fmtq, ["--socket", allowing.socketPath, "--json", "ping"])
            #expect(served.status == 0, "\(allowList): \(served.stdout)")
            #expect(served.stdout.hasPrefix(#"{"id":null,"ok":true"#))
        }
    }

    /// Makes the daemon's private directory traversable and copies `fmtq` into it, so `nobody` reaches both.
    static func fmtqForNobody(in directory: String) throws -> String {
        chmod(directory, 0o755)
        let copy = directory + "/fmtq"
        try FileManager.default.copyItem(atPath: Paths.fmtq, toPath: copy)
        chmod(copy, 0o755)
        return copy
    }

    static func runAsNobody(
        _ executable: String, _ arguments: [String]
    ) throws -> (status: Int32, stdout: String, pid: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, process.processIdentifier)
    }
}

/// A private copy of `data/` that a test may break.
final class DataCopy {
    let path: String

    init() throws {
        let root = try Paths.temporaryDirectory()
        path = root + "/data"
        try FileManager.default.copyItem(atPath: Paths.dataDirectory, toPath: path)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

/// Clients on their own threads sending a fixed mix of requests until stopped; every answer must be `ok`.
final class LoadGenerator: Sendable {
    struct Result {
        let answered: Int
        /// `connection: …` when the connection failed, else the response that was not `ok`.
        let failures: [String]
    }

    private let socketPath: String
    private let clients: Int
    private let requests: [String]
    private let stopping = Atomic<Bool>(false)
    private let answered = Atomic<Int>(0)
    private let failures = Mutex<[String]>([])
    private let finished = DispatchGroup()

    init(socketPath: String, clients: Int, requests: [String]) {
        self.socketPath = socketPath
        self.clients = clients
        self.requests = requests
    }

    func start() {
        for index in 0..<clients {
            finished.enter()
            Thread.detachNewThread { [self] in
                defer { finished.leave() }
                do {
                    let client = try FmtConnection(path: socketPath, timeout: .seconds(5))
                    var turn = index
                    while !stopping.load(ordering: .relaxed) {
                        let line = try client.request(requests[turn % requests.count])
                        turn += 1
                        if line.contains(#""ok":true"#) {
                            answered.add(1, ordering: .relaxed)
                        } else {
                            failures.withLock { $0.append(line) }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("connection: \(error)") }
                }
            }
        }
    }

    func stop() -> Result {
        stopping.store(true, ordering: .relaxed)
        finished.wait()
        return Result(answered: answered.load(ordering: .relaxed), failures: failures.withLock { $0 })
    }
}
