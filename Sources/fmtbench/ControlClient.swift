import FmtClient
import FmtCore
import Glibc

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Opens a blocking connection to a Unix socket path, for the load generator's own loop.
func connectUnix(_ path: String) throws(BenchError) -> Int32 {
    do {
        return try FmtConnection.connectSocket(path: path)
    } catch {
        throw BenchError(error.description)
    }
}

/// The control connection of a benchmark: `info`, `stats` and `ping`, one at a time, with a receive timeout.
extension FmtConnection {
    static func control(_ path: String, timeout: Duration = .seconds(10)) throws(BenchError) -> FmtConnection {
        do {
            return try FmtConnection(path: path, timeout: timeout)
        } catch {
            throw BenchError(error.description)
        }
    }

    /// The response object to a request, `"ok":false` included.
    func object(_ request: JSONObject) throws(BenchError) -> JSONObject {
        do {
            try send(request: request)
            return try readResponse()
        } catch {
            throw BenchError(error == .timedOut ? "no response (timeout)" : error.description)
        }
    }

    /// The ops the daemon serves, from `info`.
    func servedOps() throws(BenchError) -> [String] {
        try object(["op": "info"])["ops"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// `reloads.ok + reloads.failed` and `reloads.lastDurationUs` from `stats`.
    func reloadState() throws(BenchError) -> (count: Int, lastMicroseconds: Int?) {
        let reloads = try object(["op": "stats"])["reloads"]?.objectValue ?? [:]
        let ok = reloads["ok"]?.numberValue?.intValue ?? 0
        let failed = reloads["failed"]?.numberValue?.intValue ?? 0
        return (ok + failed, reloads["lastDurationUs"]?.numberValue?.intValue)
    }

    func openConnections() throws(BenchError) -> Int {
        let stats = try object(["op": "stats"])
        return stats["connections"]?.objectValue?["open"]?.numberValue?.intValue ?? 0
    }
}
