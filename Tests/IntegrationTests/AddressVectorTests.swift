import FmtCore
import FmtTesting
import Foundation
import Testing

/// `data/vectors/address-format.json` through the real daemon over its socket, and the reload of
/// `address-formats.d/` as an operator does it: drop a file in, send SIGHUP.
@Suite struct AddressVectorTests {
    @Test(arguments: try Vectors.files("address"))
    func everyAddressVectorMatchesOverTheSocket(file: String) throws {
        let daemon = try Daemon.start()
        let vectors = try Vectors.cases(file)
        // Each file's own floor, so that losing cases from any of them fails.
        let minimum = [
            "vectors/address-format.json": 180, "vectors/address-countries.json": 240,
            "vectors/address-validation.json": 35,
        ]
        #expect(vectors.count >= minimum[file, default: 30], "\(file)")
        for (index, vector) in vectors.enumerated() {
            var request = vector["request"]?.objectValue ?? [:]
            request["id"] = .number(JSONNumber(index))
            let response = try daemon.requestObject(JSONWriter.string(.object(request)))
            let source = vector["source"]?.stringValue ?? "case \(index)"
            #expect(response["id"] == .number(JSONNumber(index)), "\(source)")
            if let expected = vector["response"]?.objectValue {
                #expect(response["ok"] == true, "\(source): \(response)")
                for member in expected {
                    #expect(response[member.key] == member.value, "\(member.key) for \(source)")
                }
            } else if let expected = vector["error"]?.objectValue {
                #expect(response["ok"] == false, "\(source)")
                let error = response["error"]?.objectValue ?? [:]
                #expect(error["code"] == expected["code"], "\(source): \(error)")
                #expect(error["field"] == expected["field"], "\(source): \(error)")
            }
        }
    }

    @Test func aCountryDroppedIntoAddressFormatsDServesAfterSIGHUPAndABrokenOneKeepsIt() throws {
        let config = try Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: config) }
        let daemon = try Daemon.start(configDirectory: config)
        // The Canary Islands: ICU knows the territory, the shipped data has no format for it.
        let request =
            #"{"op":"address","address":{"houseNumber":"45","street":"Calle Triana","postalCode":"35002","#
            + #""city":"Las Palmas de Gran Canaria","country":"IC"},"locale":"en-IC"}"#
        #expect(try daemon.requestObject(request)["format"] == "default")

        let directory = config + "/address-formats.d"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let canaries = """
            {"formats": {"IC": {
              "lines": ["{name}", "{street}, {houseNumber}", "{postalCode} {city}"],
              "oneLine": "{street}, {houseNumber}, {postalCode} {city}",
              "labels": {"name": "address.field.name", "houseNumber": "address.field.house_number",
                         "street": "address.field.street", "postalCode": "address.field.postal_code",
                         "city": "address.field.city"},
              "example": {"street": "Calle Triana", "houseNumber": "45", "postalCode": "35002",
                          "city": "Las Palmas de Gran Canaria"}
            }}}
            """
        try canaries.write(toFile: directory + "/ic.json", atomically: true, encoding: .utf8)
        try daemon.reload()
        let added = try daemon.requestObject(request)
        #expect(added["format"] == "IC")
        #expect(added["lines"] == ["Calle Triana, 45", "35002 Las Palmas de Gran Canaria"])

        try #"{"formats": {"IC": {"lines": ["{rue}"]}}}"#.write(
            toFile: directory + "/zz.json", atomically: true, encoding: .utf8)
        try daemon.reload()
        #expect(try daemon.requestObject(request)["format"] == "IC")
        let reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        let lastError = reloads["lastError"]?.stringValue ?? ""
        #expect(lastError.contains(directory + "/zz.json"), "\(reloads)")
        #expect(lastError.contains("formats.IC.lines[0]"), "\(reloads)")
    }
}

