import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// `address`'s `linesDir` and `valueDir` (the first strong character of each line and value) and
/// `spokenPostalCode`, added after the members that were there before.
@Suite struct DirectionAndSpokenTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    func directions(_ response: JSONObject) -> [String: String] {
        var found: [String: String] = [:]
        for entry in response["fields"]?.arrayValue ?? [] {
            guard let field = entry.objectValue?["field"]?.stringValue else { continue }
            found[field] = entry.objectValue?["valueDir"]?.stringValue
        }
        return found
    }

    @Test func anArabicAddressInEgyptHasRtlLinesAnLtrCountryLineAndAnAutoPostalCodeLine() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"street":"شارع التحرير","houseNumber":"15","city":"القاهرة","#
                + #""postalCode":"11511","country":"EG","language":"ar"},"locale":"en"}"#)
        #expect(response["lines"] == ["15 شارع التحرير", "القاهرة", "11511", "Egypt"])
        #expect(response["linesDir"] == ["rtl", "rtl", "auto", "ltr"])
        #expect(response["linesLang"] == ["ar", "ar", "ar", "en"])
        #expect(
            directions(response) == [
                "street": "rtl", "houseNumber": "auto", "city": "rtl", "postalCode": "auto", "country": "ltr",
            ])
    }

    @Test func aHebrewAddressInIsraelHasRtlLinesAndAnLtrCountryLine() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"street":"רחוב הרצל","houseNumber":"12","city":"תל אביב","#
                + #""postalCode":"6100000","country":"IL","language":"he"},"locale":"en"}"#)
        #expect(response["lines"] == ["רחוב הרצל 12", "תל אביב 6100000", "Israel"])
        #expect(response["linesDir"] == ["rtl", "rtl", "ltr"])
        #expect(
            directions(response) == [
                "street": "rtl", "houseNumber": "auto", "city": "rtl", "postalCode": "auto", "country": "ltr",
            ])
        #expect(response["spokenPostalCode"] == "six one zero zero zero zero zero")
    }

    @Test func linesDirIsParallelToLinesWhenAValueHasLineBreaksAndEscapes() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"street":"שלום\n\"12\"\nMain","city":"\\1","country":"US"},"locale":"en"}"#)
        let lines = try #require(response["lines"]?.arrayValue)
        let directions = try #require(response["linesDir"]?.arrayValue)
        #expect(lines.count == directions.count)
        for (line, direction) in zip(lines, directions) {
            #expect(direction.stringValue == TextDirection.of(line.stringValue ?? "").rawValue, "\(line)")
        }
        #expect(directions.prefix(3) == ["rtl", "auto", "ltr"])
    }

    @Test func linesDirAndValueDirAgreeWithTheFirstStrongRuleOnRandomValues() throws {
        var generator = SeededGenerator.forTest(
            "linesDirAndValueDirAgreeWithTheFirstStrongRuleOnRandomValues", seed: 3_535)
        // Quotes and backslashes (escaped in the answer), digits, Latin, Hebrew, Arabic and neutral characters.
        let pieces = ["\"", "\\", "\\\"", "1", "7", "a", "Z", "ש", "ع", " ", "-", "\n", "٣", "é"]
        for _ in 0..<300 {
            func value() -> String {
                String(
                    (0..<Int.random(in: 1...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                        .joined())
            }
            let address: JSONObject = [
                "street": .string(value()), "city": .string(value()), "postalCode": .string(value()), "country": "IL",
            ]
            let request: JSONObject = ["op": "address", "address": .object(address), "locale": "en"]
            let response = try plugin.answer(JSONWriter.string(.object(request)))
            let lines = try #require(response["lines"]?.arrayValue)
            let directions = try #require(response["linesDir"]?.arrayValue)
            #expect(lines.count == directions.count)
            for (line, direction) in zip(lines, directions) {
                #expect(direction.stringValue == TextDirection.of(line.stringValue ?? "").rawValue, "\(line)")
            }
            for entry in response["fields"]?.arrayValue ?? [] {
                let value = entry.objectValue?["value"]?.stringValue ?? ""
                #expect(entry.objectValue?["valueDir"]?.stringValue == TextDirection.of(value).rawValue, "\(value)")
            }
        }
    }

    @Test func theNewMembersComeAfterTheOnesThatWereThere() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"street":"Herengracht","houseNumber":"573","postalCode":"1017CD","#
                + #""city":"Amsterdam","country":"NL"},"locale":"de"}"#)
        #expect(
            response.keys == [
                "lang", "country", "format", "lines", "linesLang", "oneLine", "fields", "warnings", "linesDir",
                "spokenPostalCode",
            ])
        #expect(
            response["fields"]?.arrayValue?.first?.objectValue?.keys == [
                "field", "label", "value", "valueLang", "valueDir",
            ])
        #expect(response["spokenPostalCode"] == "eins null eins sieben, C D")
    }

    @Test func aPostalCodeOfAtMostFourDigitsIsNotReadAloud() throws {
        for (code, country) in [("1000", "BE"), ("8010", "AT")] {
            let response = try plugin.answer(
                #"{"op":"address","address":{"street":"Rue de la Loi","houseNumber":"16","postalCode":""#
                    + code + #"","city":"X","country":""# + country + #""},"locale":"nl"}"#)
            #expect(response["spokenPostalCode"] == nil, "\(code)")
            #expect(response["linesDir"] != nil)
        }
        let none = try plugin.answer(#"{"op":"address","address":{"city":"Utrecht","country":"NL"},"locale":"nl"}"#)
        #expect(none["spokenPostalCode"] == nil)
    }

    @Test func thePostalCodeIsReadInTheViewersLanguage() throws {
        for (locale, spoken) in [
            ("en-GB", "one zero one seven, C D"), ("nl", "een nul een zeven, C D"),
            ("de-CH", "eins null eins sieben, C D"),
            ("fr", "one zero one seven, C D"),
        ] {
            let response = try plugin.answer(
                #"{"op":"address","address":{"postalCode":"1017 cd","city":"Amsterdam","country":"NL"},"locale":""#
                    + locale + #""}"#)
            #expect(response["spokenPostalCode"]?.stringValue == spoken, "\(locale)")
        }
    }
}
