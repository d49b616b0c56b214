import CSystem
import Glibc

/// The sd_notify datagram protocol without libsystemd: `READY=1`, `STATUS=`, `RELOADING=1`, `STOPPING=1`,
/// `WATCHDOG=1` sent to `NOTIFY_SOCKET`. Sends never block (`MSG_DONTWAIT`), so a stalled reader cannot
/// stall the daemon. Without `NOTIFY_SOCKET` every call is a no-op.
public struct Notifier: Sendable {
    public let socketPath: String?
    /// Half of `WATCHDOG_USEC` when systemd asked for keep-alives (and `WATCHDOG_PID` is us or unset).
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        let pidMatches = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        if pidMatches, let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 {
            watchdogInterval = .microseconds(usec / 2)
        } else {
            watchdogInterval = nil
        }
    }

    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        return message.withCString { csys_notify(socketPath, $0, strlen($0)) } == 0
    }

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public func status(_ status: String) { send("STATUS=\(status)") }
    public func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(csys_monotonic_usec())") }
    public func stopping() { send("STOPPING=1") }
    public func watchdog() { send("WATCHDOG=1") }
}
