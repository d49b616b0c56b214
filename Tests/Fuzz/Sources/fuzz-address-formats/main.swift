import AddressFormatting
import FmtCore
import FuzzSupport

/// The address format loader: the input is `address-formats.json` (the label tables are the committed
/// ones). A catalogue that loads must describe every country it has and format its example address for a
/// viewer at home and abroad, in every language, with wire errors only; and the example again with a district,
/// a sorting code and an `address.language`, whose `linesLang` runs parallel to `lines` and whose `valueLang`s
/// name that language or the viewer's.
enum AddressFormatsTarget {
    /// Languages that pick a local layout, a Latin one, or neither, with a district in a matching script.
    static let languages: [(tag: String, district: String)] = [
        ("ja", "中央区"), ("zh-Latn", "Tianhe"), ("ar", "الزمالك"), ("th", "แขวงลุมพินี"),
    ]

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var files = LabelTables.files
        files["address-formats.json"] = String(decoding: bytes, as: UTF8.self)
        let store = DataStore(source: .embedded(files), localDirectory: nil)
        guard let plugin = try? AddressPlugin(loading: store, environment: LabelTables.environment) else { return }
        let countries = ["default"] + (plugin.dataInfo["countries"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        for (index, country) in countries.prefix(6).enumerated() {
            let locale = ["en-GB", "nl-BE", "de-AT"][index % 3]
            let code = country == "default" ? "PT" : country
            expectWireErrorsOnly {
                let described = try plugin.handle(
                    Request(op: "addressFormat", fields: ["country": .string(code), "locale": .string(locale)]))
                let example = described["example"]?.objectValue?["address"]?.objectValue ?? ["country": .string(code)]
                for viewer in [code, "JP"] {
                    let fields: JSONObject = [
                        "address": .object(example), "locale": .string(locale), "viewerRegion": .string(viewer),
                    ]
                    _ = try plugin.handle(Request(op: "address", fields: fields))
                }
                checkRegions(plugin, described, country: code, locale: locale, example: example)
                let written = languages[index % languages.count]
                var address = example
                address["district"] = .string(written.district)
                address["sortingCode"] = "CEDEX 12"
                address["language"] = .string(written.tag)
                // A locale without a region: nobody knows where the viewer is, so the country line is shown.
                let language = String(locale.prefix(2))
                let answer = try plugin.handle(
                    Request(op: "address", fields: ["address": .object(address), "locale": .string(language)]))
                checkLanguages(answer, text: written.tag)
            }
        }
    }

    /// `regions` (where the country has sub-regions) lists entries with a key each, and the first one's list below
    /// it is asked for by that key; an address with a region, city and district no list has gets only the known
    /// warning codes, and its region is listed in `fields` as entered.
    static func checkRegions(
        _ plugin: AddressPlugin, _ described: JSONObject, country: String, locale: String, example: JSONObject
    ) {
        expectWireErrorsOnly {
            let regions = (described["regions"]?.arrayValue ?? []).compactMap(\.objectValue)
            guard regions.allSatisfy({ $0["key"]?.stringValue?.isEmpty == false }) else {
                Fuzz.fail("a region without a key in \(regions)")
            }
            if let key = regions.first?["key"]?.stringValue {
                let fields: JSONObject = [
                    "country": .string(country), "region": .string(key), "locale": .string(locale),
                ]
                let below = try plugin.handle(Request(op: "addressFormat", fields: fields))
                guard below["region"]?.stringValue == key else { Fuzz.fail("region \(key) answered as \(below)") }
            }
            var address = example
            address["region"] = "Nowhere Land"
            address["city"] = "Nowhere"
            address["district"] = "Nowhere"
            let answer = try plugin.handle(Request(op: "address", fields: ["address": .object(address)]))
            let known: Set<String> = [
                "missing_required", "postal_code_format", "postal_code_region", "region_unknown", "city_unknown",
                "district_unknown", "field_not_used",
            ]
            for warning in answer["warnings"]?.arrayValue ?? [] {
                let code = warning.objectValue?["code"]?.stringValue ?? ""
                guard known.contains(code) else { Fuzz.fail("unknown warning \(code)") }
            }
            // Nothing entered is lost: the unknown region is listed with its value as entered.
            let fields = (answer["fields"]?.arrayValue ?? []).compactMap(\.objectValue)
            guard fields.contains(where: { $0["field"] == "region" && $0["value"] == "Nowhere Land" }) else {
                Fuzz.fail("the unknown region is not listed as entered: \(fields)")
            }
        }
    }

    /// `linesLang` has one entry per line, the viewer's language on the country line (last, shown here since
    /// no viewer region is given) and `text` on the others; each field's `valueLang` is one of the two.
    static func checkLanguages(_ answer: JSONObject, text: String) {
        let lang = answer["lang"]?.stringValue ?? ""
        let lines = answer["lines"]?.arrayValue ?? []
        let languages = (answer["linesLang"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard languages.count == lines.count, languages.last == lang,
            languages.dropLast().allSatisfy({ $0 == text })
        else { Fuzz.fail("linesLang \(languages) does not follow lines \(lines)") }
        for field in answer["fields"]?.arrayValue ?? [] {
            let valueLang = field.objectValue?["valueLang"]?.stringValue
            guard valueLang == text || valueLang == lang else { Fuzz.fail("valueLang of \(field)") }
        }
    }

    static func expectWireErrorsOnly(_ body: () throws -> Void) {
        do {
            try body()
        } catch is any WireError {
        } catch {
            Fuzz.fail("a loaded catalogue threw a non-wire error: \(error)")
        }
    }
}

_ = LabelTables.files
Fuzz.run { data, size in Fuzz.timed(data, size, AddressFormatsTarget.run) }
