import AddressFormatting
import FmtCore
import FmtDispatch
import FmtHost
import FmtTesting
import Foundation
import Testing

/// The `version` of `address-formats.json` is what `info` reports and `fmtq stats --openmetrics` writes as a label:
/// one line of text. A version holding a control character or a line break is refused at load, naming the file
/// and the field, and a reload to such a file keeps the data serving before it.
@Suite struct DataVersionTests {
    static let shipped = try! String(contentsOfFile: Paths.dataDirectory + "/address-formats.json", encoding: .utf8)

    /// A data directory of the shipped label tables and `formats` as `address-formats.json`.
    static func data(_ formats: String) throws -> TemporaryDirectory {
        let data = try TemporaryDirectory(["address-formats.json": formats])
        for language in ["en", "nl", "de"] {
            let path = "translations/\(language).json"
            try data.write(path, try String(contentsOfFile: Paths.dataDirectory + "/" + path, encoding: .utf8))
        }
        return data
    }

    /// The shipped file with `version` set to `version` (written as JSON escapes it).
    static func formats(version: String) -> String {
        guard let start = shipped.range(of: #""version": ""#),
            let end = shipped[start.upperBound...].firstIndex(of: "\"")
        else { return shipped }
        return String(shipped[..<start.lowerBound]) + #""version": "#
            + String(decoding: JSONWriter.encode(.string(version)), as: UTF8.self)
            + String(shipped[shipped.index(after: end)...])
    }

    @Test(arguments: [
        "2026.1\r\nfmtd_injected_total 42", "2026.1\nx", "2026.1\r", "a\tb", "a\u{0}b", "a\u{7F}", "a\u{85}b",
        "a\u{2028}b", "a\u{2029}b",
    ])
    func aVersionWithAControlCharacterOrLineBreakIsRefusedAtLoad(version: String) throws {
        let data = try Self.data(Self.formats(version: "2026.1 (test)"))
        let registry = try PluginRegistry(
            pluginTypes: [AddressPlugin.self], store: DataStore(source: .directory(data.path), localDirectory: nil),
            environmentLoader: Languages.environmentLoader)
        #expect(registry.current.plugins[0].dataInfo["version"] == "2026.1 (test)")

        try data.write("address-formats.json", Self.formats(version: version))
        #expect {
            try loadPlugin(AddressPlugin.self, dataDirectory: data.path)
        } throws: { error in
            guard let error = error as? DataError else { return false }
            return error.file == "address-formats.json" && error.field == "version"
                && error.problem.contains("U+")
        }
        guard case .failure(let error) = registry.reload() else {
            Issue.record("a version with a control character was accepted on reload")
            return
        }
        #expect(error.field == "version")
        #expect(registry.current.plugins[0].dataInfo["version"] == "2026.1 (test)")
    }

    @Test func aVersionOfPrintableTextFromAnyScriptIsKept() throws {
        let version = "2026.1 (libaddressinput ÄÖ ünïcödé 日本 \u{200D})"
        let data = try Self.data(Self.formats(version: version))
        let plugin = try loadPlugin(AddressPlugin.self, dataDirectory: data.path)
        #expect(plugin.dataInfo["version"] == .string(version))
    }
}
