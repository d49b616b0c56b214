import FmtCore
import FmtTesting
import Testing

@testable import AddressFormatting

/// Arabic script's comma (issue 14): text in Arabic script writes the layout's commas as `،` in every country,
/// decided as the local layout is, by `address.language` (its script subtag, else ICU's likely script) or by the
/// first letter of the values; Latin text keeps `, `.
@Suite struct ArabicScriptTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    func address(_ members: String, country: String, locale: String) throws -> JSONObject {
        try plugin.answer(#"{"op":"address","address":{\#(members),"country":"\#(country)"},"locale":"\#(locale)"}"#)
    }

    @Test(arguments: [
        ("ar", true), ("fa", true), ("ur", true), ("ps", true), ("ckb", true), ("sd", true), ("ug", true),
        ("pa-PK", true), ("pa-Arab", true), ("pa-PK-u-nu-latn", true), ("az-IR", true), ("ur-Aran", true),
        ("und-Arab", true), ("ar-EG", true),
        ("pa", false), ("az", false), ("ar-Latn", false), ("fa-Latn", false), ("en", false), ("ja", false),
        ("ku", false), ("he", false), ("zxx", false), ("qaa", false),
    ])
    func aLanguageIsArabicScriptByItsScriptSubtagElseICUsLikelyScript(tag: String, arabic: Bool) {
        #expect(ArabicScript.writes(LanguageTag(parsing: tag)!) == arabic, "\(tag)")
    }

    @Test func theCommasOfATemplateBecomeTheArabicCommaAndNothingElseChanges() throws {
        let template = try LineTemplate(parsing: "{city}, {district} {postalCode}")
        let arabic = template.replacingCommas(with: ArabicScript.comma)
        #expect(arabic.source == "{city}\u{060C} {district} {postalCode}")
        #expect(arabic.render { $0 == .district ? nil : $0.rawValue } == "city\u{060C} postalCode")
        let plain = try LineTemplate(parsing: "{postalCode} {city}")
        #expect(plain.replacingCommas(with: ArabicScript.comma) == plain)
    }

    /// Every country: the same street and city in Arabic letters and in Latin ones.
    @Test(arguments: ["SA", "AE", "IR", "PK", "MA", "EG", "JO", "DE", "FR", "US"])
    func arabicTextIsJoinedWithTheArabicCommaInEveryCountryAndLatinTextIsNot(country: String) throws {
        let arabic = try address(
            #""street":"شارع الملك فيصل","houseNumber":"7","city":"عمّان""#, country: country, locale: "en-\(country)")
        let oneLine = arabic.string("oneLine") ?? ""
        #expect(oneLine.contains("\u{060C} ") && !oneLine.contains(","), "\(country): \(oneLine)")
        let latin = try address(
            #""street":"King Faisal Street","houseNumber":"7","city":"Amman""#, country: country,
            locale: "en-\(country)")
        let latinLine = latin.string("oneLine") ?? ""
        #expect(latinLine.contains(", ") && !latinLine.contains("\u{060C}"), "\(country): \(latinLine)")
    }

    @Test func addressLanguageDecidesOverTheValues() throws {
        // Latin letters said to be Arabic script take the Arabic comma; Arabic letters said to be Latin do not.
        let saidArabic = try address(
            #""street":"Shari' al-Malik Faisal","houseNumber":"7","city":"Amman","language":"ar""#, country: "JO",
            locale: "en-JO")
        #expect(saidArabic.string("oneLine") == "Shari' al-Malik Faisal 7\u{060C} Amman")
        let saidLatin = try address(
            #""street":"شارع الملك فيصل","houseNumber":"7","city":"عمّان","language":"ar-Latn""#, country: "JO",
            locale: "en-JO")
        #expect(saidLatin.string("oneLine") == "شارع الملك فيصل 7, عمّان")
    }

    /// The country's name is in the viewer's language: joined with `، ` only when that language is Arabic script
    /// too, which no served language is.
    @Test func theCountryLineIsJoinedWithACommaToArabicText() throws {
        for locale in ["en", "nl", "de"] {
            let response = try address(
                #""street":"شارع الملك فيصل","houseNumber":"7","city":"عمّان""#, country: "JO", locale: locale)
            let oneLine = response.string("oneLine") ?? ""
            let country = response.strings("lines").last ?? ""
            #expect(oneLine.hasSuffix("\u{060C} عمّان, \(country)"), "\(locale): \(oneLine)")
        }
        #expect(!ArabicScript.writes(language: "en") && ArabicScript.writes(language: "ar"))
    }

    @Test func aCountryWithALatinLayoutTakesItForArabicTextWithTheArabicComma() throws {
        let response = try address(
            #""street":"شارع الملك فيصل","houseNumber":"7","city":"طوكيو","region":"طوكيو""#, country: "JP",
            locale: "en-JP")
        // Today's Latin layout writes the city and the prefecture after the street (`%A, %S`); the prefecture,
        // equal to the city, is printed once.
        #expect(response.strings("lines") == ["7 شارع الملك فيصل\u{060C} طوكيو"])
        #expect(response.string("oneLine") == "7 شارع الملك فيصل\u{060C} طوكيو")
    }
}
