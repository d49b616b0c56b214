import FmtCore
import FmtTesting
import Foundation
import Testing

/// The bytes of every response are as recorded: `Tests/Fixtures/response-bytes/record.py` records them for every
/// vector request, every request line the tests write and the field edge cases. It was recorded before the plugin
/// seam changed (the field reader, the op table, the response writer), which changed only the region consistency
/// answers, and again after the generated address formats, which changed only the countries that had the default
/// layout before (AT, CH, FR, IT, JP, SE), and for the contacts features, which appended `possible`,
/// `possibleReason` and `dialFrom` to every `phone` success, and for name search, which only added the
/// `searchForm` and `nameSearch` requests; a change to how responses are written must keep
/// every byte.
@Suite struct ResponseBytesTests {
    struct Record {
        let request: String
        let response: String
    }

    static func records() throws -> [Record] {
        let path = Paths.packageRoot + "/Tests/Fixtures/response-bytes/responses.jsonl"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONReader.parse(Array(line.utf8)).objectValue ?? [:]
            return Record(
                request: object["request"]?.stringValue ?? "", response: object["response"]?.stringValue ?? "")
        }
    }

    @Test func everyRecordedRequestIsAnsweredWithTheRecordedBytes() throws {
        let records = try Self.records()
        #expect(records.count >= 700)
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        var changed: [String] = []
        for record in records {
            let response = try client.request(record.request)
            if !Array(response.utf8).elementsEqual(record.response.utf8) {
                changed.append("\(record.request)\n  was: \(record.response)\n  now: \(response)")
            }
        }
        #expect(changed.isEmpty, "\(changed.count) responses differ:\n\(changed.joined(separator: "\n"))")
    }
}
