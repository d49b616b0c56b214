import FmtCore
import FmtTesting
import Foundation
import Testing

/// `data/vectors/phone-format.json` through the real daemon over its socket, the `phone` op's errors, and a
/// numbering-plan update as an operator does it: convert upstream's XML into the data directory, send SIGHUP.
@Suite struct PhoneVectorTests {
    static let memberOrder = [
        "id", "ok", "valid", "e164", "region", "type", "national", "international", "rfc3966", "display", "extension",
        "possible", "possibleReason", "dialFrom", "spoken", "spokenLang",
    ]

    static func vectors() throws -> [JSONObject] {
        try Vectors.cases("vectors/phone-format.json")
    }

    static func request(_ input: JSONObject, id: Int = 0) -> String {
        var request: JSONObject = ["op": "phone", "id": .number(JSONNumber(id))]
        for member in input { request.append(member.key, member.value) }
        return JSONWriter.string(.object(request))
    }

    @Test func everyPhoneVectorMatchesOverTheSocketFieldByField() throws {
        let daemon = try Daemon.start()
        let vectors = try Self.vectors()
        #expect(vectors.count == 50)
        for (index, vector) in vectors.enumerated() {
            let input = vector["input"]?.objectValue ?? [:]
            let expected = vector["expected"]?.objectValue ?? [:]
            let response = try daemon.requestObject(Self.request(input, id: index))
            let label = JSONWriter.string(.object(input))
            #expect(response["id"] == .number(JSONNumber(index)), "\(label)")
            #expect(response["ok"] == true, "\(label): \(response)")
            #expect(response.keys == Self.memberOrder, "\(label)")
            #expect(expected.count == 12, "\(label)")
            for member in expected {
                #expect(response[member.key] == member.value, "\(member.key) for \(label)")
            }
        }
    }

    /// `data/vectors/phone-spoken.json`: `display` read aloud in en, nl and de, over the socket.
    @Test func everySpokenVectorMatchesOverTheSocket() throws {
        let daemon = try Daemon.start()
        let vectors = try Vectors.cases("vectors/phone-spoken.json")
        #expect(vectors.count >= 12)
        var languages = Set<String>()
        for (index, vector) in vectors.enumerated() {
            let input = vector["input"]?.objectValue ?? [:]
            let expected = vector["expected"]?.objectValue ?? [:]
            let response = try daemon.requestObject(Self.request(input, id: index))
            let label = JSONWriter.string(.object(input))
            #expect(response.keys == Self.memberOrder, "\(label)")
            #expect(expected["spoken"] != nil, "\(label)")
            for member in expected {
                #expect(response[member.key] == member.value, "\(member.key) for \(label)")
            }
            if let lang = expected["spokenLang"]?.stringValue { languages.insert(lang) }
        }
        #expect(languages == ["en", "nl", "de"])
    }

    /// Reasons as PyPI phonenumbers 9.0.35 raises them for the same input and default region.
    @Test func unparseableNumbersFailWithInvalidNumberAndUpstreamsReason() throws {
        let daemon = try Daemon.start()
        let cases: [(number: String, defaultRegion: String?, reason: String)] = [
            ("hello", "NL", "NOT_A_NUMBER"),
            ("+1 2", "US", "NOT_A_NUMBER"),
            ("06 12345678", nil, "INVALID_COUNTRY_CODE"),
            ("+999 1234567", "NL", "INVALID_COUNTRY_CODE"),
            ("011 1", "US", "TOO_SHORT_AFTER_IDD"),
            ("00 1", "NL", "TOO_SHORT_AFTER_IDD"),
            ("+49 1", "DE", "TOO_SHORT_NSN"),
            ("+49 123456789012345678", nil, "TOO_LONG"),
        ]
        for item in cases {
            var input: JSONObject = ["number": .string(item.number)]
            if let region = item.defaultRegion { input.append("defaultRegion", .string(region)) }
            input.append("viewerRegion", "NL")
            let response = try daemon.requestObject(Self.request(input))
            #expect(response["ok"] == false, "\(item.number)")
            let error = response["error"]?.objectValue ?? [:]
            #expect(error["code"] == "invalid_number", "\(item.number): \(error)")
            #expect(error["field"] == "number", "\(item.number): \(error)")
            #expect(error["reason"] == .string(item.reason), "\(item.number): \(error)")
            #expect(error["message"]?.stringValue?.contains(item.reason) == true, "\(item.number): \(error)")
        }
    }

