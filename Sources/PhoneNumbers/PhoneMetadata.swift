import FmtCore

/// Why metadata could not be loaded; every case names the offending field.
public enum PhoneMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON is malformed or a field is missing or has the wrong type; `field` is its coding path.
    case invalidField(field: String, detail: String)
    /// A pattern field does not compile.
    case invalidPattern(field: String, detail: String)
    /// The file could not be read.
    case unreadable(path: String, detail: String)

    /// A message naming the field.
    public var description: String {
        switch self {
        case .invalidField(let field, let detail): "phone metadata: field \(field): \(detail)"
        case .invalidPattern(let field, let detail): "phone metadata: pattern \(field): \(detail)"
        case .unreadable(let path, let detail): "phone metadata: cannot read \(path): \(detail)"
        }
    }
}

/// Number types, in wire spelling.
public enum PhoneNumberType: String, Sendable, CaseIterable, Codable {
    case fixedLine, mobile, fixedLineOrMobile, tollFree, premiumRate, sharedCost, voip, personalNumber, pager, uan
    case voicemail, unknown

    /// `rawValue` as bytes that need no reference counting.
    var wireName: StaticString {
        switch self {
        case .fixedLine: "fixedLine"
        case .mobile: "mobile"
        case .fixedLineOrMobile: "fixedLineOrMobile"
        case .tollFree: "tollFree"
        case .premiumRate: "premiumRate"
        case .sharedCost: "sharedCost"
        case .voip: "voip"
        case .personalNumber: "personalNumber"
        case .pager: "pager"
        case .uan: "uan"
        case .voicemail: "voicemail"
        case .unknown: "unknown"
        }
    }
}

/// A compiled number description.
struct NumberDesc: Sendable {
    /// Nil for a type without a pattern: no number is of that type. Its `DigitPattern` is among the owning
    /// territory's `patterns`.
    let pattern: PatternProgram?
    /// Bit `n` set when length `n` is possible.
    let lengths: UInt32
    let localOnly: UInt32
    let minLength: Int
    let maxLength: Int
    /// Bit `10a + b` (of 100) set when an input starting with digits `a b` can match the pattern: most types are
    /// ruled out by their first two digits without running the pattern.
    let prefixes: (UInt64, UInt64)

    init(
        _ record: NumberDescRecord, field: String, cache: inout PatternCache, owners: inout [DigitPattern]
    ) throws(PhoneMetadataError) {
        let compiled = try record.pattern.map { (text) throws(PhoneMetadataError) in
            try cache.compile(text, field: "\(field).p")
        }
        if let compiled { owners.append(compiled) }
        pattern = compiled?.compiled
        var prefixes: (UInt64, UInt64) = (0, 0)
        for prefix in 0..<100 where compiled?.mayStart(UInt8(48 + prefix / 10), UInt8(48 + prefix % 10)) == true {
            if prefix < 64 { prefixes.0 |= 1 << UInt64(prefix) } else { prefixes.1 |= 1 << UInt64(prefix - 64) }
        }
        self.prefixes = prefixes
        var mask: UInt32 = 0
        for length in record.lengths {
            guard (1..<32).contains(length) else {
                throw .invalidField(field: "\(field).l", detail: "length \(length) out of range")
            }
            mask |= 1 << UInt32(length)
        }
        var local: UInt32 = 0
        for length in record.localOnlyLengths ?? [] where (1..<32).contains(length) {
            local |= 1 << UInt32(length)
        }
        guard let min = record.lengths.min(), let max = record.lengths.max() else {
            throw .invalidField(field: "\(field).l", detail: "no possible lengths")
        }
        lengths = mask
        localOnly = local
        minLength = min
        maxLength = max
    }

    /// Whole-pattern match alone; false for a description without a pattern, as upstream's empty pattern.
    @inline(__always)
    func matchesPattern(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        mayStart(digits) && pattern?.matchesWhole(digits) == true
    }

    /// Possible length, then whole-pattern match (upstream's test for a number matching a description).
    @inline(__always)
    func matches(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        digits.count < 32 && lengths & (1 << UInt32(digits.count)) != 0 && matchesPattern(digits)
    }

