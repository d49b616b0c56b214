import FmtCore

/// All address formats: `address-formats.json` with the files of `address-formats.d/` laid over it in name
/// order, each entry of a local file adding a country or replacing a built-in one whole.
struct FormatCatalog: Sendable {
    static let file = "address-formats.json"
    static let localDirectory = "address-formats.d"

    let formats: [String: AddressFormat]
    let version: String
    /// SHA-256 of the bytes of `address-formats.json`.
    let checksum: String
    /// The local files applied, as full paths.
    let localFiles: [String]

    /// The `default` format, for countries without one of their own.
    let fallback: AddressFormat

    /// Countries with a format of their own, sorted.
    var countries: [String] {
        formats.keys.filter { $0 != "default" }.sorted()
    }

    init(loading data: DataStore) throws(DataError) {
        let bytes = try data.read(Self.file)
        checksum = SHA256.hex(bytes)
        let root = try Self.parse(bytes, file: Self.file)
        guard case .string(let version)? = root["version"], !version.isEmpty else {
            throw DataError(file: Self.file, field: "version", "must be a non-empty string")
        }
        self.version = version
        var formats = try Self.entries(root, file: Self.file, allowed: ["version", "formats"])
        guard formats["default"] != nil else {
            throw DataError(file: Self.file, field: "formats.default", "is required: it serves every other country")
        }
        var localFiles: [String] = []
        for local in try data.localFiles(Self.localDirectory) {
            let root = try Self.parse(local.bytes, file: local.path)
            for (key, format) in try Self.entries(root, file: local.path, allowed: ["formats"]) {
                formats[key] = format
            }
            localFiles.append(local.path)
        }
        self.formats = formats
        self.localFiles = localFiles
        fallback = formats["default"]!
    }

    private static func parse(_ bytes: [UInt8], file: String) throws(DataError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes, maxDepth: 32)
        } catch {
            throw DataError(file: file, "not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw DataError(file: file, "must be a JSON object with a \"formats\" member")
        }
        return object
    }

    private static func entries(
        _ root: JSONObject, file: String, allowed: Set<String>
    ) throws(DataError) -> [String: AddressFormat] {
        if let unknown = root.keys.first(where: { !allowed.contains($0) }) {
            throw DataError(file: file, field: unknown, "is not a top-level member (expected \(allowed.sorted()))")
        }
        guard case .object(let entries)? = root["formats"] else {
            throw DataError(file: file, field: "formats", "must be an object of country code → format")
        }
        var formats: [String: AddressFormat] = [:]
        for member in entries {
            let key = member.key
            guard key == "default" || (key.utf8.count == 2 && key.utf8.allSatisfy { (0x41...0x5A).contains($0) })
            else {
                throw DataError(
                    file: file, field: "formats.\(key)", "must be an upper-case ISO 3166-1 alpha-2 code or \"default\"")
            }
            guard formats[key] == nil else {
                throw DataError(file: file, field: "formats.\(key)", "appears twice")
            }
            formats[key] = try AddressFormat(key: key, value: member.value, file: file, path: "formats.\(key)")
        }
        return formats
    }
}
