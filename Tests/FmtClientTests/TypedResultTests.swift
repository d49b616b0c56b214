import FmtClient
import FmtCore
import Foundation
import Testing

/// The typed results read every recorded answer: `Tests/Fixtures/response-bytes/responses.jsonl` holds the
/// daemon's bytes for every vector request and edge case, so each op's type is proved against real answers
/// without a daemon. Writing a decoded value's members back must give the answer's bytes: a member the type
/// does not read is listed and fails the test.
@Suite struct TypedResultTests {
    struct Record {
        let op: String
        let response: JSONObject
        let line: [UInt8]
    }

    static let packageRoot: String = {
        var path = #filePath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        path.removeLast(3)
        return path.joined(separator: "/")
    }()

    /// Every recorded request with an `op` string, and the response it got.
    static func records() throws -> [Record] {
        let path = packageRoot + "/Tests/Fixtures/response-bytes/responses.jsonl"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var records: [Record] = []
        for line in text.split(separator: "\n") {
            let record = try JSONReader.parse(Array(line.utf8)).objectValue ?? [:]
            let request = record["request"]?.stringValue ?? ""
            let response = Array((record["response"]?.stringValue ?? "").utf8)
            guard let op = (try? JSONReader.parse(request))?.objectValue?["op"]?.stringValue,
                let object = (try? JSONReader.parse(response))?.objectValue
            else { continue }
            records.append(Record(op: op, response: object, line: response))
        }
        return records
    }

    /// The paths of `raw`'s members (nested objects and arrays included) that `written` lacks or holds otherwise.
    static func unread(_ raw: JSONValue, _ written: JSONValue?, at path: String = "") -> [String] {
        switch (raw, written) {
        case (.object(let object), .object(let other)?):
            return object.flatMap { member in
                unread(member.value, other[member.key], at: path.isEmpty ? member.key : path + "." + member.key)
            } + other.keys.filter { object[$0] == nil }.map { "\(path).\($0) (not in the answer)" }
        case (.array(let items), .array(let others)?) where items.count == others.count:
            return zip(items, others).enumerated().flatMap {
                unread($0.element.0, $0.element.1, at: "\(path)[\($0.offset)]")
            }
        default:
            return raw == written ? [] : [path]
        }
    }

    /// The answer as written back from the typed value: `id` and `ok` from `raw`, then `members`.
    static func writtenBack(_ result: any FmtResult) -> JSONObject {
        var object: JSONObject = ["id": result.raw["id"] ?? .null, "ok": true]
        for member in result.members { object.append(member.key, member.value) }
        return object
    }

    @Test func everyRecordedSuccessOfEachOpDecodesAndWritesBackEveryMember() throws {
        var decoded: [String: Int] = [:]
        for record in try Self.records() where record.response["ok"] == .bool(true) {
            let result = try FmtResults.decode(record.response, op: record.op)
            #expect(result.raw == record.response)
            let written = Self.writtenBack(result)
            let unread = Self.unread(.object(record.response), .object(written))
            #expect(unread.isEmpty, "\(record.op): members the type does not read: \(unread)")
            #expect(JSONWriter.encode(.object(written)) == record.line, "\(record.op)")
            decoded[record.op, default: 0] += 1
        }
        // Every op with a result type has recorded answers, except `info` and `stats`, whose answers change from run
        // to run: IntegrationTests read those from a real daemon.
        let recorded = Set(FmtResults.byOp.keys).subtracting(["info", "stats"])
        #expect(Set(decoded.keys) == recorded, "ops without a recorded success: \(recorded.subtracting(decoded.keys))")
    }

