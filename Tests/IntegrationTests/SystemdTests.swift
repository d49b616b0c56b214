import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Glibc
import Testing

/// The units in `systemd/` as systemd's own tools read them, the managed lifecycle under
/// `systemd-socket-activate` with the units' command line, and `systemd/install.sh` in a scratch DESTDIR.
@Suite struct SystemdTests {
    static let systemdDirectory = Paths.packageRoot + "/systemd"
    static let analyze = "/usr/bin/systemd-analyze"
    static let socketActivate = "/usr/bin/systemd-socket-activate"

    /// Copies the units (and the example drop-in, as a real drop-in) to a fresh directory with `ExecStart=` and
    /// `ExecReload=` pointing at the binaries just built, since `verify` refuses a unit whose binary does not exist.
    static func unitsWithBuiltBinary() throws -> String {
        let directory = try Paths.temporaryDirectory()
        for name in ["fmtd.socket", "fmtd.service"] {
            let text = try String(contentsOfFile: systemdDirectory + "/" + name, encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/local/bin/fmtd", with: Paths.fmtd)
                .replacingOccurrences(of: "/usr/local/bin/fmtq", with: Paths.fmtq)
                .write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        let dropIns = directory + "/fmtd.service.d"
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
        let dropIn = try String(
            contentsOfFile: systemdDirectory + "/fmtd.service.d/example.conf.sample", encoding: .utf8)
        try dropIn.replacingOccurrences(of: "/usr/local/bin/fmtd", with: Paths.fmtd)
            .write(toFile: dropIns + "/override.conf", atomically: true, encoding: .utf8)
        return directory
    }

    // MARK: - The unit files

    @Test func theSocketUnitListensWhereClientsLookForFmtdAndOnlyGroupFmtdMayConnect() throws {
        let socket = try UnitFile(path: Self.systemdDirectory + "/fmtd.socket")
        #expect(socket.values("Socket", "ListenStream") == ["/run/fmtd/fmtd.sock"])
        #expect(socket.values("Socket", "SocketMode") == ["0660"])
        #expect(socket.values("Socket", "SocketGroup") == ["fmtd"])
        #expect(socket.values("Socket", "DirectoryMode") == ["0755"])
        #expect(socket.values("Install", "WantedBy") == ["sockets.target"])
        let service = try UnitFile(path: Self.systemdDirectory + "/fmtd.service")
        // systemd removes a service's RuntimeDirectory= when it stops: the socket must not live there.
        let runtimeDirectories = service.values("Service", "RuntimeDirectory").flatMap { $0.split(separator: " ") }
        #expect(runtimeDirectories.allSatisfy { !"/run/fmtd/fmtd.sock".hasPrefix("/run/\($0)/") })
    }

    @Test func theServiceNotifiesReloadsOnSighupKeepsAWatchdogAndRunsAsUserFmtd() throws {
        let service = try UnitFile(path: Self.systemdDirectory + "/fmtd.service")
        #expect(service.values("Service", "Type") == ["notify"])
        #expect(
            service.values("Service", "ExecReload") == [
                "/usr/local/bin/fmtq --socket /run/fmtd/fmtd.sock reload --pid $MAINPID"
            ])
        #expect(service.values("Service", "Restart") == ["on-failure"])
        #expect(service.values("Service", "WatchdogSec").count == 1)
        #expect(service.values("Service", "User") == ["fmtd"])
        #expect(service.values("Service", "Group") == ["fmtd"])
        let sysusers = try String(contentsOfFile: Self.systemdDirectory + "/fmtd.sysusers", encoding: .utf8)
        let entries = sysusers.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(entries.contains { $0.split(separator: " ").prefix(2) == ["u", "fmtd"] })
    }

    @Test func systemdAnalyzeVerifyAcceptsTheUnitsAndTheExampleDropInWithoutAWord() throws {
        let directory = try Self.unitsWithBuiltBinary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try run(Self.analyze, ["verify", directory + "/fmtd.socket", directory + "/fmtd.service"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "systemd-analyze verify said:\n\(result.stderr)")
    }

    /// Copied as is, the example drop-in changes nothing; each of its commented command lines keeps the packaged
    /// `--config-dir` so that uncommenting one changes only what its comment says.
    @Test func theExampleDropInChangesNothingUntilALineIsUncommented() throws {
        let path = Self.systemdDirectory + "/fmtd.service.d/example.conf.sample"
        #expect(try UnitFile(path: path).keys == [])
        let packaged = try UnitFile(path: Self.systemdDirectory + "/fmtd.service").values("Service", "ExecStart")
        let commented = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("#ExecStart=/") }.map { String($0.dropFirst("#ExecStart=".count)) }
        #expect(commented.count >= 3)
        for line in commented {
            #expect(packaged.count == 1 && line.hasPrefix(packaged[0] + " "), "\(line) drops the packaged options")
        }
    }

    @Test func aMisspelledDirectiveIsOnlyAWarningSoVerifyIsJudgedByStderr() throws {
        let directory = try Self.unitsWithBuiltBinary()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let service = directory + "/fmtd.service"
        let text = try String(contentsOfFile: service, encoding: .utf8)
        try text.replacingOccurrences(of: "WatchdogSec=", with: "WatchDogSec=")
            .write(toFile: service, atomically: true, encoding: .utf8)
        let result = try run(Self.analyze, ["verify", directory + "/fmtd.socket", service])
        #expect(result.status == 0)
        #expect(result.stderr.contains("Unknown key 'WatchDogSec'"))
    }

    @Test func hardeningExposureIsAtMostOnePointZero() throws {
        let result = try run(
            Self.analyze, ["security", "--offline=true", "--threshold=10", Self.systemdDirectory + "/fmtd.service"])
        #expect(result.status == 0, "above the threshold:\n\(result.stdout)\(result.stderr)")
        let exposure = try #require(Self.overallExposure(result.stdout), "no overall exposure in:\n\(result.stdout)")
        #expect(exposure <= 1.0)
        #expect(!result.stdout.contains("✗ MemoryDenyWriteExecute="))
        #expect(!result.stdout.contains("✗ SystemCallFilter="))
    }

    /// The number in `→ Overall exposure level for fmtd.service: 0.2 SAFE`.
    static func overallExposure(_ output: String) -> Double? {
        guard let line = output.split(separator: "\n").last(where: { $0.contains("Overall exposure level") }),
            let colon = line.lastIndex(of: ":")
        else { return nil }
        return line[line.index(after: colon)...].split(separator: " ").first.flatMap { Double($0) }
    }

    // MARK: - The metrics timer

    @Test func theMetricsTimerRunsTheMetricsServiceEvery15SecondsAndIsHardenedLikeFmtd() throws {
        let timer = try UnitFile(path: Self.systemdDirectory + "/fmtd-metrics.timer")
        #expect(timer.values("Timer", "OnUnitActiveSec") == ["15s"])
        #expect(timer.values("Install", "WantedBy") == ["timers.target"])
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["fmtd-metrics.service", "fmtd-metrics.timer"] {
            let text = try String(contentsOfFile: Self.systemdDirectory + "/" + name, encoding: .utf8)
            try text.replacingOccurrences(of: "/usr/local/bin/fmtq", with: Paths.fmtq)
                .write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        }
        let verify = try run(
            Self.analyze, ["verify", directory + "/fmtd-metrics.service", directory + "/fmtd-metrics.timer"])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "systemd-analyze verify said:\n\(verify.stderr)")
        let security = try run(
            Self.analyze,
            ["security", "--offline=true", "--threshold=10", Self.systemdDirectory + "/fmtd-metrics.service"])
        #expect(security.status == 0, "\(security.stdout)\(security.stderr)")
        let exposure = try #require(Self.overallExposure(security.stdout), "no exposure in:\n\(security.stdout)")
        #expect(exposure <= 1.0)
        // Every sandbox setting of fmtd.service is there too, with the same value.
        let service = try UnitFile(path: Self.systemdDirectory + "/fmtd.service")
        let metrics = try UnitFile(path: Self.systemdDirectory + "/fmtd-metrics.service")
        for key in [
            "CapabilityBoundingSet", "NoNewPrivileges", "ProtectSystem", "ProtectHome", "PrivateTmp", "PrivateDevices",
            "PrivateNetwork", "PrivateUsers", "RestrictAddressFamilies", "MemoryDenyWriteExecute", "SystemCallFilter",
            "User", "Group",
        ] {
            #expect(metrics.values("Service", key) == service.values("Service", key), "\(key) differs")
        }
    }