    @Test func aParsableButInvalidNumberIsOkWithValidFalse() throws {
        let daemon = try Daemon.start()
        let response = try daemon.requestObject(#"{"op":"phone","number":"+31 6 123","viewerRegion":"NL"}"#)
        #expect(response["ok"] == true)
        #expect(response["valid"] == false)
        #expect(response["type"] == "unknown")
        #expect(response["e164"] == "+316123")
    }

    @Test func viewerRegionIsRequiredAndRegionCodesAreCheckedAndUpperCased() throws {
        let daemon = try Daemon.start()
        let missing = try daemon.requestObject(#"{"op":"phone","number":"+31 6 12345678"}"#)
        #expect(missing["ok"] == false)
        #expect(missing["error"]?.objectValue?["code"] == "invalid_field")
        #expect(missing["error"]?.objectValue?["field"] == "viewerRegion")

        let malformed: [(String, String)] = [
            (#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"NLD"}"#, "viewerRegion"),
            (#"{"op":"phone","number":"+31 6 12345678","viewerRegion":"N1"}"#, "viewerRegion"),
            (#"{"op":"phone","number":"+31 6 12345678","viewerRegion":""}"#, "viewerRegion"),
            (#"{"op":"phone","number":"06 12345678","defaultRegion":"nl-NL","viewerRegion":"NL"}"#, "defaultRegion"),
            (#"{"op":"phone","number":"06 12345678","defaultRegion":31,"viewerRegion":"NL"}"#, "defaultRegion"),
            (#"{"op":"phone","number":612345678,"viewerRegion":"NL"}"#, "number"),
            (#"{"op":"phone","viewerRegion":"NL"}"#, "number"),
        ]
        for (line, field) in malformed {
            let error = try daemon.requestObject(line)["error"]?.objectValue ?? [:]
            #expect(error["code"] == "invalid_field", "\(line)")
            #expect(error["field"] == .string(field), "\(line)")
        }

        // The first two vectors, with the region codes written in lower case.
        let vectors = try Self.vectors()
        for (vector, viewer) in zip(vectors.prefix(2), ["nl", "be"]) {
            let response = try daemon.requestObject(
                #"{"op":"phone","number":"06 12345678","defaultRegion":"nl","viewerRegion":"\#(viewer)"}"#)
            #expect(response["display"] == vector["expected"]?.objectValue?["display"], "viewer \(viewer)")
            #expect(response["region"] == "NL")
        }
    }

    // MARK: Metadata updates

    /// Upstream's 9.0.0 XML, beside the checkout or under `FMTD_UPSTREAM_DIR`; never committed.
    static let olderXML =
        (ProcessInfo.processInfo.environment["FMTD_UPSTREAM_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Paths.packageRoot + "/../shared/upstream") + "/libphonenumber/older/PhoneNumberMetadata.xml"
    static let area324 = #"{"op":"phone","number":"+1 324 555 1234","viewerRegion":"US"}"#

    /// A private copy of `data/` a test may rewrite, removed by the caller.
    static func dataCopy() throws -> (root: String, data: String) {
        let root = try Paths.temporaryDirectory()
        let data = root + "/data"
        try FileManager.default.copyItem(atPath: Paths.dataDirectory, toPath: data)
        return (root, data)
    }

    static func phoneInfo(_ daemon: Daemon) throws -> JSONObject {
        let plugins = try daemon.requestObject(#"{"op":"info"}"#)["plugins"]?.arrayValue ?? []
        let phone = plugins.compactMap(\.objectValue).first { $0["name"] == "phone" }
        return phone?["data"]?.objectValue ?? [:]
    }

    static func committedMetadata() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Paths.dataDirectory + "/phone-metadata.json"))
    }

    static let testingXML =
        (ProcessInfo.processInfo.environment["FMTD_UPSTREAM_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Paths.packageRoot + "/../shared/upstream") + "/libphonenumber/testing/PhoneNumberMetadataForTesting.xml"

    /// Upstream's own test metadata (types without patterns, `~` in a national prefix) converts with the tool
    /// and loads whole: `fmtd --check` accepts it, and the daemon serves from it.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: testingXML), "needs upstream's test metadata XML"))
    func upstreamsTestMetadataConvertsAndLoadsWhole() throws {
        let (root, data) = try Self.dataCopy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let metadataPath = data + "/phone-metadata.json"
        let converted = try run(
            Paths.productsDirectory + "/phone-metadata-gen",
            [Self.testingXML, "--version", "0.0.0-test", "--output", metadataPath])
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(!converted.stderr.contains("warning"), "\(converted.stderr)")
        let check = try run(Paths.fmtd, ["--check", "--data-dir", data, "--config-dir", root + "/etc"])
        #expect(check.status == 0, "fmtd --check refused the test metadata:\n\(check.stderr)")
        // Every geographic territory of the XML is a region (the non-geographic `001` ones are not).
        let xml = try String(contentsOfFile: Self.testingXML, encoding: .utf8)
        let territories = xml.components(separatedBy: "<territory ").count - 1
        let nonGeographic = xml.components(separatedBy: #"<territory id="001""#).count - 1
        let info = try JSONReader.parse(check.stdout).objectValue?["plugins"]?.arrayValue?.compactMap(\.objectValue)
        let phone = info?.first { $0["name"] == "phone" }?["data"]?.objectValue
        #expect(phone?["version"] == "0.0.0-test")
        #expect(phone?["regions"]?.numberValue?.intValue == territories - nonGeographic, "\(phone ?? [:])")

        let daemon = try Daemon.start(dataDirectory: data)
        // AO's national prefix `0~0` is a literal no digit string contains: nothing is stripped.
        let angola = try daemon.requestObject(#"{"op":"phone","number":"+244 0 12","viewerRegion":"AO"}"#)
        #expect(angola["ok"] != nil)
    }

    /// US area code 324 is in 9.0.35's plan and not in 9.0.0's (the issue's two upstream XMLs).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: olderXML), "needs upstream's 9.0.0 XML"))
    func sighupAfterAMetadataUpdateServesTheNewPlanAndInfoReportsItsVersion() throws {
        let (root, data) = try Self.dataCopy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let metadataPath = data + "/phone-metadata.json"
        let converted = try run(
            Paths.productsDirectory + "/phone-metadata-gen",
            [Self.olderXML, "--version", "9.0.0", "--output", metadataPath])
        #expect(converted.status == 0, "\(converted.stderr)")

        let daemon = try Daemon.start(dataDirectory: data)
        let before = try daemon.requestObject(Self.area324)
        #expect(before["ok"] == true)
        #expect(before["valid"] == false)
        #expect(before["type"] == "unknown")
        #expect(try Self.phoneInfo(daemon)["version"] == "9.0.0")

        let current = try Self.committedMetadata()
        try current.write(to: URL(fileURLWithPath: metadataPath), options: .atomic)
        try daemon.reload()

        let after = try daemon.requestObject(Self.area324)
        let expected = try Self.vectors().first {
            $0["input"] == ["number": "+1 324 555 1234", "viewerRegion": "US"]
        }?["expected"]?.objectValue
        #expect(expected?["valid"] == true)
        for member in expected ?? [:] {
            #expect(after[member.key] == member.value, "\(member.key)")
        }
        let info = try Self.phoneInfo(daemon)
        #expect(info["version"] == "9.0.35")
        #expect(info["checksum"] == .string(SHA256.hex(Array(current))))
        #expect(info["source"] == .string(data))
        let reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        #expect(reloads["ok"] == 1)
        #expect(reloads["failed"] == 0)
    }

    @Test func aCorruptedMetadataFileAtReloadKeepsTheOldDataAndCountsAFailedReload() throws {
        let (root, data) = try Self.dataCopy()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let metadataPath = data + "/phone-metadata.json"
        let daemon = try Daemon.start(dataDirectory: data)
        let served = try daemon.requestObject(Self.area324)
        #expect(served["valid"] == true)
        let checksum = try Self.phoneInfo(daemon)["checksum"]

        let current = try Self.committedMetadata()
        try current.prefix(current.count / 2).write(to: URL(fileURLWithPath: metadataPath), options: .atomic)
        try daemon.reload()
        var reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        #expect(reloads["failed"] == 1)
        #expect(reloads["ok"] == 0)
        #expect(reloads["lastError"]?.stringValue?.hasPrefix("phone-metadata.json: ") == true, "\(reloads)")
        #expect(try daemon.requestObject(Self.area324) == served)
        #expect(try Self.phoneInfo(daemon)["checksum"] == checksum)
        #expect(try Self.phoneInfo(daemon)["version"] == "9.0.35")

        // Well-formed JSON with a pattern that does not compile: the error names the file and the field.
        var text = String(decoding: current, as: UTF8.self)
        let pattern = try #require(text.range(of: #""p":""#))
        text.replaceSubrange(pattern, with: #""p":"(("#)
        try text.write(toFile: metadataPath, atomically: true, encoding: .utf8)
        try daemon.reload()
        reloads = try daemon.requestObject(#"{"op":"stats"}"#)["reloads"]?.objectValue ?? [:]
        #expect(reloads["failed"] == 2)
        let lastError = reloads["lastError"]?.stringValue ?? ""
        #expect(lastError.hasPrefix("phone-metadata.json: territories[0](AC)"), "\(reloads)")
        #expect(try daemon.requestObject(Self.area324) == served)
    }
}

/// `fmtq phone` as a new user meets it: the display form first, then every other form.
@Suite struct PhoneCommandTests {
    @Test func fmtqPhonePrintsTheDisplayFormFirstThenTheOthers() throws {
        let daemon = try Daemon.start()
        let foreign = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "phone", "+32 2 555 12 34", "--viewer-region", "NL"])
        #expect(foreign.status == 0, "\(foreign.stderr)")
        #expect(
            foreign.stdout == """
                +32 2 555 12 34
                  spoken         plus three two, two, five five five, one two, three four
                  valid          yes
                  type           fixedLine
                  region         BE
                  e164           +3225551234
                  national       02 555 12 34
                  international  +32 2 555 12 34
                  rfc3966        tel:+32-2-555-12-34
                  possible       yes (IS_POSSIBLE)
                  dial           00 32 2 555 12 34

                """)

        let home = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "phone", "020 7946 0958 ext. 42", "--default-region", "GB",
                "--viewer-region", "GB",
            ])
        #expect(home.status == 0, "\(home.stderr)")
        #expect(home.stdout.hasPrefix("020 7946 0958 x42\n"))
        #expect(home.stdout.contains("  extension      42\n"))
        #expect(home.stdout.hasSuffix("  dial           020 7946 0958 x42\n"))

        // The spoken form in the language of --locale: GB's extension prefix ` x` is left out, its word read.
        let dutch = try run(
            Paths.fmtq,
            [
                "--socket", daemon.socketPath, "phone", "020 7946 0958 ext. 42", "--default-region", "GB",
                "--viewer-region", "GB", "--locale", "nl-BE",
            ])
        #expect(dutch.status == 0, "\(dutch.stderr)")
        #expect(
            dutch.stdout.contains(
                "  spoken         nul twee nul, zeven negen vier zes, nul negen vijf acht, toestel vier twee\n"))
    }

    @Test func fmtqPhoneReportsUpstreamsReasonAndUsageMistakes() throws {
        let daemon = try Daemon.start()
        // A person typing a local number means their own region: --default-region defaults to --viewer-region.
        let local = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "phone", "0031 6 12345678", "--viewer-region", "NL"])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(local.stdout.hasPrefix("06 12345678\n"), "\(local.stdout)")
        let national = try run(
            Paths.fmtq,
            ["--socket", daemon.socketPath, "phone", "06 12345678", "--viewer-region", "NL", "--default-region", "ZZ"])
        #expect(national.status == 1)
        #expect(national.stderr.contains("invalid_number"))
        #expect(national.stderr.contains("INVALID_COUNTRY_CODE"))
        #expect(try run(Paths.fmtq, ["--socket", daemon.socketPath, "phone", "+31 6 12345678"]).status == 2)
        #expect(try run(Paths.fmtq, ["--socket", daemon.socketPath, "phone", "--viewer-region", "NL"]).status == 2)
    }
}
