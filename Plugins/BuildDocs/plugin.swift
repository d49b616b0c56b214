import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-directory .build/docs build-docs [--output DIR]`: the documentation as a static
/// site. The catalog `Sources/FmtClient/FmtClient.docc` is copied to a scratch directory, the reference pages are
/// generated into the copy from the texts the man pages are made of (`fmtd --generate-markdown`,
/// `fmtq --generate-markdown fmtq` and `fmtq --generate-markdown fmtd-protocol`, so there is one source), and
/// `docc convert` builds it with `FmtClient`'s symbol graph into `DIR` (default `.build/docs/site`), failing on
/// any warning.
@main struct BuildDocs: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let root = context.package.directoryURL
        var output = root.appending(path: ".build/docs/site")
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--output":
                guard index + 1 < arguments.count else { throw Failure("--output needs a directory") }
                output = URL(fileURLWithPath: arguments[index + 1], relativeTo: root)
                index += 1
            default:
                throw Failure("unknown argument \(arguments[index]); build-docs takes --output DIR")
            }
            index += 1
        }

        // The binaries whose option tables and protocol description make the reference pages.
        var executables: [String: URL] = [:]
        for product in ["fmtd", "fmtq"] {
            let result = try packageManager.build(.product(product), parameters: .init(echoLogs: false))
            guard result.succeeded, let built = result.builtArtifacts.first(where: { $0.kind == .executable })
            else { throw Failure("building \(product) failed:\n\(result.logText)") }
            executables[product] = built.url
        }

        let work = context.pluginWorkDirectoryURL.appending(path: "docs")
        let catalog = work.appending(path: "FmtClient.docc")
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: root.appending(path: "Sources/FmtClient/FmtClient.docc"), to: catalog)
        let pages: [(file: String, program: String, arguments: [String])] = [
            ("fmtd.md", "fmtd", ["--generate-markdown"]),
            ("fmtq.md", "fmtq", ["--generate-markdown", "fmtq"]),
            ("Protocol.md", "fmtq", ["--generate-markdown", "fmtd-protocol"]),
        ]
        for page in pages {
            let text = try capture(executables[page.program]!, page.arguments)
            try text.write(to: catalog.appending(path: page.file), atomically: true, encoding: .utf8)
        }

        let symbols = try packageManager.getSymbolGraph(
            for: context.package.targets(named: ["FmtClient"])[0], options: .init(minimumAccessLevel: .public))
        try? FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(
            at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
        try run(
            try context.tool(named: "docc").url,
            [
                "convert", catalog.path, "--additional-symbol-graph-dir", symbols.directoryURL.path,
                "--fallback-display-name", "FmtClient", "--fallback-bundle-identifier", "org.fmtd.FmtClient",
                "--output-path", output.path, "--transform-for-static-hosting", "--warnings-as-errors",
            ])
        print("built \(output.path) (open index.html through a web server, e.g. python3 -m http.server -d DIR)")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Runs a program with this process's output; throws when it fails.
    func run(_ program: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure("\(program.lastPathComponent) failed with status \(process.terminationStatus)")
        }
    }

    /// Runs a program and returns its standard output.
    func capture(_ program: URL, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure("\(program.lastPathComponent) failed with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