    /// False when the first two digits rule a whole match out (a whole match consumes both, so a byte other than a
    /// digit among them rules it out too); true for shorter inputs.
    @inline(__always)
    private func mayStart(_ digits: UnsafeBufferPointer<UInt8>) -> Bool {
        guard digits.count >= 2 else { return true }
        let first = digits[0] &- 48
        let second = digits[1] &- 48
        guard first < 10, second < 10 else { return false }
        return mayStart(prefix: Int(first) * 10 + Int(second))
    }

    /// Whether a whole match can start with the two digits `prefix / 10`, `prefix % 10` (`prefix` in 0..<100).
    @inline(__always)
    func mayStart(prefix: Int) -> Bool {
        prefix < 64 ? prefixes.0 >> UInt64(prefix) & 1 != 0 : prefixes.1 >> UInt64(prefix - 64) & 1 != 0
    }
}

/// A replacement template (`$1 $2`, `0$1`) compiled to bytes: its text, and each group reference as the byte 0xFF
/// (which UTF-8 never holds) followed by the group's number.
struct Template: Sendable {
    let bytes: FrozenBytes
    /// The text's bytes, and the number of group references: at most `textCount + references × n` bytes result
    /// from `n` digits.
    let textCount: Int
    let references: Int
    /// Whether the text goes into a JSON string as it is (no quote, backslash or control character).
    let isPlain: Bool

    init(_ pieces: [NumberFormat.Piece]) {
        var flat: [UInt8] = []
        var references = 0
        var flags: UInt64 = 0
        for piece in pieces {
            switch piece {
            case .text(let text):
                flat += text
                flags |= text.withUnsafeBufferPointer(ByteScan.escapeFlags(of:))
            case .group(let group):
                flat += [Self.groupMark, UInt8(group)]
                references += 1
            }
        }
        bytes = FrozenBytes(flat)
        textCount = flat.count - 2 * references
        self.references = references
        isPlain = flags == 0
    }

    static let groupMark: UInt8 = 0xFF

    /// Appends the template with each group reference replaced by that group of `digits` (`groups` holds two
    /// offsets per group, -1 when unset); references to groups the pattern lacks are dropped.
    @inline(__always)
    func write(
        _ digits: UnsafeBufferPointer<UInt8>, groups: UnsafeBufferPointer<Int32>, groupCount: Int,
        into out: inout ByteWriter
    ) {
        out.append(atMost: textCount + references * digits.count) {
            write(digits, groups: groups, groupCount: groupCount, into: &$0)
        }
    }

    /// The number of bytes `write` appends.
    func length(groups: UnsafeBufferPointer<Int32>, groupCount: Int) -> Int {
        let template = bytes.buffer
        var index = 0
        var length = 0
        while index < template.count {
            guard template[index] == Self.groupMark else {
                length += 1
                index += 1
                continue
            }
            let group = Int(template[index + 1])
            index += 2
            guard group >= 1, group <= groupCount else { continue }
            let lower = Int(groups[2 * group - 2])
            let upper = Int(groups[2 * group - 1])
            if lower >= 0 && upper >= lower { length += upper - lower }
        }
        return length
    }

    /// `write` through a cursor with room for at least `length` bytes.
    @inline(__always)
    func write(
        _ digits: UnsafeBufferPointer<UInt8>, groups: UnsafeBufferPointer<Int32>, groupCount: Int,
        into out: inout ByteCursor
    ) {
        let template = bytes.buffer
        var index = 0
        while index < template.count {
            let byte = template[index]
            guard byte == Self.groupMark else {
                out.write(byte)
                index += 1
                continue
            }
            let group = Int(template[index + 1])
            index += 2
            guard group >= 1, group <= groupCount else { continue }
            let lower = Int(groups[2 * group - 2])
            let upper = Int(groups[2 * group - 1])
            if lower >= 0 && upper >= lower {
                out.write(UnsafeBufferPointer(rebasing: digits[lower..<upper]))
            }
        }
    }
}

/// A compiled number format.
final class NumberFormat: Sendable {
    enum Piece: Sendable {
        case text([UInt8])
        case group(Int)
    }

