/// Timing for the tests that bound a cost: never an absolute duration (the machine, the build and the load of other
/// work all scale it), always a ratio to a baseline the same test measures on the same machine at the same moment,
/// such as the same operation on a benign input.
public enum Timing {
    /// The shortest of `runs` timings of `body`: the least disturbed by other work on the machine.
    public static func fastest(of runs: Int = 3, _ body: () throws -> Void) rethrows -> Duration {
        var best = Duration.seconds(3600)
        for _ in 0..<runs {
            let clock = ContinuousClock()
            let start = clock.now
            try body()
            best = min(best, clock.now - start)
        }
        return best
    }

    /// How many times `baseline` `measured` took (a baseline of zero counts as one nanosecond).
    public static func ratio(_ measured: Duration, to baseline: Duration) -> Double {
        measured / max(baseline, .nanoseconds(1))
    }
}
