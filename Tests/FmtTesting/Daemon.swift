import CSystem
import FmtClient
import FmtCore
import Foundation
import Glibc

/// The real `fmtd` binary running on a fresh socket in a private directory, stopped when the test ends.
public final class Daemon {
    public let process: Process
    public let directory: String
    public let socketPath: String
    public let logPath: String
    private var client: FmtConnection?

    public var pid: Int32 { process.processIdentifier }

    /// Starts fmtd with `--data-dir <repo>/data` (unless `dataDirectory` says otherwise) and waits until it
    /// answers `ping` (or, with `waitForPing: false`, until it accepts connections: for daemons that refuse us).
    /// A `launcher` (such as `prlimit --nofile=64:64 --`) runs first and must exec fmtd in the same process.
    public static func start(
        arguments: [String] = [], configDirectory: String? = nil, dataDirectory: String? = Paths.dataDirectory,
        environment: [String: String] = [:], socketPath: String? = nil, waitForPing: Bool = true,
        launcher: [String] = []
    ) throws -> Daemon {
        let daemon = try launch(
            arguments: arguments, configDirectory: configDirectory, dataDirectory: dataDirectory,
            environment: environment, socketPath: socketPath, launcher: launcher)
        try daemon.waitUntilAnswering(ping: waitForPing)
        return daemon
    }

    /// Starts fmtd as `start` does, but returns at once, while it may still be loading its data.
    public static func launch(
        arguments: [String] = [], configDirectory: String? = nil, dataDirectory: String? = Paths.dataDirectory,
        environment: [String: String] = [:], socketPath: String? = nil, launcher: [String] = []
    ) throws -> Daemon {
        _ = csys_raise_fd_limit()
        let directory = try Paths.temporaryDirectory()
        return try Daemon(
            directory: directory, socketPath: socketPath ?? directory + "/fmtd.sock", arguments: arguments,
            configDirectory: configDirectory ?? directory + "/etc", dataDirectory: dataDirectory,
            environment: environment, launcher: launcher)
    }

    /// Whether the daemon blocks `signal` (see `signalIsBlocked(_:inProcess:)`).
    public func blocks(_ signal: Int32) -> Bool {
        signalIsBlocked(signal, inProcess: pid)
    }

    private init(
        directory: String, socketPath: String, arguments: [String], configDirectory: String, dataDirectory: String?,
        environment: [String: String], launcher: [String]
    ) throws {
        self.directory = directory
        self.socketPath = socketPath
        logPath = directory + "/fmtd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process = Process()
        var fullArguments = ["--socket", socketPath, "--config-dir", configDirectory, "--log-level", "debug"]
        if let dataDirectory { fullArguments += ["--data-dir", dataDirectory] }
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [Paths.fmtd] + fullArguments + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Paths.fmtd)
            process.arguments = fullArguments + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What the daemon logged so far.
    public var log: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    public func waitUntilAnswering(ping: Bool = true, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !process.isRunning { throw DaemonFailed(log: log) }
            if let client = try? FmtConnection(path: socketPath, timeout: .seconds(5)),
                !ping || (try? client.request(#"{"op":"ping"}"#))?.contains(#""ok":true"#) == true
            {
                return
            }
            usleep(20_000)
        }
        throw DaemonFailed(log: "did not answer within \(timeout) s\n" + log)
    }

    public func connect(timeoutSeconds: Int = 10) throws -> FmtConnection {
        try FmtConnection(path: socketPath, timeout: .seconds(timeoutSeconds))
    }

    /// Opens connections until `count` of them are served (a `ping` answered): the readiness probe's connection may
    /// still be counted against a limit for a moment, so a refused one is retried, up to 200 tries.
    public func holdServedConnections(_ count: Int) throws -> [FmtConnection] {
        var held: [FmtConnection] = []
        for _ in 0..<200 where held.count < count {
            let client = try connect()
            if (try? client.requestObject(#"{"op":"ping"}"#))?["ok"] == .bool(true) {
                held.append(client)
            } else {
                usleep(20_000)
            }
        }
        return held
    }

    /// Sends one request line on the daemon's shared test connection and returns the response line.
    public func request(_ json: String) throws -> String {
        if client == nil { client = try connect() }
        return try client!.request(json)
    }

    public func requestObject(_ json: String) throws -> JSONObject {
        try FmtConnection.decode(try request(json))
    }

    public func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Sends SIGHUP and waits until `stats` shows the reload finished (succeeded or failed).
    public func reload() throws {
        let before = try reloadCount()
        signal(SIGHUP)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try reloadCount() > before { return }
            usleep(10_000)
        }
        throw DaemonFailed(log: "reload did not finish\n" + log)
    }

    private func reloadCount() throws -> Int {
        let stats = try requestObject(#"{"op":"stats"}"#)
        let reloads = stats["reloads"]?.objectValue ?? [:]
        return (reloads["ok"]?.numberValue?.intValue ?? 0) + (reloads["failed"]?.numberValue?.intValue ?? 0)
    }

    /// SIGTERM, then the exit status (or nil if it had to be killed after `timeout` seconds).
    @discardableResult
    public func stop(timeout: Double = 15) -> Int32? {
        signal(SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Resident memory of the daemon in KiB, from /proc.
    /// The daemon's CPU time so far (user + system), in seconds, from /proc/PID/stat.
    public var cpuSeconds: Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name, which is in parentheses and may hold spaces: utime is the 12th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    public var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// Whether process `pid`'s main thread blocks `signal` (`SigBlk` in /proc): fmtd blocks the signals it handles in
/// `Server.prepareProcess`, the first thing it does, so a signal sent after that reaches fmtd's own handling rather
/// than the default action.
public func signalIsBlocked(_ signal: Int32, inProcess pid: Int32) -> Bool {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") } ?? ""
    guard let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) else {
        return false
    }
    return mask & (1 << UInt64(signal - 1)) != 0
}

public struct DaemonFailed: Error, CustomStringConvertible {
    public let log: String
    public var description: String { "fmtd failed:\n\(log)" }
}

/// Runs a command to completion and returns its exit status and output.
@discardableResult
public func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try? input.fileHandleForWriting.close()
    let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
    let stderrData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
        process.terminationStatus, String(decoding: stdoutData, as: UTF8.self),
        String(decoding: stderrData, as: UTF8.self)
    )
}
