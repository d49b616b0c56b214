import DateFormatting
import FmtCore

/// The repository's `data/` directory, so tests read the same vectors the daemon test does.
enum TestData {
    static let root: String = {
        var components = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        components.removeLast(3)
        return components.joined(separator: "/") + "/data"
    }()

    static let store = DataStore(source: .directory(root), localDirectory: nil)
    static let resolver = LocaleResolver(supported: ["en", "nl", "de"])

    static func plugin() throws -> DatePlugin {
        try DatePlugin(loading: store, environment: PluginEnvironment(resolver: resolver))
    }

    static func request(_ fields: JSONObject) -> Request {
        var all: JSONObject = ["op": "date"]
        for member in fields { all.append(member.key, member.value) }
        return Request(op: "date", fields: all)
    }
}

/// One case of `data/vectors/date-format.json`: a request and either the response members or an error.
struct DateVector: CustomStringConvertible, Sendable {
    let request: JSONObject
    let response: JSONObject?
    let errorCode: String?
    let errorField: String?

    var description: String { JSONWriter.string(.object(request)) }

    static func load() throws -> [DateVector] {
        guard case .object(let document) = try TestData.store.readJSON("vectors/date-format.json"),
            case .array(let cases)? = document["cases"]
        else { throw DataError(file: "vectors/date-format.json", "no cases array") }
        return try cases.map { value in
            guard case .object(let item) = value, case .object(let request)? = item["request"] else {
                throw DataError(file: "vectors/date-format.json", "a case without a request object")
            }
            let error = item["error"]?.objectValue
            return DateVector(
                request: request, response: item["response"]?.objectValue,
                errorCode: error?["code"]?.stringValue, errorField: error?["field"]?.stringValue)
        }
    }
}
