import FmtCore
import FmtTesting
import Foundation
import PhoneNumbers
import Testing

/// The phone ops read region codes as libphonenumber does: `defaultRegion` any two letters (`ZZ` none, a code
/// without a plan such as the retired `CS` naming no plan), `viewerRegion` a territory or `ZZ` for an unknown
/// viewer. Held to the oracle over every region's example numbers, through the same request path fmtd runs.
@Suite struct UnknownRegionTests {
    /// One request and the oracle's input for it.
    struct Case: Encodable {
        var number: String
        var defaultRegion: String?
        var viewerRegion: String?

        var line: String {
            var request: JSONObject = ["op": "phone", "number": .string(number)]
            if let defaultRegion { request["defaultRegion"] = .string(defaultRegion) }
            if let viewerRegion { request["viewerRegion"] = .string(viewerRegion) }
            return JSONWriter.string(.object(request))
        }
    }

    /// The oracle's answer, in its shape (oracle.py).
    struct Answer: Decodable {
        var ok: Bool
        var reason: String?
        var valid: Bool?
        var e164: String?
        var region: String?
        var type: String?
        var national: String?
        var international: String?
        var rfc3966: String?
        var display: String?
        var `extension`: String?
        var possibleReason: String?
        var dialFrom: String?
    }

    /// Every region's example number of every type, with `ZZ` as the default region (written with `+`, with the
    /// national prefix, as an RFC 3966 URI with a phone context) and as the viewer's region.
    static func cases() throws -> [Case] {
        let data = try Data(contentsOf: URL(fileURLWithPath: Paths.dataDirectory + "/phone-metadata.json"))
        let document = try JSONDecoder().decode(PhoneMetadataDocument.self, from: data)
        var cases: [Case] = []
        for territory in document.territories where territory.id != "001" {
            let code = territory.countryCode
            for (_, type) in territory.types.sorted(by: { $0.key < $1.key }) {
                guard let example = type.example else { continue }
                let national = (territory.nationalPrefix ?? "") + example
                cases.append(Case(number: "+\(code) \(example)", defaultRegion: "ZZ", viewerRegion: territory.id))
                cases.append(Case(number: national, defaultRegion: "ZZ", viewerRegion: territory.id))
                cases.append(
                    Case(number: "tel:\(national);phone-context=+\(code)", defaultRegion: "zz", viewerRegion: "ZZ"))
                cases.append(Case(number: "+\(code)\(example)", viewerRegion: "ZZ"))
                cases.append(Case(number: national, defaultRegion: territory.id, viewerRegion: "ZZ"))
                cases.append(Case(number: national, defaultRegion: "CS", viewerRegion: "ZZ"))
            }
        }
        return cases
    }

    /// Where the daemon's answer differs from the oracle's, member by member.
    static func differences(_ answer: JSONObject, _ expected: Answer) -> [String] {
        let error = answer["error"]?.objectValue
        let pairs: [(String, JSONValue?, String?)] = [
            ("ok", answer["ok"], "\(expected.ok)"), ("reason", error?["reason"], expected.reason),
            ("valid", answer["valid"], expected.valid.map { "\($0)" }), ("e164", answer["e164"], expected.e164),
            ("region", answer["region"], expected.region), ("type", answer["type"], expected.type),
            ("national", answer["national"], expected.national),
            ("international", answer["international"], expected.international),
            ("rfc3966", answer["rfc3966"], expected.rfc3966), ("display", answer["display"], expected.display),
            ("extension", answer["extension"], expected.extension),
            ("possibleReason", answer["possibleReason"], expected.possibleReason),
            ("dialFrom", answer["dialFrom"], expected.dialFrom),
        ]
        return pairs.compactMap { name, value, expected in
            let got: String? =
                switch value {
                case .string(let text)?: text
                case .bool(let flag)?: "\(flag)"
                case nil, .null?: nil
                case let other?: "\(other)"
                }
            return got == expected ? nil : "\(name): \(got ?? "nil") ≠ \(expected ?? "nil")"
        }
    }

