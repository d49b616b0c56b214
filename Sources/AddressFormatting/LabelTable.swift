import FmtCore

/// The label and warning texts per language from `translations/<lang>.json`. Every table has exactly the
/// same keys and the same `{placeholders}` per key, checked at load, so a key never reaches a response raw.
struct LabelTable: Sendable {
    /// Language (`nl`) → key → text.
    private let tables: [String: [String: String]]
    /// The keys every table has.
    let keys: Set<String>
    let languages: [String]

    init(loading data: DataStore) throws(DataError) {
        let files = try data.list("translations")
        guard !files.isEmpty else { throw DataError(file: "translations", "no label tables found") }
        var tables: [String: [String: String]] = [:]
        var order: [String] = []
        for file in files {
            let language = String(file.dropFirst("translations/".count).dropLast(".json".count))
            guard case .object(let object) = try data.readJSON(file) else {
                throw DataError(file: file, "must be an object mapping keys to texts")
            }
            var table: [String: String] = [:]
            for (key, value) in DataFields(object, file: file).members {
                let problem = "must be a non-empty string"
                guard let text = try value.string(or: problem), !text.isEmpty else { throw value.invalid(problem) }
                table[key] = text
            }
            tables[language] = table
            order.append(language)
        }
        let reference = order.contains("en") ? "en" : order[0]
        let referenceKeys = Set(tables[reference]!.keys)
        for language in order where language != reference {
            let table = tables[language]!
            let file = "translations/\(language).json"
            if let missing = referenceKeys.subtracting(table.keys).sorted().first {
                throw DataError(file: file, field: missing, "is missing (translations/\(reference).json has it)")
            }
            if let extra = Set(table.keys).subtracting(referenceKeys).sorted().first {
                throw DataError(file: file, field: extra, "is not in translations/\(reference).json")
            }
            for key in referenceKeys.sorted()
            where Self.placeholders(table[key]!) != Self.placeholders(tables[reference]![key]!) {
                throw DataError(file: file, field: key, "has other {placeholders} than translations/\(reference).json")
            }
        }
        self.tables = tables
        keys = referenceKeys
        languages = order
    }

    /// The text for a key in a language, with `{name}` placeholders filled; English when the language has
    /// no table. Callers only pass keys checked at load.
    func text(_ key: String, language: String, _ arguments: [String: String] = [:]) -> String {
        let text = tables[language]?[key] ?? tables["en"]?[key] ?? tables.values.first?[key] ?? ""
        guard !arguments.isEmpty else { return text }
        var output = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            output += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            output += arguments[name] ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }

    private static func placeholders(_ text: String) -> Set<Substring> {
        var names = Set<Substring>()
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
