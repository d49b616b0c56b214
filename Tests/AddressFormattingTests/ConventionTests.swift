import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// Each country's convention from issue 3, checked against libaddressinput's region data, OpenCage's test
/// cases and the postal operators' rules.
@Suite struct ConventionTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    func lines(_ address: String, locale: String = "en", viewer: String? = nil) throws -> [String] {
        let viewerMember = viewer.map { #","viewerRegion":"\#($0)""# } ?? ""
        let response = try plugin.answer(
            #"{"op":"address","address":\#(address),"locale":"\#(locale)"\#(viewerMember)}"#)
        return response.strings("lines")
    }

    @Test func netherlandsPutsStreetBeforeNumberAndPostcodeBeforeCity() throws {
        let result = try lines(
            #"{"organization":"Rijksmuseum","name":"Anna de Vries","street":"Museumstraat","houseNumber":"1","#
                + #""postalCode":"1071xx","city":"Amsterdam","region":"Noord-Holland","country":"NL"}"#,
            locale: "nl-NL")
        #expect(result == ["Rijksmuseum", "Anna de Vries", "Museumstraat 1", "1071 XX Amsterdam"])
    }

    @Test func belgiumKeepsBoxNumbersAsEnteredAndNeverPrintsTheRegion() throws {
        let result = try lines(
            #"{"street":"Rue de la Loi","houseNumber":"16 bte 3","postalCode":"1000","city":"Bruxelles","#
                + #""region":"Bruxelles-Capitale","country":"BE"}"#,
            locale: "nl-BE")
        #expect(result == ["Rue de la Loi 16 bte 3", "1000 Bruxelles"])
    }

    @Test func germanyPutsNameAboveOrganizationAndCareOfAboveTheStreet() throws {
        let result = try lines(
            #"{"name":"Max Mustermann","organization":"Musterfirma GmbH","extra":"c/o Sabine Beispiel","#
                + #""street":"Hauptstraße","houseNumber":"5a","postalCode":"53225","city":"Bonn","country":"DE"}"#,
            locale: "de-DE")
        #expect(
            result == ["Max Mustermann", "Musterfirma GmbH", "c/o Sabine Beispiel", "Hauptstraße 5a", "53225 Bonn"])
    }

    @Test func britainPutsNumberFirstAndTownAndPostcodeOnTheirOwnLines() throws {
        let result = try lines(
            #"{"extra":"Flat 2, Willoughby House","houseNumber":"12","street":"Moor Lane","city":"London","#
                + #""postalCode":"ec2y9dp","region":"Greater London","country":"GB"}"#,
            locale: "en-GB")
        #expect(result == ["Flat 2, Willoughby House", "12 Moor Lane", "London", "EC2Y 9DP"])
    }

    @Test func unitedStatesWritesCityCommaStateCodeAndZip() throws {
        let result = try lines(
            #"{"houseNumber":"301","street":"Hamilton Avenue","city":"Palo Alto","region":"California","#
                + #""postalCode":"94303 1234","country":"US"}"#,
            locale: "en-US")
        #expect(result == ["301 Hamilton Avenue", "Palo Alto, CA 94303-1234"])
    }