    @Test func theMetricsServiceWritesTheMetricsFileWholeIntoTheConfiguredDirectory() throws {
        let daemon = try Daemon.start()
        defer { _ = daemon.stop() }
        let textfiles = daemon.directory + "/textfiles"
        try FileManager.default.createDirectory(atPath: textfiles, withIntermediateDirectories: true)
        let unit = try UnitFile(path: Self.systemdDirectory + "/fmtd-metrics.service")
        #expect(unit.values("Service", "Environment").contains("FMTD_METRICS_DIR=/var/lib/prometheus/node-exporter"))
        #expect(unit.values("Service", "ReadWritePaths") == ["-/var/lib/prometheus/node-exporter"])
        // The unit's own command line, as systemd would run it (one quoted argument to /bin/sh -c).
        let command = try #require(unit.values("Service", "ExecStart").first)
        let script = command.replacingOccurrences(of: "/usr/local/bin/fmtq", with: Paths.fmtq)
            .replacingOccurrences(of: "/run/fmtd/fmtd.sock", with: daemon.socketPath)
        #expect(script.hasPrefix("/bin/sh -c '") && script.hasSuffix("'"))
        let body = String(script.dropFirst("/bin/sh -c '".count).dropLast())
        for _ in 0..<2 {
            let result = try run("/bin/sh", ["-c", body], environment: ["FMTD_METRICS_DIR": textfiles])
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: textfiles) == ["fmtd.prom"])
        let text = try String(contentsOfFile: textfiles + "/fmtd.prom", encoding: .utf8)
        let check = try run("/usr/bin/promtool", ["check", "metrics"], stdin: text)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(text.contains("fmtd_requests_total{op=\"stats\"}"))
    }

    // MARK: - The managed lifecycle

    /// The Canary Islands as Correos writes them (street, comma, number), as a local addition: the shipped data
    /// has no format for IC.
    static let canariesFormat = try! String(
        contentsOfFile: Paths.packageRoot + "/Tests/Fixtures/address-formats.d/ic.json", encoding: .utf8)
    static let canaryRequest =
        #"{"op":"address","address":{"street":"Calle Triana","houseNumber":"45","postalCode":"35002","#
        + #""city":"Las Palmas de Gran Canaria","country":"IC"},"locale":"en-IC"}"#

    @Test func underSocketActivationTheFirstConnectionStartsFmtdReloadServesNewDataAndSigtermDrains() throws {
        let directory = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configDirectory = directory + "/etc-fmtd"
        try FileManager.default.createDirectory(
            atPath: configDirectory + "/address-formats.d", withIntermediateDirectories: true)
        let notify = try NotifySocket(directory: directory)
        let socketPath = directory + "/fmtd.sock"

        // The unit's own command line and environment; the watchdog is shortened to keep the test quick.
        let service = try UnitFile(path: Self.systemdDirectory + "/fmtd.service")
        let command = try #require(service.values("Service", "ExecStart").last { !$0.isEmpty })
        var arguments = command.split(separator: " ").map(String.init)
        arguments[0] = Paths.fmtd
        if let flag = arguments.firstIndex(of: "--config-dir") { arguments[flag + 1] = configDirectory }
        arguments += ["--data-dir", Paths.dataDirectory]
        var environment = ["NOTIFY_SOCKET=\(notify.path)", "WATCHDOG_USEC=400000"]
        environment += service.values("Service", "Environment")
        let activator = Process()
        activator.executableURL = URL(fileURLWithPath: Self.socketActivate)
        activator.arguments = ["-l", socketPath] + environment.flatMap { ["-E", $0] } + arguments
        let log = directory + "/activator.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        activator.standardError = FileHandle(forWritingAtPath: log)
        try activator.run()
        defer {
            if activator.isRunning {
                kill(activator.processIdentifier, SIGKILL)
                activator.waitUntilExit()
            }
        }
        for _ in 0..<250 where !FileManager.default.fileExists(atPath: socketPath) { usleep(20_000) }
        #expect(FileManager.default.fileExists(atPath: socketPath))

        // Nothing runs fmtd until a client connects.
        #expect(notify.waitFor(timeout: 0.5) { $0.contains("READY=1") } == nil)
        #expect(Self.executable(of: activator.processIdentifier) == Self.socketActivate)
        let client = try FmtConnection(path: socketPath)
        #expect(try client.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        #expect(Self.executable(of: activator.processIdentifier) == Paths.fmtd)
        #expect(notify.waitFor { $0.contains("READY=1") && $0.contains("STATUS=serving") } != nil)
        #expect(notify.waitFor { $0 == "WATCHDOG=1" } != nil)
        #expect(try client.requestObject(Self.canaryRequest)["format"] == .string("default"))

        // `systemctl reload fmtd` sends SIGHUP: the new local file is served after RELOADING=1, READY=1.
        try Self.canariesFormat.write(
            toFile: configDirectory + "/address-formats.d/ic.json", atomically: true, encoding: .utf8)
        kill(activator.processIdentifier, SIGHUP)
        let reloading = notify.waitFor { $0.contains("RELOADING=1") }
        #expect(reloading?.contains("MONOTONIC_USEC=") == true)
        #expect(notify.waitFor { $0.contains("READY=1") && $0.contains("generation 2") } != nil)
        let canary = try client.requestObject(Self.canaryRequest)
        #expect(canary["format"] == .string("IC"))
        #expect(canary["lines"] == ["Calle Triana, 45", "35002 Las Palmas de Gran Canaria"])

        // `systemctl stop fmtd` sends SIGTERM: requests already sent are answered, then fmtd exits 0.
        var batch = ""
        for index in 0..<300 { batch += #"{"op":"ping","id":\#(index)}"# + "\n" }
        try client.send(batch)
        kill(activator.processIdentifier, SIGTERM)
        for index in 0..<300 {
            #expect(try FmtConnection.decode(try client.readLine())["id"] == .number(JSONNumber(index)))
        }
        #expect(notify.waitFor { $0 == "STOPPING=1" } != nil)
        activator.waitUntilExit()
        #expect(activator.terminationReason == .exit && activator.terminationStatus == 0)
        // The socket belongs to systemd (fmtd.socket), which keeps it for the next start.
        #expect(FileManager.default.fileExists(atPath: socketPath))
    }

    static func executable(of pid: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
    }

    // MARK: - install.sh

    @Test func installIntoADestdirServesFromTheInstalledDataAndUninstallLeavesNothing() throws {
        let destdir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let script = Self.systemdDirectory + "/install.sh"
        let install = try run(
            "/bin/sh", [script, "install", "--build-dir", Paths.productsDirectory], environment: ["DESTDIR": destdir])
        #expect(install.status == 0, "install.sh install failed:\n\(install.stdout)\(install.stderr)")
        #expect(install.stdout.contains("Skipped (DESTDIR is set)"))

        let prefix = destdir + "/usr/local"
        let files = Set(try FileManager.default.subpathsOfDirectory(atPath: destdir))
        for path in [
            "usr/local/bin/fmtd", "usr/local/bin/fmtq", "usr/local/share/fmtd/address-formats.json",
            "usr/local/lib/systemd/system/fmtd.socket", "usr/local/lib/systemd/system/fmtd.service",
            "usr/local/lib/sysusers.d/fmtd.conf", "etc/fmtd/address-formats.d", "etc/fmtd/messages.d",
            "etc/fmtd/copy-rules.d",
            "usr/local/lib/systemd/system/fmtd-metrics.service", "usr/local/lib/systemd/system/fmtd-metrics.timer",
            "usr/local/share/man/man8/fmtd.8", "usr/local/share/man/man1/fmtq.1",
            "usr/local/share/man/man7/fmtd-protocol.7", "usr/local/share/bash-completion/completions/fmtq",
        ] {
            #expect(files.contains(path), "install.sh did not install \(path)")
        }
        #expect(!files.contains { $0.hasPrefix("usr/local/share/fmtd/vectors") })
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/fmtd"))
        let unit = try UnitFile(path: prefix + "/lib/systemd/system/fmtd.service")
        #expect(unit.values("Service", "ExecStart") == ["/usr/local/bin/fmtd --config-dir /etc/fmtd"])
        // `man fmtq` reads the installed page: mandoc renders it without a complaint.
        let page = try run("/usr/bin/mandoc", ["-T", "lint", prefix + "/share/man/man1/fmtq.1"])
        #expect(page.status == 0 && page.stdout.isEmpty && page.stderr.isEmpty, "\(page.stdout)\(page.stderr)")
        let completion = try String(
            contentsOfFile: prefix + "/share/bash-completion/completions/fmtq", encoding: .utf8)
        #expect(completion.contains("complete -F _fmtq fmtq"))

        // The installed binary finds the installed data beside it (<prefix>/share/fmtd) with no --data-dir.
        let check = try run(prefix + "/bin/fmtd", ["--check", "--config-dir", destdir + "/etc/fmtd"])
        #expect(check.status == 0, "fmtd --check failed:\n\(check.stderr)")
        let info = try FmtConnection.decode(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(info["data"]?.objectValue?["source"] == .string(prefix + "/share/fmtd"))

        let socketPath = destdir + "/fmtd.sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: prefix + "/bin/fmtd")
        daemon.arguments = ["--socket", socketPath, "--config-dir", destdir + "/etc/fmtd"]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            if daemon.isRunning {
                kill(daemon.processIdentifier, SIGKILL)
                daemon.waitUntilExit()
            }
        }
        var client: FmtConnection?
        for _ in 0..<500 where client == nil {
            client = try? FmtConnection(path: socketPath)
            if client == nil { usleep(20_000) }
        }
        let connection = try #require(client)
        #expect(try connection.requestObject(#"{"op":"ping"}"#)["ok"] == .bool(true))
        let ping = try run(prefix + "/bin/fmtq", ["--socket", socketPath, "ping"])
        #expect(ping.status == 0, "installed fmtq could not ping:\n\(ping.stderr)")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)

        let uninstall = try run("/bin/sh", [script, "uninstall"], environment: ["DESTDIR": destdir])
        #expect(uninstall.status == 0, "install.sh uninstall failed:\n\(uninstall.stdout)\(uninstall.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: destdir) == [])
    }

    @Test func uninstallKeepsLocalFilesAnOperatorAddedUnderEtcFmtd() throws {
        let destdir = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: destdir) }
        let script = Self.systemdDirectory + "/install.sh"
        let environment = ["DESTDIR": destdir, "BINDIR_SOURCE": Paths.productsDirectory, "PREFIX": "/opt/fmtd"]
        #expect(try run("/bin/sh", [script, "install"], environment: environment).status == 0)
        // Outside /usr and /usr/local, where systemd does not look for units, they go to /etc/systemd/system.
        let unit = try UnitFile(path: destdir + "/etc/systemd/system/fmtd.service")
        #expect(unit.values("Service", "ExecStart") == ["/opt/fmtd/bin/fmtd --config-dir /etc/fmtd"])
        #expect(
            unit.values("Service", "ExecReload") == [
                "/opt/fmtd/bin/fmtq --socket /run/fmtd/fmtd.sock reload --pid $MAINPID"
            ])
        let local = destdir + "/etc/fmtd/address-formats.d/ic.json"
        try Self.canariesFormat.write(toFile: local, atomically: true, encoding: .utf8)

        #expect(try run("/bin/sh", [script, "uninstall"], environment: environment).status == 0)
        let left = try FileManager.default.subpathsOfDirectory(atPath: destdir).sorted()
        #expect(left == ["etc", "etc/fmtd", "etc/fmtd/address-formats.d", "etc/fmtd/address-formats.d/ic.json"])
    }
}

/// A systemd unit file read as systemd reads the parts we check: `[Section]` headers and `Key=value` lines,
/// comments and blank lines skipped, repeated keys kept in order.
struct UnitFile {
    private var entries: [(section: String, key: String, value: String)] = []

    init(path: String) throws {
        var section = ""
        for raw in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                entries.append((section, key, value))
            }
        }
    }

    /// Every `Section/Key` set, in file order.
    var keys: [String] { entries.map { "\($0.section)/\($0.key)" } }

    /// Every value given to `key` in `section`, in file order.
    func values(_ section: String, _ key: String) -> [String] {
        entries.filter { $0.section == section && $0.key == key }.map(\.value)
    }
}
