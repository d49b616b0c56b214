import FmtServer
import Testing

/// The out-of-descriptors log line, at most once an interval.
@Suite struct LogThrottleTests {
    @Test func oneLineAnIntervalWithTheCountHeldBack() {
        var throttle = LogThrottle(intervalMicros: 1_000_000)
        #expect(throttle.admit(now: 10_000_000) == 0)
        #expect(throttle.admit(now: 10_100_000) == nil)
        #expect(throttle.admit(now: 10_900_000) == nil)
        #expect(throttle.admit(now: 11_000_000) == 2)
        #expect(throttle.admit(now: 11_500_000) == nil)
        #expect(throttle.admit(now: 13_000_000) == 1)
    }
}
