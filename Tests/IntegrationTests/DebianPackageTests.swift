import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Glibc
import Testing

/// The Debian package as `Plugins/BuildDeb/debian/build-deb.sh` builds it from a static release build (what the
/// build-deb command plugin runs): lintian's verdict, its files, and install, upgrade, remove and purge with the real dpkg in
/// a scratch root (`dpkg --root`, which runs the maintainer scripts outside a chroot with `DPKG_ROOT` set).
@Suite(.serialized) struct DebianPackageTests {
    /// The release build the plugin makes (a no-op when it already ran) and two packages built from it: this
    /// version and the previous Debian revision, to upgrade from.
    struct Built {
        let current: String
        let previous: String
        let binaries: String
    }

    static let scratchPath = Paths.packageRoot + "/.build/debian/build"
    static let version = "0.1.0"

    static let built: Result<Built, BuildFailed> = {
        let build = try? run(
            "/usr/bin/env",
            [
                "swift", "build", "--package-path", Paths.packageRoot, "--scratch-path", scratchPath, "-c", "release",
                "--static-swift-stdlib",
            ])
        guard let build, build.status == 0 else {
            return .failure(
                BuildFailed(output: "swift build -c release failed:\n\(build?.stdout ?? "")\(build?.stderr ?? "")"))
        }
        let binaries = scratchPath + "/release"
        guard let out = try? Paths.temporaryDirectory() else {
            return .failure(BuildFailed(output: "no temporary directory"))
        }
        var packages: [String] = []
        for revision in ["0", "1"] {
            guard
                let result = try? run(
                    "/bin/sh",
                    [
                        Paths.packageRoot + "/Plugins/BuildDeb/debian/build-deb.sh", "--build-dir", binaries, "--out",
                        out,
                        "--revision", revision,
                    ]),
                result.status == 0, let deb = result.stdout.split(separator: "\n").last
            else { return .failure(BuildFailed(output: "build-deb.sh failed")) }
            packages.append(String(deb))
        }
        return .success(Built(current: packages[1], previous: packages[0], binaries: binaries))
    }()