    @Test func everyRecordedErrorIsThrownWithItsWireCode() throws {
        var errors = 0
        for record in try Self.records() where record.response["ok"] == .bool(false) {
            let code = record.response["error"]?.objectValue?["code"]?.stringValue
            #expect(throws: FmtClientError.daemon(try #require(FmtResponseError(response: record.response)))) {
                _ = try PhoneDisplay(line: record.line)
            }
            #expect(code?.isEmpty == false)
            errors += 1
        }
        #expect(errors > 100)
    }

    @Test func aMemberTheTypeDoesNotReadIsListed() throws {
        let record = try #require(try Self.records().first { $0.op == "address" && $0.response["ok"] == .bool(true) })
        var grown = record.response
        grown.append("newMember", 1)
        var fields = grown["fields"]?.arrayValue ?? []
        fields[0] = .object((fields[0].objectValue ?? [:]).appending("newFieldMember", "x"))
        grown["fields"] = .array(fields)
        let result = try FormattedAddress(response: grown)
        #expect(result.raw["newMember"] == 1)
        #expect(
            Self.unread(.object(grown), .object(Self.writtenBack(result))) == ["fields[0].newFieldMember", "newMember"])
    }

    @Test func aMissingMemberIsMissingMemberWithItsPath() throws {
        let record = try #require(try Self.records().first { $0.op == "address" && $0.response["ok"] == .bool(true) })
        var answer = record.response
        answer["oneLine"] = nil
        #expect(
            throws: FmtDecodingError(code: .missingMember, op: "address", member: "oneLine", expected: "a string")
        ) { try FormattedAddress(response: answer) }
        answer = record.response
        var fields = answer["fields"]?.arrayValue ?? []
        var field = fields[1].objectValue ?? [:]
        field["label"] = nil
        fields[1] = .object(field)
        answer["fields"] = .array(fields)
        let error = try #require(throws: FmtDecodingError.self) { try FormattedAddress(response: answer) }
        #expect(error.code.rawValue == "missing_member")
        #expect(error.member == "fields[1].label")
    }

    @Test func aMemberOfAnotherTypeIsWrongTypeWithItsPath() throws {
        let phone = try #require(try Self.records().first { $0.op == "phone" && $0.response["ok"] == .bool(true) })
        var answer = phone.response
        answer["valid"] = "yes"
        #expect(
            throws: FmtDecodingError(code: .wrongType, op: "phone", member: "valid", expected: "a boolean")
        ) { try PhoneDisplay(response: answer) }
        answer = phone.response
        answer["region"] = 31
        #expect(throws: FmtDecodingError(code: .wrongType, op: "phone", member: "region", expected: "a string or null"))
        {
            try PhoneDisplay(response: answer)
        }
        let search = try #require(
            try Self.records().first { $0.op == "nameSearch" && $0.response["matches"]?.arrayValue?.isEmpty == false })
        answer = search.response
        answer["matches"] = [["index": 0, "ranges": [[0, 3, 4]]]]
        let error = try #require(throws: FmtDecodingError.self) { try NameMatches(response: answer) }
        #expect(error.code.rawValue == "wrong_type")
        #expect(error.member == "matches[0].ranges[0]")
    }

    @Test func anUndecodableLineIsATypedClientError() throws {
        let phone = try #require(try Self.records().first { $0.op == "phone" && $0.response["ok"] == .bool(true) })
        var answer = phone.response
        answer["dialFrom"] = nil
        #expect(
            throws: FmtClientError.undecodable(
                FmtDecodingError(code: .missingMember, op: "phone", member: "dialFrom", expected: "a string"))
        ) { _ = try PhoneDisplay(line: JSONWriter.encode(.object(answer))) }
        #expect(throws: FmtClientError.malformedResponse("[1]")) { _ = try PhoneDisplay(line: Array("[1]".utf8)) }
        #expect(throws: FmtDecodingError.self) { try FmtResults.decode(phone.response, op: "newOp") }
    }

    @Test func theTypedMembersOfARecordedAnswerAreItsWireValues() throws {
        let records = try Self.records()
        let phone = try #require(records.first { $0.op == "phone" && $0.response["extension"]?.stringValue != nil })
        let display = try PhoneDisplay(response: phone.response)
        #expect(display.extension == phone.response["extension"]?.stringValue)
        #expect(display.display == phone.response["display"]?.stringValue)
        let listed = try #require(records.first { $0.op == "language" && $0.response["languages"] != nil })
        let languages = try #require(try LanguageResolution(response: listed.response).languages)
        #expect(languages.map(\.language) == listed.response["supported"]?.arrayValue?.compactMap(\.stringValue))
        #expect(languages.allSatisfy { $0.names.count == languages.count })
    }
}

extension JSONObject {
    fileprivate func appending(_ key: String, _ value: JSONValue) -> JSONObject {
        var object = self
        object.append(key, value)
        return object
    }
}
