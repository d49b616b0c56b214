import FmtCore
import FmtTesting
import Foundation
import Testing

/// libphonenumber's own tests of parsing without a usable default region (`ZZ`, the retired `CS`) and of dialling
/// from an unknown region, written anew as requests to the real daemon serving upstream's test metadata
/// (`PhoneNumberMetadataForTesting.xml`, converted by `phone-metadata-gen`).
@Suite struct PhoneUnknownRegionTests {
    static let available = FileManager.default.fileExists(atPath: PhoneVectorTests.testingXML)

    /// The daemon on a copy of the data whose phone metadata is upstream's test metadata.
    static func daemonOnTestMetadata() throws -> (Daemon, root: String) {
        let (root, data) = try PhoneVectorTests.dataCopy()
        let converted = try run(
            Paths.productsDirectory + "/phone-metadata-gen",
            [PhoneVectorTests.testingXML, "--version", "0.0.0-test", "--output", data + "/phone-metadata.json"])
        #expect(converted.status == 0, "\(converted.stderr)")
        return (try Daemon.start(dataDirectory: data), root)
    }

    static func phone(
        _ daemon: Daemon, _ number: String, defaultRegion: String?, viewer: String = "US"
    ) throws
        -> JSONObject
    {
        var request: JSONObject = ["op": "phone", "number": .string(number), "viewerRegion": .string(viewer)]
        if let defaultRegion { request["defaultRegion"] = .string(defaultRegion) }
        return try daemon.requestObject(JSONWriter.string(.object(request)))
    }

    @Test(.enabled(if: available, "needs upstream's test metadata XML"))
    func aNumberWithItsCountryCodeParsesWithoutADefaultRegion() throws {
        let (daemon, root) = try Self.daemonOnTestMetadata()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let written = [
            "+64 9 123 4567", "\u{FF0B}64 9 123 4567", "Phone: +64 9 123 4567", "+64(0)91234567",
            "tel:09-123-4567;phone-context=+64", "  tel:09-123-4567;phone-context=+64",
            "tel:09-123-4567;isub=555;phone-context=+64",
        ]
        for number in written {
            for region in ["ZZ", "zz", "CS", nil] {
                let answer = try Self.phone(daemon, number, defaultRegion: region)
                #expect(answer["e164"] == "+6491234567", "\(number) in \(region ?? "-"): \(answer)")
                #expect(answer["extension"] == .null, "\(number) in \(region ?? "-"): \(answer)")
            }
        }
        let extended = try Self.phone(daemon, "+64 9 123 4567 ext 89", defaultRegion: "ZZ")
        #expect(extended["e164"] == "+6491234567")
        #expect(extended["extension"] == "89", "\(extended)")
    }

    @Test(.enabled(if: available, "needs upstream's test metadata XML"))
    func aNumberWithoutItsCountryCodeIsRefusedAsUpstreamRefusesIt() throws {
        let (daemon, root) = try Self.daemonOnTestMetadata()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let cases: [(String, String, String)] = [
            ("09 123 4567", "ZZ", "INVALID_COUNTRY_CODE"), ("09 123 4567", "CS", "INVALID_COUNTRY_CODE"),
            ("123 456 7890", "cs", "INVALID_COUNTRY_CODE"), ("0044------", "ZZ", "INVALID_COUNTRY_CODE"),
            ("tel:123-4567;phone-context=www.example.com", "ZZ", "INVALID_COUNTRY_CODE"),
            ("+---", "ZZ", "NOT_A_NUMBER"),
        ]
        for (number, region, reason) in cases {
            let error = try Self.phone(daemon, number, defaultRegion: region)["error"]?.objectValue
            #expect(error?["code"] == "invalid_number", "\(number) in \(region)")
            #expect(error?["reason"] == .string(reason), "\(number) in \(region): \(error ?? [:])")
        }
        let match = try daemon.requestObject(
            #"{"op":"phoneMatch","a":"09 123 4567","b":"+6491234567","defaultRegion":"ZZ"}"#)
        #expect(match["error"]?.objectValue?["reason"] == "INVALID_COUNTRY_CODE", "\(match)")
        #expect(match["error"]?.objectValue?["field"] == "a", "\(match)")
        let exact = try daemon.requestObject(
            #"{"op":"phoneMatch","a":"+64 9 123 4567","b":"tel:09-123-4567;phone-context=+64","defaultRegion":"ZZ"}"#)
        #expect(exact["match"] == "exact", "\(exact)")
    }

    /// From an unknown region, or one without a plan (AQ has none in the test metadata), a number is dialled in its
    /// international form; the viewer's own region still sees the national one.
    @Test(.enabled(if: available, "needs upstream's test metadata XML"))
    func aViewerWithoutAPlanDialsTheInternationalForm() throws {
        let (daemon, root) = try Self.daemonOnTestMetadata()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for number in ["+49 30 1234567", "+64 9 123 4567", "+1 650 253 0000", "+800 1234 5678"] {
            for viewer in ["ZZ", "AQ"] {
                let answer = try Self.phone(daemon, number, defaultRegion: nil, viewer: viewer)
                #expect(answer["ok"] == true, "\(number) from \(viewer): \(answer)")
                #expect(answer["dialFrom"] == answer["international"], "\(number) from \(viewer): \(answer)")
                #expect(answer["display"] == answer["international"], "\(number) from \(viewer): \(answer)")
            }
            let home = try Self.phone(daemon, number, defaultRegion: nil, viewer: "DE")
            #expect(home["dialFrom"] != home["international"] || home["region"] == .null, "\(number): \(home)")
        }
    }
}
