import Foundation
import PhoneNumbers

/// `phone-metadata-gen <PhoneNumberMetadata.xml> [--version X] [--output path]` converts upstream XML;
/// `phone-metadata-gen --benchmark <phone-metadata.json> [number@REGION ...]` times the engine (build with
/// `-c release`).
@main
struct PhoneMetadataGen {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.count == 2, arguments[0] == "--benchmark-match" {
            do {
                print(try PhoneBenchmark.runMatch(json: try Data(contentsOf: URL(fileURLWithPath: arguments[1]))))
            } catch {
                fail("benchmark: \(error)")
            }
            return
        }
        if arguments.count >= 2, arguments[0] == "--benchmark" {
            let custom = arguments.dropFirst(2).map { argument -> (String, String?) in
                let parts = argument.split(separator: "@", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : nil)
            }
            do {
                let json = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
                if custom.isEmpty {
                    print(try PhoneBenchmark.run(json: json))
                } else {
                    print(try PhoneBenchmark.run(json: json, iterations: 200_000, inputs: custom))
                }
            } catch {
                fail("benchmark: \(error)")
            }
            return
        }
        func option(_ name: String) -> String? {
            guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
            let value = arguments[index + 1]
            arguments.removeSubrange(index...index + 1)
            return value
        }
        let version = option("--version")
        let output = option("--output")
        guard arguments.count == 1, let input = arguments.first else {
            fail("usage: phone-metadata-gen <PhoneNumberMetadata.xml> [--version 9.0.35] [--output file.json]")
        }
        guard let resolvedVersion = version ?? MetadataConverter.versionFromReadme(nextTo: input) else {
            fail(
                "no version: pass --version, or put upstream's README.md (\"libphonenumber **vX.Y.Z**\") next to "
                    + "the XML")
        }
        do {
            let xml = try Data(contentsOf: URL(fileURLWithPath: input))
            for construct in try MetadataConverter.unknownConstructs(xml: xml) {
                FileHandle.standardError.write(
                    Data("phone-metadata-gen: warning: \(construct) is not in the schema fmtd knows; ignored\n".utf8))
            }
            let json = try MetadataConverter.convert(xml: xml, version: resolvedVersion)
            if let output {
                try json.write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                FileHandle.standardOutput.write(json)
            }
        } catch {
            fail("phone-metadata-gen: \(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}
