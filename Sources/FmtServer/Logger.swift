import Glibc

/// Syslog priorities, written as `<N>` prefixes that journald reads from stderr.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    public init?(name: String) {
        switch name.lowercased() {
        case "error", "err": self = .error
        case "warning", "warn": self = .warning
        case "notice": self = .notice
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Writes one line per event to stderr with a syslog priority prefix; one `write(2)` per line, so lines
/// from several threads never interleave.
public struct Logger: Sendable {
    public let level: LogLevel

    public init(level: LogLevel) {
        self.level = level
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        var line = "<\(level.rawValue)>" + message()
        line.append("\n")
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}

/// Lets a repeating log line through at most once per interval and counts the ones it held back, so an event that
/// recurs thousands of times a second (accept out of descriptors) costs one line a second, not a flood.
public struct LogThrottle: Sendable {
    /// The shortest time between two lines, in microseconds.
    public let intervalMicros: UInt64
    private var lastLogged: UInt64?
    private var suppressed = 0

    /// A throttle that has let nothing through yet.
    public init(intervalMicros: UInt64) {
        self.intervalMicros = intervalMicros
    }

    /// Records one occurrence at monotonic time `now`: returns how many occurrences were held back since the last
    /// line when this one should be logged, or nil when it is held back.
    public mutating func admit(now: UInt64) -> Int? {
        if let lastLogged, now &- lastLogged < intervalMicros {
            suppressed += 1
            return nil
        }
        lastLogged = now
        defer { suppressed = 0 }
        return suppressed
    }
}
