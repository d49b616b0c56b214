import FmtCore

/// The test vectors under `data/vectors/`, read with the daemon's own JSON reader and data store, so every test
/// target reads the same cases the same way.
public enum Vectors {
    /// The case objects of `file` (a path under `data/`, such as `vectors/date-format.json`), in file order.
    public static func cases(_ file: String, dataDirectory: String = Paths.dataDirectory) throws -> [JSONObject] {
        let store = DataStore(source: .directory(dataDirectory), localDirectory: nil)
        guard case .object(let document) = try store.readJSON(file), case .array(let cases)? = document["cases"] else {
            throw DataError(file: file, "no cases array")
        }
        return cases.compactMap(\.objectValue)
    }

    /// The vector files of one op family (`address`, `date`, `phone`): every `vectors/<family>-*.json`, sorted, so a
    /// new vector file is run by every test of its family without a code change.
    public static func files(_ family: String, dataDirectory: String = Paths.dataDirectory) throws -> [String] {
        let store = DataStore(source: .directory(dataDirectory), localDirectory: nil)
        return try store.list("vectors").filter { $0.hasPrefix("vectors/\(family)-") && $0.hasSuffix(".json") }.sorted()
    }
}
