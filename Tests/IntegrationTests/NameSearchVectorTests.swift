import FmtCore
import FmtTesting
import Testing

/// `data/vectors/names-search.json` through the real daemon over its socket: `searchForm` and `nameSearch`
/// answers (forms, matches and their UTF-16 ranges) and refusals, byte for byte after the envelope.
@Suite struct NameSearchVectorTests {
    @Test func everyVectorOverTheSocket() throws {
        let vectors = try Vectors.cases("vectors/names-search.json")
        #expect(vectors.count >= 25)
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        for (index, vector) in vectors.enumerated() {
            let request = try #require(vector["request"]?.objectValue)
            var line: JSONObject = ["id": JSONValue(index)]
            for member in request { line.append(member.key, member.value) }
            let response = try daemon.requestObject(JSONWriter.string(.object(line)))
            let described = JSONWriter.string(.object(request))
            #expect(response["id"] == JSONValue(index))
            if let expected = vector["response"]?.objectValue {
                #expect(response["ok"] == true, "\(described): \(JSONWriter.string(.object(response)))")
                let body = JSONObject(response.members.filter { $0.key != "id" && $0.key != "ok" })
                #expect(JSONWriter.string(.object(body)) == JSONWriter.string(.object(expected)), "\(described)")
            } else {
                let error = response["error"]?.objectValue
                let expected = vector["error"]?.objectValue
                #expect(response["ok"] == false, "\(described)")
                #expect(error?["code"] == expected?["code"], "\(described)")
                #expect(error?["field"] == expected?["field"], "\(described)")
            }
        }
    }
}