    let pattern: DigitPattern
    let leadingDigits: DigitPattern?
    /// The template of national output: the national prefix formatting rule applied to its first group.
    let nationalTemplate: Template
    /// The template of international and RFC 3966 output: `intlFormat`, else the format.
    let internationalTemplate: Template
    /// Whether the record has its own `intlFormat`.
    let hasInternationalFormat: Bool
    /// Whether that `intlFormat` is `NA` (or empty): the format is not used for international output.
    let excludedInternationally: Bool

    init(_ record: NumberFormatRecord, field: String, cache: inout PatternCache) throws(PhoneMetadataError) {
        pattern = try cache.compile(record.pattern, field: "\(field).p")
        leadingDigits = try record.leadingDigits.map { (text) throws(PhoneMetadataError) in
            try cache.compile(text, field: "\(field).ld")
        }
        let national = Self.pieces(record.format)
        let nationalWithPrefix = record.nationalPrefixRule.map { Self.pieces(Self.applyRule($0, to: record.format)) }
        let international = record.intlFormat.map { $0 == "NA" ? [] : Self.pieces($0) }
        nationalTemplate = Template(nationalWithPrefix ?? national)
        internationalTemplate = Template(international ?? national)
        hasInternationalFormat = international != nil
        excludedInternationally = international?.isEmpty == true
    }

    deinit {
        nationalTemplate.bytes.deallocate()
        internationalTemplate.bytes.deallocate()
    }

    /// Replaces the first `$n` of `format` by `rule`, whose `$1` stands for that `$n`.
    static func applyRule(_ rule: String, to format: String) -> String {
        let chars = Array(format)
        for index in chars.indices.dropLast()
        where chars[index] == "$" && chars[index + 1].isASCII
            && chars[index + 1].isNumber
        {
            let token = String(chars[index...index + 1])
            let replacement = rule.replacing("$1", with: token)
            return String(chars[..<index]) + replacement + String(chars[(index + 2)...])
        }
        return format
    }

    static func pieces(_ template: String) -> [Piece] {
        var result: [Piece] = []
        var text: [UInt8] = []
        var chars = template.makeIterator()
        var pending = chars.next()
        while let char = pending {
            pending = chars.next()
            if char == "$", let next = pending, let digit = next.wholeNumberValue, next.isASCII {
                if !text.isEmpty { result.append(.text(text)) }
                text = []
                result.append(.group(digit))
                pending = chars.next()
            } else {
                text += char.utf8
            }
        }
        if !text.isEmpty { result.append(.text(text)) }
        return result
    }
}

/// A format as the formatting loop reads it: pointers into memory its `NumberFormat` owns.
struct FormatPlan: @unchecked Sendable {
    let pattern: PatternProgram
    let leadingDigits: PatternProgram?
    let nationalTemplate: Template
    let internationalTemplate: Template
    /// Whether the format is left out of international output (`intlFormat` `NA`).
    let excludedInternationally: Bool
    /// When the national template is text (a national prefix, `0` of `0$1 $2`) followed by the international
    /// template, the length of that text: one match's international grouping is its national one after it.
    let nationalPrefixLength: Int?

    /// The length of the text `national` starts with before the whole of `international`, nil when it does not
    /// end in it or a group reference comes before it.
    static func prefixLength(of national: Template, before international: Template) -> Int? {
        let whole = national.bytes.buffer
        let tail = international.bytes.buffer
        guard whole.count >= tail.count else { return nil }
        let length = whole.count - tail.count
        guard !whole[..<length].contains(Template.groupMark), whole[length...].elementsEqual(tail) else { return nil }
        return length
    }
}

/// A territory's formats (or those for international output) with, for each first two digits (0–99), the formats
/// that can apply: `buckets` holds 101 offsets into the indices that follow them.
struct FormatList: @unchecked Sendable {
    let plans: FrozenArray<FormatPlan>
    let buckets: FrozenArray<Int32>

