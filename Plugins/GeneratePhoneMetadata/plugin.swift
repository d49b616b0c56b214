import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-phone-metadata <PhoneNumberMetadata.xml>
/// [--version 9.0.35]` writes `data/phone-metadata.json`.
@main
struct GeneratePhoneMetadata: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let xml = arguments.first(where: { !$0.hasPrefix("--") && !isOptionValue($0, in: arguments) }) else {
            Diagnostics.error("usage: generate-phone-metadata <path-to-PhoneNumberMetadata.xml> [--version X.Y.Z]")
            return
        }
        let tool = try context.tool(named: "phone-metadata-gen")
        let output = context.package.directoryURL.appendingPathComponent("data/phone-metadata.json")
        var toolArguments = [URL(fileURLWithPath: xml).path, "--output", output.path]
        if let index = arguments.firstIndex(of: "--version"), index + 1 < arguments.count {
            toolArguments += ["--version", arguments[index + 1]]
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = toolArguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("phone-metadata-gen failed with status \(process.terminationStatus)")
            return
        }
        print("wrote \(output.path)")
    }

    private func isOptionValue(_ value: String, in arguments: [String]) -> Bool {
        guard let index = arguments.firstIndex(of: value), index > 0 else { return false }
        return arguments[index - 1] == "--version"
    }
}
