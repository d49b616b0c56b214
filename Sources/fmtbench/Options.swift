import Foundation

/// What fmtbench was asked to do, parsed from its command line.
struct Options {
    static let usage = """
        Usage: fmtbench --socket PATH [load options]            load fmtd over its socket
               fmtbench --echo [load options]                   the same load against a built-in line-echo server
               fmtbench --compare --socket PATH [load options]  echo and fmtd alternately, medians and ratios
               fmtbench --reload --socket PATH [load options]   SIGHUP the daemon during load
               fmtbench --idle-connections N --socket PATH      resident memory per idle connection
               fmtbench --startup PATH-TO-FMTD [-- FMTD-ARGS]   time from spawn to READY=1, resident after start
               fmtbench --micro                                 in-process cost per op (ns and allocations)
               fmtbench --worst-lines [--max-line N]            in-process cost of the costliest lines a client can send

        Instead of --socket PATH, --spawn PATH-TO-FMTD [-- FMTD-ARGS] starts fmtd on a private socket (a fresh
        daemon per run for --idle-connections) and stops it at the end.

        Load options:
          --connections N   connections (default 16)
          --depth D         requests in flight per connection (default 32)
          --duration S      measured seconds per run (default 5; fractions allowed)
          --warmup S        unmeasured seconds before each run (default 0.5)
          --mix LIST        ops to cycle through: phone,address,date,sort,ping (default phone,address,date,sort);
                            ops the daemon does not serve (per `info`) are skipped with a note
          --threads T       client threads (default: min(connections, 2)); a thread with one connection blocks
                            in recv, threads with several use epoll
          --runs K          repeat each measurement K times and report the median (default 1)
          --pid PID         the daemon's pid for /proc readings (default: SO_PEERCRED of the first connection)
          --vectors DIR     the vector files (default data/vectors under the current directory)
          --reloads K       with --reload: SIGHUPs per run, evenly spaced (default 4)
          --change-data DIR with --reload: append a space to every *.json under DIR before each SIGHUP, so every
                            plugin reading from it loads anew (give fmtd the same DIR: -- --data-dir DIR)
          --iterations N    with --micro: calls per request line and measurement (default 2000)
          --data-dir DIR    with --micro and --worst-lines: the data to load plugins from (default data)
          --max-line N      with --worst-lines: the line length to fill (default 65536, fmtd's default)
          --json            print one JSON object with every figure instead of the text report
          --help            this text

        Errors are responses with "ok":false to the well-formed requests of the mix, plus requests lost to a
        closed connection. Daemon CPU per request is the utime+stime delta of /proc/PID/stat over the measured
        window divided by the requests completed in it; peak RSS is VmHWM from /proc/PID/status.
        """

    enum Mode {
        case load, echo, compare, reload, idle, startup, micro, worstLines
    }

    var mode = Mode.load
    var socketPath: String?
    var connections = 16
    var depth = 32
    var duration = 5.0
    var warmup = 0.5
    var mix = ["phone", "address", "date", "sort"]
    var threads: Int?
    var runs = 1
    var pid: Int32?
    var vectorsDirectory = "data/vectors"
    var dataDirectory = "data"
    var reloads = 4
    /// With --reload: a data directory whose JSON files all change (a trailing space) before each SIGHUP.
    var changeDataDirectory: String?
    var iterations = 2000
    var maxLine = 65536
    var idleConnections = 2000
    var fmtdPath: String?
    /// Start this fmtd binary instead of using `--socket`.
    var spawnPath: String?
    var fmtdArguments: [String] = []
    var json = false
    /// Hidden: serve the line echo on this path (the child process `--echo` spawns).
    var serveEchoPath: String?

    var clientThreads: Int { max(1, min(threads ?? min(connections, 2), connections)) }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let next = remaining.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return next
        }
        func integer(_ flag: String, minimum: Int = 1) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= minimum else {
                throw UsageError(description: "\(flag) needs a whole number ≥ \(minimum), got \(text)")
            }
            return number
        }
        func seconds(_ flag: String) throws(UsageError) -> Double {
            let text = try value(flag)
            guard let number = Double(text), number >= 0 else {
                throw UsageError(description: "\(flag) needs a number of seconds, got \(text)")
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": throw UsageError(description: Self.usage)
            case "--socket": socketPath = try value(argument)
            case "--connections": connections = try integer(argument)
            case "--depth": depth = try integer(argument)
            case "--duration": duration = try seconds(argument)
            case "--warmup": warmup = try seconds(argument)
            case "--mix": mix = try value(argument).split(separator: ",").map(String.init)
            case "--threads": threads = try integer(argument)
            case "--runs": runs = try integer(argument)
            case "--pid": pid = Int32(try integer(argument))
            case "--vectors": vectorsDirectory = try value(argument)
            case "--data-dir": dataDirectory = try value(argument)
            case "--reloads": reloads = try integer(argument)
            case "--change-data": changeDataDirectory = try value(argument)
            case "--iterations": iterations = try integer(argument)
            case "--json": json = true
            case "--echo": mode = .echo
            case "--compare": mode = .compare
            case "--reload": mode = .reload
            case "--micro": mode = .micro
            case "--worst-lines": mode = .worstLines
            case "--max-line": maxLine = try integer(argument, minimum: 256)
            case "--idle-connections":
                mode = .idle
                idleConnections = try integer(argument)
            case "--startup":
                mode = .startup
                fmtdPath = try value(argument)
            case "--spawn": spawnPath = try value(argument)
            case "--serve-echo": serveEchoPath = try value(argument)
            case "--":
                fmtdArguments = Array(remaining)
                remaining = []
            default: throw UsageError(description: "unknown option \(argument)\n\n\(Self.usage)")
            }
        }
        let needsSocket: Set<Mode> = [.load, .compare, .reload, .idle]
        if serveEchoPath == nil, needsSocket.contains(mode), socketPath == nil, spawnPath == nil {
            throw UsageError(
                description: "--socket PATH (the daemon's socket) or --spawn PATH-TO-FMTD is required\n\n\(Self.usage)")
        }
        let known: Set<String> = ["phone", "address", "date", "sort", "ping"]
        for op in mix where !known.contains(op) {
            throw UsageError(description: "--mix: unknown op \(op); known: phone, address, date, sort, ping")
        }
    }

    /// The load parameters of one run, as printed in reports.
    var shape: String { "\(connections)×\(depth)" }
}
