import Foundation
import Testing

@testable import PhoneNumbers
@testable import phone_metadata_gen

/// The contacts features by example; `ContactsDifferentialTests` checks them against the oracle at scale.
@Suite("Contacts: matching, possible lengths, dialling from abroad, example numbers")
struct ContactsTests {
    let engine = Fixtures.engine

    @Test("a number and its national form in the same region are an exact match")
    func exactMatchWithDefaultRegion() throws {
        #expect(try engine.match("+31 6 12345678", "06-12345678", defaultRegion: "NL") == .exact)
    }

    @Test("without a default region a number without a country code matches by its national significant number")
    func nsnMatchWithoutDefaultRegion() throws {
        #expect(try engine.match("+31 6 12345678", "06-12345678") == .nsn)
        #expect(try engine.match("06-12345678", "+31 6 12345678") == .nsn)
        #expect(try engine.match("+1 650 253 0000", "253 0000") == .shortNsn)
    }

    @Test("extensions: different ones never match, one missing is a short match, the same ones are exact")
    func extensions() throws {
        #expect(try engine.match("+44 20 7946 0958 x 12", "+44 20 7946 0958 ext. 34") == .none)
        #expect(try engine.match("+44 20 7946 0958 x 12", "+44 20 7946 0958") == .shortNsn)
        #expect(try engine.match("+44 20 7946 0958 x 12", "+44 20 7946 0958 ext. 12") == .exact)
    }

    @Test("an Italian leading zero makes two numbers a short match, not an exact one")
    func italianLeadingZero() throws {
        #expect(try engine.match("+39 06 1234 5678", "+39 6 1234 5678") == .shortNsn)
        #expect(try engine.match("+39 06 1234 5678", "+39 06 12345678") == .exact)
    }

    @Test("different calling codes or different numbers do not match")
    func noMatch() throws {
        #expect(try engine.match("+31 6 12345678", "+32 6 12345678") == .none)
        #expect(try engine.match("+31 6 12345678", "+31 6 87654321") == .none)
    }

