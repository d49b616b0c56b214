import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Glibc
import Testing

/// Start, readiness, signals, socket ownership and systemd integration of the real daemon.
@Suite struct LifecycleTests {
    @Test func sigtermAnswersBufferedRequestsRemovesItsSocketAndExitsZero() throws {
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        var batch = ""
        for index in 0..<500 { batch += #"{"op":"ping","id":\#(index)}"# + "\n" }
        try client.send(batch)
        daemon.signal(SIGTERM)
        for index in 0..<500 {
            #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(index)))
        }
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func aSecondDaemonOnALiveSocketRefusesAndLeavesTheFirstAlone() throws {
        let first = try Daemon.start()
        let second = try run(Paths.fmtd, ["--socket", first.socketPath, "--data-dir", Paths.dataDirectory])
        #expect(second.status == 1)
        #expect(second.stderr.contains("already answering"))
        #expect(try first.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/fmtd.sock"
        // A socket file nobody listens on, as left by a daemon that was killed.
        let first = try Daemon.start(socketPath: path)
        kill(first.pid, SIGKILL)
        first.process.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: path))
        let second = try Daemon.start(socketPath: path)
        #expect(try FmtConnection(path: path).requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        second.stop()
    }

    @Test func socketFileModeDefaultsTo0660AndFollowsTheFlag() throws {
        let daemon = try Daemon.start()
        let mode = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        let open = try Daemon.start(arguments: ["--socket-mode", "0666"])
        let openMode = try FileManager.default.attributesOfItem(atPath: open.socketPath)[.posixPermissions] as? Int
        #expect(openMode == 0o666)
    }

    @Test func notifiesReadyStatusReloadingAndStopping() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = try NotifySocket(directory: directory)
        let daemon = try Daemon.start(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"])
        #expect(notify.waitFor { $0.contains("READY=1") && $0.contains("STATUS=serving") } != nil)
        #expect(notify.waitFor { $0 == "WATCHDOG=1" } != nil)
        daemon.signal(SIGHUP)
        let reloading = notify.waitFor { $0.contains("RELOADING=1") }
        #expect(reloading?.contains("MONOTONIC_USEC=") == true)
        #expect(notify.waitFor { $0.contains("READY=1") && $0.contains("generation 2") } != nil)
        daemon.signal(SIGTERM)
        #expect(notify.waitFor { $0 == "STOPPING=1" } != nil)
        #expect(daemon.stop() == 0)
    }

    #if DEBUG
    @Test func aWedgedLoopStopsTheWatchdogKeepAlives() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = try NotifySocket(directory: directory)
        let daemon = try Daemon.start(
            arguments: ["--threads", "1"], environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        #expect(notify.waitFor { $0 == "WATCHDOG=1" } != nil)
        daemon.signal(SIGUSR2)
        // Collect the keep-alives sent before the loop wedged, then watch for a second.
        _ = notify.waitFor(timeout: 0.8) { _ in false }
        let countBefore = notify.messages.filter { $0 == "WATCHDOG=1" }.count
        _ = notify.waitFor(timeout: 1) { _ in false }
        #expect(notify.messages.filter { $0 == "WATCHDOG=1" }.count == countBefore)
        #expect(daemon.log.contains("withholding the watchdog"))
    }
    #endif

