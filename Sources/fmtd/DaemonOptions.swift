import FmtCore
import FmtHost
import FmtServer
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// fmtd's command line. Every flag has a sensible default, so `fmtd` alone serves on `/run/fmtd/fmtd.sock`.
struct DaemonOptions {
    static let usage = """
        Usage: fmtd [options]

        Serves locale formatting (addresses, dates, phone numbers, names) as line-delimited JSON on a Unix socket.

        Options:
          --socket PATH          socket to listen on (env FMTD_SOCKET; default /run/fmtd/fmtd.sock);
                                 ignored under systemd socket activation
          --socket-mode MODE     octal file mode of the socket (default 0660)
          --data-dir DIR         data directory (default: <prefix>/share/fmtd or /usr/share/fmtd when installed,
                                 else the data embedded in this binary)
          --config-dir DIR       local additions such as address-formats.d/ and messages.d/ (default /etc/fmtd)
          --plugins LIST         comma-separated plugins to enable (default: all: \(PluginCatalog.names.joined(separator: ",")))
          --threads N            event loop threads (default: one per core)
          --max-line BYTES       longest request line (default 65536)
          --max-connections N    open connections before new ones are refused with `overloaded` (default 4096,
                                 lowered to what the open-files limit allows)
          --max-connections-per-uid N
                                 open connections of one peer uid before its new ones are refused with
                                 `overloaded` (default 1024)
          --max-buffered BYTES   input buffered across all connections (unfinished lines, unanswered lines) before
                                 only complete lines are read (default 67108864, or 16 x --max-line when larger;
                                 never below --max-line)
          --max-output BYTES     buffered responses per connection before reading pauses (default 1048576)
          --idle-timeout SEC     close connections idle this long (default 300)
          --line-timeout SEC     close a connection whose unfinished line is older than this (default 30)
          --shutdown-timeout SEC how long SIGTERM answers and flushes what clients sent (default 5); then fmtd exits
          --allow-uid LIST       only serve peers with these uids (or --allow-gid); comma-separated numbers
          --allow-gid LIST       only serve peers with these gids
          --log-level LEVEL      error, warning, notice, info or debug (default info)
          --check                load the data, report, and exit (0 when it loads)
          --version              print the version and exit
          --help                 print this help and exit

        Signals: SIGHUP reloads data (the old data stays when the new fails to load); SIGTERM/SIGINT drain and stop.
        """

    var socketPath = "/run/fmtd/fmtd.sock"
    var socketMode: mode_t = 0o660
    var dataDirectory: String?
    var configDirectory: String? = "/etc/fmtd"
    var plugins = PluginCatalog.names
    var server = ServerConfiguration(threads: max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    var logLevel = LogLevel.info
    var checkOnly = false

    enum Outcome: Error {
        case exit(code: Int32, message: String)
    }

    init(arguments: [String], environment: [String: String]) throws(Outcome) {
        if let path = environment["FMTD_SOCKET"], !path.isEmpty { socketPath = path }
        var remaining = arguments[...]
        func value(_ flag: String) throws(Outcome) -> String {
            guard let next = remaining.popFirst() else { throw .exit(code: 2, message: "fmtd: \(flag) needs a value") }
            return next
        }
        func number(_ flag: String, _ text: String) throws(Outcome) -> Int {
            guard let number = Int(text), number >= 0 else {
                throw .exit(code: 2, message: "fmtd: \(flag) needs a non-negative number, got \(text)")
            }
            return number
        }
        func ids(_ flag: String, _ text: String) throws(Outcome) -> Set<UInt32> {
            var result = Set<UInt32>()
            for part in text.split(separator: ",") {
                guard let id = UInt32(part) else {
                    throw .exit(code: 2, message: "fmtd: \(flag) takes numeric ids, got \(part)")
                }
                result.insert(id)
            }
            return result
        }
        while let argument = remaining.popFirst() {
            var flag = argument
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                remaining.insert(String(argument[argument.index(after: equals)...]), at: remaining.startIndex)
            }
            switch flag {
            case "--help", "-h": throw .exit(code: 0, message: Self.usage)
            case "--version": throw .exit(code: 0, message: "fmtd \(FmtdVersion.string)")
            case "--check": checkOnly = true
            case "--socket": socketPath = try value(flag)
            case "--socket-mode":
                let text = try value(flag)
                guard let mode = mode_t(text, radix: 8), mode <= 0o777 else {
                    throw .exit(code: 2, message: "fmtd: --socket-mode needs an octal mode such as 0660, got \(text)")
                }
                socketMode = mode
            case "--data-dir": dataDirectory = try value(flag)
            case "--config-dir":
                let directory = try value(flag)
                configDirectory = directory.isEmpty ? nil : directory
            case "--plugins":
                let list = try value(flag).split(separator: ",").map { String($0.filter { !$0.isWhitespace }) }
                for name in list where !PluginCatalog.names.contains(name) {
                    throw .exit(
                        code: 2,
                        message: "fmtd: unknown plugin \(name); known: \(PluginCatalog.names.joined(separator: ", "))")
                }
                plugins = list
            case "--threads": server.threads = max(1, try number(flag, try value(flag)))
            case "--max-line": server.maxLineBytes = max(64, try number(flag, try value(flag)))
            case "--max-connections": server.maxConnections = max(1, try number(flag, try value(flag)))
            case "--max-connections-per-uid":
                server.maxConnectionsPerUID = max(1, try number(flag, try value(flag)))
            case "--max-buffered": server.maxBufferedBytes = max(1024, try number(flag, try value(flag)))
            case "--max-output": server.maxOutputBytes = max(1024, try number(flag, try value(flag)))
            case "--idle-timeout": server.idleTimeout = .seconds(max(1, try number(flag, try value(flag))))
            case "--line-timeout": server.lineTimeout = .seconds(max(1, try number(flag, try value(flag))))
            case "--shutdown-timeout": server.shutdownTimeout = .seconds(try number(flag, try value(flag)))
            case "--allow-uid": server.allowedUIDs = try ids(flag, try value(flag))
            case "--allow-gid": server.allowedGIDs = try ids(flag, try value(flag))
            case "--log-level":
                let text = try value(flag)
                guard let level = LogLevel(name: text) else {
                    throw .exit(code: 2, message: "fmtd: --log-level is one of error, warning, notice, info, debug")
                }
                logLevel = level
            default:
                throw .exit(code: 2, message: "fmtd: unknown option \(argument)\n\n\(Self.usage)")
            }
        }
    }
}

enum FmtdVersion {
    static var string: String { FormatterHost.version }
}
