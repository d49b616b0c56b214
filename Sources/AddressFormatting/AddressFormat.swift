import FmtCore

/// One country's address convention from `address-formats.json`: the layout, the one-line form, a label key
/// per field, the required fields, the postal-code rule and an example address. A class: a request takes its
/// country's format with one retain.
final class AddressFormat: Sendable {
    /// The key in the data: an ISO 3166-1 code (`BE`) or `default`.
    let key: String
    /// The country's layout: its only one, or the local one where it has a `latin` one too.
    let layout: Layout
    /// The layout for text in Latin script where `layout` is the local one; nil where one layout serves all.
    let latin: Layout?
    /// What makes an address local; set exactly when `latin` is.
    let local: LocalScript?
    let labelKeys: [AddressField: String]
    let required: Set<AddressField>
    /// `required` as bits by `AddressField.ordinal`, for requests.
    let requiredBits: UInt16
    let postalCode: PostalCodeRule?
    let regions: RegionCodes?
    /// The country's regions, and their cities and districts where the data lists them.
    let subRegions: RegionTable?
    /// Fields left out of the lines when their shown value equals another field's (`region` equal to `city`
    /// is printed once: `28039 Madrid`), as pairs of the field left out and the field it is compared with.
    let dropWhenEqual: [(dropped: AddressField, kept: AddressField)]
    /// The example address as written in the data, in field order.
    let example: [(field: AddressField, value: String)]
    /// The Latin layout's example (`latin.example`), in Latin script, where the data gives one.
    let latinExample: [(field: AddressField, value: String)]?
    /// `encodedRuleAndExample` with `latinExample`, where there is one.
    let encodedLatinRuleAndExample: [UInt8]?
    /// `,"postalCode":{…}` (or `null`) and `,"example":{"address":{` with the example's members, as
    /// `addressFormat` describes them after the layout.
    let encodedRuleAndExample: [UInt8]

    private static let members: Set<WireName> = Set(
        [
            "lines", "oneLine", "latin", "local", "separatorRule", "labels", "required", "postalCode", "regionCodes",
            "regionAliases", "subRegions", "dropWhenEqual", "example",
        ].map(
            WireName.init))