    init(_ formats: [NumberFormat]) {
        plans = FrozenArray(
            formats.map { format in
                FormatPlan(
                    pattern: format.pattern.compiled, leadingDigits: format.leadingDigits?.compiled,
                    nationalTemplate: format.nationalTemplate, internationalTemplate: format.internationalTemplate,
                    excludedInternationally: format.excludedInternationally,
                    nationalPrefixLength: FormatPlan.prefixLength(
                        of: format.nationalTemplate, before: format.internationalTemplate))
            })
        guard !formats.isEmpty else {
            buckets = .empty
            return
        }
        var offsets: [Int32] = []
        var indices: [Int32] = []
        for prefix in 0..<100 {
            offsets.append(Int32(101 + indices.count))
            let first = UInt8(48 + prefix / 10)
            let second = UInt8(48 + prefix % 10)
            for (index, format) in formats.enumerated()
            where format.pattern.mayStart(first, second)
                && format.leadingDigits.map({ $0.mayStart(first, second) }) != false
            {
                indices.append(Int32(index))
            }
        }
        offsets.append(Int32(101 + indices.count))
        buckets = FrozenArray(offsets + indices)
    }

    func deallocate() {
        plans.deallocate()
        buckets.deallocate()
    }
}

/// A territory as parsing and formatting read it: numbers, byte texts and pointers into memory its `Territory`
/// owns, copied into the metadata's table so a request reaches it by index without reference counting.
struct TerritoryPlan: @unchecked Sendable {
    /// The territory's position in the metadata.
    let index: Int32
    let countryCode: Int
    let countryCodeDigits: FrozenBytes
    let id: FrozenBytes
    let leadingDigits: PatternProgram?
    let internationalPrefix: PatternProgram?
    let nationalPrefixForParsing: PatternProgram?
    let nationalPrefixTransform: Template?
    let extensionPrefix: FrozenBytes
    let diallingPrefix: FrozenBytes
    let general: NumberDesc
    /// Indexed by `Territory.typeOrder`.
    let types: FrozenArray<NumberDesc?>
    /// The types (bit `i` for `types[i]`) a number may be by what `NumberDesc.matches` reads before the pattern:
    /// entry `n` (0..<32) of those with length `n` possible, entry `32 + p` of those a number starting with the
    /// two digits `p` (0..<100) may match. Types without a pattern are in neither.
    let typeFilter: FrozenArray<UInt16>
    let sameMobileAndFixedLinePattern: Bool
    let formats: FormatList
    /// Formats for international and RFC 3966 output; `nil` means use `formats`.
    let internationalFormats: FormatList?
    /// Whether every text of the territory that a number's forms can hold (its id, calling code, prefixes and
    /// templates) goes into a JSON string as it is, so forms made of them and digits need no escape check.
    let textsArePlain: Bool
}

/// One region's (or non-geographic entity's) compiled metadata.
final class Territory: Sendable {
    let id: String
    /// `id` as UTF-8.
    let idBytes: FrozenBytes
    let countryCode: Int
    /// The calling code as ASCII digits.
    let countryCodeDigits: FrozenBytes
    let leadingDigits: DigitPattern?
    let internationalPrefix: DigitPattern?
    /// The IDD written before numbers dialled out of this region: the preferred prefix, else the
    /// international prefix when it is a single prefix (upstream's test); `nil` when there is none to write.
    let prefixForDialling: String?
    /// `prefixForDialling` as UTF-8, empty when there is none.
    let diallingPrefix: FrozenBytes
    let nationalPrefixForParsing: DigitPattern?
    let nationalPrefixTransform: Template?
    let preferredExtnPrefix: String?
    /// What national and international forms write before an extension: `preferredExtnPrefix`, else ` ext. `.
    let extensionPrefix: FrozenBytes
    let general: NumberDesc
    /// Indexed by `Territory.typeOrder`.
    let types: [NumberDesc?]
    let examples: [PhoneNumberType: String]
    let sameMobileAndFixedLinePattern: Bool
    let formats: [NumberFormat]
    /// Formats for international and RFC 3966 output; empty means use `formats`.
    let internationalFormats: [NumberFormat]
    /// What parsing and formatting read; its memory is this territory's.
    let plan: TerritoryPlan
    /// The patterns of `general` and `types`, kept alive for their programs.
    private let patterns: [DigitPattern]