    /// The Canary Islands (IC) are a territory ICU knows and libaddressinput has no record for, like CP, DG and EA.
    @Test func territoriesWithoutAFormatGetTheDefaultLayoutAndTheFormatSaysSo() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"street":"Calle Triana","houseNumber":"45","postalCode":"35002","#
                + #""city":"Las Palmas de Gran Canaria","region":"Las Palmas","country":"IC"},"locale":"en-ES"}"#)
        #expect(response.string("format") == "default")
        #expect(
            response.strings("lines") == [
                "Calle Triana 45", "35002 Las Palmas de Gran Canaria", "Las Palmas", "Canary Islands",
            ])
        let countries = (plugin.dataInfo["countries"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(countries.count == 252)
        #expect(countries.contains("AT") && !countries.contains("IC"))
    }

    @Test func emptyFieldsLeaveNoBlankLineAndNoStraySeparator() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"name":"","organization":"  ","houseNumber":"301","street":"Hamilton Avenue","#
                + #""city":"Palo Alto","postalCode":"94303","country":"US"},"locale":"en-US"}"#)
        #expect(response.strings("lines") == ["301 Hamilton Avenue", "Palo Alto, 94303"])
        #expect(response.string("oneLine") == "301 Hamilton Avenue, Palo Alto, 94303")
        #expect(!response.strings("lines").contains(""))
    }

    @Test func countryLineFollowsTheViewerRegion() throws {
        let address =
            #"{"street":"Herengracht","houseNumber":"573","postalCode":"1017 CD","city":"Amsterdam","country":"NL"}"#
        #expect(try lines(address, locale: "nl-NL").last == "1017 CD Amsterdam")
        #expect(try lines(address, locale: "nl-BE").last == "Nederland")
        #expect(try lines(address, locale: "de-BE", viewer: "NL").last == "1017 CD Amsterdam")
        #expect(try lines(address, locale: "nl-NL", viewer: "DE").last == "Nederland")
        #expect(try lines(address, locale: "de").last == "Niederlande")
    }

    @Test func mismatchingPostcodeIsAWarningNotAnError() throws {
        let response = try plugin.answer(
            #"{"op":"address","address":{"houseNumber":"10","street":"Downing Street","city":"London","#
                + #""postalCode":"12345","country":"GB"},"locale":"en-GB"}"#)
        #expect(response.strings("lines") == ["10 Downing Street", "London", "12345"])
        #expect(response.warningCodes == ["postal_code_format"])
    }

    @Test func malformedCountryAndNonStringFieldsAreInvalidField() throws {
        let badCountry = CoreError.invalidField(
            "address.country", message: "\"BEL\" is not an ISO 3166-1 alpha-2 country code (e.g. BE).")
        #expect(throws: badCountry) {
            try plugin.answer(#"{"op":"address","address":{"country":"BEL"}}"#)
        }
        let numberAsHouseNumber = CoreError.invalidField(
            "address.houseNumber", message: "The field \"address.houseNumber\" must be a string, got number.")
        #expect(throws: numberAsHouseNumber) {
            try plugin.answer(#"{"op":"address","address":{"houseNumber":16,"country":"BE"}}"#)
        }
    }
}

/// How the members of `address` are read: the last of a name wins, `null` and blank values are absent, members
/// of no known name are ignored, and a failure names the first field in `AddressField.allCases` order that is
/// not a string, before the country's and `language`'s failures.
@Suite struct AddressMemberTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    func lines(_ address: String) throws -> [String] {
        try plugin.answer(#"{"op":"address","address":\#(address),"locale":"en","viewerRegion":"NL"}"#).strings("lines")
    }

    func notAString(_ field: String, got type: String) -> CoreError {
        .invalidField("address.\(field)", message: "The field \"address.\(field)\" must be a string, got \(type).")
    }

    @Test func theLastMemberOfANameWinsAndNullOrBlankIsAbsent() throws {
        #expect(try lines(#"{"city":"Utrecht","country":"NL","city":"Gouda"}"#) == ["Gouda"])
        #expect(try lines(#"{"city":7,"city":"Gouda","country":"NL"}"#) == ["Gouda"])
        #expect(try lines(#"{"city":"Utrecht","city":null,"street":"Markt","country":"NL"}"#) == ["Markt"])
        #expect(try lines(#"{"street":" \t","city":"Gouda","country":"NL","country":"NL"}"#) == ["Gouda"])
        #expect(try lines(#"{"colour":"red","city":"Gouda","country":"NL","sortingCode":"  "}"#) == ["Gouda"])
        #expect(try lines(#"{"country":"NL","language":null,"city":"Gouda"}"#) == ["Gouda"])
    }

