import FmtCore
import FmtTesting
import Testing

/// Every op that takes a region reads it with the one `Region` parser: the same viewer region is accepted or
/// refused alike, and an accepted one names the same viewer (`UK` is `GB`, in any case).
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
        let unknown = try daemon.requestObject(
            #"{"op":"phone","number":"020 7946 0958","defaultRegion":"QQ","viewerRegion":"NL"}"#)
        #expect(unknown["error"]?.objectValue?["field"] == "defaultRegion", "\(unknown)")
    }
}
