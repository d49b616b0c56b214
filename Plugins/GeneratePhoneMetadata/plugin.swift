import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-phone-metadata <PhoneNumberMetadata.xml>
/// [--version 9.0.35] [--output PATH]` writes `data/phone-metadata.json`, or PATH.
@main
struct GeneratePhoneMetadata: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let xml = arguments.first(where: { !$0.hasPrefix("--") && !isOptionValue($0, in: arguments) }) else {
            Diagnostics.error(
                "usage: generate-phone-metadata <path-to-PhoneNumberMetadata.xml> [--version X.Y.Z] [--output PATH]")
            return
        }
        let tool = try context.tool(named: "phone-metadata-gen")
        let output =
            value(of: "--output", in: arguments).map { URL(fileURLWithPath: $0) }
            ?? context.package.directoryURL.appendingPathComponent("data/phone-metadata.json")
        var toolArguments = [URL(fileURLWithPath: xml).path, "--output", output.path]
        if let version = value(of: "--version", in: arguments) { toolArguments += ["--version", version] }
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

    private func value(of option: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    private func isOptionValue(_ value: String, in arguments: [String]) -> Bool {
        guard let index = arguments.firstIndex(of: value), index > 0 else { return false }
        return ["--version", "--output"].contains(arguments[index - 1])
    }
}