    @Test func theFirstFieldInFieldOrderFailsBeforeTheCountryAndTheLanguage() throws {
        #expect(throws: notAString("street", got: "number")) {
            try plugin.answer(#"{"op":"address","address":{"country":5,"city":true,"street":7}}"#)
        }
        #expect(throws: notAString("city", got: "boolean")) {
            try plugin.answer(#"{"op":"address","address":{"language":5,"city":true,"sortingCode":[]}}"#)
        }
        #expect(throws: notAString("city", got: "number")) {
            try plugin.answer(#"{"op":"address","address":{"city":"Gouda","city":7,"country":"NL"}}"#)
        }
        #expect(throws: notAString("country", got: "number")) {
            try plugin.answer(#"{"op":"address","address":{"city":"Gouda","country":5,"language":5}}"#)
        }
        #expect(throws: notAString("language", got: "number")) {
            try plugin.answer(#"{"op":"address","address":{"city":"Gouda","country":"NL","language":5}}"#)
        }
        #expect(
            throws: CoreError.invalidField(
                "address.country",
                message: "The field \"address.country\" is required: an ISO 3166-1 alpha-2 code (e.g. BE).")
        ) {
            try plugin.answer(#"{"op":"address","address":{"city":"Gouda"}}"#)
        }
    }

    @Test func viewerRegionIsReadAsARegionAndRefusedAsOne() throws {
        let address = #""address":{"city":"Gouda","country":"NL"}"#
        let shown = try plugin.answer(#"{"op":"address",\#(address),"locale":"en","viewerRegion":"nl"}"#)
        #expect(shown.strings("lines") == ["Gouda"])
        let abroad = try plugin.answer(#"{"op":"address",\#(address),"locale":"en-NL","viewerRegion":"uk"}"#)
        #expect(abroad.strings("lines") == ["Gouda", "Netherlands"])
        #expect(
            try plugin.answer(#"{"op":"address",\#(address),"locale":"en-NL","viewerRegion":null}"#)
                .strings("lines") == ["Gouda"])
        #expect(
            throws: CoreError.invalidField(
                "viewerRegion", message: "\"NLD\" is not an ISO 3166-1 alpha-2 country code (e.g. NL).")
        ) {
            try plugin.answer(#"{"op":"address",\#(address),"viewerRegion":"NLD"}"#)
        }
        #expect(
            throws: CoreError.invalidField(
                "viewerRegion", message: "The field \"viewerRegion\" must be a string, got number.")
        ) {
            try plugin.answer(#"{"op":"address",\#(address),"viewerRegion":31}"#)
        }
    }
}

/// The issue's invariant over every combination of given fields: no blank line, no dangling separator.
@Suite struct EmptyFieldTests {
    static let values: [(String, String)] = [
        ("name", "N"), ("organization", "O"), ("extra", "E"), ("street", "S"), ("houseNumber", "1"),
        ("postalCode", "x"), ("city", "C"), ("region", "R"),
    ]

    @Test(arguments: ["NL", "BE", "DE", "GB", "US", "AT"])
    func noCombinationOfEmptyFieldsLeavesABlankLineOrAStraySeparator(country: String) throws {
        let plugin = try loadPlugin(AddressPlugin.self)
        for mask in 0..<(1 << Self.values.count) {
            let members = Self.values.enumerated().map { index, pair in
                #""\#(pair.0)":"\#(mask & (1 << index) != 0 ? pair.1 : "")""#
            }
            let response = try plugin.answer(
                #"{"op":"address","address":{\#(members.joined(separator: ",")),"country":"\#(country)"}}"#)
            for text in response.strings("lines") + [response.string("oneLine") ?? ""] where !text.isEmpty {
                #expect(text.first?.isLetter == true || text.first?.isNumber == true, "\(country) \(mask): \(text)")
                #expect(text.last?.isLetter == true || text.last?.isNumber == true, "\(country) \(mask): \(text)")
                #expect(!text.contains("  ") && !text.contains(", ,") && !text.contains(",,"), "\(text)")
            }
            #expect(!response.strings("lines").contains(""))
        }
    }
}
