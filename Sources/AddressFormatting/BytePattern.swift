import PatternMatching

/// A postal-code pattern compiled at load into the shared backtracking matcher over ASCII bytes, answering as ICU's
/// `matches` does for ASCII text in nanoseconds instead of an ICU matcher's reset and run. It covers what postal
/// patterns use (`PatternParser`'s syntax without `.` and `$`); a pattern with anything else compiles to nil, and a
/// text with a non-ASCII byte (where `\d` means every decimal digit) or a match that takes too many steps is
/// answered by ICU instead.
struct BytePattern: Sendable {
    /// The number of capture groups, as ICU counts them.
    let groupCount: Int
    private let matcher: BacktrackingMatcher<ASCIISet>
    /// How many branches have a guard.
    var guardCount: Int { matcher.guardCount }

    /// The longest source, the deepest groups, the most repetitions a count may ask and the most instructions a
    /// program may have (4,096 with the whole match's saves and the `match`): beyond them ICU answers. Postal
    /// patterns are a few dozen bytes, nest two groups deep and count to 10.
    static let limits = PatternLimits(
        maximumSourceLength: 8192, maximumNesting: 16, maximumCount: 64, maximumProgram: 4096 - 3)

    /// Compiles `pattern`, or nil when it uses anything this matcher does not cover; without `guarded`, every branch
    /// is tried as the plain backtracker tries it (what the guards must not change, for tests).
    init?(_ pattern: String, guarded: Bool = true) {
        guard
            let compiled = try? CompiledPatternProgram<ASCIISet>(
                pattern, limits: Self.limits, capturingWholeMatch: true)
        else { return nil }
        groupCount = compiled.groupCount
        matcher = BacktrackingMatcher(compiled, guarded: guarded)
    }

    /// The whole-text match of `text` as `CompiledPattern.wholeMatch` reports it, or nil when ICU must answer (a
    /// non-ASCII byte, or the step or stack limit reached).
    func wholeMatch(_ text: String) -> PatternMatch? {
        var contiguous = text
        let slotCount = 2 * (groupCount + 1)
        return contiguous.withUTF8 { utf8 -> PatternMatch? in
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: slotCount) { slots -> PatternMatch? in
                guard let matched = wholeMatch(utf8, slots: slots) else { return nil }
                guard matched else { return .noMatch }
                let view = text.utf8
                return .matched(
                    (0...groupCount).map { group in
                        let start = Int(slots[2 * group])
                        let end = Int(slots[2 * group + 1])
                        guard start >= 0, end >= start, end <= utf8.count else { return nil }
                        let lower = view.index(view.startIndex, offsetBy: start)
                        let upper = view.index(lower, offsetBy: end - start)
                        return text[lower..<upper]
                    })
            }
        }
    }

    /// `wholeMatch(_:)` over UTF-8 bytes: true with `slots` (`2 * (groupCount + 1)` of them: each group's start and
    /// end byte offset, -1 for a group that took no part) filled, false on no match, nil when ICU must answer.
    func wholeMatch(_ utf8: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>) -> Bool? {
        matcher.wholeMatch(utf8, slots: slots)
    }

    /// `wholeMatch(_:slots:)` for text the caller has found to be ASCII.
    func wholeMatch(ascii text: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>) -> Bool? {
        matcher.wholeMatch(admitted: text, slots: slots)
    }
}
