import FmtCore
import FmtHost
import FmtTesting
import Foundation
import Testing

/// The composition root serves the catalogue's plugins from the data, and a generation's languages are its data's.
@Suite struct FormatterHostTests {
    static let dataDirectory = Paths.dataDirectory

    static func answer(_ host: FormatterHost, _ line: String) throws -> JSONObject {
        let response = host.dispatcher.respond(to: Array(line.utf8))
        return try #require(try? JSONReader.parse(Array(response.dropLast())).objectValue)
    }

    @Test func everyCatalogueOpIsServedWithTheBuiltIns() throws {
        let host = try FormatterHost(source: .directory(Self.dataDirectory), configDirectory: nil)
        let ops = host.info["ops"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(ops == ["ping", "info", "stats"] + PluginCatalog.all.flatMap { $0.ops })
        #expect(try Self.answer(host, #"{"op":"ping","id":3}"#)["version"] == JSONValue.string(FormatterHost.version))
        #expect(
            try Self.answer(host, #"{"op":"stats"}"#)["requests"]?.objectValue?["total"]
                == JSONValue.number(JSONNumber(1)))
    }

    @Test func theEmbeddedDataServesWhatTheDataDirectoryServes() throws {
        let embedded = try FormatterHost(source: DataLocation.embedded, configDirectory: nil)
        let directory = try FormatterHost(source: .directory(Self.dataDirectory), configDirectory: nil)
        let line = #"{"op":"addressFormat","country":"BE","locale":"nl"}"#
        #expect(try Self.answer(embedded, line) == (try Self.answer(directory, line)))
        #expect(embedded.info["languages"] == directory.info["languages"])
    }

    @Test func onlyTheNamedPluginsAreLoaded() throws {
        let host = try FormatterHost(source: .directory(Self.dataDirectory), configDirectory: nil, plugins: ["date"])
        #expect(host.info["ops"]?.arrayValue?.compactMap(\.stringValue) == ["ping", "info", "stats", "date"])
        #expect(try Self.answer(host, #"{"op":"phone","number":"+31"}"#)["error"]?.objectValue?["code"] == "unknown_op")
    }

    @Test func languagesFollowTheDataInTheProductsOrder() {
        #expect(
            Languages.ordered(["translations/de.json", "translations/en.json", "translations/nl.json"]) == [
                "en", "nl", "de",
            ])
        #expect(Languages.ordered(["translations/fr.json", "translations/en.json"]) == ["en", "fr"])
    }

    /// Adding a language is data plus a reload: the resolver is part of the reloaded generation.
    @Test func aLanguageAddedAsDataIsServedAfterAReload() throws {
        let scratch = try TemporaryDirectory()
        defer { withExtendedLifetime(scratch) {} }
        let root = scratch.path + "/data"
        try FileManager.default.copyItem(atPath: Self.dataDirectory, toPath: root)
        let host = try FormatterHost(source: .directory(root), configDirectory: nil)
        let before = try Self.answer(host, #"{"op":"language","tag":"fr"}"#)
        #expect(before["match"] == "default")
        try FileManager.default.copyItem(atPath: root + "/translations/en.json", toPath: root + "/translations/fr.json")
        #expect(host.reload().ok)
        let after = try Self.answer(host, #"{"op":"language","tag":"fr"}"#)
        #expect(after["match"] == "exact")
        #expect(host.info["languages"]?.arrayValue?.compactMap(\.stringValue) == ["en", "nl", "de", "fr"])
    }
}
