import FmtClient
import FmtCore
import FmtHost
import Foundation

/// How a test reaches fmtd: the daemon's dispatcher in the test's own process, or the real `fmtd` binary on a
/// real socket. A test written against `FmtdUnderTest` runs unchanged in both, as hummingbird's testing module
/// runs one body against its router and against a live server.
public enum DaemonMode: String, CaseIterable, Sendable, CustomStringConvertible {
    case inProcess
    case live

    public var description: String { rawValue }
}

/// One fmtd answering request lines, whichever `DaemonMode` it runs in.
public protocol FmtdUnderTest: AnyObject {
    /// Sends one request line and returns the response line, without its newline.
    func request(_ line: String) throws -> String
    /// Reloads the data (SIGHUP for a live daemon) and waits until the reload has finished.
    func reload() throws
}

extension FmtdUnderTest {
    /// The response line decoded as a JSON object.
    public func requestObject(_ line: String) throws -> JSONObject {
        guard case .object(let object) = try JSONReader.parse(try request(line)) else {
            throw DaemonFailed(log: "the answer to \(line.prefix(80)) is not a JSON object")
        }
        return object
    }
}

/// Starts fmtd in `mode` on `dataDirectory` (the repository's `data/` by default) and, when given, the local
/// additions in `configDirectory`.
public func startFmtd(
    _ mode: DaemonMode, dataDirectory: String = Paths.dataDirectory, configDirectory: String? = nil
) throws -> any FmtdUnderTest {
    switch mode {
    case .inProcess: try InProcessFmtd(dataDirectory: dataDirectory, configDirectory: configDirectory)
    case .live: try Daemon.start(configDirectory: configDirectory, dataDirectory: dataDirectory)
    }
}

/// The daemon's composition root in the test's process: the same `FormatterHost` fmtd builds, without a socket.
public final class InProcessFmtd: FmtdUnderTest {
    public let host: FormatterHost

    public init(dataDirectory: String = Paths.dataDirectory, configDirectory: String? = nil) throws {
        host = try FormatterHost(source: .directory(dataDirectory), configDirectory: configDirectory)
    }

    public func request(_ line: String) throws -> String {
        String(decoding: host.dispatcher.respond(to: Array(line.utf8)).dropLast(), as: UTF8.self)
    }

    public func reload() throws {
        let outcome = host.reload()
        guard outcome.ok else { throw DaemonFailed(log: outcome.status) }
    }
}

extension Daemon: FmtdUnderTest {}
