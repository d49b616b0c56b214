import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory build-deb [--out DIR] [--version V] [--revision N]
/// [--no-lintian]`: a release build with `--static-swift-stdlib` (in its own scratch directory,
/// `.build/debian/build`), then `Plugins/BuildDeb/debian/build-deb.sh` lays out and builds `fmtd_<version>-<revision>_<arch>.deb`
/// with dpkg-deb (into `.build/debian` unless `--out`), then lintian checks it and fails on any error or warning.
@main struct BuildDeb: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let root = context.package.directoryURL.path
        var scriptArguments: [String] = []
        var lintian = true
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--out", "--version", "--revision":
                guard index + 1 < arguments.count else { throw Failure("\(argument) needs a value") }
                scriptArguments += [argument, arguments[index + 1]]
                index += 1
            case "--no-lintian": lintian = false
            default:
                throw Failure(
                    "unknown argument \(argument); build-deb takes --out, --version, --revision, --no-lintian")
            }
            index += 1
        }
        let scratch = root + "/.build/debian/build"
        let flags = [
            "build", "--package-path", root, "--scratch-path", scratch, "-c", "release", "--static-swift-stdlib",
        ]
        try run("/usr/bin/env", ["swift"] + flags)
        let binaries = try capture("/usr/bin/env", ["swift"] + flags + ["--show-bin-path"])
        if !scriptArguments.contains("--out") { scriptArguments += ["--out", root + "/.build/debian"] }
        let output = try capture(
            "/bin/sh", [root + "/Plugins/BuildDeb/debian/build-deb.sh", "--build-dir", binaries] + scriptArguments)
        let deb = output.split(separator: "\n").last.map(String.init) ?? ""
        if lintian {
            print("== lintian \(deb)")
            try run("/usr/bin/env", ["lintian", "--fail-on", "error,warning", deb])
        }
        print("built \(deb)")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a program with this process's output; throws when it fails.
    func run(_ program: String, _ arguments: [String]) throws {
        print("+ " + ([program] + arguments).joined(separator: " "))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure("\(arguments.first ?? program) failed with status \(process.terminationStatus)")
        }
    }

    /// Runs a program and returns its standard output without the final newline (also printed).
    func capture(_ program: String, _ arguments: [String]) throws -> String {
        print("+ " + ([program] + arguments).joined(separator: " "))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        print(text, terminator: "")
        guard process.terminationStatus == 0 else {
            throw Failure("\(arguments.first ?? program) failed with status \(process.terminationStatus)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
