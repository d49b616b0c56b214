import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// The local and Latin layouts (issue 14): which one an address takes, by `address.language` or by the script
/// of its first letter (ICU's Script property), and how `latin` and `local` are checked at load.
@Suite struct ScriptTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    func address(_ members: String, country: String = "JP") throws -> JSONObject {
        try plugin.answer(
            #"{"op":"address","address":{\#(members),"country":"\#(country)"},"locale":"en-\#(country)"}"#)
    }

    /// Latin layout of JP ends with the postcode line; the local one starts with it.
    func isLatin(_ response: JSONObject) -> Bool {
        response.strings("lines").first != "100-0005"
    }

    @Test(arguments: [
        ("ちよだ", false), ("チヨダ", false), ("千代田区", false), ("Chiyoda-ku", true), ("１２３ Chiyoda", true),
        ("123 千代田", false), ("Ｃｈｉｙｏｄａ", true), ("-- 3 --", false),
    ])
    func theFirstLetterOfTheCityDecides(city: String, latin: Bool) throws {
        // Without a letter in the city, the region (東京都) decides.
        let response = try address(#""postalCode":"1000005","region":"東京都","city":"\#(city)","street":"丸の内""#)
        #expect(isLatin(response) == latin, "\(response.strings("lines"))")
    }

    @Test func aFieldTheLayoutDoesNotShowDoesNotDecide() throws {
        // NL's seed layout shows no region: an Arabic-script region does not make the Latin street's commas Arabic
        // (the street decides), and the region is listed with a `field_not_used` warning instead of lines.
        let response = try address(
            #""street":"Herengracht","houseNumber":"1","postalCode":"1017 CD","region":"شمال هولندا""#, country: "NL")
        #expect(response.strings("lines") == ["Herengracht 1", "1017 CD"])
        #expect(response.string("oneLine") == "Herengracht 1, 1017 CD")
        #expect(response.warningCodes.contains("field_not_used"))
    }

    @Test(arguments: [
        ("ja", false), ("ja-JP", false), ("ja-Latn", true), ("und-Jpan", false), ("und-Hira", false),
        ("en", true), ("en-Jpan", false), ("zh-Hant", false), ("ko", true), ("ja-Cyrl", true),
    ])
    func addressLanguageDecidesByItsScriptElseItsLanguage(language: String, latin: Bool) throws {
        let response = try address(
            #""postalCode":"1000005","region":"東京都","city":"千代田区","street":"丸の内","language":"\#(language)""#)
        #expect(isLatin(response) == latin, "\(language): \(response.strings("lines"))")
        let tag = LanguageTag(parsing: language)!.description
        #expect(response.strings("linesLang") == Array(repeating: tag, count: response.strings("lines").count))
    }

    /// Hong Kong: the area first and the number after the street in Chinese; in English the number first and
    /// the area last, as Hongkong Post writes each.
    @Test func hongKongWritesChineseFromTheAreaDownAndEnglishFromTheBuildingUp() throws {
        let chinese = try address(#""region":"九龍","street":"彌敦道","houseNumber":"405號""#, country: "HK")
        #expect(chinese.strings("lines") == ["九龍", "彌敦道405號"])
        #expect(chinese.string("oneLine") == "九龍彌敦道405號")
        let english = try address(#""region":"Kowloon","street":"Nathan Road","houseNumber":"405""#, country: "HK")
        #expect(english.strings("lines") == ["405 Nathan Road", "Kowloon"])
        #expect(english.string("oneLine") == "405 Nathan Road, Kowloon")
    }

    @Test func theLatinLayoutOrdersTheFieldsItsOwnWay() throws {
        let response = try address(
            #""postalCode":"1000005","region":"Tokyo","city":"Chiyoda-ku","street":"Marunouchi""#)
        let fields = (response["fields"]?.arrayValue ?? []).compactMap { $0.objectValue?["field"]?.stringValue }
        #expect(fields == ["street", "city", "region", "postalCode", "country"])
        let local = try address(#""postalCode":"1000005","region":"東京都","city":"千代田区","street":"丸の内""#)
        let localFields = (local["fields"]?.arrayValue ?? []).compactMap { $0.objectValue?["field"]?.stringValue }
        #expect(localFields == ["postalCode", "region", "city", "street", "country"])
    }

    static let japan = """
        {"formats": {"JP": {
          "lines": ["{postalCode}", "{region}{city}", "{street}"], "oneLine": "{postalCode}{region}{city}{street}",
          "latin": {"lines": ["{street}", "{city}, {region}", "{postalCode}"],
                    "oneLine": "{street}, {city}, {region}, {postalCode}"},
          "local": {"languages": ["ja"], "scripts": ["Hani", "Hira", "Kana"]},
          "labels": {"postalCode": "address.field.postal_code", "region": "address.field.prefecture",
                     "city": "address.field.city", "street": "address.field.street"},
          "example": {"postalCode": "100-0005", "region": "東京都"}
        }}}
        """

    @Test func aLocalFileWithBothLayoutsServesBoth() throws {
        let local = try TemporaryDirectory()
        try local.write("address-formats.d/jp.json", Self.japan)
        let plugin = try loadPlugin(AddressPlugin.self, configDirectory: local.path)
        let kanji = try plugin.answer(
            #"{"op":"address","address":{"postalCode":"100-0005","region":"東京都","city":"千代田区","street":"丸の内","#
                + #""country":"JP"},"locale":"en-JP"}"#)
        #expect(kanji.strings("lines") == ["100-0005", "東京都千代田区", "丸の内"])
        let romaji = try plugin.answer(
            #"{"op":"address","address":{"postalCode":"100-0005","region":"Tokyo","city":"Chiyoda-ku","#
                + #""street":"Marunouchi","country":"JP"},"locale":"en-JP"}"#)
        #expect(romaji.strings("lines") == ["Marunouchi", "Chiyoda-ku, Tokyo", "100-0005"])
        #expect(romaji.string("oneLine") == "Marunouchi, Chiyoda-ku, Tokyo, 100-0005")
    }

    @Test(arguments: [
        (
            #""local": {"languages": ["ja"], "scripts": ["Hani", "Hira", "Kana"]},"#, "", "formats.JP.local",
            "is required"
        ),
        (#""latin": {"#, #""latin": {"bogus": 1, "#, "formats.JP.latin.bogus", "is not a member of latin"),
        (#""{street}", "{city}, {region}""#, #""{city}, {region}""#, "formats.JP.latin.lines", "same fields"),
        (
            #""scripts": ["Hani", "Hira", "Kana"]"#, #""scripts": ["Hani", "Xyzw"]"#, "formats.JP.local.scripts[1]",
            "is not a script ICU knows"
        ),
        (#""scripts": ["Hani", "Hira", "Kana"]"#, #""scripts": []"#, "formats.JP.local.scripts", "non-empty"),
        (#""languages": ["ja"]"#, #""languages": ["JA"]"#, "formats.JP.local.languages[0]", "lower-case"),
        (#""languages": ["ja"], "#, "", "formats.JP.local.languages", "non-empty"),
    ])
    func aMalformedLatinOrLocalIsRefusedNamingTheMember(
        original: String, replacement: String, field: String, problem: String
    ) throws {
        let local = try TemporaryDirectory()
        let text = Self.japan.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.japan)
        try local.write("address-formats.d/jp.json", text)
        #expect {
            try loadPlugin(AddressPlugin.self, configDirectory: local.path)
        } throws: { error in
            guard let error = error as? DataError else { return false }
            return error.field == field && error.problem.contains(problem)
        }
    }

    /// `addressFormat`'s `language` picks the layout by `address.language`'s rule, for every country with two;
    /// `layoutScript` says which, and only there.
    @Test func addressFormatDescribesTheLayoutItsLanguagePicks() throws {
        let formats =
            try DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
            .readJSON("address-formats.json").objectValue?["formats"]?.objectValue ?? [:]
        for entry in formats where entry.key != "default" {
            let (key, format) = (entry.key, entry.value)
            func described(_ language: String?) throws -> JSONObject {
                let member = language.map { #","language":"\#($0)""# } ?? ""
                return try plugin.answer(#"{"op":"addressFormat","country":"\#(key)"\#(member),"locale":"en"}"#)
            }
            let lines = format.objectValue?["lines"]
            guard let latin = format.objectValue?["latin"]?.objectValue else {
                for language in [nil, "en", "ja-Latn"] {
                    let response = try described(language)
                    #expect(response["layoutScript"] == nil, "\(key)")
                    #expect(response["layout"] == lines, "\(key)")
                }
                continue
            }
            let local = format.objectValue?["local"]?.objectValue?["languages"]?.arrayValue?.first?.stringValue ?? ""
            for language in [nil, local] {
                let response = try described(language)
                #expect(response.string("layoutScript") == "local", "\(key) \(language ?? "-")")
                #expect(response["layout"] == lines, "\(key)")
            }
            for language in ["\(local)-Latn", "en"] {
                let response = try described(language)
                #expect(response.string("layoutScript") == "latin", "\(key) \(language)")
                #expect(response["layout"] == latin["lines"], "\(key)")
                #expect(response["oneLine"] == latin["oneLine"], "\(key)")
                let address = response["example"]?.objectValue?["address"]?.objectValue
                #expect(address?["language"]?.stringValue == LanguageTag(parsing: language)?.description)
            }
        }
    }

    @Test(arguments: ["ja__JP", "ja-", String(repeating: "a", count: 8) + String(repeating: "-abcdefgh", count: 7)])
    func addressFormatChecksItsLanguageAsAddressLanguageIs(language: String) throws {
        func error(_ request: JSONObject) throws -> (any WireError)? {
            do {
                _ = try plugin.handle(Request(.object(request)))
                return nil
            } catch let error as any WireError {
                return error
            }
        }
        let format = try error(["op": "addressFormat", "country": "JP", "language": .string(language)])
        let address = try error([
            "op": "address", "address": ["city": "Tokyo", "language": .string(language), "country": "JP"],
        ])
        #expect(format?.code == "invalid_field" && format?.field == "language", "\(language)")
        #expect(address?.code == "invalid_field" && address?.field == "address.language", "\(language)")
        #expect(format?.message == address?.message)
    }

    @Test func aBlankAddressFormatLanguageIsNotGiven() throws {
        let response = try plugin.answer(#"{"op":"addressFormat","country":"JP","language":"  "}"#)
        #expect(response.string("layoutScript") == "local")
        #expect(response["example"]?.objectValue?["address"]?.objectValue?["language"] == nil)
    }

    @Test func everyFormatWithALatinLayoutKnowsWhatIsLocal() throws {
        let formats =
            try DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
            .readJSON("address-formats.json").objectValue?["formats"]?.objectValue ?? [:]
        let withLatin = formats.filter { $0.value.objectValue?["latin"] != nil }.map(\.key).sorted()
        #expect(withLatin == ["CN", "HK", "JP", "KP", "KR", "MO", "TH", "TW"])
        for key in withLatin {
            #expect(formats[key]?.objectValue?["local"] != nil, "\(key)")
        }
    }
}