    struct BuildFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { output }
    }

    // MARK: - The package

    @Test func thePackageIsNamedForItsVersionAndArchitectureAndDependsOnTheICURuntimeDpkgShlibdepsFound() throws {
        let built = try Self.built.get()
        let arch = try run("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect((built.current as NSString).lastPathComponent == "fmtd_\(Self.version)-1_\(arch).deb")
        let depends = try run("/usr/bin/dpkg-deb", ["--field", built.current, "Depends"]).stdout
        #expect(depends.contains("libicu72 (>="), "Depends: \(depends)")
        #expect(depends.contains("libc6 (>="), "Depends: \(depends)")
        // --static-swift-stdlib: no Swift runtime library is needed at run time.
        let needed = try run("/usr/bin/readelf", ["-d", built.binaries + "/fmtd"]).stdout
        #expect(!needed.contains("libswiftCore"), "fmtd still needs the Swift runtime:\n\(needed)")
    }

    /// The runtime package is fmtd, fmtq and the data: no benchmark, no Foundation. Its installed size is held
    /// under a bound, and the README states it (in MB, as `dpkg-deb --field … Installed-Size` / 1024, rounded).
    @Test func theInstalledSizeStaysUnderItsBoundAndTheReadmeStatesIt() throws {
        let built = try Self.built.get()
        let field = try run("/usr/bin/dpkg-deb", ["--field", built.current, "Installed-Size"]).stdout
        let kibibytes = try #require(Int(field.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kibibytes <= Self.installedSizeBound, "Installed-Size: \(kibibytes) KiB")
        let megabytes = (kibibytes + 512) / 1024
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        #expect(
            readme.contains("installs \(megabytes) MB"), "the README does not say the package installs \(megabytes) MB")
    }

    /// The most the package may install, in KiB.
    static let installedSizeBound = 24 * 1024

    @Test func lintianReportsNoErrorAndNoWarning() throws {
        let built = try Self.built.get()
        let result = try run("/usr/bin/lintian", ["--fail-on", "error,warning", built.current])
        let tags = result.stdout.split(separator: "\n").filter { $0.hasPrefix("E:") || $0.hasPrefix("W:") }
        #expect(result.status == 0, "lintian:\n\(result.stdout)\(result.stderr)")
        #expect(tags.isEmpty, "lintian:\n\(tags.joined(separator: "\n"))")
    }

    /// Every path the package holds, as `dpkg-deb --contents` lists them, without the leading `./`.
    static func contents(_ deb: String) throws -> [String] {
        try run("/usr/bin/dpkg-deb", ["--contents", deb]).stdout.split(separator: "\n").compactMap { line in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last else { return nil }
            let trimmed = path.hasPrefix("./") ? path.dropFirst(2) : path[...]
            return trimmed.isEmpty ? nil : String(trimmed.hasSuffix("/") ? trimmed.dropLast() : trimmed)
        }
    }

    /// The data files the package installs under /usr/share/fmtd: data/ without the test vectors.
    static var dataFiles: [String] {
        let data = Paths.dataDirectory
        return (FileManager.default.subpaths(atPath: data) ?? []).filter { path in
            var directory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: data + "/" + path, isDirectory: &directory)
            return !directory.boolValue && !path.hasPrefix("vectors")
                && (path.hasSuffix(".json") || path == "NOTICE" || path == "README.md")
        }
    }

    @Test func thePackageHoldsTheBinariesDataUnitsManPagesCompletionAndEmptyEtcFmtdAndNothingElse() throws {
        let built = try Self.built.get()
        let files = Set(try Self.contents(built.current).filter { !$0.hasSuffix("/") })
        var expected: Set<String> = [
            "usr/sbin/fmtd", "usr/bin/fmtq",
            "usr/lib/systemd/system/fmtd.socket", "usr/lib/systemd/system/fmtd.service",
            "usr/lib/systemd/system/fmtd-metrics.service", "usr/lib/systemd/system/fmtd-metrics.timer",
            "usr/lib/sysusers.d/fmtd.conf",
            "usr/share/man/man8/fmtd.8.gz", "usr/share/man/man1/fmtq.1.gz",
            "usr/share/man/man7/fmtd-protocol.7.gz", "usr/share/bash-completion/completions/fmtq",
            "usr/share/doc/fmtd/copyright", "usr/share/doc/fmtd/changelog.Debian.gz",
            "usr/share/doc/fmtd/fmtd.service.d-example.conf", "usr/share/lintian/overrides/fmtd",
            "etc/fmtd/address-formats.d", "etc/fmtd/messages.d", "etc/fmtd/copy-rules.d",
        ]
        for file in Self.dataFiles { expected.insert("usr/share/fmtd/" + file) }
        // Directories are listed too: keep the leaves (paths no other path lies under).
        let leaves = files.filter { path in !files.contains { $0.hasPrefix(path + "/") } }
        #expect(leaves.subtracting(expected).sorted() == [], "unexpected files in the package")
        #expect(expected.subtracting(leaves).sorted() == [], "files missing from the package")
        #expect(Self.dataFiles.contains("phone-metadata.json"))
    }

    @Test func theCopyrightFileIsMachineReadableAndNamesTheUpstreamDatasLicences() throws {
        let copyright = try String(
            contentsOfFile: Paths.packageRoot + "/Plugins/BuildDeb/debian/copyright", encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        for licence in ["Apache-2.0", "CC-BY-4.0", "MIT"] {
            #expect(copyright.contains("\nLicense: \(licence)\n"), "no stand-alone License: \(licence) paragraph")
        }
        #expect(copyright.contains("Files: usr/share/fmtd/phone-metadata.json"))
        #expect(copyright.contains("Files: usr/share/fmtd/address-formats.json"))
    }

    // MARK: - Install, upgrade, remove, purge

    /// A root for dpkg with nothing in it but an empty database.
    struct ScratchRoot {
        let path: String

        init() throws {
            path = try Paths.temporaryDirectory()
            for directory in ["var/lib/dpkg/info", "var/lib/dpkg/updates"] {
                try FileManager.default.createDirectory(
                    atPath: path + "/" + directory, withIntermediateDirectories: true)
            }
            for file in ["var/lib/dpkg/status", "var/lib/dpkg/available"] {
                _ = FileManager.default.createFile(atPath: path + "/" + file, contents: Data())
            }
        }

        /// dpkg with this root: maintainer scripts run from the host (`--force-script-chrootless`, `DPKG_ROOT`
        /// set by dpkg); the root has none of the libraries, so dependencies are not checked.
        func dpkg(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
            try run(
                "/usr/bin/dpkg", ["--root=\(path)", "--force-script-chrootless", "--force-depends"] + arguments,
                environment: ["DEBIAN_FRONTEND": "noninteractive"])
        }

        func exists(_ relative: String) -> Bool {
            var status = stat()
            return lstat(path + "/" + relative, &status) == 0
        }

        func read(_ relative: String) -> String {
            (try? String(contentsOfFile: path + "/" + relative, encoding: .utf8)) ?? ""
        }

        /// The package's version and state as dpkg records them.
        func recorded() throws -> String {
            try run("/usr/bin/dpkg-query", ["--root=\(path)", "-W", "-f=${Version} ${db:Status-Abbrev}", "fmtd"]).stdout
                .trimmingCharacters(in: .whitespaces)
        }

        func remove() { try? FileManager.default.removeItem(atPath: path) }
    }

    static let socketEnabled = "etc/systemd/system/sockets.target.wants/fmtd.socket"

    @Test func installUpgradeRemoveAndPurgeInAScratchRootWithoutSystemdRunning() throws {
        let built = try Self.built.get()
        let root = try ScratchRoot()
        defer { root.remove() }

        // Install the previous revision: the user from sysusers, the socket enabled, the installed data loads.
        let install = try root.dpkg(["--install", built.previous])
        #expect(install.status == 0, "dpkg --install:\n\(install.stdout)\(install.stderr)")
        #expect(try root.recorded() == "\(Self.version)-0 ii")
        // No systemd runs for this root: the postinst says the socket was not started and how to run fmtd.
        #expect(install.stderr.contains("fmtd.socket was not started"), "postinst said:\n\(install.stderr)")
        #expect(install.stderr.contains("runuser -u fmtd -- /usr/sbin/fmtd"))
        #expect(root.read("etc/passwd").contains("fmtd:x:"), "systemd-sysusers made no fmtd user")
        #expect(root.read("etc/group").contains("fmtd:x:"))
        #expect(root.exists(Self.socketEnabled), "fmtd.socket is not enabled")
        #expect(!root.exists("etc/systemd/system/timers.target.wants/fmtd-metrics.timer"))
        let check = try run(root.path + "/usr/sbin/fmtd", ["--check", "--config-dir", root.path + "/etc/fmtd"])
        #expect(check.status == 0, "installed fmtd --check:\n\(check.stderr)")
        let info = try FmtConnection.decode(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(info["data"]?.objectValue?["source"] == .string(root.path + "/usr/share/fmtd"))
        #expect(info["plugins"]?.arrayValue?.count == 4)
        let unit = try UnitFile(path: root.path + "/usr/lib/systemd/system/fmtd.service")
        #expect(unit.values("Service", "ExecStart") == ["/usr/sbin/fmtd --config-dir /etc/fmtd"])
        #expect(
            unit.values("Service", "ExecReload") == ["/usr/bin/fmtq --socket /run/fmtd/fmtd.sock reload --pid $MAINPID"]
        )

        // An operator's local file; then the upgrade keeps it, the user and the enabled socket.
        let local = "etc/fmtd/address-formats.d/ic.json"
        try SystemdTests.canariesFormat.write(toFile: root.path + "/" + local, atomically: true, encoding: .utf8)
        let passwd = root.read("etc/passwd")
        let upgrade = try root.dpkg(["--install", built.current])
        #expect(upgrade.status == 0, "dpkg --install (upgrade):\n\(upgrade.stdout)\(upgrade.stderr)")
        #expect(try root.recorded() == "\(Self.version)-1 ii")
        #expect(root.read("etc/passwd") == passwd)
        #expect(root.exists(local) && root.exists(Self.socketEnabled))
        let checkAfter = try run(root.path + "/usr/sbin/fmtd", ["--check", "--config-dir", root.path + "/etc/fmtd"])
        #expect(checkAfter.status == 0)
        #expect(
            checkAfter.stdout.contains(#""localFiles":[""# + root.path + "/" + local), "the local file is not loaded")

        // Remove: the programs go, configuration and the local file stay, the socket is masked.
        let remove = try root.dpkg(["--remove", "fmtd"])
        #expect(remove.status == 0, "dpkg --remove:\n\(remove.stdout)\(remove.stderr)")
        #expect(try root.recorded() == "\(Self.version)-1 rc")
        #expect(!root.exists("usr/sbin/fmtd") && !root.exists("usr/share/fmtd"))
        #expect(root.exists(local))
        #expect(root.exists("etc/systemd/system/fmtd.socket"), "remove did not mask fmtd.socket")

        // Purge: no file of the package is left, only the user and group (Debian keeps system users) and the
        // empty directories deb-systemd-helper made for its state.
        let purge = try root.dpkg(["--purge", "fmtd"])
        #expect(purge.status == 0, "dpkg --purge:\n\(purge.stdout)\(purge.stderr)")
        #expect(try root.recorded() == "")
        let left = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
            var directory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root.path + "/" + path, isDirectory: &directory)
            return !directory.boolValue && !path.hasPrefix("var/lib/dpkg/") && path != "etc/.pwd.lock"
        }
        #expect(
            Set(left) == ["etc/passwd", "etc/group", "etc/shadow", "etc/gshadow"], "left after purge: \(left.sorted())")
        #expect(!root.exists("etc/fmtd") && !root.exists(Self.socketEnabled))
        #expect(root.read("etc/passwd").contains("fmtd:x:"))
    }
}
