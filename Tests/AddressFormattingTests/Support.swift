import AddressFormatting
import FmtCore
import Foundation

/// The repository's `data/` directory, found from this file's path.
let dataDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("data").path
}()

/// Shared test fixtures (`Tests/Fixtures`), used by this target and the integration tests.
let fixturesDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<2 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Fixtures").path
}()

let resolver = LocaleResolver(supported: ["en", "nl", "de"])

/// Loads the plugin from the repository's data plus an optional local directory, as the daemon does.
func loadPlugin(localDirectory: String? = nil, dataRoot: String = dataDirectory) throws -> AddressPlugin {
    try AddressPlugin(
        loading: DataStore(source: .directory(dataRoot), localDirectory: localDirectory),
        environment: PluginEnvironment(resolver: resolver))
}

/// Sends one request line to the plugin, as the dispatcher would after decoding the envelope.
func ask(_ plugin: AddressPlugin, _ json: String) throws -> JSONObject {
    try plugin.handle(Request(JSONReader.parse(json)))
}

extension JSONObject {
    func strings(_ key: String) -> [String] {
        (self[key]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    func string(_ key: String) -> String? {
        self[key]?.stringValue
    }

    /// The `code` of each warning.
    var warningCodes: [String] {
        (self["warnings"]?.arrayValue ?? []).compactMap { $0.objectValue?["code"]?.stringValue }
    }
}

/// A scratch directory removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "fmtd-address-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ relativePath: String, _ text: String) throws {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One case of `data/vectors/address-format.json`: a request and either the response members it must have
/// or the error's code and field.
struct AddressVector {
    let source: String
    let request: JSONObject
    let response: JSONObject?
    let error: JSONObject?

    /// The hand-written vectors, then the one-per-country vectors.
    static let files = ["vectors/address-format.json", "vectors/address-countries.json"]

    static func load(_ file: String = "vectors/address-format.json") throws -> [AddressVector] {
        let store = DataStore(source: .directory(dataDirectory), localDirectory: nil)
        guard case .object(let document) = try store.readJSON(file),
            case .array(let cases)? = document["cases"]
        else { throw DataError(file: file, "no cases array") }
        return cases.compactMap(\.objectValue).map {
            AddressVector(
                source: $0["source"]?.stringValue ?? "", request: $0["request"]?.objectValue ?? [:],
                response: $0["response"]?.objectValue, error: $0["error"]?.objectValue)
        }
    }
}
