import FmtCore
import Foundation
import NameServices

/// The shipped data directory and the plugin loaded from it, as the daemon loads it.
enum Fixture {
    static let dataDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data").path

    static let resolver = LocaleResolver(supported: ["en", "nl", "de"])

    static let plugin: NamesPlugin = {
        do {
            return try load(dataDirectory: dataDirectory, configDirectory: nil)
        } catch {
            fatalError("the shipped data does not load: \(error)")
        }
    }()

    static func load(dataDirectory: String, configDirectory: String?) throws -> NamesPlugin {
        try NamesPlugin(
            loading: DataStore(source: .directory(dataDirectory), localDirectory: configDirectory),
            environment: PluginEnvironment(resolver: resolver))
    }

    /// Sends one request as the daemon would after decoding the line.
    static func call(_ json: String, plugin: NamesPlugin = plugin) throws -> JSONObject {
        try plugin.handle(try Request(try JSONReader.parse(json)))
    }

    /// The `code` and `field` a failing request is answered with.
    static func failure(_ json: String, plugin: NamesPlugin = plugin) -> (code: String, field: String?)? {
        do {
            _ = try call(json, plugin: plugin)
            return nil
        } catch let error as any WireError {
            return (error.code, error.field)
        } catch {
            return ("unexpected", "\(error)")
        }
    }

    /// A JSON string literal for a value (names with quotes, accents and other scripts).
    static func json(_ value: JSONValue) -> String {
        JSONWriter.string(value)
    }

    /// A fresh directory with the given files (relative path → content); removed by the caller.
    static func directory(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("names-tests-\(UUID().uuidString)").path
        for (path, content) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(content.utf8).write(to: url)
        }
        return root
    }
}

extension JSONObject {
    /// A member that is an array of strings (`sorted`, `keys`, `supported`).
    func strings(_ key: String) -> [String]? {
        self[key]?.arrayValue?.compactMap(\.stringValue)
    }

    /// A member that is an array of integers (`order`).
    func integers(_ key: String) -> [Int]? {
        self[key]?.arrayValue?.compactMap { $0.numberValue?.intValue }
    }
}