    @Test func socketActivationServesThePassedSocketAndLeavesItInPlace() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = try NotifySocket(directory: directory)
        let socketPath = directory + "/activated.sock"
        let activator = Process()
        activator.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        activator.arguments = [
            "-l", socketPath, "-E", "NOTIFY_SOCKET=\(notify.path)", "-E", "SWIFT_BACKTRACE=enable=no",
            Paths.fmtd, "--data-dir", Paths.dataDirectory, "--socket", directory + "/unused.sock",
        ]
        activator.standardError = FileHandle.nullDevice
        try activator.run()
        defer {
            if activator.isRunning { kill(activator.processIdentifier, SIGKILL) }
        }
        var client: FmtConnection?
        for _ in 0..<200 where client == nil {
            client = try? FmtConnection(path: socketPath)
            if client == nil { usleep(20_000) }
        }
        let connection = try #require(client)
        #expect(try connection.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        #expect(notify.waitFor { $0.contains("READY=1") } != nil)
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused.sock"))
        kill(activator.processIdentifier, SIGTERM)
        activator.waitUntilExit()
        #expect(activator.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: socketPath))
    }

    @Test func aClientThatNeverReadsDoesNotSlowAnother() throws {
        let daemon = try Daemon.start(arguments: ["--max-output", "65536"])
        let greedy = try daemon.connect()
        let line = Array((#"{"op":"info"}"# + "\n").utf8)
        let batch = (0..<2000).flatMap { _ in line }
        // Write without ever reading until the daemon pauses this client; it must not block on it.
        let other = try daemon.connect(timeoutSeconds: 5)
        // The same fifty pings before the greedy client writes: the baseline.
        var answered = 0
        let alone = try Timing.fastest {
            for _ in 0..<50 where try other.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true) { answered += 1 }
        }
        #expect(answered == 150)
        var paused = false
        let deadline = Date().addingTimeInterval(20)
        while !paused && Date() < deadline {
            _ = batch.withUnsafeBytes { send(greedy.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            let stats = try other.requestObject(#"{"op":"stats"}"#)
            paused = (stats["connections"]?.objectValue?["readPauses"]?.numberValue?.intValue ?? 0) >= 1
        }
        #expect(paused)
        answered = 0
        let beside = try Timing.fastest(of: 1) {
            for _ in 0..<50 where try other.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true) { answered += 1 }
        }
        #expect(answered == 50)
        // The paused client costs the other nothing but a share of the loop: within ten times its pings alone.
        // Were it blocked behind the greedy client, it would wait out its 5 s timeout.
        #expect(
            Timing.ratio(beside, to: alone) < 10, "50 pings took \(beside) beside the greedy client, \(alone) alone")
    }

    @Test func aThousandConcurrentConnectionsAreServed() throws {
        let daemon = try Daemon.start()
        var clients: [FmtConnection] = []
        // Generous timeouts: this pins that every connection is served, not how fast on a loaded machine.
        for _ in 0..<1000 { clients.append(try daemon.connect(timeoutSeconds: 60)) }
        for (index, client) in clients.enumerated() { try client.send(#"{"op":"ping","id":\#(index)}"# + "\n") }
        for (index, client) in clients.enumerated() {
            #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(index)))
        }
        let stats = try daemon.requestObject(#"{"op":"stats"}"#)
        #expect((stats["connections"]?.objectValue?["open"]?.numberValue?.intValue ?? 0) >= 1000)
    }

    @Test func connectionsOverTheLimitGetOneOverloadedLine() throws {
        let daemon = try Daemon.start(arguments: ["--max-connections", "3"])
        let held = try daemon.holdServedConnections(3)
        #expect(held.count == 3)
        let refused = try daemon.connect()
        let line = try FmtConnection.decode(try refused.readLine())
        #expect(line["error"]?.objectValue?["code"] == .string("overloaded"))
        #expect(refused.isClosedByPeer())
    }

    @Test func theDaemonsOwnUserIsServedWhateverTheAllowList() throws {
        // Other users outside the list are refused: FaultTests checks that with a second uid (nobody).
        let daemon = try Daemon.start(arguments: [
            "--allow-uid", "\(getuid() == 0 ? 65534 : 0)", "--allow-gid", "65534",
        ])
        #expect(try daemon.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        let reload = try run(Paths.fmtq, ["--socket", daemon.socketPath, "reload"])
        #expect(reload.status == 0, "\(reload)")
        #expect(try daemon.requestObject(#"{"op":"stats"}"#)["connections"]?.objectValue?["forbidden"] == JSONValue(0))
    }

    @Test func idleConnectionsAreClosedAfterTheTimeout() throws {
        let daemon = try Daemon.start(arguments: ["--idle-timeout", "1"])
        let client = try daemon.connect(timeoutSeconds: 5)
        #expect(try client.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        #expect(client.isClosedByPeer())
    }

    @Test func aParentsBlockedSignalMaskDoesNotStopSigtermFromWorking() throws {
        // Foundation's Process hands children the test runner's blocked mask; Daemon.start uses it on purpose.
        let daemon = try Daemon.start()
        #expect(daemon.stop(timeout: 10) == 0)
    }
}
