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
    /// Every format in key order; a format's position is its index in `AddressRenderer`'s tables.
    let ordered: [AddressFormat]
    /// The index in `ordered` of each country's format by its two letters (`(A…Z) * 26 + (A…Z)`), -1 for none:
    /// a request finds its format without hashing the code.
    private let slots: [Int16]
    private let fallbackIndex: Int

    /// Countries with a format of their own, sorted.
    var countries: [String] {
        formats.keys.filter { $0 != "default" }.sorted()
    }

    init(loading data: DataStore) throws(DataError) {
        let bytes = try data.read(Self.file)
        checksum = SHA256.hex(bytes)
        let root = try Self.parse(bytes, file: Self.file)
        let versionProblem = "must be a non-empty string"
        guard let version = try root.string("version", or: versionProblem), !version.isEmpty else {
            throw root.member("version").invalid(versionProblem)
        }
        if let problem = DataVersion.problem(version) { throw root.member("version").invalid(problem) }
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
        let keys = formats.keys.sorted()
        ordered = keys.map { formats[$0]! }
        var slots = [Int16](repeating: -1, count: 26 * 26)
        for (index, key) in keys.enumerated() where key != "default" {
            let letters = Array(key.utf8)
            slots[Int(letters[0] - 0x41) * 26 + Int(letters[1] - 0x41)] = Int16(index)
        }
        self.slots = slots
        fallbackIndex = keys.firstIndex(of: "default")!
    }

    /// The index in `ordered` of a country's format (a canonical upper-case code), else of `default`.
    func index(of country: String) -> Int {
        index(slot: Self.slot(country))
    }

    /// `index(of:)` for the country's `slot(_:)`, for a caller that needs the slot too.
    func index(slot: Int?) -> Int {
        guard let slot else { return fallbackIndex }
        let index = slots[slot]
        return index < 0 ? fallbackIndex : Int(index)
    }

    /// The slot of a code of two ASCII upper-case letters (`(A…Z) * 26 + (A…Z)`), or nil for anything else.
    static func slot(_ code: String) -> Int? {
        guard code.utf8.count == 2 else { return nil }
        return withBytes(code) { letters -> Int? in
            guard (0x41...0x5A).contains(letters[0]), (0x41...0x5A).contains(letters[1]) else { return nil }
            return Int(letters[0] &- 0x41) * 26 + Int(letters[1] &- 0x41)
        }
    }

    /// Calls `body` with the text's UTF-8: where it lies (a small string's on the stack), without the copy that
    /// `withUTF8` makes of the string to own it.
    @inline(__always)
    static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    private static func parse(_ bytes: [UInt8], file: String) throws(DataError) -> DataFields {
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes, maxDepth: 32)
        } catch {
            throw DataError(file: file, "not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw DataError(file: file, "must be a JSON object with a \"formats\" member")
        }
        return DataFields(object, file: file)
    }

    private static func entries(
        _ root: DataFields, file: String, allowed: [String]
    ) throws(DataError) -> [String: AddressFormat] {
        if let unknown = root.members.first(where: { member in !allowed.contains { $0.hasSameBytes(as: member.name) } })
        {
            throw unknown.value.invalid("is not a top-level member (expected \(allowed.sorted()))")
        }
        let formatsProblem = "must be an object of country code → format"
        guard let entries = try root.object("formats", or: formatsProblem) else {
            throw root.member("formats").invalid(formatsProblem)
        }
        var formats: [String: AddressFormat] = [:]
        for (key, value) in entries.members {
            let isCode = key.utf8.count == 2 && key.utf8.allSatisfy { (0x41...0x5A).contains($0) }
            guard isCode || key.hasSameBytes(as: "default") else {
                throw value.invalid("must be an upper-case ISO 3166-1 alpha-2 code or \"default\"")
            }
            guard formats[key] == nil else { throw value.invalid("appears twice") }
            formats[key] = try AddressFormat(key: key, value: value)
        }
        return formats
    }
}
