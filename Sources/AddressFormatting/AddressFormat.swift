import FmtCore

/// One country's address convention from `address-formats.json`: the layout, the one-line form, a label key
/// per field, the required fields, the postal-code rule and an example address.
struct AddressFormat: Sendable {
    /// The key in the data: an ISO 3166-1 code (`BE`) or `default`.
    let key: String
    let lines: [LineTemplate]
    let oneLine: LineTemplate
    /// Fields in display order: the order they first appear in `lines`.
    let fields: [AddressField]
    let labelKeys: [AddressField: String]
    let required: Set<AddressField>
    let postalCode: PostalCodeRule?
    let regions: RegionCodes?
    /// The example address as written in the data, in field order.
    let example: [(field: AddressField, value: String)]

    private static let members: Set<String> = [
        "lines", "oneLine", "labels", "required", "postalCode", "regionCodes", "regionAliases", "example",
    ]

    /// Decodes and checks one entry; `path` names it in errors (`formats.BE`).
    init(key: String, value: JSONValue, file: String, path: String) throws(DataError) {
        func fail(_ field: String, _ problem: String) -> DataError {
            DataError(file: file, field: "\(path).\(field)", problem)
        }
        guard case .object(let entry) = value else {
            throw DataError(file: file, field: path, "must be an object, got \(value.typeName)")
        }
        if let unknown = entry.keys.first(where: { !Self.members.contains($0) }) {
            throw fail(unknown, "is not a member of an address format (typo?)")
        }
        self.key = key

        guard case .array(let lineValues)? = entry["lines"], !lineValues.isEmpty else {
            throw fail("lines", "must be a non-empty array of line templates")
        }
        var lines: [LineTemplate] = []
        for (index, lineValue) in lineValues.enumerated() {
            lines.append(try Self.template(lineValue, fail: { fail("lines[\(index)]", $0) }))
        }
        self.lines = lines
        var fields: [AddressField] = []
        for field in lines.flatMap(\.fields) {
            guard !fields.contains(field) else { throw fail("lines", "the field \"\(field.rawValue)\" appears twice") }
            fields.append(field)
        }
        self.fields = fields

        guard let oneLineValue = entry["oneLine"] else { throw fail("oneLine", "is required") }
        oneLine = try Self.template(oneLineValue, fail: { fail("oneLine", $0) })
        if let stray = oneLine.fields.first(where: { !fields.contains($0) }) {
            throw fail("oneLine", "uses \"\(stray.rawValue)\", which no line shows")
        }

        guard case .object(let labels)? = entry["labels"] else {
            throw fail("labels", "must be an object mapping each field to a label key")
        }
        var labelKeys: [AddressField: String] = [:]
        for member in labels {
            guard let field = AddressField(rawValue: member.key), fields.contains(field) else {
                throw fail("labels.\(member.key)", "is not a field of this format's lines")
            }
            guard case .string(let labelKey) = member.value, !labelKey.isEmpty else {
                throw fail("labels.\(member.key)", "must be a label key string")
            }
            labelKeys[field] = labelKey
        }
        if let missing = fields.first(where: { labelKeys[$0] == nil }) {
            throw fail("labels", "has no label key for \"\(missing.rawValue)\"")
        }
        self.labelKeys = labelKeys

        var required = Set<AddressField>()
        if let requiredValue = entry["required"] {
            guard case .array(let names) = requiredValue else { throw fail("required", "must be an array of fields") }
            for (index, name) in names.enumerated() {
                guard case .string(let text) = name, let field = AddressField(rawValue: text), fields.contains(field)
                else { throw fail("required[\(index)]", "must name a field of this format's lines") }
                required.insert(field)
            }
        }
        self.required = required

        if let rule = entry["postalCode"] {
            guard fields.contains(.postalCode) else { throw fail("postalCode", "is set but no line shows postalCode") }
            postalCode = try Self.postalCodeRule(rule, fail: { fail("postalCode.\($0)", $1) })
        } else {
            postalCode = nil
        }

        if let codes = entry["regionCodes"] {
            guard fields.contains(.region) else { throw fail("regionCodes", "is set but no line shows region") }
            regions = try RegionCodes(codes: codes, aliases: entry["regionAliases"], fail: fail)
        } else if entry["regionAliases"] != nil {
            throw fail("regionAliases", "needs regionCodes")
        } else {
            regions = nil
        }

        guard case .object(let exampleObject)? = entry["example"], exampleObject.count > 0 else {
            throw fail("example", "must be an object with an example address")
        }
        var example: [(field: AddressField, value: String)] = []
        for member in exampleObject {
            guard let field = AddressField(rawValue: member.key), fields.contains(field) else {
                throw fail("example.\(member.key)", "is not a field of this format's lines")
            }
            guard case .string(let text) = member.value, !text.isEmpty else {
                throw fail("example.\(member.key)", "must be a non-empty string")
            }
            example.append((field, text))
        }
        self.example = example
        if let rule = postalCode {
            guard let code = example.first(where: { $0.field == .postalCode })?.value else {
                throw fail("example.postalCode", "is required when the format has a postal-code rule")
            }
            switch rule.check(code) {
            case .normalized(code): break
            case .overLimit:
                throw fail("postalCode.pattern", "matching the example \"\(code)\" exceeds ICU's step limit")
            case .tooLong:
                throw fail("example.postalCode", "is longer than \(PostalCodeRule.maximumLength) characters")
            default:
                throw fail("example.postalCode", "\"\(code)\" is not written as the rule normalises it")
            }
        }
    }