    @Test(.enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func zzAsDefaultOrViewerRegionAgreesWithLibphonenumberOverEveryExampleNumber() throws {
        let cases = try Self.cases()
        let expected: [Answer] = try PhoneOracle.run(cases, arguments: [])
        let fmtd = try startFmtd(.inProcess)
        var mismatches: [String] = []
        for (phoneCase, expected) in zip(cases, expected) {
            let differences = Self.differences(try fmtd.requestObject(phoneCase.line), expected)
            if !differences.isEmpty { mismatches.append("\(phoneCase.line): \(differences.joined(separator: "; "))") }
        }
        print("unknown regions: \(cases.count) requests, \(mismatches.count) differ from phonenumbers 9.0.35")
        for mismatch in mismatches.prefix(40) { Issue.record("\(mismatch)") }
        #expect(cases.count > 3000)
        // Both outcomes are exercised: numbers with a country code parse, national ones without a plan do not.
        #expect(expected.contains { $0.ok } && expected.contains { $0.reason == "INVALID_COUNTRY_CODE" })
    }

    @Test(arguments: DaemonMode.allCases)
    func anUnknownViewerSeesAndDialsTheInternationalForm(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        for viewer in ["ZZ", "zz"] {
            let answer = try fmtd.requestObject(
                #"{"op":"phone","number":"+31 20 123 4567","viewerRegion":"\#(viewer)"}"#)
            #expect(answer["display"] == "+31 20 123 4567", "\(answer)")
            #expect(answer["dialFrom"] == "+31 20 123 4567", "\(answer)")
            let example = try fmtd.requestObject(#"{"op":"phoneExample","region":"NL","viewerRegion":"\#(viewer)"}"#)
            #expect(example["display"] == example["international"], "\(example)")
        }
    }

    @Test(arguments: DaemonMode.allCases)
    func aDefaultRegionWithoutAPlanParsesOnlyNumbersThatCarryTheirCountryCode(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        for region in ["ZZ", "zz", "CS", "QQ", "AA"] {
            let international = try fmtd.requestObject(
                #"{"op":"phone","number":"+31 20 123 4567","defaultRegion":"\#(region)","viewerRegion":"NL"}"#)
            #expect(international["e164"] == "+31201234567", "\(region): \(international)")
            let context = try fmtd.requestObject(
                #"{"op":"phone","number":"tel:020-123-4567;phone-context=+31","defaultRegion":"\#(region)","#
                    + #""viewerRegion":"NL"}"#)
            #expect(context["e164"] == "+31201234567", "\(region): \(context)")
            let national = try fmtd.requestObject(
                #"{"op":"phone","number":"020 123 4567","defaultRegion":"\#(region)","viewerRegion":"NL"}"#)
            let error = national["error"]?.objectValue
            #expect(error?["code"] == "invalid_number", "\(region): \(national)")
            #expect(error?["reason"] == "INVALID_COUNTRY_CODE", "\(region): \(national)")
        }
        let match = try fmtd.requestObject(
            #"{"op":"phoneMatch","a":"+31 20 123 4567","b":"+31201234567","defaultRegion":"ZZ"}"#)
        #expect(match["match"] == "exact", "\(match)")
        let noPlan = try fmtd.requestObject(#"{"op":"phoneExample","region":"ZZ"}"#)["error"]?.objectValue
        #expect(noPlan?["code"] == "no_example")
        #expect(noPlan?["field"] == "region")
    }

    @Test(arguments: DaemonMode.allCases)
    func malformedRegionCodesStayInvalidFields(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        for (member, value) in [
            ("defaultRegion", "N"), ("defaultRegion", "NLD"), ("defaultRegion", "1"), ("defaultRegion", "N1"),
            ("defaultRegion", "ÑL"), ("defaultRegion", ""), ("defaultRegion", "001"), ("viewerRegion", "001"),
            ("viewerRegion", "QQ"), ("viewerRegion", "CS"), ("viewerRegion", "N"), ("viewerRegion", "ÑL"),
        ] {
            var request: JSONObject = ["op": "phone", "number": "+31 20 123 4567", "viewerRegion": "NL"]
            request[member] = .string(value)
            let error = try fmtd.requestObject(JSONWriter.string(.object(request)))["error"]?.objectValue
            #expect(error?["code"] == "invalid_field", "\(member) \(value)")
            #expect(error?["field"] == .string(member), "\(member) \(value)")
        }
    }
}
