import Glibc

/// A small deterministic random number generator (SplitMix64), so a failing random case can be reproduced from its
/// seed.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// The generator of one random test: seeded from `FMTD_TEST_SEED` when it is set, else from `seed`, and the
    /// seed printed with `name`, so a failing run is replayed with `FMTD_TEST_SEED=<seed> swift test --filter …`.
    public static func forTest(_ name: String, seed: UInt64) -> SeededGenerator {
        let chosen = getenv("FMTD_TEST_SEED").flatMap { UInt64(String(cString: $0)) } ?? seed
        print("\(name) seed \(chosen) (FMTD_TEST_SEED replays it)")
        return SeededGenerator(state: chosen)
    }
}
