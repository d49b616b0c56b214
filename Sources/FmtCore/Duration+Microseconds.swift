extension Duration {
    /// Whole microseconds (negative durations round toward zero), the unit of the daemon's monotonic clock
    /// readings (`csys_monotonic_usec`) and of the `...Us` figures in `stats`.
    package var wholeMicroseconds: Int64 {
        components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000
    }
}