/// `fmtq address` as a new user meets it: a country's format, then an address formatted.
@Suite struct AddressCommandTests {
    @Test func fmtqAddressCountryPrintsTheFormatWithLabelsLayoutAndExample() throws {
        let daemon = try Daemon.start()
        let result = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "address", "--country", "BE", "--locale", "nl"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("België (BE): format BE\n"))
        #expect(result.stdout.contains("  Straat            street (required)\n"))
        #expect(result.stdout.contains("  <Straat> <Huisnummer>\n  <Postcode> <Plaats>\n"))
        #expect(result.stdout.contains("One line: <Extra adresregel>, <Straat> <Huisnummer>, <Postcode> <Plaats>\n"))
        #expect(result.stdout.contains("Example:\n  Vrijheidstraat 63\n  2000 Antwerpen\n  België\n"))
    }

    @Test func fmtqAddressWithFieldFlagsPrintsTheLinesAndWarnings() throws {
        let daemon = try Daemon.start()
        let formatted = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "address", "--country", "nl", "--street", "Herengracht",
                "--house-number", "573", "--postal-code", "1017cd", "--city", "Amsterdam", "--locale", "de-DE",
            ])
        #expect(formatted.status == 0, "\(formatted.stderr)")
        #expect(
            formatted.stdout
                == "Herengracht 573\n1017 CD Amsterdam\nNiederlande\npostal code read aloud: eins null eins sieben, C D\n"
        )

        let flagged = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "address", "--country", "GB", "--house-number", "10", "--street",
                "Downing Street", "--city", "London", "--postal-code", "12345", "--locale", "en-GB",
            ])
        #expect(flagged.status == 0)
        #expect(
            flagged.stdout.hasPrefix(
                "10 Downing Street\nLondon\n12345\npostal code read aloud: one two three four five\nwarning: "))
    }

    @Test func fmtqAddressSaysWhichLinesRunRightToLeft() throws {
        let daemon = try Daemon.start()
        let hebrew = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "address", "--country", "IL", "--street", "רחוב הרצל", "--house-number",
                "12", "--city", "תל אביב", "--postal-code", "6100000", "--language", "he", "--locale", "en",
            ])
        #expect(hebrew.status == 0, "\(hebrew.stderr)")
        #expect(
            hebrew.stdout
                == "רחוב הרצל 12\nתל אביב 6100000\nIsrael\npostal code read aloud: six one zero zero zero zero zero\n"
                + "right to left: lines 1, 2\n")
    }

    @Test func fmtqAddressTakesDistrictSortingCodeAndLanguage() throws {
        let daemon = try Daemon.start()
        let cedex = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "address", "--country", "FR", "--house-number", "139", "--street",
                "rue de Bercy", "--postal-code", "75572", "--city", "Paris", "--sorting-code", "CEDEX 12",
                "--locale", "en-FR",
            ])
        #expect(cedex.status == 0, "\(cedex.stderr)")
        #expect(
            cedex.stdout
                == "139 rue de Bercy\n75572 Paris CEDEX 12\npostal code read aloud: seven five five seven two\n")

        let colonia = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "address", "--country", "MX", "--street", "Calle Liverpool",
                "--house-number", "74", "--district", "Juárez", "--postal-code", "06600", "--city",
                "Ciudad de México", "--region", "CDMX", "--locale", "en-MX",
            ])
        #expect(
            colonia.stdout
                == "Calle Liverpool 74\nJuárez\n06600 Ciudad de México, CDMX\npostal code read aloud: zero six six zero zero\n",
            "\(colonia.stderr)")

        let arguments = [
            "--socket", daemon.socketPath, "address", "--country", "JP", "--postal-code", "1000005", "--region",
            "Tokyo", "--city", "Chiyoda-ku", "--street", "Marunouchi", "--house-number", "2-7-2", "--locale", "en-JP",
        ]
        let latin = try run(Paths.fmtq, arguments + ["--language", "ja-Latn", "--json"])
        #expect(latin.status == 0, "\(latin.stderr)")
        #expect(
            latin.stdout.contains(#""lines":["2-7-2 Marunouchi, Chiyoda-ku, Tokyo","100-0005"]"#), "\(latin.stdout)")
        #expect(latin.stdout.contains(#""linesLang":["ja-Latn","ja-Latn"]"#), "\(latin.stdout)")
        let local = try run(Paths.fmtq, arguments + ["--language", "ja"])
        #expect(
            local.stdout
                == "100-0005\nTokyoChiyoda-ku\nMarunouchi2-7-2\npostal code read aloud: one zero zero, zero zero zero five\n",
            "\(local.stderr)")
        let malformed = try run(Paths.fmtq, arguments + ["--language", "ja__JP"])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("address.language"), "\(malformed.stderr)")
    }

    /// Without field options `--language` picks the layout `fmtq address --country CC` shows.
    @Test func fmtqAddressFormatShowsTheLayoutForItsLanguage() throws {
        let daemon = try Daemon.start()
        let arguments = ["--socket", daemon.socketPath, "address", "--country", "JP", "--locale", "en"]
        let latin = try run(Paths.fmtq, arguments + ["--language", "ja-Latn"])
        #expect(latin.status == 0, "\(latin.stderr)")
        #expect(latin.stdout.hasPrefix("Japan (JP): format JP, Latin layout\n"), "\(latin.stdout)")
        #expect(latin.stdout.contains("Layout:\n  <Name>\n"), "\(latin.stdout)")
        #expect(
            latin.stdout.contains("  <House number> <Street>, <City>, <Prefecture>\n"), "\(latin.stdout)"
        )
        for local in [arguments, arguments + ["--language", "ja"]] {
            let shown = try run(Paths.fmtq, local)
            #expect(shown.stdout.hasPrefix("Japan (JP): format JP, local layout\n"), "\(shown.stdout)")
            #expect(
                shown.stdout.contains("Layout:\n  <Postal code>\n  <Prefecture><City>\n"),
                "\(shown.stdout)")
        }
        let persian = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "address", "--country", "IR", "--language", "fa"])
        #expect(persian.stdout.hasPrefix("Iran (IR): format IR\n"), "\(persian.stdout)")
        #expect(persian.stdout.contains("  <City>\u{060C} <Neighborhood>\n"), "\(persian.stdout)")
        let malformed = try run(Paths.fmtq, arguments + ["--language", "ja__JP"])
        #expect(malformed.status == 1)
        #expect(malformed.stderr.contains("invalid_field") && malformed.stderr.contains("language"))
    }

    @Test func fmtqAddressWithoutCountryIsAUsageErrorAndABadCountryAnErrorResponse() throws {
        let daemon = try Daemon.start()
        #expect(try run(Paths.fmtq, ["--socket", daemon.socketPath, "address", "--street", "Herengracht"]).status == 2)
        let bad = try run(Paths.fmtq, ["--socket", daemon.socketPath, "address", "--country", "NLD"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("invalid_field"))
    }
}
