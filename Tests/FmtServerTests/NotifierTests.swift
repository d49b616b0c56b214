import FmtServer
import Testing

/// sd_notify settings come from the environment exactly as systemd documents them.
@Suite struct NotifierTests {
    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        let notifier = Notifier(environment: ["NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000"])
        #expect(notifier.watchdogInterval == .seconds(15))
        #expect(notifier.socketPath == "/run/x")
    }

    @Test func watchdogForAnotherPidIsIgnored() {
        let notifier = Notifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"])
        #expect(notifier.watchdogInterval == nil)
    }

    @Test func withoutNotifySocketNothingIsSent() {
        #expect(Notifier(environment: [:]).send("READY=1") == false)
    }
}
