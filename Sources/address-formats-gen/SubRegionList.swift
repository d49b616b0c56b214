import FmtCore

/// A country's sub-regions as `address-formats.json`'s `subRegions` holds them: at each level a list of keys with
/// the names, Latin names, ISO 3166-2 codes and postal-code prefixes of libaddressinput's data, as `~`-separated
/// lists aligned with `keys` (an empty element where the data has none), the names in the country's other
/// languages (`CA--fr`) by language, and the lists of the level below by key (`CN/北京市`'s districts).
extension AddressFormatConverter {
    /// The most levels below a country that libaddressinput's data has (region, city, district).
    static let subRegionDepth = 3

    /// The list of sub-regions under `path` (`CA`, `KR/서울특별시`), with the lists below it.
    func subRegionList(_ path: String, depth: Int = 1) throws(ConversionError) -> JSONObject {
        guard let record = sources.allRecords[path] else { throw ConversionError("\(path): no record") }
        func list(_ name: String, in record: JSONObject = record) -> [String] {
            record[name]?.stringValue.map {
                $0.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
            }
                ?? []
        }
        let keys = list("sub_keys")
        guard !keys.isEmpty, Set(keys).count == keys.count, !keys.contains("") else {
            throw ConversionError("\(path): sub_keys is empty or has a key twice")
        }
        func aligned(_ values: [String], dropping same: [String]? = nil) -> [String] {
            keys.indices.map { index in
                let value = index < values.count ? values[index] : ""
                return value == same?[index] ? "" : value
            }
        }
        let names = aligned(list("sub_names"), dropping: keys)
        let isoCodes = aligned(list("sub_isoids"))
        let subZips = aligned(list("sub_zips"))
        // A sub-region's own `zip` is the prefix libaddressinput checks; its parent's `sub_zips` says the same.
        let prefixes = keys.indices.map { index in
            sources.allRecords["\(path)/\(keys[index])"]?["zip"]?.stringValue ?? subZips[index]
        }
        let country = String(path.prefix(2))
        let primary = own("lang", country) ?? ""
        var object = JSONObject()
        // The country's language, whose names `names` are (its primary subtag), said once, at the top.
        if depth == 1, let language = primary.split(separator: "-").first {
            object.append("language", .string(language.lowercased()))
        }
        object.append("keys", .string(keys.joined(separator: "~")))
        func add(_ member: String, _ values: [String]) {
            if values.contains(where: { !$0.isEmpty }) { object.append(member, .string(values.joined(separator: "~"))) }
        }
        add("names", names)
        add("latinNames", aligned(list("sub_lnames")))
        add("fullLatinNames", aligned(list("sub_lfnames")))
        add("isoCodes", isoCodes)
        add("postalCodePrefixes", prefixes)
        // The names of the country's other languages (`languages` other than `lang`), by key, else by ISO code
        // (IN's Hindi record writes three keys otherwise).
        var translations = JSONObject()
        for language in (own("languages", country) ?? "").split(separator: "~").map(String.init)
        where language != primary {
            guard let translated = sources.allRecords["\(path)--\(language)"] else { continue }
            let otherKeys = list("sub_keys", in: translated)
            let otherNames = list("sub_names", in: translated)
            let otherCodes = list("sub_isoids", in: translated)
            guard !otherNames.isEmpty else { continue }
            let values = keys.indices.map { index -> String in
                let found =
                    otherKeys.firstIndex(of: keys[index])
                    ?? (isoCodes[index].isEmpty ? nil : otherCodes.firstIndex(of: isoCodes[index]))
                guard let found, found < otherNames.count else { return "" }
                let name = otherNames[found]
                return name == (names[index].isEmpty ? keys[index] : names[index]) ? "" : name
            }
            if values.contains(where: { !$0.isEmpty }) {
                translations.append(language.lowercased(), .string(values.joined(separator: "~")))
            }
        }
        if translations.count > 0 { object.append("translations", .object(translations)) }
        var children = JSONObject()
        if depth < Self.subRegionDepth {
            for key in keys where sources.allRecords["\(path)/\(key)"]?["sub_keys"] != nil {
                children.append(key, .object(try subRegionList("\(path)/\(key)", depth: depth + 1)))
            }
        }
        if children.count > 0 { object.append("children", .object(children)) }
        return object
    }

    /// The key of the sub-region under `path` that `name` names (its key, name or Latin name, without case), or nil.
    func childKey(of path: String, naming name: String) -> String? {
        guard !name.isEmpty, let record = sources.allRecords[path] else { return nil }
        let lowered = name.lowercased()
        for member in ["sub_keys", "sub_names", "sub_lnames"] {
            let values = (record[member]?.stringValue ?? "").split(separator: "~", omittingEmptySubsequences: false)
            if let index = values.firstIndex(where: { $0.lowercased() == lowered }) {
                let keys = (record["sub_keys"]?.stringValue ?? "").split(separator: "~").map(String.init)
                return index < keys.count ? keys[index] : nil
            }
        }
        return nil
    }

    /// An example postal code for an address in `region` (and the example's town and district where the data
    /// lists them) that fits the country's rule and every prefix on the way: the rule's own example where it does,
    /// else the first of the country's examples, then the region's, the town's and the district's own; nil when
    /// none does.
    func coherentPostalCode(_ country: String, region: String, rule: PostalRule) -> String? {
        var path = "\(country)/\(region)"
        var records = [sources.allRecords[path]].compactMap(\.self)
        let names = [
            words["towns"]?.objectValue?[country]?.stringValue, words["districts"]?.objectValue?[country]?.stringValue,
        ]
        for name in names {
            guard let name, let key = childKey(of: path, naming: name) else { break }
            path += "/\(key)"
            if let record = sources.allRecords[path] { records.append(record) }
        }
        func fits(_ code: String) -> Bool {
            records.allSatisfy { record in
                guard let zip = record["zip"]?.stringValue else { return true }
                return Self.prefixMatches(zip, code)
            }
        }
        if fits(rule.example) { return rule.example }
        let candidates = ([sources.records[country]] + records).flatMap { record in
            (record?["zipex"]?.stringValue ?? "").split(separator: ",").map(String.init)
        }
        for candidate in candidates {
            if let code = Self.normalize(candidate, rule), fits(code) { return code }
        }
        return nil
    }
}
