import FmtClient
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

/// `fmtq search` and `fmtq search-form` as a new user meets them, and FmtClient's typed calls, on names in five
/// scripts.
@Suite struct NameSearchCommandTests {
    static let names = ["Anna van Dijk", "Сергей Иванов", "Ελένη Παππά", "山田太郎", "محمد عبد الله"]

    @Test func fmtqSearchFormPrintsOneFormPerName() throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let result = try run(Paths.fmtq, ["--socket", daemon.socketPath, "search-form"] + Self.names)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "anna van dijk\nsergej ivanov\nelene pappa\nshan tian tai lang\nmhmd bd allh\n")
    }

    @Test func fmtqSearchMarksWhatMatchedAndExitsOneWhenNothingDoes() throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let found = try run(Paths.fmtq, ["--socket", daemon.socketPath, "search", "ivan"] + Self.names)
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.stdout == "Сергей [Иванов]\n")
        let swedish = try run(
            Paths.fmtq, ["--socket", daemon.socketPath, "search", "--locale", "sv", "o", "Örjan", "Olle"])
        #expect(swedish.stdout == "[O]lle\n")
        let none = try run(Paths.fmtq, ["--socket", daemon.socketPath, "search", "zz"] + Self.names)
        #expect(none.status == 1)
        let usage = try run(Paths.fmtq, ["--socket", daemon.socketPath, "search", "ivan"])
        #expect(usage.status == 2)
    }

    @Test func theTypedCallsAnswerAsTheOps() throws {
        let daemon = try Daemon.start()
        defer { daemon.stop() }
        let fmtd = try daemon.connect()
        #expect(try fmtd.searchForm(["Müller", "Иванов"], locale: "de").forms == ["muller", "ivanov"])
        let found = try fmtd.nameSearch("mul", in: ["Иванов", "Müller"], locale: "de")
        #expect(found.matches.map(\.index) == [1])
        #expect(found.matches.first?.ranges.map { [$0.start, $0.length] } == [[0, 3]])
        #expect(found.raw["matches"] == [["index": 1, "ranges": [[0, 3]]]])
    }
}