    /// Upstream's order for deciding a number's type; fixed line and mobile come last.
    static let typeOrder: [PhoneNumberType] = [
        .premiumRate, .tollFree, .sharedCost, .voip, .personalNumber, .pager, .uan, .voicemail, .fixedLine, .mobile,
    ]

    init(
        _ record: TerritoryRecord, index: Int, field: String, cache: inout PatternCache
    ) throws(PhoneMetadataError) {
        id = record.id
        countryCode = record.countryCode
        leadingDigits = try record.leadingDigits.map { (text) throws(PhoneMetadataError) in
            try cache.compile(text, field: "\(field).ld")
        }
        internationalPrefix = try record.internationalPrefix.map { (text) throws(PhoneMetadataError) in
            try cache.compile(text, field: "\(field).ip")
        }
        let prefixForDialling =
            record.preferredInternationalPrefix
            ?? record.internationalPrefix.flatMap { Self.isSinglePrefix($0) ? $0 : nil }
        self.prefixForDialling = prefixForDialling
        nationalPrefixForParsing = try record.nationalPrefixForParsing.flatMap { (text) throws(PhoneMetadataError) in
            text.isEmpty ? nil : try cache.compile(text, field: "\(field).npp")
        }
        preferredExtnPrefix = record.preferredExtnPrefix
        var patterns: [DigitPattern] = []
        general = try NumberDesc(record.general, field: "\(field).gen", cache: &cache, owners: &patterns)
        var types: [NumberDesc?] = []
        var examples: [PhoneNumberType: String] = [:]
        for type in Self.typeOrder {
            examples[type] = record.types[type.rawValue]?.example
            types.append(
                try record.types[type.rawValue].map { (desc) throws(PhoneMetadataError) in
                    try NumberDesc(
                        desc, field: "\(field).types.\(type.rawValue)", cache: &cache, owners: &patterns)
                })
        }
        self.types = types
        self.examples = examples
        sameMobileAndFixedLinePattern =
            record.types["fixedLine"]?.pattern != nil
            && record.types["fixedLine"]?.pattern == record.types["mobile"]?.pattern
        var formats: [NumberFormat] = []
        for (index, format) in (record.formats ?? []).enumerated() {
            formats.append(try NumberFormat(format, field: "\(field).fmt[\(index)]", cache: &cache))
        }
        self.formats = formats
        if formats.contains(where: \.hasInternationalFormat) {
            internationalFormats = formats.filter { !$0.excludedInternationally }
        } else {
            internationalFormats = []
        }
        self.patterns = patterns
        // Memory of our own only after the last step that can throw: a class whose init throws runs no deinit.
        idBytes = FrozenBytes(record.id.utf8)
        countryCodeDigits = FrozenBytes(String(record.countryCode).utf8)
        diallingPrefix = FrozenBytes((prefixForDialling ?? "").utf8)
        nationalPrefixTransform = record.nationalPrefixTransformRule.flatMap {
            $0.isEmpty ? nil : Template(NumberFormat.pieces($0))
        }
        extensionPrefix = FrozenBytes((record.preferredExtnPrefix ?? " ext. ").utf8)
        var flags: UInt64 = 0
        for text in [idBytes, countryCodeDigits, diallingPrefix, extensionPrefix] {
            flags |= ByteScan.escapeFlags(of: text.buffer)
        }
        let templatesArePlain = formats.allSatisfy { $0.nationalTemplate.isPlain && $0.internationalTemplate.isPlain }
        var typeFilter = [UInt16](repeating: 0, count: 132)
        for (index, desc) in types.enumerated() {
            guard let desc, desc.pattern != nil else { continue }
            for length in 0..<32 where desc.lengths >> UInt32(length) & 1 != 0 { typeFilter[length] |= 1 << index }
            for prefix in 0..<100 where desc.mayStart(prefix: prefix) { typeFilter[32 + prefix] |= 1 << index }
        }
        plan = TerritoryPlan(
            index: Int32(index), countryCode: countryCode, countryCodeDigits: countryCodeDigits, id: idBytes,
            leadingDigits: leadingDigits?.compiled, internationalPrefix: internationalPrefix?.compiled,
            nationalPrefixForParsing: nationalPrefixForParsing?.compiled,
            nationalPrefixTransform: nationalPrefixTransform, extensionPrefix: extensionPrefix,
            diallingPrefix: diallingPrefix, general: general, types: FrozenArray(types),
            typeFilter: FrozenArray(typeFilter),
            sameMobileAndFixedLinePattern: sameMobileAndFixedLinePattern, formats: FormatList(formats),
            internationalFormats: internationalFormats.isEmpty ? nil : FormatList(internationalFormats),
            textsArePlain: flags == 0 && templatesArePlain)
    }

