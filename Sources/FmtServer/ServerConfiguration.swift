/// Limits and policies of the socket server; every field has a command-line flag in `fmtd`.
public struct ServerConfiguration: Sendable {
    /// Event loop threads; one per core by default.
    public var threads: Int
    /// Longest request line accepted; longer lines get `too_large` and are discarded up to their newline.
    public var maxLineBytes = 64 * 1024
    /// Open connections beyond this get one `overloaded` line and are closed.
    public var maxConnections = 4096
    /// Open connections from one uid beyond this get one `overloaded` line and are closed, so one local user cannot
    /// hold every slot; the default still lets one busy service hold 1,024 connections.
    public var maxConnectionsPerUID = 1024
    /// Input buffered across all connections (unfinished lines, and lines waiting for their client to read) above
    /// which only complete lines are taken in; nil means `defaultMaxBufferedBytes`.
    public var maxBufferedBytes: Int?
    /// Buffered responses per connection above which fmtd stops reading that client until it reads.
    public var maxOutputBytes = 1024 * 1024
    /// Responses buffered across all connections above which a connection is answered only within its fair share
    /// (this over the open connections), so clients that never read cannot grow the daemon's memory with their
    /// number; nil means `defaultMaxBufferedOutputBytes`.
    public var maxBufferedOutputBytes: Int?
    /// Connections with no traffic for this long are closed.
    public var idleTimeout: Duration = .seconds(300)
    /// How long an unfinished line may take to arrive, so a client dribbling bytes cannot hold a connection slot
    /// forever; lines that keep completing never trip it.
    public var lineTimeout: Duration = .seconds(30)
    /// How long SIGTERM waits for buffered responses to drain.
    public var shutdownTimeout: Duration = .seconds(5)
    /// When set, only peers with these uids (or `allowedGIDs`) are served, plus the daemon's own uid, which may
    /// signal it anyway (`fmtq reload` runs as it from `ExecReload=`); root is not special.
    public var allowedUIDs: Set<UInt32>?
    public var allowedGIDs: Set<UInt32>?

    /// 64 MiB, or 16 lines of `--max-line` when that is more.
    public var defaultMaxBufferedBytes: Int { max(64 * 1024 * 1024, 16 * maxLineBytes) }

    /// 64 MiB.
    public static let defaultMaxBufferedOutputBytes = 64 * 1024 * 1024

    /// The output cap in force.
    public var effectiveMaxBufferedOutputBytes: Int { maxBufferedOutputBytes ?? Self.defaultMaxBufferedOutputBytes }

    /// The input cap in force: never below one `--max-line`, so the longest allowed line can always arrive.
    public var effectiveMaxBufferedBytes: Int { max(maxBufferedBytes ?? defaultMaxBufferedBytes, maxLineBytes) }

    public init(threads: Int) {
        self.threads = max(1, threads)
    }
}
