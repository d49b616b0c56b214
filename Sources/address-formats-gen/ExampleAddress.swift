import FmtCore
import Foundation

/// Which layout an example is for: the one layout of most countries, or the local or Latin one of a country
/// that has both.
enum ExampleScript {
    case national, local, latin
}

extension AddressFormatConverter {
    /// House numbers as local layouts write them, by language.
    static let localHouseNumbers = ["ja": "1-9-1", "zh": "8号", "zh-hant": "8號", "ko": "209"]

    /// The example address of one layout (data/README.md, "Example"): from fmtd's own words
    /// (`data/address-examples.json`) an addressee (a person's name and an organization) and a street in the
    /// country's language, its town, its district and sorting code where it has them; a house number, the
    /// postal code the rule confirms and the region `format` chose, all in the layout's own script: a Latin
    /// layout takes the Latin street, town, district and addressee and the region's Latin name; a layout for a
    /// town written in Latin letters takes a Latin street (English where the language's own is in another
    /// script) and a Latin addressee (the language's Latin spelling, else English).
    func exampleAddress(
        _ country: String, language: String, script: ExampleScript, postalCode: String?, region: SubRegion?,
        codes: Bool
    ) -> JSONObject {
        let streets = words["streets"]?.objectValue ?? [:]
        let english = streets["en"]?.stringValue ?? "Station Road"
        var town = words["towns"]?.objectValue?[country]?.stringValue ?? own("name", country) ?? country
        // The street's language: the record's own, else OpenCage's first language for the country.
        let streetLanguage =
            language.isEmpty
            ? (sources.languages[country]?.stringValue ?? "en").split(separator: ",").first.map(String.init) ?? "en"
            : language
        let primary = streetLanguage.split(separator: "-").first.map(String.init) ?? streetLanguage
        var street = streets[streetLanguage]?.stringValue ?? streets[primary]?.stringValue ?? english
        var house = "12"
        var district = words["districts"]?.objectValue?[country]?.stringValue
        // The country's own words for this layout (`latin` or `local`), which come before the language's.
        var entry: JSONObject?
        switch script {
        case .latin:
            entry = words["latin"]?.objectValue?[country]?.objectValue
            street = entry?["street"]?.stringValue ?? english
            town = entry?["town"]?.stringValue ?? town
            district = entry?["district"]?.stringValue
        case .local:
            entry = words["local"]?.objectValue?[country]?.objectValue
            street = entry?["street"]?.stringValue ?? street
            town = entry?["town"]?.stringValue ?? town
            house = entry?["house"]?.stringValue ?? Self.localHouseNumbers[streetLanguage] ?? "12"
            district = entry?["district"]?.stringValue ?? district
        case .national:
            // The town is written in the country's own script where its layout serves it; a Latin town takes a
            // Latin street.
            if Self.isLatin(town) && !Self.isLatin(street) { street = english }
        }
        let latinText = script == .latin || (script == .national && Self.isLatin(town))
        var example = JSONObject()
        for member in ["name", "organization"] {
            if let value = entry?[member]?.stringValue ?? addressee(member, streetLanguage, latin: latinText) {
                example.append(member, .string(value))
            }
        }
        example.append("street", .string(street))
        example.append("houseNumber", .string(house))
        if let district { example.append("district", .string(district)) }
        example.append("city", .string(town))
        if let postalCode { example.append("postalCode", .string(postalCode)) }
        if let region {
            let shown: String?
            let display = Self.displayName(region)
            if codes {
                shown = region.key
            } else if script == .latin || (Self.isLatin(town) && !Self.isLatin(display)) {
                // Latin text takes the region's Latin name; none where the data has none.
                shown = Self.isLatin(display) ? display : region.latinName
            } else if !Self.isLatin(town), Self.isLatin(display), let name = region.name, !Self.isLatin(name) {
                // A town in the country's own script takes the region's name in it (HK's 九龍, not Kowloon).
                shown = name
            } else {
                shown = display
            }
            if let shown { example.append("region", .string(shown)) }
        }
        if let code = words["sortingCodes"]?.objectValue?[country]?.stringValue {
            example.append("sortingCode", .string(code))
        }
        return example
    }

    /// The addressee's `name` or `organization` in a language (`zh-hant`, else `zh`), in its own script or, for
    /// Latin text, its `latin` spelling where the language is written in another script; English where the
    /// words have none in the script wanted.
    private func addressee(_ member: String, _ language: String, latin: Bool) -> String? {
        let addressees = words["addressees"]?.objectValue ?? [:]
        let primary = language.split(separator: "-").first.map(String.init) ?? language
        let entry = addressees[language]?.objectValue ?? addressees[primary]?.objectValue
        let english = addressees["en"]?.objectValue?[member]?.stringValue
        if latin {
            if let spelled = entry?["latin"]?.objectValue?[member]?.stringValue { return spelled }
            if let own = entry?[member]?.stringValue, Self.isLatin(own) { return own }
            return english
        }
        return entry?[member]?.stringValue ?? english
    }

    /// Whether the first letter of `text` is a Latin one (Basic Latin to Latin Extended-B, Latin Extended
    /// Additional); true for text without letters.
    static func isLatin(_ text: String) -> Bool {
        guard let letter = text.unicodeScalars.first(where: \.properties.isAlphabetic) else { return true }
        return letter.value <= 0x24F || (0x1E00...0x1EFF).contains(letter.value)
    }
}
