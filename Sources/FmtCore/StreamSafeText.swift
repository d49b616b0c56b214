import CICU

/// Whether text is Stream-Safe as `JSONReader` requires (at most `JSONReader.maxNonStarters` non-starters in a row
/// after canonical decomposition), mostly without asking ICU: a scalar whose decomposition begins with a
/// non-starter (a combining mark, for one) adds at most `nonStartersWithoutStarter` to a run, and any other scalar
/// ends the run, leaving at most `nonStartersAfterStarter` of its own. So a text without `longestProvenRun + 1` such
/// scalars in a row cannot break the limit; only one with that many goes to ICU's count
/// (`fmt_icu_stream_safe_violation`), which stays the definition.
enum StreamSafeText {
    /// The most non-starters a scalar's decomposition holds when it holds no starter (U+0344 → U+0308 U+0301);
    /// pinned to ICU over every scalar by a test.
    static let nonStartersWithoutStarter = 2
    /// The longest run of non-starters after a starter in one scalar's decomposition (U+1F82 → α and three marks);
    /// pinned to ICU over every scalar by a test.
    static let nonStartersAfterStarter = 3
    /// The most scalars beginning with a non-starter that may stand in a row in text proven safe without ICU.
    static let longestProvenRun = (JSONReader.maxNonStarters - nonStartersAfterStarter) / nonStartersWithoutStarter

    /// Whether `text` (well-formed UTF-8) has at most `JSONReader.maxNonStarters` non-starters in a row.
    static func isSafe(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        isProvenSafe(text) || icuViolation(text) < 0
    }

    /// ICU's answer: the byte offset of the first scalar past the limit, or -1.
    static func icuViolation(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        text.withMemoryRebound(to: CChar.self) {
            Int(fmt_icu_stream_safe_violation($0.baseAddress, Int32($0.count), Int32(JSONReader.maxNonStarters)))
        }
    }

    /// ICU's canonical decomposition of `scalar` (itself when it has none), counted: its scalars, the non-starters
    /// it begins with before any starter, and its longest run of non-starters after a starter. nil when ICU fails.
    static func nonStarterRuns(of scalar: Unicode.Scalar) -> (parts: Int, leading: Int, afterStarter: Int)? {
        var leading: Int32 = 0
        var afterStarter: Int32 = 0
        let parts = fmt_icu_nfd_nonstarter_runs(Int32(scalar.value), &leading, &afterStarter)
        guard parts > 0 else { return nil }
        return (Int(parts), Int(leading), Int(afterStarter))
    }

    /// Whether `text` (well-formed UTF-8) has no more than `longestProvenRun` scalars in a row whose
    /// decomposition begins with a non-starter; false says only that ICU must count.
    static func isProvenSafe(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        let count = text.count
        let table = leadingNonStarters
        var run = 0
        var index = 0
        while index < count {
            let lead = base[index]
            // Below U+0300 (lead byte 0xCC) no scalar begins with a non-starter.
            if lead < 0xCC {
                run = 0
                index &+= lead < 0x80 ? 1 : 2
                continue
            }
            let scalar: UInt32
            if lead < 0xE0 {
                scalar = UInt32(lead & 0x1F) &<< 6 | UInt32(base[index &+ 1] & 0x3F)
                index &+= 2
            } else if lead < 0xF0 {
                scalar =
                    UInt32(lead & 0x0F) &<< 12 | UInt32(base[index &+ 1] & 0x3F) &<< 6
                    | UInt32(base[index &+ 2] & 0x3F)
                index &+= 3
            } else {
                scalar =
                    UInt32(lead & 0x07) &<< 18 | UInt32(base[index &+ 1] & 0x3F) &<< 12
                    | UInt32(base[index &+ 2] & 0x3F) &<< 6 | UInt32(base[index &+ 3] & 0x3F)
                index &+= 4
            }
            if table.contains(scalar) {
                run &+= 1
                if run > longestProvenRun { return false }
            } else {
                run = 0
            }
        }
        return true
    }

    /// The scalars whose decomposition begins with a non-starter, from ICU's Lead_Canonical_Combining_Class (925
    /// scalars in 190 ranges in ICU 72), read once, when the first text that may hold one is checked.
    static let leadingNonStarters = ScalarSet(ranges: leadingNonStarterRanges())

    private static func leadingNonStarterRanges() -> [ClosedRange<UInt32>] {
        var ranges = [Int32](repeating: 0, count: 1024)
        var count = Int(fmt_icu_leading_nonstarter_ranges(&ranges, Int32(ranges.count)))
        if count * 2 > ranges.count {
            ranges = [Int32](repeating: 0, count: count * 2)
            count = Int(fmt_icu_leading_nonstarter_ranges(&ranges, Int32(ranges.count)))
        }
        // Without ICU's set every scalar from U+0300 counts, so ICU counts whatever could break the limit.
        guard count > 0 else { return [0x300...0x10FFFF] }
        return (0..<count).map { UInt32(ranges[2 * $0])...UInt32(ranges[2 * $0 + 1]) }
    }

    /// A set of scalars: a bitmap over the Basic Multilingual Plane, sorted ranges beyond it. Made once and never
    /// freed, so a check copies two pointers and counts no references.
    struct ScalarSet: @unchecked Sendable {
        /// Bit `s & 63` of word `s >> 6` for each scalar `s` below U+10000.
        let bmp: UnsafePointer<UInt64>
        /// The ranges from U+10000, sorted and disjoint.
        let supplementary: UnsafeBufferPointer<ClosedRange<UInt32>>

        init(ranges: [ClosedRange<UInt32>]) {
            let bmp = UnsafeMutablePointer<UInt64>.allocate(capacity: 0x10000 / 64)
            bmp.initialize(repeating: 0, count: 0x10000 / 64)
            var supplementary: [ClosedRange<UInt32>] = []
            for range in ranges {
                if range.lowerBound <= 0xFFFF {
                    for scalar in range.lowerBound...min(range.upperBound, 0xFFFF) {
                        bmp[Int(scalar >> 6)] |= 1 << UInt64(scalar & 63)
                    }
                }
                if range.upperBound > 0xFFFF { supplementary.append(max(range.lowerBound, 0x10000)...range.upperBound) }
            }
            supplementary.sort { $0.lowerBound < $1.lowerBound }
            let stored = UnsafeMutableBufferPointer<ClosedRange<UInt32>>.allocate(capacity: max(1, supplementary.count))
            _ = stored.initialize(from: supplementary)
            self.bmp = UnsafePointer(bmp)
            self.supplementary = UnsafeBufferPointer(rebasing: UnsafeBufferPointer(stored)[0..<supplementary.count])
        }

        @inline(__always)
        func contains(_ scalar: UInt32) -> Bool {
            if scalar <= 0xFFFF { return bmp[Int(scalar &>> 6)] &>> UInt64(scalar & 63) & 1 != 0 }
            var low = 0
            var high = supplementary.count
            while low < high {
                let middle = (low &+ high) &>> 1
                if supplementary[middle].upperBound < scalar { low = middle &+ 1 } else { high = middle }
            }
            return low < supplementary.count && supplementary[low].lowerBound <= scalar
        }
    }
}
