import FmtCore
import FmtTesting
import Foundation
import Testing

/// The phone plugin on the wire, the same test body in-process and against the live daemon.
@Suite struct PhoneOnTheWireTests {
    /// The vector file's requests, as lines.
    static let vectorLines: [String] = {
        (try? Vectors.cases("vectors/phone-format.json"))?.compactMap { entry in
            guard var input = entry["input"]?.objectValue else { return nil }
            input["op"] = "phone"
            return JSONWriter.string(.object(input))
        } ?? []
    }()

    @Test(arguments: DaemonMode.allCases)
    func aViewerInTheNumbersCountrySeesTheNationalForm(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        let home = try fmtd.requestObject(#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"NL"}"#)
        #expect(home["display"] == "06 12345678")
        let abroad = try fmtd.requestObject(#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"BE"}"#)
        #expect(abroad["display"] == "+31 6 12345678")
        #expect(abroad["e164"] == "+31612345678")
    }

    @Test(arguments: DaemonMode.allCases)
    func fieldErrorsNameTheField(mode: DaemonMode) throws {
        let fmtd = try startFmtd(mode)
        for (line, field) in [
            (#"{"op":"phone","viewerRegion":"NL"}"#, "number"), (#"{"op":"phone","number":5}"#, "number"),
            (#"{"op":"phone","number":"+31 6 12345678"}"#, "viewerRegion"),
            (#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"N"}"#, "viewerRegion"),
        ] {
            let error = try fmtd.requestObject(line)["error"]?.objectValue
            #expect(error?["code"] == "invalid_field", "\(line)")
            #expect(error?["field"] == .string(field), "\(line)")
        }
        let notANumber = try fmtd.requestObject(#"{"op":"phone","number":"hello","viewerRegion":"NL"}"#)["error"]?
            .objectValue
        #expect(notANumber?["code"] == "invalid_number")
    }

    /// The in-process daemon is the one fmtd runs: every vector request gets the same bytes from both.
    @Test func everyVectorIsAnsweredByteForByteAlikeInProcessAndLive() throws {
        let inProcess = try startFmtd(.inProcess)
        let live = try startFmtd(.live)
        #expect(Self.vectorLines.count >= 50)
        for line in Self.vectorLines {
            #expect(try inProcess.request(line) == (try live.request(line)), "\(line)")
        }
    }
}