    /// The example address's postal code: what `warnings` show as a well-formed code.
    var examplePostalCode: String? {
        example.first(where: { $0.field == .postalCode })?.value
    }

    private static func template(
        _ value: JSONValue, fail: (String) -> DataError
    ) throws(DataError) -> LineTemplate {
        guard case .string(let text) = value else { throw fail("must be a template string, got \(value.typeName)") }
        do {
            return try LineTemplate(parsing: text)
        } catch {
            throw fail("\"\(text)\": \(error.description)")
        }
    }

    private static func postalCodeRule(
        _ value: JSONValue, fail: (String, String) -> DataError
    ) throws(DataError) -> PostalCodeRule {
        guard case .object(let object) = value else { throw fail("", "must be an object") }
        if let unknown = object.keys.first(where: { !["pattern", "format", "uppercase"].contains($0) }) {
            throw fail(unknown, "is not a member of a postal-code rule")
        }
        guard case .string(let pattern)? = object["pattern"], !pattern.isEmpty else {
            throw fail("pattern", "must be a non-empty regular expression")
        }
        var format: String?
        switch object["format"] {
        case nil: format = nil
        case .string(let text)?: format = text
        case let other?: throw fail("format", "must be a string, got \(other.typeName)")
        }
        var uppercase = false
        switch object["uppercase"] {
        case nil: uppercase = false
        case .bool(let flag)?: uppercase = flag
        case let other?: throw fail("uppercase", "must be true or false, got \(other.typeName)")
        }
        do {
            return try PostalCodeRule(pattern: pattern, format: format, uppercase: uppercase)
        } catch {
            throw fail(error.member, error.problem)
        }
    }
}

/// The codes a country writes its regions with (`CA` for California), with the names and aliases that map
/// to them, so `California`, `california` and `ca` all print as `CA`.
struct RegionCodes: Sendable {
    /// Lower-cased code, name or alias → code.
    private let lookup: [String: String]
    /// Longer input matches nothing (lower-casing shrinks text by at most a factor of three, `K` → `k`), so it
    /// is refused before it is lower-cased and hashed.
    private let longestInput: Int

    init(codes: JSONValue, aliases: JSONValue?, fail: (String, String) -> DataError) throws(DataError) {
        guard case .object(let codeObject) = codes, codeObject.count > 0 else {
            throw fail("regionCodes", "must be an object mapping codes to names")
        }
        var lookup: [String: String] = [:]
        for member in codeObject {
            let isCode = member.key.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
            guard !member.key.isEmpty, isCode else {
                throw fail("regionCodes.\(member.key)", "a region code is upper-case letters and digits")
            }
            guard case .string(let name) = member.value, !name.isEmpty else {
                throw fail("regionCodes.\(member.key)", "must be the region's name")
            }
            lookup[member.key.lowercased()] = member.key
            lookup[name.lowercased()] = member.key
        }
        if let aliases {
            guard case .object(let aliasObject) = aliases else {
                throw fail("regionAliases", "must be an object mapping names to codes")
            }
            for member in aliasObject {
                guard case .string(let code) = member.value, codeObject[code] != nil else {
                    throw fail("regionAliases.\(member.key)", "must map to one of regionCodes")
                }
                lookup[member.key.lowercased()] = code
            }
        }
        self.lookup = lookup
        longestInput = 4 * (lookup.keys.map(\.utf8.count).max() ?? 0)
    }

    /// The code for an entered region (code, name or alias in any case), or nil when it is not one of them.
    func code(for value: String) -> String? {
        guard value.utf8.count <= longestInput else { return nil }
        return lookup[value.lowercased()]
    }
}
