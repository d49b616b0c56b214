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