    deinit {
        idBytes.deallocate()
        countryCodeDigits.deallocate()
        diallingPrefix.deallocate()
        extensionPrefix.deallocate()
        nationalPrefixTransform?.bytes.deallocate()
        plan.types.deallocate()
        plan.typeFilter.deallocate()
        plan.formats.deallocate()
        plan.internationalFormats?.deallocate()
    }

    /// Upstream's `SINGLE_INTERNATIONAL_PREFIX`, `[\d]+(?:[~⁓∼～][\d]+)?`, over the whole text.
    static func isSinglePrefix(_ text: String) -> Bool {
        var scalars = text.unicodeScalars[...]
        func digits() -> Bool {
            let run = scalars.prefix { $0.properties.numericType == .decimal }
            scalars = scalars.dropFirst(run.count)
            return !run.isEmpty
        }
        guard digits() else { return false }
        if scalars.isEmpty { return true }
        guard let wait = scalars.first, "~\u{2053}\u{223C}\u{FF5E}".unicodeScalars.contains(wait) else { return false }
        scalars = scalars.dropFirst()
        return digits() && scalars.isEmpty
    }

    func desc(_ type: PhoneNumberType) -> NumberDesc? {
        guard let index = Self.typeOrder.firstIndex(of: type) else { return nil }
        return types[index]
    }
}

/// The metadata's lookups by small integers: territories by index, two-letter regions and calling codes to
/// territory indices. Plain values, so parsing and formatting copy and read them without reference counting.
struct PlanTables: @unchecked Sendable {
    let plans: FrozenArray<TerritoryPlan>
    /// Territory index per `PhoneMetadata.letterIndex`, -1 for none.
    let byLetters: FrozenArray<Int32>
    /// For calling code `c`, the territory indices `codeTerritories[codeStarts[c]..<codeStarts[c + 1]]`.
    let codeStarts: FrozenArray<Int32>
    let codeTerritories: FrozenArray<Int32>
    /// Capture slots enough for any format's pattern (two per group).
    let slotCapacity: Int
    /// Whether every territory's national prefix transform is plain text around its groups, so that a parsed
    /// national number is digits and plain text.
    let transformsArePlain: Bool

    @inline(__always)
    func plan(_ index: Int32) -> UnsafePointer<TerritoryPlan> {
        plans.buffer.baseAddress! + Int(index)
    }

    /// The territories of a calling code, main one first.
    @inline(__always)
    func territories(forCode code: Int) -> UnsafeBufferPointer<Int32> {
        guard code > 0 && code < 1000 else { return UnsafeBufferPointer(start: nil, count: 0) }
        let start = Int(codeStarts[code])
        return UnsafeBufferPointer(rebasing: codeTerritories.buffer[start..<Int(codeStarts[code + 1])])
    }

    /// The calling code's main territory, whose plan formats its numbers.
    @inline(__always)
    func mainPlan(forCode code: Int) -> UnsafePointer<TerritoryPlan>? {
        let candidates = territories(forCode: code)
        return candidates.isEmpty ? nil : plan(candidates[0])
    }

    @inline(__always)
    func hasTerritory(forCode code: Int) -> Bool {
        !territories(forCode: code).isEmpty
    }
}

/// Owns the memory of a `PlanTables`.
final class PlanTablesOwner: Sendable {
    let tables: PlanTables