    /// Decodes and checks one entry, named in errors by its path (`formats.BE`).
    init(key: String, value: DataFields.Value) throws(DataError) {
        guard let entry = try value.object() else { throw value.invalid("is required") }
        func fail(_ field: String, _ problem: String) -> DataError {
            entry.failures.invalid(entry.path(field), problem)
        }
        if let unknown = entry.members.first(where: { !Self.members.contains(WireName($0.name)) }) {
            throw unknown.value.invalid("is not a member of an address format (typo?)")
        }
        self.key = key

        let linesProblem = "must be a non-empty array of line templates"
        guard let lineValues = try entry.member("lines").array(or: linesProblem), !lineValues.isEmpty else {
            throw fail("lines", linesProblem)
        }
        var lines: [LineTemplate] = []
        for lineValue in lineValues {
            lines.append(try Self.template(lineValue))
        }
        var fields: [AddressField] = []
        for field in lines.flatMap(\.fields) {
            guard !fields.contains(field) else { throw fail("lines", "the field \"\(field.rawValue)\" appears twice") }
            fields.append(field)
        }

        let oneLineValue = entry.member("oneLine")
        guard oneLineValue.value != nil else { throw fail("oneLine", "is required") }
        let oneLine = try Self.template(oneLineValue)
        if let stray = oneLine.fields.first(where: { !fields.contains($0) }) {
            throw fail("oneLine", "uses \"\(stray.rawValue)\", which no line shows")
        }
        let beforeNext: Bool
        switch entry["separatorRule"] {
        case nil, .string("strongest")?: beforeNext = false
        case .string("beforeNext")?: beforeNext = true
        default: throw fail("separatorRule", "must be \"strongest\" or \"beforeNext\"")
        }
        layout = Self.layout(lines: lines, oneLine: oneLine, fields: fields, beforeNext: beforeNext)

        switch (entry["latin"] != nil, entry["local"] != nil) {
        case (true, true):
            latin = try Self.latinLayout(entry.member("latin"), fields: fields, beforeNext: beforeNext)
            local = try LocalScript(entry.member("local"))
        case (false, false):
            latin = nil
            local = nil
        case (true, false): throw fail("local", "is required with latin: it says which addresses are local")
        case (false, true): throw fail("latin", "is required with local: the layout for Latin text")
        }

        let labelsProblem = "must be an object mapping each field to a label key"
        guard let labels = try entry.object("labels", or: labelsProblem) else { throw fail("labels", labelsProblem) }
        var labelKeys: [AddressField: String] = [:]
        for (name, value) in labels.members {
            guard let field = AddressField.named(name), fields.contains(field) else {
                throw value.invalid("is not a field of this format's lines")
            }
            let problem = "must be a label key string"
            guard let labelKey = try value.string(or: problem), !labelKey.isEmpty else { throw value.invalid(problem) }
            labelKeys[field] = labelKey
        }
        if let missing = fields.first(where: { labelKeys[$0] == nil }) {
            throw fail("labels", "has no label key for \"\(missing.rawValue)\"")
        }
        self.labelKeys = labelKeys

        var required = Set<AddressField>()
        for name in try entry.member("required").array(or: "must be an array of fields") ?? [] {
            guard case .string(let text)? = name.value, let field = AddressField.named(text), fields.contains(field)
            else { throw name.invalid("must name a field of this format's lines") }
            required.insert(field)
        }
        self.required = required
        requiredBits = required.reduce(0) { $0 | 1 << $1.ordinal }

        if let rule = entry["postalCode"] {
            guard fields.contains(.postalCode) else { throw fail("postalCode", "is set but no line shows postalCode") }
            guard case .object(let object) = rule else { throw fail("postalCode.", "must be an object") }
            postalCode = try Self.postalCodeRule(
                DataFields(object, path: entry.path("postalCode"), failures: entry.failures))
        } else {
            postalCode = nil
        }

        if let codes = entry["regionCodes"] {
            guard fields.contains(.region) else { throw fail("regionCodes", "is set but no line shows region") }
            regions = try RegionCodes(
                codes: FieldValue(codes, path: entry.path("regionCodes"), failures: entry.failures),
                aliases: entry.member("regionAliases"))
        } else if entry["regionAliases"] != nil {
            throw fail("regionAliases", "needs regionCodes")
        } else {
            regions = nil
        }

        if entry["subRegions"] != nil {
            guard fields.contains(.region) else { throw fail("subRegions", "is set but no line shows region") }
            subRegions = try RegionTable(entry.member("subRegions"), country: key)
        } else {
            subRegions = nil
        }

        var dropWhenEqual: [(dropped: AddressField, kept: AddressField)] = []
        if entry["dropWhenEqual"] != nil {
            let problem = "must be an object mapping a field to the field it is compared with"
            guard let pairs = try entry.object("dropWhenEqual", or: problem) else {
                throw fail("dropWhenEqual", problem)
            }
            for (name, value) in pairs.members {
                guard let dropped = AddressField.named(name), fields.contains(dropped) else {
                    throw value.invalid("is not a field of this format's lines")
                }
                guard case .string(let text)? = value.value, let kept = AddressField.named(text), kept != dropped,
                    fields.contains(kept)
                else { throw value.invalid("must name another field of this format's lines") }
                dropWhenEqual.append((dropped, kept))
            }
        }
        self.dropWhenEqual = dropWhenEqual

        let exampleProblem = "must be an object with an example address"
        guard let exampleObject = try entry.object("example", or: exampleProblem), exampleObject.count > 0 else {
            throw fail("example", exampleProblem)
        }
        let example = try Self.example(exampleObject, fields: fields)
        self.example = example
        encodedRuleAndExample = Self.encodedRuleAndExample(example, postalCode: postalCode)
        try Self.checkPostalCode(of: example, rule: postalCode) { fail($0, $1) }
        if let latinValue = entry["latin"], case .object(let latinObject) = latinValue,
            let latinExampleValue = latinObject["example"]
        {
            let latinEntry = DataFields(latinObject, path: entry.path("latin"), failures: entry.failures)
            guard case .object = latinExampleValue,
                let exampleFields = try latinEntry.object("example", or: exampleProblem), exampleFields.count > 0
            else { throw fail("latin.example", exampleProblem) }
            let latinExample = try Self.example(exampleFields, fields: latin?.fields ?? fields)
            self.latinExample = latinExample
            encodedLatinRuleAndExample = Self.encodedRuleAndExample(latinExample, postalCode: postalCode)
            try Self.checkPostalCode(of: latinExample, rule: postalCode) { fail("latin." + $0, $1) }
        } else {
            latinExample = nil
            encodedLatinRuleAndExample = nil
        }
    }

