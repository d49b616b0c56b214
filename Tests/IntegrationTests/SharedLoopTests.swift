import FmtClient
import FmtCore
import FmtTesting
import Foundation
import Glibc
import Synchronization
import Testing

/// What many clients share: the memory of responses nobody reads (`--max-buffered-output`) and the loop's time
/// (a connection is answered for a slice, then waits its turn behind the others).
@Suite struct SharedLoopTests {
    static func connections(_ daemon: Daemon) throws -> JSONObject {
        try #require(try daemon.requestObject(#"{"op":"stats"}"#)["connections"]?.objectValue)
    }

    static func count(_ object: JSONObject, _ key: String) -> Int {
        object[key]?.numberValue?.intValue ?? -1
    }

    /// 60 clients each ask for about 1 MB of `info` answers and never read. Without a cap across connections each
    /// would buffer up to `--max-output`; with it the daemon holds about the cap, and every answer still arrives
    /// once the clients read.
    @Test func clientsThatNeverReadHoldOnlyTheCapOfResponsesWhateverTheirNumber() throws {
        let cap = 2 * 1024 * 1024
        let daemon = try Daemon.start(arguments: ["--max-buffered-output", "\(cap)", "--threads", "2"])
        let answerBytes = try daemon.request(#"{"op":"info"}"#).utf8.count + 1
        let residentBefore = daemon.residentKiB
        let lines = 400
        let batch = String(repeating: #"{"op":"info"}"# + "\n", count: lines)
        var clients: [FmtConnection] = []
        for _ in 0..<60 {
            let client = try daemon.connect()
            try client.send(batch)
            clients.append(client)
        }
        var connections: JSONObject = [:]
        var last = -1
        for _ in 0..<100 {
            usleep(50_000)
            connections = try Self.connections(daemon)
            let now = Self.count(connections, "outputBytes")
            if now == last && Self.count(connections, "outputPauses") > 0 { break }
            last = now
        }
        let held = Self.count(connections, "outputBytes")
        let grown = daemon.residentKiB - residentBefore
        print("60 clients that do not read: \(held) response bytes held (cap \(cap)), resident +\(grown) KiB")
        #expect(Self.count(connections, "outputLimit") == cap)
        #expect(Self.count(connections, "outputPauses") > 0, "\(connections)")
        // The cap, plus what two loops may add in one turn (one connection's --max-output each), plus one answer
        // per connection within its share: about 4.5 MB, where 60 x 1 MB were held before the cap.
        #expect(held <= cap + 2 * 1_048_576 + 60 * 2 * answerBytes, "\(connections)")
        #expect(grown < 24 * 1024, "resident grew by \(grown) KiB")

        // Another client is still answered at once, and every held answer arrives once its client reads.
        #expect(try daemon.requestObject(#"{"op":"ping"}"#)["ok"] == true)
        for client in clients {
            for _ in 0..<lines { #expect(try client.readLine().utf8.count + 1 == answerBytes) }
        }
        let after = try Self.connections(daemon)
        #expect(Self.count(after, "outputBytes") <= answerBytes, "\(after)")
    }

    /// The round trip of a ping alone, then while 20 peers pipeline costly `sort` lines on the same loop (reading
    /// their answers): a fresh client waits for about one pass over the busy peers (a millisecond, or one costly
    /// line), not for every peer's whole read.
    @Test func aFreshClientIsAnsweredBetweenSlicesOfPeersPipeliningCostlyLines() throws {
        let daemon = try Daemon.start(arguments: ["--threads", "1"])
        let names = (0..<200).map { "\"Naam \(($0 * 7919) % 200) van der Berg\"" }.joined(separator: ",")
        let costly = #"{"op":"sort","locale":"nl","names":["# + names + "]}"
        let probe = try daemon.connect()
        func roundTrips(_ line: String, _ count: Int) throws -> [Double] {
            try (0..<count).map { _ in
                let start = Date()
                _ = try probe.request(line)
                let elapsed = Date().timeIntervalSince(start)
                usleep(2_000)
                return elapsed
            }
        }
        let oneCostly = try roundTrips(costly, 9).sorted()[4]
        let alone = try roundTrips(#"{"op":"ping"}"#, 50).max() ?? 0

        let stop = Atomic<Bool>(false)
        let done = DispatchSemaphore(value: 0)
        let batch = Array(String(repeating: costly + "\n", count: 64).utf8)
        for _ in 0..<20 {
            let fd = try FmtConnection.connectSocket(path: daemon.socketPath)
            // Threads of their own: blocked in send or recv, they must not wait for a pool's free thread.
            Thread {
                while !stop.load(ordering: .relaxed) {
                    let sent = batch.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent < 0 { break }
                }
                shutdown(fd, Int32(SHUT_WR))
                done.signal()
            }.start()
            Thread {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while buffer.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
                Glibc.close(fd)
                done.signal()
            }.start()
        }
        usleep(500_000)
        let loaded = try roundTrips(#"{"op":"ping"}"#, 100)
        stop.store(true, ordering: .relaxed)
        let worst = loaded.max() ?? 0
        let yields = Self.count(try Self.connections(daemon), "yields")
        print(
            String(
                format: "one costly sort %.2f ms; probe worst alone %.2f ms, behind 20 busy peers %.2f ms; %d yields",
                oneCostly * 1000, alone * 1000, worst * 1000, yields))
        // Without slices each peer is answered for a whole read (4 x 64 KiB, about 50 of these lines) in a turn:
        // the probe waited for about 1,000 lines. With them it waits for about a pass, a few lines.
        #expect(yields > 0)
        #expect(worst < 4 * alone + 20 * oneCostly + 0.03, "worst \(worst) s, one costly line \(oneCostly) s")
        for _ in 0..<40 { done.wait() }
    }
}

/// Values whose scalars join into one cluster without end are refused before anything walks their clusters.
@Suite struct JoinedTextTests {
    @Test func anAddressValueJoiningMoreThanTheLimitIsRefusedNamingTheField() throws {
        let daemon = try Daemon.start()
        let chains = [
            ("NL", "\u{1F468}" + String(repeating: "\u{200D}\u{1F468}", count: 8_000)),
            ("IN", "\u{915}" + String(repeating: "\u{94D}\u{915}", count: 8_000)),
            ("EG", String(repeating: "\u{600}", count: 20_000) + "a"),
            ("NL", " " + String(repeating: "\u{200D}", count: 20_000)),
        ]
        for (country, city) in chains {
            let address: JSONObject = ["country": .string(country), "city": .string(city)]
            let request: JSONObject = ["op": "address", "address": .object(address)]
            let error = try daemon.requestObject(JSONWriter.string(.object(request)))["error"]?.objectValue
            #expect(error?["code"] == "invalid_field", "\(country)")
            #expect(error?["field"] == "address.city", "\(country)")
        }
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        let answer = try daemon.requestObject(
            #"{"op":"address","address":{"country":"NL","city":"\#(family) Utrecht","street":"प्रतिनिधित्व"}}"#)
        #expect(answer["ok"] == true, "\(answer)")
    }
}