    init(territories: [Territory], byLetters: [Territory?], codeTable: [[Territory]]) {
        var starts: [Int32] = []
        var indices: [Int32] = []
        var groups = 0
        for territory in territories {
            for format in territory.formats { groups = max(groups, format.pattern.groupCount) }
        }
        for code in 0..<1000 {
            starts.append(Int32(indices.count))
            indices += codeTable[code].map(\.plan.index)
        }
        starts.append(Int32(indices.count))
        tables = PlanTables(
            plans: FrozenArray(territories.map(\.plan)), byLetters: FrozenArray(byLetters.map { $0?.plan.index ?? -1 }),
            codeStarts: FrozenArray(starts), codeTerritories: FrozenArray(indices), slotCapacity: max(2 * groups, 1),
            transformsArePlain: territories.allSatisfy { $0.nationalPrefixTransform?.isPlain != false })
    }

    deinit {
        tables.plans.deallocate()
        tables.byLetters.deallocate()
        tables.codeStarts.deallocate()
        tables.codeTerritories.deallocate()
    }
}

/// Compiles each distinct pattern once per load; compiled patterns are immutable and shared.
struct PatternCache {
    private var compiled: [String: DigitPattern] = [:]

    mutating func compile(_ pattern: String, field: String) throws(PhoneMetadataError) -> DigitPattern {
        if let known = compiled[pattern] { return known }
        do {
            let result = try DigitPattern(pattern)
            compiled[pattern] = result
            return result
        } catch {
            throw .invalidPattern(field: field, detail: error.description)
        }
    }
}

/// An immutable snapshot of numbering-plan metadata, compiled for matching. Safe to share between threads;
/// reloading means building a new snapshot.
public struct PhoneMetadata: Sendable {
    /// Upstream libphonenumber version the data comes from.
    public let version: String
    let territories: [Territory]
    let byRegion: [String: Territory]
    /// The territories of two-letter region codes by `letterIndex`, so a request's regions are found without hashing.
    private let byLetters: [Territory?]
    let nonGeographic: [Int: Territory]
    /// Regions per calling code, main country first, then in metadata order.
    let regionsByCode: [Int: [String]]
    /// Territories per calling code (index 0–999) in the same order; empty for unassigned codes.
    let codeTable: [[Territory]]
    /// The territories' plans and lookups by small integers, read by parsing and formatting.
    let tables: PlanTables
    private let tablesOwner: PlanTablesOwner

    /// Loads the JSON produced by `phone-metadata-gen`, read with the daemon's own JSON reader (no Foundation).
    public init(json: [UInt8]) throws(PhoneMetadataError) {
        let document: PhoneMetadataDocument
        do {
            document = try JSONValueDecoder().decode(PhoneMetadataDocument.self, from: try JSONReader.parse(json))
        } catch let error as DecodingError {
            throw Self.describe(error)
        } catch {
            throw .invalidField(field: "(root)", detail: "\(error)")
        }
        try self.init(document: document)
    }

    /// Compiles an already decoded document.
    public init(document: PhoneMetadataDocument) throws(PhoneMetadataError) {
        guard !document.version.isEmpty else { throw .invalidField(field: "version", detail: "empty") }
        if let problem = DataVersion.problem(document.version) {
            throw .invalidField(field: "version", detail: problem)
        }
        version = document.version
        var territories: [Territory] = []
        var byRegion: [String: Territory] = [:]
        var nonGeographic: [Int: Territory] = [:]
        var main: [Int: String] = [:]
        var others: [Int: [String]] = [:]
        var cache = PatternCache()
        for (index, record) in document.territories.enumerated() {
            let territory = try Territory(
                record, index: index, field: "territories[\(index)](\(record.id))", cache: &cache)
            territories.append(territory)
            if record.id == "001" {
                nonGeographic[record.countryCode] = territory
            } else {
                byRegion[record.id] = territory
            }
            if record.mainCountryForCode == true {
                main[record.countryCode] = record.id
            } else {
                others[record.countryCode, default: []].append(record.id)
            }
        }
        var regionsByCode: [Int: [String]] = [:]
        for (code, regions) in others {
            regionsByCode[code] = (main[code].map { [$0] } ?? []) + regions
        }
        for (code, region) in main where regionsByCode[code] == nil {
            regionsByCode[code] = [region]
        }
        var codeTable = [[Territory]](repeating: [], count: 1000)
        for (code, regions) in regionsByCode {
            guard (1..<1000).contains(code) else {
                throw .invalidField(field: "cc", detail: "country calling code \(code) out of range")
            }
            codeTable[code] = regions.compactMap { $0 == "001" ? nonGeographic[code] : byRegion[$0] }
        }
        self.codeTable = codeTable
        self.territories = territories
        self.byRegion = byRegion
        var byLetters = [Territory?](repeating: nil, count: 26 * 26)
        for (region, territory) in byRegion {
            if let index = Self.letterIndex(region) { byLetters[index] = territory }
        }
        self.byLetters = byLetters
        self.nonGeographic = nonGeographic
        self.regionsByCode = regionsByCode
        tablesOwner = PlanTablesOwner(territories: territories, byLetters: byLetters, codeTable: codeTable)
        tables = tablesOwner.tables
    }

