import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// Nothing entered is lost (issue 30): with every field filled, in every country and territory and in each of
/// its layouts, each value is printed in `lines` and listed in `fields`; a format with no place for a field
/// (a seed format or `default` only) says so with a `field_not_used` warning naming it.
@Suite struct EveryFieldShownTests {
    static let plugin = Result { try loadPlugin(AddressPlugin.self) }
    static let seeds: Set<String> = ["NL", "BE", "DE", "GB", "US"]

    /// One address with every field filled: the format's own example postal code and region (so the rules
    /// confirm them), distinct Latin text elsewhere.
    static func address(_ country: String, language: String?) throws -> JSONValue {
        let plugin = try plugin.get()
        let described = try plugin.answer(#"{"op":"addressFormat","country":"\#(country)","locale":"en"}"#)
        let example = described["example"]?.objectValue?["address"]?.objectValue ?? [:]
        var members: JSONObject = [
            "name": "Ana Quintero", "organization": "Orbital Looms", "street": "Vesper Lane", "houseNumber": "47",
            "extra": "Flat 9", "postalCode": example["postalCode"] ?? "40417", "city": "Kestrelford",
            "region": example["region"] ?? "Marrowdale", "district": "Tillbrook", "sortingCode": "CEDEX 5",
            "country": .string(country),
        ]
        if let language { members["language"] = .string(language) }
        return .object(members)
    }

    @Test func everyEnteredFieldIsInLinesAndFieldsInEveryCountry() throws {
        let plugin = try Self.plugin.get()
        let countries = (plugin.dataInfo["countries"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(countries.count >= 252)
        for country in countries {
            try check(country, plugin)
        }
    }

    func check(_ country: String, _ plugin: AddressPlugin) throws {
        let formats = try plugin.answer(
            #"{"op":"addressFormat","country":"\#(country)","locale":"en","language":"ko"}"#)
        // Each layout: the Latin one (Latin values), and the local one where the format has one (by language).
        var languages: [String?] = [nil]
        if formats["layoutScript"] != nil {
            let local = try plugin.answer(#"{"op":"addressFormat","country":"\#(country)","locale":"en"}"#)
            #expect(local.string("layoutScript") == "local", "\(country)")
            languages.append(Self.localLanguage[country] ?? "und-Hani")
        }
        for language in languages {
            let request: JSONValue = ["op": "address", "address": try Self.address(country, language: language)]
            let answer = try plugin.handle(Request(request))
            let lines = answer.strings("lines")
            let listed = (answer["fields"]?.arrayValue ?? []).compactMap(\.objectValue)
            let notUsed = Set(
                (answer["warnings"]?.arrayValue ?? []).compactMap(\.objectValue)
                    .filter { $0["code"] == "field_not_used" }.compactMap { $0["field"]?.stringValue })
            for field in AddressField.allCases {
                let entry = listed.first { $0["field"]?.stringValue == field.rawValue }
                let value = entry?["value"]?.stringValue ?? ""
                #expect(!value.isEmpty, "\(country) \(language ?? "-"): \(field) is not in fields: \(listed)")
                let printed = !value.isEmpty && lines.contains { $0.contains(value) }
                #expect(
                    printed || notUsed.contains(field.rawValue),
                    "\(country) \(language ?? "-"): \(field) \"\(value)\" is neither in \(lines) nor warned")
                // A generated format shows every field but the sorting code, which only some countries have.
                if !Self.seeds.contains(country), field != .sortingCode {
                    #expect(!notUsed.contains(field.rawValue), "\(country): a generated format shows \(field)")
                }
            }
        }
    }

    /// The language that makes an address local in the countries with a local layout.
    static let localLanguage = [
        "CN": "zh", "HK": "zh", "MO": "zh", "TW": "zh", "JP": "ja", "KR": "ko", "KP": "ko", "TH": "th",
    ]

    @Test func aSeedFormatListsAndWarnsAboutTheFieldsItHasNoPlaceFor() throws {
        let plugin = try Self.plugin.get()
        let answer = try plugin.handle(
            Request(["op": "address", "address": try Self.address("DE", language: nil), "locale": "de-DE"]))
        #expect(answer.strings("lines").joined(separator: "\n").contains("Marrowdale") == false)
        let warned = (answer["warnings"]?.arrayValue ?? []).compactMap(\.objectValue)
            .filter { $0["code"] == "field_not_used" }.compactMap { $0["field"]?.stringValue }
        #expect(warned == ["region", "district", "sortingCode"])
        let listed = (answer["fields"]?.arrayValue ?? []).compactMap { $0.objectValue?["field"]?.stringValue }
        #expect(Array(listed.suffix(4)) == ["region", "district", "sortingCode", "country"])
    }
}

/// `addressFormat`'s example (issue 30): in every country a whole address, not a postal code alone, in the
/// described layout's own script.
@Suite struct ExampleAddressTests {
    @Test func everyExampleHasAStreetNumberAndTownInItsLayoutsScript() throws {
        let plugin = try loadPlugin(AddressPlugin.self)
        let countries = (plugin.dataInfo["countries"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(countries.count >= 252)
        for country in countries {
            for language in [nil, "en"] as [String?] {
                let member = language.map { #","language":"\#($0)""# } ?? ""
                let described = try plugin.answer(
                    #"{"op":"addressFormat","country":"\#(country)","locale":"en"\#(member)}"#)
                let example = described["example"]?.objectValue?["address"]?.objectValue ?? [:]
                for field in ["street", "houseNumber", "city"] {
                    #expect(example[field]?.stringValue?.isEmpty == false, "\(country): no \(field) in \(example)")
                }
                if described["postalCode"] != .null {
                    #expect(example["postalCode"] != nil, "\(country): the rule's example code")
                }
                let lines = described["example"]?.objectValue?["lines"]?.arrayValue ?? []
                #expect(lines.count >= 2, "\(country): \(lines)")
                if described.string("layoutScript") == "latin" {
                    let letters = example.members.compactMap(\.value.stringValue).joined().unicodeScalars
                        .filter(\.properties.isAlphabetic)
                    #expect(letters.allSatisfy { $0.value <= 0x24F }, "\(country): the Latin example \(example)")
                }
            }
        }
    }
}