    @Test("text that is no number is an error naming its side and upstream's reason")
    func errorsNameTheSide() {
        #expect(throws: PhoneMatchError(side: .b, reason: .notANumber)) {
            try engine.match("+31 6 12345678", "abc", defaultRegion: "NL")
        }
        #expect(throws: PhoneMatchError(side: .a, reason: .notANumber)) {
            try engine.match("abc", "+31 6 12345678", defaultRegion: "NL")
        }
        #expect(throws: PhoneMatchError(side: .b, reason: .notANumber)) {
            try engine.match("+31 6 12345678", "abc")
        }
        #expect(throws: PhoneMatchError(side: .a, reason: .invalidCountryCode)) {
            try engine.match("+999 1234 5678", "0612 345")
        }
    }

    @Test("a batch answers each entry as the pair alone would")
    func batchEqualsPairs() throws {
        let others = ["06-12345678", "+31 6 12345678", "12345678", "abc", "+31 6 12345678 x 1", "+44 20 7946 0958"]
        for region in [nil, "NL", "US"] as [String?] {
            let batch = engine.match("+31 6 12345678", against: others, defaultRegion: region)
            for (other, result) in zip(others, batch) {
                let single = Result { () throws(PhoneMatchError) in
                    try engine.match("+31 6 12345678", other, defaultRegion: region)
                }
                #expect(result == single, "\(other) in \(region ?? "-")")
            }
        }
    }

    @Test("possible-with-reason tells too short, too long and local-only lengths apart")
    func possibleReasons() throws {
        func reason(_ text: String) throws -> PhonePossibility {
            engine.possibility(of: try engine.parse(text, defaultRegion: nil))
        }
        #expect(try reason("+31 6 12345678") == .isPossible)
        #expect(try reason("+1 650 253") == .tooShort)
        #expect(try reason("+1 650 253 00000") == .tooLong)
        #expect(try reason("+1 253 0000") == .isPossibleLocalOnly)
        #expect(try reason("+61 12345678901") == .invalidLength)
        #expect(
            engine.possibility(of: PhoneNumber(countryCode: 999, nationalNumber: "12345678")) == .invalidCountryCode)
        #expect(!PhonePossibility.tooShort.isPossible && PhonePossibility.isPossibleLocalOnly.isPossible)
        let description = try engine.describe(number: "+1 650 253", defaultRegion: nil, viewerRegion: "US")
        #expect(!description.possible && description.possibleReason == .tooShort)
    }

    @Test("dialling from abroad writes the viewer's IDD; within the calling code the national form")
    func diallingFromTheViewersRegion() throws {
        func dial(_ text: String, from viewer: String?) throws -> String {
            engine.formatOutOfCountry(try engine.parse(text, defaultRegion: nil), from: viewer)
        }
        #expect(try dial("+1 650 253 0000", from: "NL") == "00 1 650-253-0000")
        #expect(try dial("+31 6 12345678", from: "US") == "011 31 6 12345678")
        #expect(try dial("+31 6 12345678", from: "NL") == "06 12345678")
        #expect(try dial("+1 650 253 0000", from: "CA") == "1 (650) 253-0000")
        #expect(try dial("+44 20 7946 0958", from: "GG") == "020 7946 0958")
        #expect(try dial("+44 20 7946 0958 x 12", from: "US") == "011 44 20 7946 0958 x12")
        #expect(try dial("+800 1234 5678", from: "NL") == "00 800 1234 5678")
        #expect(try dial("+31 6 12345678", from: nil) == "+31 6 12345678")
        #expect(try dial("+31 6 12345678", from: "ZZ") == "+31 6 12345678")
    }

    @Test("the preferred international prefix wins where the region's IDD is a pattern or has a dial tone")
    func preferredInternationalPrefix() throws {
        let number = try engine.parse("+44 20 7946 0958", defaultRegion: nil)
        #expect(engine.formatOutOfCountry(number, from: "AU") == "0011 44 20 7946 0958")
        #expect(engine.formatOutOfCountry(number, from: "RU") == "8~10 44 20 7946 0958")
        let description = try engine.describe(number: "+44 20 7946 0958", defaultRegion: nil, viewerRegion: "RU")
        #expect(description.dialFrom == "8~10 44 20 7946 0958")
    }

    @Test("the converter carries preferredInternationalPrefix as pip, and the loader reads it")
    func converterKeepsPreferredPrefix() throws {
        let xml = """
            <phoneNumberMetadata><territories>
            <territory id="RU" countryCode="7" internationalPrefix="810" preferredInternationalPrefix="8~10">
            <generalDesc><nationalNumberPattern>\\d{10}</nationalNumberPattern></generalDesc>
            <fixedLine><possibleLengths national="10"/><exampleNumber>3011234567</exampleNumber>
            <nationalNumberPattern>\\d{10}</nationalNumberPattern></fixedLine>
            </territory></territories></phoneNumberMetadata>
            """
        let json = try MetadataConverter.convert(xml: Data(xml.utf8), version: "0.0.0-test")
        #expect(String(decoding: json, as: UTF8.self).contains("\"pip\":\"8~10\""))
        let metadata = try PhoneMetadata(json: json)
        #expect(metadata.byRegion["RU"]?.prefixForDialling == "8~10")
        #expect(Fixtures.document.territories.filter { $0.preferredInternationalPrefix != nil }.count == 25)
    }

    @Test("an IDD counts as single when it is digits, optionally a dial-tone wait and digits")
    func singleInternationalPrefix() {
        for text in ["00", "011", "8~10", "8\u{FF5E}10"] { #expect(Territory.isSinglePrefix(text), "\(text)") }
        for text in ["", "0(?:0|1)", "00[1-9]", "8~", "~10", "0~0~0"] {
            #expect(!Territory.isSinglePrefix(text), "\(text)")
        }
    }

    @Test("example numbers: the region's number of the type, fixed line by default, none for 001 or unknown")
    func exampleNumbers() throws {
        let mobile = try #require(engine.exampleNumber(region: "NL", type: .mobile))
        #expect(engine.format(mobile, .national) == "06 12345678")
        let fixed = try #require(engine.exampleNumber(region: "GB"))
        #expect(engine.exampleNumber(region: "GB", type: .fixedLineOrMobile) == fixed)
        #expect(engine.format(fixed, .national) == "0121 234 5678")
        #expect(engine.exampleNumber(region: "001", type: .mobile) == nil)
        #expect(engine.exampleNumber(region: "NL", type: .unknown) == nil)
        #expect(engine.exampleNumber(region: "ZZ") == nil)
    }
}
