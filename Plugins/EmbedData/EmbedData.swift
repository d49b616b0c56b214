import Foundation
import PackagePlugin

/// Embeds the package's `data/` directory into the target as generated Swift, so the daemon runs
/// with nothing installed. Every data file is an input, so editing one rebuilds the embedding.
@main
struct EmbedData: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dataDirectory = context.package.directoryURL.appending(path: "data")
        let inputs = try dataFiles(under: dataDirectory)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDataFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) data files",
                executable: try context.tool(named: "fmtd-embed").url,
                arguments: [dataDirectory.path, output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }

    private func dataFiles(under directory: URL) throws -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard
            let walker = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where try url.resourceValues(forKeys: Set(keys)).isRegularFile == true {
            if url.pathExtension == "json" || url.lastPathComponent == "NOTICE" {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
