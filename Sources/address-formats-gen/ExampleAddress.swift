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

    /// The example address of one layout (data/README.md, "Example"): a street in the country's language and
    /// its town from fmtd's own words (`data/address-examples.json`), a house number, the postal code the rule
    /// confirms and the sub-region whose postcode prefix matches it, all in the layout's own script: a Latin
    /// layout takes the Latin street and town and the region's Latin name; a layout for a town written in Latin
    /// letters takes a Latin street (English where the language's own is in another script).
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
        switch script {
        case .latin:
            let entry = words["latin"]?.objectValue?[country]?.objectValue
            street = entry?["street"]?.stringValue ?? english
            town = entry?["town"]?.stringValue ?? town
        case .local:
            let entry = words["local"]?.objectValue?[country]?.objectValue
            street = entry?["street"]?.stringValue ?? street
            town = entry?["town"]?.stringValue ?? town
            house = entry?["house"]?.stringValue ?? Self.localHouseNumbers[streetLanguage] ?? "12"
        case .national:
            // The town is written in the country's own script where its layout serves it; a Latin town takes a
            // Latin street.
            if Self.isLatin(town) && !Self.isLatin(street) { street = english }
        }
        var example = JSONObject()
        example.append("street", .string(street))
        example.append("houseNumber", .string(house))
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
        return example
    }

    /// Whether the first letter of `text` is a Latin one (Basic Latin to Latin Extended-B, Latin Extended
    /// Additional); true for text without letters.
    static func isLatin(_ text: String) -> Bool {
        guard let letter = text.unicodeScalars.first(where: \.properties.isAlphabetic) else { return true }
        return letter.value <= 0x24F || (0x1E00...0x1EFF).contains(letter.value)
    }
}