    /// An example address's members: fields of the layout, each a non-empty string.
    private static func example(
        _ object: DataFields, fields: [AddressField]
    ) throws(DataError) -> [(field: AddressField, value: String)] {
        var example: [(field: AddressField, value: String)] = []
        for (name, value) in object.members {
            guard let field = AddressField.named(name), fields.contains(field) else {
                throw value.invalid("is not a field of this format's lines")
            }
            let problem = "must be a non-empty string"
            guard let text = try value.string(or: problem), !text.isEmpty else { throw value.invalid(problem) }
            example.append((field, text))
        }
        return example
    }

    /// `,"postalCode":{…}` (or `null`) and `,"example":{"address":{` with the example's members.
    private static func encodedRuleAndExample(
        _ example: [(field: AddressField, value: String)], postalCode: PostalCodeRule?
    ) -> [UInt8] {
        var encodedExample: [UInt8] = []
        for (index, (field, value)) in example.enumerated() {
            if index > 0 { encodedExample.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(field.rawValue, to: &encodedExample)
            encodedExample.append(UInt8(ascii: ":"))
            JSONWriter.appendString(value, to: &encodedExample)
        }
        var ruleAndExample: [UInt8] = []
        if let postalCode {
            ruleAndExample.append(contentsOf: #","postalCode":{"pattern":"#.utf8)
            JSONWriter.appendString(postalCode.pattern, to: &ruleAndExample)
            ruleAndExample.append(contentsOf: #","example":"#.utf8)
            if let code = example.first(where: { $0.field == .postalCode })?.value {
                JSONWriter.appendString(code, to: &ruleAndExample)
            } else {
                ruleAndExample.append(contentsOf: "null".utf8)
            }
            ruleAndExample.append(UInt8(ascii: "}"))
        } else {
            ruleAndExample.append(contentsOf: #","postalCode":null"#.utf8)
        }
        ruleAndExample.append(contentsOf: #","example":{"address":{"#.utf8)
        ruleAndExample.append(contentsOf: encodedExample)
        return ruleAndExample
    }

    /// Refuses an example without a postal code where there is a rule, or with one the rule does not write so.
    private static func checkPostalCode(
        of example: [(field: AddressField, value: String)], rule: PostalCodeRule?,
        _ fail: (String, String) -> DataError
    ) throws(DataError) {
        guard let rule else { return }
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

    /// The example of a layout: the Latin layout's own where the data gives one, else the format's.
    func example(isLatin: Bool) -> [(field: AddressField, value: String)] {
        isLatin ? latinExample ?? example : example
    }

    /// `encodedRuleAndExample` for the Latin layout or the other.
    func encodedRuleAndExample(isLatin: Bool) -> [UInt8] {
        isLatin ? encodedLatinRuleAndExample ?? encodedRuleAndExample : encodedRuleAndExample
    }

    var lines: [LineTemplate] { layout.lines }
    var oneLine: LineTemplate { layout.oneLine }
    /// Fields in display order: the order they first appear in `lines`.
    var fields: [AddressField] { layout.fields }

    /// A layout of these templates under the separator rule: `strongest` keeps them as parsed (punctuated
    /// separators strong); `beforeNext` makes every separator within a line weak and, in the one-line form, those
    /// between fields of two different lines strong, so the line joiner stays where a line's field is absent.
    private static func layout(
        lines: [LineTemplate], oneLine: LineTemplate, fields: [AddressField], beforeNext: Bool
    ) -> Layout {
        guard beforeNext else { return Layout(lines: lines, oneLine: oneLine, fields: fields) }
        var lineOf = FieldMap<Int>()
        for (index, line) in lines.enumerated() {
            for field in line.fields { lineOf[field] = index }
        }
        return Layout(
            lines: lines.map { $0.withStrength { _, _ in false } },
            oneLine: oneLine.withStrength { lineOf[$0] != lineOf[$1] }, fields: fields)
    }

    /// The layout for an address: the Latin one where the country has one and `input` is not local (by
    /// `address.language` when given, else by the first letter of the values), else `layout`; with whether
    /// the text is Arabic script (decided the same way), which writes the layout's commas as `،`.
    func layout(for input: borrowing AddressInput) -> (layout: Layout, arabic: Bool) {
        layout(values: input.values, text: input.text, language: input.language)
    }

    /// `layout(for:)` of an address with these values and `address.language`, for a caller holding the address
    /// `inout`, which lends its values without copying the whole address.
    func layout(
        values: borrowing FieldMap<EnteredText>, text: RequestText?, language: EnteredLanguage?
    ) -> (layout: Layout, arabic: Bool) {
        guard let local, let latin else {
            return (layout, language?.writesArabic ?? ArabicScript.writes(values, in: text, deciding: layout.deciding))
        }
        if let language {
            return (local.isLocal(language.tag) ? layout : latin, language.writesArabic)
        }
        if local.isLocal(values, in: text, deciding: layout.deciding) { return (layout, local.writesArabic) }
        return (latin, ArabicScript.writes(values, in: text, deciding: layout.deciding))
    }

    /// The layout `addressFormat` describes for `language`: the Latin one (`isLatin`) where the country has one
    /// and `language` is not local, else `layout` (the local one when `language` is absent); with whether
    /// `language` is Arabic script.
    func layout(describing language: EnteredLanguage?) -> (layout: Layout, isLatin: Bool, arabic: Bool) {
        guard let language else { return (layout, false, false) }
        let arabic = language.writesArabic
        guard let local, let latin, !local.isLocal(language.tag) else { return (layout, false, arabic) }
        return (latin, true, arabic)
    }

    /// The example address's postal code: what `warnings` show as a well-formed code.
    var examplePostalCode: String? {
        example.first(where: { $0.field == .postalCode })?.value
    }

    /// The Latin layout: its own lines and one-line form, over the same fields as the local lines.
    private static func latinLayout(
        _ value: DataFields.Value, fields: [AddressField], beforeNext: Bool
    ) throws(DataError) -> Layout {
        let problem = "must be an object with \"lines\" and \"oneLine\""
        guard let object = try value.object(or: problem) else { throw value.invalid(problem) }
        if let unknown = object.members.first(where: { !["lines", "oneLine", "example"].contains($0.name) }) {
            throw unknown.value.invalid("is not a member of latin (lines, oneLine, example)")
        }
        let linesProblem = "must be a non-empty array of line templates"
        guard let lineValues = try object.member("lines").array(or: linesProblem), !lineValues.isEmpty else {
            throw object.member("lines").invalid(linesProblem)
        }
        var lines: [LineTemplate] = []
        for lineValue in lineValues {
            lines.append(try template(lineValue))
        }
        var latinFields: [AddressField] = []
        for field in lines.flatMap(\.fields) {
            guard !latinFields.contains(field) else {
                throw object.member("lines").invalid("the field \"\(field.rawValue)\" appears twice")
            }
            latinFields.append(field)
        }
        guard Set(latinFields) == Set(fields) else {
            throw object.member("lines").invalid("must show the same fields as the format's lines")
        }
        let oneLineValue = object.member("oneLine")
        guard oneLineValue.value != nil else { throw oneLineValue.invalid("is required") }
        let oneLine = try template(oneLineValue)
        if let stray = oneLine.fields.first(where: { !fields.contains($0) }) {
            throw oneLineValue.invalid("uses \"\(stray.rawValue)\", which no line shows")
        }
        return layout(lines: lines, oneLine: oneLine, fields: latinFields, beforeNext: beforeNext)
    }

    private static func template(_ value: DataFields.Value) throws(DataError) -> LineTemplate {
        guard case .string(let text)? = value.value else {
            throw value.invalid("must be a template string, got \(value.value?.typeName ?? "null")")
        }
        do {
            return try LineTemplate(parsing: text)
        } catch {
            throw value.invalid("\"\(text)\": \(error.description)")
        }
    }

    private static func postalCodeRule(_ object: DataFields) throws(DataError) -> PostalCodeRule {
        let allowed: Set<WireName> = [WireName("pattern"), WireName("format"), WireName("uppercase")]
        if let unknown = object.members.first(where: { !allowed.contains(WireName($0.name)) }) {
            throw unknown.value.invalid("is not a member of a postal-code rule")
        }
        let patternProblem = "must be a non-empty regular expression"
        guard let pattern = try object.string("pattern", or: patternProblem), !pattern.isEmpty else {
            throw object.member("pattern").invalid(patternProblem)
        }
        let format = try object.string("format")
        let uppercase = try object.bool("uppercase") ?? false
        do {
            return try PostalCodeRule(pattern: pattern, format: format, uppercase: uppercase)
        } catch {
            throw object.member(error.member).invalid(error.problem)
        }
    }
}

/// The codes a country writes its regions with (`CA` for California), with the names and aliases that map
/// to them, so `California`, `california` and `ca` all print as `CA`.
///
/// The definition is `lookup[value.lowercased()]`: Swift lower-cases scalar by scalar and matches the key by
/// canonical equivalence. `table` answers most values from their bytes without making a `String`: each key that
/// lower-casing leaves byte for byte as it is, found by the value's bytes with ASCII letters lowered. A value
/// found there gets the definition's code (its ASCII letters lower-case as they do in the table, its other
/// scalars are the key's own, which lower-casing keeps). An ASCII value not found there has no code either,
/// unless a key outside ASCII is canonically equivalent to ASCII text (U+212A KELVIN SIGN is `K`): then, as for
/// any other value not found, the definition answers.
struct RegionCodes: Sendable {
    /// Lower-cased code, name or alias → code.
    private let lookup: [String: String]
    /// Longer input matches nothing (lower-casing shrinks text by at most a factor of three, `K` → `k`), so it
    /// is refused before it is lower-cased and hashed.
    private let longestInput: Int
    private let table: KeyTable
    /// Whether an ASCII value `table` does not hold has no code: no key outside ASCII is canonically
    /// equivalent to ASCII text.
    private let asciiMissesAreFinal: Bool

    init(codes: DataFields.Value, aliases: DataFields.Value) throws(DataError) {
        let codesProblem = "must be an object mapping codes to names"
        guard let codeObject = try codes.object(or: codesProblem), codeObject.count > 0 else {
            throw codes.invalid(codesProblem)
        }
        var lookup: [String: String] = [:]
        for (code, value) in codeObject.members {
            let isCode = code.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
            guard !code.isEmpty, isCode else { throw value.invalid("a region code is upper-case letters and digits") }
            let nameProblem = "must be the region's name"
            guard let name = try value.string(or: nameProblem), !name.isEmpty else { throw value.invalid(nameProblem) }
            lookup[code.lowercased()] = code
            lookup[name.lowercased()] = code
        }
        if aliases.value != nil {
            guard let aliasObject = try aliases.object(or: "must be an object mapping names to codes") else {
                throw aliases.invalid("must be an object mapping names to codes")
            }
            for (alias, value) in aliasObject.members {
                guard case .string(let code)? = value.value, codeObject.member(code).value != nil else {
                    throw value.invalid("must map to one of regionCodes")
                }
                lookup[alias.lowercased()] = code
            }
        }
        self.lookup = lookup
        longestInput = 4 * (lookup.keys.map(\.utf8.count).max() ?? 0)
        table = KeyTable(lookup.filter { key, _ in key.utf8.elementsEqual(key.lowercased().utf8) })
        asciiMissesAreFinal = !lookup.keys.contains { !$0.utf8.allSatisfy { $0 < 0x80 } && Self.mayEqualASCII($0) }
    }

    /// The code for an entered region (code, name or alias in any case), or nil when it is not one of them.
    func code(for value: String) -> String? {
        var contiguous = value
        switch contiguous.withUTF8({ table.find($0) }) {
        case .found(let code): return code
        case .absent(let ascii) where ascii && asciiMissesAreFinal: return nil
        case .absent: return definedCode(for: value)
        }
    }

    /// `code(for:)` of `String(decoding: utf8, as: UTF8.self)`, for a caller holding the entered value's bytes:
    /// no `String` is made for a value the table decides.
    func code(utf8: UnsafeBufferPointer<UInt8>) -> String? {
        switch table.find(utf8) {
        case .found(let code): return code
        case .absent(let ascii) where ascii && asciiMissesAreFinal: return nil
        case .absent: return definedCode(for: String(decoding: utf8, as: UTF8.self))
        }
    }

    /// `code(for:)` by its definition.
    func definedCode(for value: String) -> String? {
        guard value.utf8.count <= longestInput else { return nil }
        return lookup[value.lowercased()]
    }

    /// The text of each ASCII character alone, to find scalars canonically equivalent to one.
    private static let asciiCharacters: Set<String> = Set((0..<128).map { String(Unicode.Scalar(UInt8($0))) })

    /// Whether `key` is canonically equivalent to ASCII text: each of its scalars is ASCII or equivalent to one
    /// ASCII character (U+212A KELVIN SIGN, U+037E GREEK QUESTION MARK). Exact because no scalar decomposes
    /// canonically to two or more ASCII scalars (a test holds that to Foundation's NFD).
    static func mayEqualASCII(_ key: String) -> Bool {
        key.unicodeScalars.allSatisfy { $0.isASCII || asciiCharacters.contains(String($0)) }
    }

    /// Keys found by their bytes: an open-addressing hash table over a key's bytes with ASCII letters lowered,
    /// read and compared eight bytes at a time, laid out in three arrays made at load.
    private struct KeyTable: Sendable {
        private struct Entry: Sendable {
            let hash: UInt64
            /// The key's words in `keyWords` (its bytes as `word(_:at:)` reads them) and its byte count.
            let start: Int32
            let count: Int32
            let code: String
        }

        /// Entry index + 1 per bucket, 0 for an empty one; a power of two at least twice the keys.
        private let buckets: [Int32]
        private let entries: [Entry]
        private let keyWords: [UInt64]
        private let longestKey: Int

        init(_ keys: [String: String]) {
            var entries: [Entry] = []
            var keyWords: [UInt64] = []
            var size = 8
            while size < 2 * keys.count { size *= 2 }
            var buckets = [Int32](repeating: 0, count: size)
            for (key, code) in keys {
                var key = key
                let (hash, start) = key.withUTF8 { utf8 in
                    let start = keyWords.count
                    for offset in stride(from: 0, to: utf8.count, by: 8) {
                        keyWords.append(Self.word(utf8, at: offset))
                    }
                    return (Self.hash(keyWords[start...], count: utf8.count), start)
                }
                var bucket = Int(truncatingIfNeeded: hash) & (size - 1)
                while buckets[bucket] != 0 { bucket = (bucket + 1) & (size - 1) }
                entries.append(Entry(hash: hash, start: Int32(start), count: Int32(key.utf8.count), code: code))
                buckets[bucket] = Int32(entries.count)
            }
            self.buckets = buckets
            self.entries = entries
            self.keyWords = keyWords
            longestKey = keys.map(\.key.utf8.count).max() ?? 0
        }

        /// Eight bytes of `utf8` from `offset` (fewer at the end, the rest zero) as one little-endian word. A short
        /// end is read as two loads that overlap inside it, so no byte past the buffer is read.
        @inline(__always)
        private static func word(_ utf8: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
            let remaining = utf8.count &- offset
            let start = UnsafeRawPointer(utf8.baseAddress! + offset)
            if remaining >= 8 { return UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) }
            if remaining >= 4 {
                let low = UInt64(UInt32(littleEndian: start.loadUnaligned(as: UInt32.self)))
                let high = UInt64(
                    UInt32(littleEndian: start.loadUnaligned(fromByteOffset: remaining &- 4, as: UInt32.self)))
                return low | high << (8 &* (remaining &- 4))
            }
            if remaining >= 2 {
                let low = UInt64(UInt16(littleEndian: start.loadUnaligned(as: UInt16.self)))
                let high = UInt64(
                    UInt16(littleEndian: start.loadUnaligned(fromByteOffset: remaining &- 2, as: UInt16.self)))
                return low | high << (8 &* (remaining &- 2))
            }
            return remaining == 1 ? UInt64(start.load(as: UInt8.self)) : 0
        }

        /// `A`–`Z` lowered in each byte of a word, other bytes (non-ASCII ones too) kept: a byte is an upper-case
        /// letter when adding 0x3F to its low seven bits carries into bit 7 and adding 0x25 does not.
        @inline(__always)
        private static func lowered(_ word: UInt64) -> UInt64 {
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let upper =
                ~word & ((low &+ 0x3F3F_3F3F_3F3F_3F3F) ^ (low &+ 0x2525_2525_2525_2525)) & 0x8080_8080_8080_8080
            return word | upper >> 2
        }

        @inline(__always)
        private static func hash<Words: Sequence<UInt64>>(_ words: Words, count: Int) -> UInt64 {
            var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
            for word in words { hash = (hash ^ word) &* 0x0000_0100_0000_01B3 }
            return hash ^ hash >> 29
        }

        enum Answer {
            case found(String)
            /// Not held; `ascii` says whether the value was ASCII.
            case absent(ascii: Bool)
        }

        /// The code of the key equal to `utf8` with its ASCII letters lowered.
        func find(_ utf8: UnsafeBufferPointer<UInt8>) -> Answer {
            let count = utf8.count
            guard count <= longestKey else { return .absent(ascii: !utf8.contains { $0 >= 0x80 }) }
            var bits: UInt64 = 0
            var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
            var offset = 0
            while offset < count {
                let word = Self.word(utf8, at: offset)
                bits |= word
                hash = (hash ^ Self.lowered(word)) &* 0x0000_0100_0000_01B3
                offset &+= 8
            }
            hash ^= hash >> 29
            let ascii = bits & 0x8080_8080_8080_8080 == 0
            return buckets.withUnsafeBufferPointer { buckets in
                entries.withUnsafeBufferPointer { entries in
                    keyWords.withUnsafeBufferPointer { keyWords in
                        let mask = buckets.count - 1
                        var bucket = Int(truncatingIfNeeded: hash) & mask
                        while true {
                            let slot = Int(buckets[bucket])
                            guard slot > 0 else { return .absent(ascii: ascii) }
                            let entry = entries[slot - 1]
                            if entry.hash == hash, Int(entry.count) == count {
                                var start = Int(entry.start)
                                var offset = 0
                                while offset < count, Self.lowered(Self.word(utf8, at: offset)) == keyWords[start] {
                                    offset &+= 8
                                    start &+= 1
                                }
                                if offset >= count { return .found(entry.code) }
                            }
                            bucket = (bucket &+ 1) & mask
                        }
                    }
                }
            }
        }
    }
}
