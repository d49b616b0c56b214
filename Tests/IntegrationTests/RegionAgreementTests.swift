import FmtCore
import FmtTesting
import Testing

/// Every op that takes a region reads it with the one `Region` parser: the same viewer region is accepted or
/// refused alike, and an accepted one names the same viewer (`UK` is `GB`, in any case). The one documented
/// difference: the phone ops take `ZZ`, an unknown viewer, where a region must name a place elsewhere.
@Suite struct RegionAgreementTests {
    static let viewers = ["GB", "gb", "UK", "uk", "NL", "QQ", "G"]

    /// Whether each op, asked about a GB number or address for this viewer, treated the viewer as at home (nil
    /// when it refused the region, with the refusal's field).
    struct Answers: Equatable, CustomStringConvertible {
        var phone: Bool?
        var address: Bool?
        var addressFormat: Bool?
        var refusedFields: [String] = []

        var description: String {
            "phone \(phone.map(String.init) ?? "refused"), address \(address.map(String.init) ?? "refused"), "
                + "addressFormat \(addressFormat.map(String.init) ?? "refused"), refused fields \(refusedFields)"
        }
    }

    static func answers(_ daemon: Daemon, viewer: String) throws -> Answers {
        var answers = Answers()
        let phone = try daemon.requestObject(
            #"{"op":"phone","number":"+44 20 7946 0958","viewerRegion":"\#(viewer)"}"#)
        let address = try daemon.requestObject(
            #"{"op":"address","address":{"street":"10 Downing Street","city":"London","postalCode":"SW1A 2AA","#
                + #""country":"GB"},"viewerRegion":"\#(viewer)"}"#)
        let format = try daemon.requestObject(#"{"op":"addressFormat","country":"GB","viewerRegion":"\#(viewer)"}"#)
        for response in [phone, address, format] where response["ok"] == false {
            let error = response["error"]?.objectValue ?? [:]
            #expect(error["code"] == "invalid_field", "\(viewer): \(response)")
            answers.refusedFields.append(error["field"]?.stringValue ?? "")
        }
        if phone["ok"] == true { answers.phone = phone["display"] == phone["national"] }
        if address["ok"] == true {
            answers.address = address["lines"]?.arrayValue?.last != "United Kingdom"
        }
        if format["ok"] == true {
            let lines = format["example"]?.objectValue?["lines"]?.arrayValue
            answers.addressFormat = lines?.last != "United Kingdom"
        }
        return answers
    }

    @Test func everyOpReadsTheSameViewerRegionAlike() throws {
        let daemon = try Daemon.start()
        var byViewer: [String: Answers] = [:]
        for viewer in Self.viewers {
            let answers = try Self.answers(daemon, viewer: viewer)
            byViewer[viewer] = answers
            let agreed = Set(
                [answers.phone, answers.address, answers.addressFormat].map { $0.map { $0 ? 1 : 0 } ?? -1 })
            #expect(agreed.count == 1, "the ops disagree for viewer \(viewer): \(answers)")
        }
        let atHome = Answers(phone: true, address: true, addressFormat: true)
        let abroad = Answers(phone: false, address: false, addressFormat: false)
        let refused = Answers(refusedFields: ["viewerRegion", "viewerRegion", "viewerRegion"])
        #expect(byViewer["GB"] == atHome)
        #expect(byViewer["gb"] == atHome)
        #expect(byViewer["UK"] == atHome)
        #expect(byViewer["uk"] == atHome)
        #expect(byViewer["NL"] == abroad)
        #expect(byViewer["QQ"] == refused)
        #expect(byViewer["G"] == refused)
    }

    @Test func aDefaultRegionAliasParsesANationalNumberAsItsTerritory() throws {
        let daemon = try Daemon.start()
        let alias = try daemon.requestObject(
            #"{"op":"phone","number":"020 7946 0958","defaultRegion":"uk","viewerRegion":"NL"}"#)
        let canonical = try daemon.requestObject(
            #"{"op":"phone","number":"020 7946 0958","defaultRegion":"GB","viewerRegion":"NL"}"#)
        #expect(alias["ok"] == true, "\(alias)")
        #expect(alias == canonical)
        // Any two letters are a region to libphonenumber: one without a plan parses no national number.
        let unknown = try daemon.requestObject(
            #"{"op":"phone","number":"020 7946 0958","defaultRegion":"QQ","viewerRegion":"NL"}"#)
        #expect(unknown["error"]?.objectValue?["reason"] == "INVALID_COUNTRY_CODE", "\(unknown)")
        let malformed = try daemon.requestObject(
            #"{"op":"phone","number":"020 7946 0958","defaultRegion":"QQQ","viewerRegion":"NL"}"#)
        #expect(malformed["error"]?.objectValue?["field"] == "defaultRegion", "\(malformed)")
    }

    @Test func zzIsAnUnknownViewerForPhoneAndRefusedWhereARegionMustNameAPlace() throws {
        let daemon = try Daemon.start()
        let answers = try Self.answers(daemon, viewer: "ZZ")
        #expect(answers == Answers(phone: false, refusedFields: ["viewerRegion", "viewerRegion"]), "\(answers)")
        let country = try daemon.requestObject(#"{"op":"address","address":{"country":"ZZ"}}"#)
        #expect(country["error"]?.objectValue?["field"] == "address.country", "\(country)")
        let format = try daemon.requestObject(#"{"op":"addressFormat","country":"zz"}"#)
        #expect(format["error"]?.objectValue?["field"] == "country", "\(format)")
        let date = try daemon.requestObject(#"{"op":"date","date":"2024-05-01","locale":"en-ZZ"}"#)
        #expect(date["ok"] == true, "a locale tag's unknown region is kept as sent: \(date)")
    }
}
