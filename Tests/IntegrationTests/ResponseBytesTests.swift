import FmtCore
import FmtTesting
import Foundation
import Testing

/// The bytes of every response are as recorded before the plugin seam changed (the field reader, the op table,
/// the response writer): `Tests/Fixtures/response-bytes/record.py` recorded them for every vector request,
/// every request line the tests write and the field edge cases; only the region consistency fix may differ.
/// Re-recorded for issue 19, whose only change to recorded answers is `phone`'s three new members (`possible`,
/// `possibleReason`, `dialFrom`) after `extension`.
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

    /// Requests whose answer the region consistency fix changed on purpose, with the answer they now get.
    static let changedByRegion: [String: String] = [
        #"{"op":"phone","number":"020 123 4567","viewerRegion":"NL","defaultRegion":"XX"}"#:
            #"{"id":null,"ok":false,"error":{"code":"invalid_field","#
            + #""message":"\"XX\" is not an ISO 3166-1 alpha-2 region code (e.g. NL).","field":"defaultRegion"}}"#
    ]

    @Test func everyRecordedRequestIsAnsweredWithTheRecordedBytes() throws {
        let records = try Self.records()
        #expect(records.count >= 480)
        let daemon = try Daemon.start()
        let client = try daemon.connect()
        var changed: [String] = []
        for record in records {
            let response = try client.request(record.request)
            let expected = Self.changedByRegion[record.request] ?? record.response
            if !Array(response.utf8).elementsEqual(expected.utf8) {
                changed.append("\(record.request)\n  was: \(record.response)\n  now: \(response)")
            }
        }
        #expect(changed.isEmpty, "\(changed.count) responses differ:\n\(changed.joined(separator: "\n"))")
    }
}
