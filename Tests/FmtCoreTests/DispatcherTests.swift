import FmtCore
import FmtDispatch
import Synchronization
import Testing

/// A plugin that fails the way a bug would (`fail` answers `internal`), or the way a caller's mistake found late
/// does (`late` writes members, then refuses the request).
struct FailingPlugin: FormatterPlugin {
    static let name = "failing"
    enum Op: String, PluginOp {
        case fail, late
    }

    init(loading data: DataStore, environment: PluginEnvironment) throws {}

    var dataInfo: JSONObject { [:] }

    func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws {
        switch op {
        case .fail: throw CoreError.internal("the fixture failed on purpose")
        case .late:
            response.member("partial", "written before the refusal")
            throw CoreError.invalidField("late", message: "Refused after writing.")
        }
    }
}

/// What the dispatcher reported, collected from any thread.
final class Reports: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// The dispatcher answers every line with one line and tells its host of every `internal` answer.
@Suite struct DispatcherTests {
    /// The registry every dispatcher here answers from: the failing fixture plugin alone, English only.
    static func registry() throws -> PluginRegistry {
        try PluginRegistry(
            pluginTypes: [FailingPlugin.self], store: DataStore(source: .embedded([:]), localDirectory: nil),
            environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en"])))
    }

    static func dispatcher(reporting reports: Reports = Reports()) throws -> Dispatcher {
        Dispatcher(registry: try registry(), builtins: ["ping": { _, _ in }]) { op, message in
            reports.append("\(op): \(message)")
        }
    }

    static func respond(_ dispatcher: Dispatcher, _ line: String) -> JSONObject? {
        let response = dispatcher.respond(to: Array(line.utf8))
        return try? JSONReader.parse(Array(response.dropLast())).objectValue
    }

    @Test func everyInternalAnswerIsReportedWithItsOp() throws {
        let reports = Reports()
        let dispatcher = try Self.dispatcher(reporting: reports)
        let answer = Self.respond(dispatcher, #"{"op":"fail","id":7}"#)
        #expect(answer?["error"]?.objectValue?["code"] == JSONValue.string("internal"))
        #expect(reports.all == ["fail: Internal error: the fixture failed on purpose."])
        _ = Self.respond(dispatcher, #"{"op":"ping"}"#)
        _ = Self.respond(dispatcher, #"{"op":"nope"}"#)
        #expect(reports.all.count == 1)
    }

    @Test func namedBuiltinsKeepTheLastOfANameAndWinOverAPluginsOp() throws {
        let dispatcher = Dispatcher(
            registry: try Self.registry(),
            builtins: [
                Dispatcher.Builtin("ping") { _, response in response.member("first", "yes") },
                Dispatcher.Builtin("fail") { _, response in response.member("builtin", "yes") },
                Dispatcher.Builtin("ping") { _, response in response.member("last", "yes") },
            ])
        #expect(Self.respond(dispatcher, #"{"op":"ping","id":1}"#) == ["id": 1, "ok": true, "last": "yes"])
        #expect(Self.respond(dispatcher, #"{"op":"fail","id":2}"#) == ["id": 2, "ok": true, "builtin": "yes"])
    }

    @Test func membersAPluginWroteBeforeThrowingAreNotSent() throws {
        let dispatcher = try Self.dispatcher()
        var out = Array(#"{"id":0,"ok":true}"#.utf8) + [0x0A]
        let before = out
        Array(#"{"op":"late","id":1}"#.utf8).withUnsafeBufferPointer { dispatcher.respond(to: $0, into: &out) }
        #expect(Array(out.prefix(before.count)) == before)
        let line = String(decoding: out.dropFirst(before.count), as: UTF8.self)
        #expect(
            line == #"{"id":1,"ok":false,"error":{"code":"invalid_field","message":"Refused after writing.","#
                + #""field":"late"}}"# + "\n")
    }

    @Test func statsMergeEveryLoopsLaneWithTheSharedCounts() throws {
        let dispatcher = try Self.dispatcher()
        let lanes = [Dispatcher.Lane(dispatcher), Dispatcher.Lane(dispatcher)]
        var out: [UInt8] = []
        for (index, lane) in lanes.enumerated() {
            lane.beginBatch()
            for _ in 0...index {
                Array(#"{"op":"ping"}"#.utf8).withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
            }
            Array(#"{"op":"fail"}"#.utf8).withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
            lane.endBatch()
        }
        _ = Self.respond(dispatcher, #"{"op":"ping"}"#)
        _ = Self.respond(dispatcher, "not json")
        let totals = dispatcher.stats.totals
        #expect(totals.requests == 7)
        #expect(totals.errors == 3)
        #expect(dispatcher.stats.perOp["ping"] == ["requests": 4, "errors": 0])
        #expect(dispatcher.stats.perOp["fail"] == ["requests": 2, "errors": 2])
        #expect(dispatcher.stats.perOp[RequestStats.otherOp] == ["requests": 1, "errors": 1])
        #expect(dispatcher.stats.latency["count"] == 7)
        #expect(out.filter { $0 == 0x0A }.count == 5)
    }

    /// A lane reuses one writer from answer to answer: after a long answer, a refused one and a short one, every
    /// line is what a dispatcher answering each request alone writes.
    @Test func aLaneAnswersEachLineAsAFreshWriterWould() throws {
        let dispatcher = Dispatcher(
            registry: try Self.registry(),
            builtins: [
                Dispatcher.Builtin("long") { _, response in
                    for _ in 0..<12 { response.member("m", String(repeating: "x", count: 40)) }
                },
                Dispatcher.Builtin("short") { _, response in response.member("s", "y") },
            ])
        let lines = [
            #"{"op":"long","id":1}"#, #"{"op":"late","id":2}"#, #"{"op":"short"}"#, #"{"op":"long"}"#,
            #"{"op":"ping"}"#, #"{"op":"short","id":"last"}"#,
        ]
        let lane = Dispatcher.Lane(dispatcher)
        lane.beginBatch()
        var out: [UInt8] = []
        var alone: [UInt8] = []
        for line in lines {
            Array(line.utf8).withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
            alone += dispatcher.respond(to: Array(line.utf8))
        }
        lane.endBatch()
        #expect(String(decoding: out, as: UTF8.self) == String(decoding: alone, as: UTF8.self))
        #expect(out.filter { $0 == 0x0A }.count == lines.count)
    }

    @Test func opsAreRoutedByTheirBytes() throws {
        let dispatcher = try Self.dispatcher()
        #expect(Self.respond(dispatcher, #"{"op":"ping"}"#)?["ok"] == .bool(true))
        #expect(Self.respond(dispatcher, #"{"op":"pi\u006eg"}"#)?["ok"] == .bool(true))
        let marked = Self.respond(dispatcher, #"{"op":"ping\u0301"}"#)
        #expect(marked?["error"]?.objectValue?["code"] == JSONValue.string("unknown_op"))
    }

    /// A line that is a JSON object but no request (no `op`, or one that is not a string) is answered with the `id`
    /// it sent, as every other error is, by a dispatcher and by a loop's lane; a line with no object has no id.
    @Test(arguments: [
        (#"{"op":5,"id":7}"#, "7"), (#"{"id":7}"#, "7"), (#"{"id":"a\/b","op":null}"#, #""a/b""#),
        (#"{"id":{"n":[1,2.50]},"op":["ping"]}"#, #"{"n":[1,2.50]}"#), (#"{"id":7,"id":8}"#, "8"),
        (#"{"op":true}"#, "null"), (#"[{"id":7}]"#, "null"), ("7", "null"),
    ])
    func aRequestWithoutAStringOpEchoesTheIdItSent(line: String, id: String) throws {
        let dispatcher = try Self.dispatcher()
        let lane = Dispatcher.Lane(dispatcher)
        lane.beginBatch()
        var fromLane: [UInt8] = []
        Array(line.utf8).withUnsafeBufferPointer { lane.respond(to: $0, into: &fromLane) }
        lane.endBatch()
        for answer in [dispatcher.respond(to: Array(line.utf8)), fromLane] {
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix(#"{"id":"# + id + #","ok":false,"error":{"code":"bad_request""#), "\(line)")
        }
    }

    @Test func textThatIsNotStreamSafeIsABadRequestNotBadJSON() throws {
        let dispatcher = try Self.dispatcher()
        let line = #"{"op":"ping","a"# + String(repeating: "\u{301}\u{316}", count: 16) + #"":1}"#
        let error = Self.respond(dispatcher, line)?["error"]?.objectValue
        #expect(error?["code"] == JSONValue.string("bad_request"))
        #expect(error?["message"]?.stringValue?.contains("Stream-Safe") == true)
    }
}