    private static func describe(_ error: DecodingError) -> PhoneMetadataError {
        func path(_ context: DecodingError.Context, _ key: CodingKey? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "(root)" : String(text.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return .invalidField(field: path(context, key), detail: "missing")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return .invalidField(field: path(context), detail: context.debugDescription)
        @unknown default: return .invalidField(field: "(root)", detail: "\(error)")
        }
    }

    /// Region codes supported for parsing national numbers (excludes `001`).
    public var regions: [String] { byRegion.keys.sorted() }

    /// The territory of a region code (`NL`), as `byRegion` holds it.
    func territory(forRegion region: String) -> Territory? {
        if let index = Self.letterIndex(region) { return byLetters[index] }
        return byRegion[region]
    }

    /// The slot of a code of two ASCII upper-case letters; nil for anything else.
    private static func letterIndex(_ region: String) -> Int? {
        // Over the contiguous bytes: the view's index arithmetic cost more than the lookup it serves.
        var region = region
        return region.withUTF8 { utf8 -> Int? in
            guard utf8.count == 2 else { return nil }
            let first = utf8[0] &- UInt8(ascii: "A")
            let second = utf8[1] &- UInt8(ascii: "A")
            guard first < 26, second < 26 else { return nil }
            return Int(first) * 26 + Int(second)
        }
    }

    /// The calling code of a region, e.g. 31 for `NL`.
    public func countryCode(forRegion region: String) -> Int? { byRegion[region]?.countryCode }

    /// The main region for a calling code (`US` for 1), `001` for non-geographic codes.
    public func mainRegion(forCountryCode code: Int) -> String? { regionsByCode[code]?.first }

    /// All regions sharing a calling code, main country first.
    public func regions(forCountryCode code: Int) -> [String] { regionsByCode[code] ?? [] }

    /// Example national significant numbers per type for a region (or `001` with `countryCode`).
    public func examples(region: String, countryCode: Int? = nil) -> [PhoneNumberType: String] {
        let territory = region == "001" ? countryCode.flatMap { nonGeographic[$0] } : byRegion[region]
        guard let territory else { return [:] }
        return territory.examples
    }

    /// Calling codes of non-geographic entities (`001`).
    public var nonGeographicCountryCodes: [Int] { nonGeographic.keys.sorted() }

    /// Territories for a calling code, main region first.
    @inline(__always)
    func territories(forCode code: Int) -> [Territory] {
        code > 0 && code < 1000 ? codeTable[code] : []
    }

    /// The plan of a region code's territory, as `territory(forRegion:)` finds it.
    func plan(forRegion region: String) -> UnsafePointer<TerritoryPlan>? {
        if let index = Self.letterIndex(region) {
            let territory = tables.byLetters[index]
            return territory < 0 ? nil : tables.plan(territory)
        }
        return byRegion[region].map { tables.plan($0.plan.index) }
    }

    func territory(countryCode: Int, region: String) -> Territory? {
        region == "001" ? nonGeographic[countryCode] : byRegion[region]
    }
}
