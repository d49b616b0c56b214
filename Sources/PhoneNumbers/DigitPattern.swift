import PatternMatching

/// Why a metadata pattern could not be compiled.
struct PatternSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    let pattern: String
    let offset: Int
    let detail: String

    var description: String { "\(detail) at offset \(offset) in \(pattern)" }
}

/// A compiled metadata pattern over ASCII digits.
///
/// Read and laid out by `CompiledPatternProgram` over `DigitSet`: the subset upstream's metadata uses (digits, `\d`,
/// `.`, character classes with ranges, capturing and `(?:)` groups, alternation, `?`, `*`, `+`, `{n}`, `{n,}`,
/// `{n,m}` and the `$` anchor); any other character (`~`, a letter, an escaped `\+`) is a literal, which matches
/// nothing in a digit string. A quantifier after a quantifier is refused, and so are `^`, back-references and other
/// escapes. Matching is backtracking in priority order (alternatives left to right, greedy repeats), which gives the
/// same match ends and captures as the leftmost-first engines the metadata was written for; a search that runs long
/// continues memoized, so matching stays linear in program size × input length.
final class DigitPattern: @unchecked Sendable {
    typealias Instruction = PatternInstruction<DigitSet>

    /// The compiled size a pattern may reach: this many instructions per source byte, and never less than the
    /// minimum, so short patterns with ordinary repeats (`\d{14}`) always fit.
    static let programLimitPerByte = 8
    static let minimumProgramLimit = 256
    /// Upstream's longest pattern is about 1.4 KB and its deepest nesting 5 groups; these bounds leave room for
    /// growth while keeping the recursive parser and the compiled program small.
    static let maximumSourceLength = 8192
    static let maximumNesting = 32

    let program: [Instruction]
    /// The program in memory of its own that is never written after `init` (hence `@unchecked Sendable`): what
    /// matching reads, without reference counting or bounds checks.
    let compiled: PatternProgram
    var groupCount: Int { compiled.groupCount }
    /// Digits that can start a non-empty match; all bits set when an empty match is possible.
    var firstDigits: UInt16 { compiled.firstDigits }
    /// For each first digit, the second digits a match (or a longer input's prefix match) can continue with.
    let secondDigits: [UInt16]

    init(_ source: String) throws(PatternSyntaxError) {
        // Bounded repeats copy their body, so nesting multiplies; a hostile file must not turn a few bytes into
        // gigabytes. Upstream 9.0.35 needs at most two instructions per pattern byte, 796 for its largest pattern.
        let limits = PatternLimits(
            maximumSourceLength: Self.maximumSourceLength, maximumNesting: Self.maximumNesting, maximumCount: 64,
            maximumProgram: max(Self.minimumProgramLimit, Self.programLimitPerByte * source.utf8.count))
        let parsed: CompiledPatternProgram<DigitSet>
        do {
            parsed = try CompiledPatternProgram(source, limits: limits, capturingWholeMatch: false)
        } catch {
            let shown = source.utf8.count > Self.maximumSourceLength ? String(source.prefix(64)) + "…" : source
            throw PatternSyntaxError(pattern: shown, offset: error.offset, detail: error.detail)
        }
        program = parsed.program
        let code = UnsafeMutableBufferPointer<Instruction>.allocate(capacity: parsed.program.count)
        _ = code.initialize(from: parsed.program)
        let firstSets = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: parsed.program.count)
        _ = firstSets.initialize(from: Self.firstSets(of: parsed.program))
        let groups = Self.groupSequence(parsed.node, groupCount: parsed.groupCount).map { specs in
            let storage = UnsafeMutableBufferPointer<PatternProgram.Group>.allocate(capacity: specs.count)
            _ = storage.initialize(from: specs)
            return UnsafeBufferPointer(storage)
        }
        let automaton = DigitAutomaton.build(parsed.program)
        let header = UnsafeMutablePointer<PatternProgram.Header>.allocate(capacity: 1)
        header.initialize(
            to: PatternProgram.Header(
                code: UnsafeBufferPointer(code), firstSets: UnsafeBufferPointer(firstSets),
                groupCount: parsed.groupCount, firstDigits: Self.firstDigits(of: parsed.program), groups: groups,
                automaton: automaton))
        compiled = PatternProgram(header: header)
        secondDigits = Self.secondDigits(of: parsed.program, firstSets: firstSets)
    }

    /// Whether an input starting with these two digits can match (conservative).
    @inline(__always)
    func mayStart(_ first: UInt8, _ second: UInt8) -> Bool {
        let a = first &- 48
        let b = second &- 48
        return a < 10 && b < 10 && secondDigits[Int(a)] & (1 << UInt16(b)) != 0
    }

    private static func secondDigits(
        of program: [Instruction], firstSets: UnsafeMutableBufferPointer<UInt16>
    ) -> [UInt16] {
        var table = [UInt16](repeating: 0, count: 10)
        var seen = [Bool](repeating: false, count: program.count)
        var pending = [0]
        while let pc = pending.popLast() {
            guard !seen[pc] else { continue }
            seen[pc] = true
            switch program[pc] {
            case .accept(let set):
                let mask = set.mask
                let follow = firstSets[pc + 1]
                let allowed: UInt16 = follow & nullable != 0 ? 0x3FF : follow & 0x3FF
                for digit in 0..<10 where mask & (1 << UInt16(digit)) != 0 { table[digit] |= allowed }
            case .split(let first, let second): pending += [Int(first), Int(second)]
            case .jump(let target): pending.append(Int(target))
            case .save: pending.append(pc + 1)
            case .atEnd, .match: return [UInt16](repeating: 0x3FF, count: 10)
            }
        }
        return table
    }

    deinit {
        compiled.code.deallocate()
        compiled.firstSets.deallocate()
        compiled.groups?.deallocate()
        compiled.automaton?.deallocate()
        compiled.header.deallocate()
    }

    /// The most ways a group sequence may have to split an input (the product of its groups' ranges of counts);
    /// beyond it the pattern runs on the program, whose work is bounded by program size × input length.
    static let maximumGroupSplits = 4096

    /// The groups of a pattern that is nothing but capturing groups in a row, each one class repeated a bounded
    /// number of times (`(\d{3})([2-9]\d?)` is not one, `(\d{3})(\d{4,5})` is): every format pattern upstream ships.
    static func groupSequence(_ node: PatternNode<DigitSet>, groupCount: Int) -> [PatternProgram.Group]? {
        let items: [PatternNode<DigitSet>]
        switch node {
        case .sequence(let list): items = list
        case .group: items = [node]
        default: return nil
        }
        var groups: [PatternProgram.Group] = []
        var splits = 1
        for (position, item) in items.enumerated() {
            guard case .group(let index?, let inner) = item, index == position else { return nil }
            switch inner {
            case .characters(let set):
                groups.append(PatternProgram.Group(mask: set.mask, minimum: 1, maximum: 1))
            case .repeated(let atom, let minimum, let maximum?):
                guard case .characters(let set) = atom else { return nil }
                let mask = set.mask
                splits *= maximum - minimum + 1
                guard splits <= maximumGroupSplits else { return nil }
                groups.append(PatternProgram.Group(mask: mask, minimum: Int32(minimum), maximum: Int32(maximum)))
            default:
                return nil
            }
        }
        return groups.count == groupCount && !groups.isEmpty ? groups : nil
    }

    fileprivate static let nullable: UInt16 = 0x8000

    /// The least fixed point of "what each instruction can consume first", so loops whose bodies can match
    /// nothing still see the digits after them. Passes run backwards, so forward edges settle in one pass and
    /// each level of loop nesting adds at most one more.
    private static func firstSets(of program: [Instruction]) -> [UInt16] {
        var sets = [UInt16](repeating: 0, count: program.count)
        var changed = true
        while changed {
            changed = false
            for pc in program.indices.reversed() {
                let result: UInt16
                switch program[pc] {
                case .accept(let set): result = set.mask
                case .split(let first, let second): result = sets[Int(first)] | sets[Int(second)]
                case .jump(let target): result = sets[Int(target)]
                case .save: result = sets[pc + 1]
                case .atEnd, .match: result = nullable
                }
                if result != sets[pc] {
                    sets[pc] = result
                    changed = true
                }
            }
        }
        return sets
    }

    private static func firstDigits(of program: [Instruction]) -> UInt16 {
        var seen = [Bool](repeating: false, count: program.count)
        var pending = [0]
        var mask: UInt16 = 0
        while let pc = pending.popLast() {
            guard !seen[pc] else { continue }
            seen[pc] = true
            switch program[pc] {
            case .accept(let digits): mask |= digits.mask
            case .split(let first, let second): pending += [Int(first), Int(second)]
            case .jump(let target): pending.append(Int(target))
            case .save: pending.append(pc + 1)
            case .atEnd, .match: return 0x3FF
            }
        }
        return mask
    }

    // MARK: Matching

    /// Whether the whole input matches.
    func matchesWhole(_ input: UnsafeBufferPointer<UInt8>) -> Bool { compiled.matchesWhole(input) }

    /// Whether some prefix of the input matches (a match anchored at the start).
    func matchesPrefix(_ input: UnsafeBufferPointer<UInt8>) -> Bool { compiled.matchesPrefix(input) }

    /// The end of the first match in priority order anchored at the start, without captures.
    func matchEnd(_ input: UnsafeBufferPointer<UInt8>) -> Int? { compiled.matchEnd(input) }

    /// Like `match`, but writes group boundaries into `slots` (two per group, -1 when unset) without allocating.
    func match(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, slots: UnsafeMutableBufferPointer<Int32>
    ) -> Int? {
        compiled.match(input, from: start, slots: slots)
    }

    /// The first match in priority order anchored at `start`, with group ranges (`nil` for groups that did not
    /// take part).
    /// `memoized` runs the linear fallback straight away, so tests can hold it to the same answers.
    func match(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int = 0, whole: Bool = false, memoized: Bool = false
    ) -> PatternMatch? {
        let slotCount = 2 * groupCount
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(slotCount, 1)) { slots in
            slots.initialize(repeating: -1)
            guard let end = compiled.run(input, whole: whole, slots: slots, start: start, memoized: memoized) else {
                return nil
            }
            var groups: [Range<Int>?] = []
            groups.reserveCapacity(groupCount)
            for group in 0..<groupCount {
                let lower = Int(slots[2 * group])
                let upper = Int(slots[2 * group + 1])
                groups.append(lower >= 0 && upper >= lower ? lower..<upper : nil)
            }
            return PatternMatch(range: start..<end, groups: groups)
        }
    }

}

/// A compiled pattern as matching reads it: plain pointers into memory its `DigitPattern` owns, so copies of it
/// sit in metadata tables and are matched without touching a reference count.
struct PatternProgram: @unchecked Sendable {
    typealias Instruction = DigitPattern.Instruction

    /// What matching reads, behind one pointer so that the tables holding programs stay small.
    struct Header {
        let code: UnsafeBufferPointer<Instruction>
        let firstSets: UnsafeBufferPointer<UInt16>
        let groupCount: Int
        let firstDigits: UInt16
        let groups: UnsafeBufferPointer<Group>?
        /// The pattern as a deterministic automaton, for whole and prefix matches; nil when it would be too large.
        let automaton: DigitAutomaton?
    }

    let header: UnsafePointer<Header>

    @inline(__always) var code: UnsafeBufferPointer<Instruction> { header.pointee.code }
    /// Per instruction: the digits (bits 0–9) that can be consumed first from there, and bit 15 when the match
    /// can end without consuming anything. Lets `split` skip branches that cannot match the next digit.
    @inline(__always) var firstSets: UnsafeBufferPointer<UInt16> { header.pointee.firstSets }
    @inline(__always) var groupCount: Int { header.pointee.groupCount }
    /// Digits that can start a non-empty match; all bits set when an empty match is possible.
    @inline(__always) var firstDigits: UInt16 { header.pointee.firstDigits }
    /// For a pattern of capturing groups in a row (`DigitPattern.groupSequence`), the groups: matched by trying
    /// each group's counts from the most down, the priority order the program follows too.
    @inline(__always) var groups: UnsafeBufferPointer<Group>? { header.pointee.groups }
    @inline(__always) var automaton: DigitAutomaton? { header.pointee.automaton }

    /// A capturing group of one class repeated `minimum...maximum` times.
    struct Group {
        let mask: UInt16
        let minimum: Int32
        let maximum: Int32
    }

    /// Every group taking as many digits as it can: the first split in priority order, and nearly always a match.
    /// Nil (slots unset) when it is none, and the search must back off.
    @inline(__always)
    private func matchGroupsGreedily(
        _ groups: UnsafeBufferPointer<Group>, _ input: UnsafeBufferPointer<UInt8>, at start: Int, whole: Bool,
        slots: UnsafeMutableBufferPointer<Int32>?
    ) -> Int? {
        var position = start
        for group in 0..<groups.count {
            let spec = groups[group]
            let limit = min(Int(spec.maximum), input.count - position)
            var run = 0
            while run < limit && Self.isDigit(input[position + run], in: spec.mask) { run += 1 }
            guard run >= Int(spec.minimum) else {
                slots?.update(repeating: -1)
                return nil
            }
            if let slots {
                slots[2 * group] = Int32(position)
                slots[2 * group + 1] = Int32(position + run)
            }
            position += run
        }
        guard !whole || position == input.count else {
            slots?.update(repeating: -1)
            return nil
        }
        return position
    }

    /// The end of the first match of the groups from `group` on at `position`, writing their boundaries.
    private func matchGroups(
        _ groups: UnsafeBufferPointer<Group>, _ group: Int, _ input: UnsafeBufferPointer<UInt8>, at position: Int,
        whole: Bool, slots: UnsafeMutableBufferPointer<Int32>?
    ) -> Int? {
        if group == groups.count { return !whole || position == input.count ? position : nil }
        let spec = groups[group]
        let limit = min(Int(spec.maximum), input.count - position)
        var run = 0
        while run < limit && Self.isDigit(input[position + run], in: spec.mask) { run += 1 }
        var count = run
        while count >= Int(spec.minimum) {
            if let end = matchGroups(groups, group + 1, input, at: position + count, whole: whole, slots: slots) {
                if let slots {
                    slots[2 * group] = Int32(position)
                    slots[2 * group + 1] = Int32(position + count)
                }
                return end
            }
            count -= 1
        }
        return nil
    }

    /// Whether the whole input matches: by the automaton when the pattern has one.
    func matchesWhole(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if let automaton { return automaton.matchesWhole(input) }
        return matchesWholeByRun(input)
    }

    /// Whether some prefix of the input matches (a match anchored at the start): by the automaton when the pattern
    /// has one.
    func matchesPrefix(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if let automaton { return automaton.matchesPrefix(input) }
        return matchesPrefixByRun(input)
    }

    /// `matchesWhole` by the backtracking run, which the automaton must agree with.
    func matchesWholeByRun(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        canStart(input) && run(input, whole: true, slots: nil) != nil
    }

    /// `matchesPrefix` by the backtracking run, which the automaton must agree with.
    func matchesPrefixByRun(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        canStart(input) && run(input, whole: false, slots: nil) != nil
    }

    @inline(__always)
    func canStart(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if firstDigits == 0x3FF { return true }
        guard let first = input.first else { return false }
        return Self.isDigit(first, in: firstDigits)
    }

    /// The end of the first match in priority order anchored at the start, without captures.
    func matchEnd(_ input: UnsafeBufferPointer<UInt8>) -> Int? {
        mayMatchPrefix(input) ? run(input, whole: false, slots: nil) : nil
    }

    /// False only when no match anchored at the start exists, as the automaton tells (the first digits when the
    /// pattern has none): a prefix that does not apply (a national prefix, an IDD) is ruled out without a run.
    @inline(__always)
    func mayMatchPrefix(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        if let automaton { return automaton.matchesPrefix(input) }
        return canStart(input)
    }

    /// The end of the first match anchored at the start, with its group boundaries in `slots` (as
    /// `match(_:from:slots:)` writes them); `slots` untouched when no digit can start a match.
    @inline(__always)
    func firstMatch(_ input: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>) -> Int? {
        canStart(input) ? match(input, from: 0, slots: slots) : nil
    }

    /// Like `match`, but writes group boundaries into `slots` (two per group, -1 when unset) without allocating.
    func match(
        _ input: UnsafeBufferPointer<UInt8>, from start: Int, slots: UnsafeMutableBufferPointer<Int32>
    ) -> Int? {
        // Groups in a row write every slot of theirs when they match and reset them all when they do not.
        if let groups, slots.count == 2 * groups.count {
            if let end = matchGroupsGreedily(groups, input, at: start, whole: false, slots: slots) { return end }
            return matchGroups(groups, 0, input, at: start, whole: false, slots: slots)
        }
        slots.update(repeating: -1)
        return run(input, whole: false, slots: slots, start: start)
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8, in mask: UInt16) -> Bool {
        let value = byte &- 48
        return value < 10 && mask & (1 << UInt16(value)) != 0
    }

    private struct Frame {
        var pc: Int32
        var position: Int32
    }

    private enum Outcome {
        case matched(Int)
        case failed
        case overflow
    }

    /// Returns the end of the first match in priority order.
    func run(
        _ input: UnsafeBufferPointer<UInt8>, whole: Bool, slots: UnsafeMutableBufferPointer<Int32>?, start: Int = 0,
        memoized: Bool = false
    ) -> Int? {
        if !memoized, let groups {
            if let end = matchGroupsGreedily(groups, input, at: start, whole: whole, slots: slots) { return end }
            return matchGroups(groups, 0, input, at: start, whole: whole, slots: slots)
        }
        let small =
            memoized
            ? .overflow
            : withUnsafeTemporaryAllocation(of: Frame.self, capacity: 120) { stack in
                execute(input, whole: whole, slots: slots, start: start, stack: stack)
            }
        switch small {
        case .matched(let end): return end
        case .failed: return nil
        case .overflow:
            // Only hostile patterns get here (deep stacks, or nested loops stepping or backtracking more than a
            // memoized run could). Run again
            // remembering each (instruction, position) already tried: a second arrival cannot succeed where the
            // first failed, so the work is bounded by program size × input length.
            slots?.update(repeating: -1)
            let columns = input.count - start + 1
            var tried = [UInt64](repeating: 0, count: (code.count * columns + 63) / 64)
            var big = [Frame](repeating: Frame(pc: 0, position: 0), count: 1 << 16)
            let outcome = tried.withUnsafeMutableBufferPointer { tried in
                big.withUnsafeMutableBufferPointer {
                    execute(input, whole: whole, slots: slots, start: start, stack: $0, tried: tried)
                }
            }
            if case .matched(let end) = outcome { return end }
            return nil
        }
    }

    /// Frames with a negative `pc` restore capture slot `-pc - 1` to `position` when popped. Inlined into both
    /// callers, so the plain run carries no test for `tried`.
    @inline(__always)
    private func execute(
        _ input: UnsafeBufferPointer<UInt8>, whole: Bool, slots: UnsafeMutableBufferPointer<Int32>?, start: Int,
        stack: UnsafeMutableBufferPointer<Frame>, tried: UnsafeMutableBufferPointer<UInt64>? = nil
    ) -> Outcome {
        do {
            // Read once: the stack and slot writes below could alias the header as far as the compiler knows.
            let code = self.code
            let firstSets = self.firstSets
            var depth = 0
            var pc = 0
            var position = start
            let count = input.count
            let columns = count - start + 1
            // Without memory of tried states the fast path may take as many steps as the memoized run could take
            // at most, so the two together stay linear in program size × input length.
            let stepBudget = code.count * columns
            var steps = 0
            while true {
                var failed = false
                if let tried {
                    let bit = pc * columns + (position - start)
                    let (word, mask) = (bit >> 6, UInt64(1) << UInt64(bit & 63))
                    failed = tried[word] & mask != 0
                    tried[word] |= mask
                } else {
                    steps &+= 1
                    if steps > stepBudget { return .overflow }
                }
                if !failed {
                    switch code[pc] {
                    case .accept(let set):
                        if position < count && Self.isDigit(input[position], in: set.mask) {
                            position += 1
                            pc += 1
                        } else {
                            failed = true
                        }
                    case .split(let first, let second):
                        var next = DigitPattern.nullable
                        if position < count {
                            let value = input[position] &- 48
                            if value < 10 { next |= 1 << UInt16(value) }
                        }
                        let firstViable = firstSets[Int(first)] & next != 0
                        let secondViable = firstSets[Int(second)] & next != 0
                        if firstViable && secondViable {
                            guard depth < stack.count else { return .overflow }
                            stack[depth] = Frame(pc: second, position: Int32(position))
                            depth += 1
                            pc = Int(first)
                        } else if firstViable {
                            pc = Int(first)
                        } else if secondViable {
                            pc = Int(second)
                        } else {
                            failed = true
                        }
                    case .jump(let target):
                        pc = Int(target)
                    case .save(let slot):
                        if let slots {
                            guard depth < stack.count else { return .overflow }
                            stack[depth] = Frame(pc: -slot - 1, position: slots[Int(slot)])
                            depth += 1
                            slots[Int(slot)] = Int32(position)
                        }
                        pc += 1
                    case .atEnd:
                        if position == count { pc += 1 } else { failed = true }
                    case .match:
                        if !whole || position == count { return .matched(position) }
                        failed = true
                    }
                }
                if failed {
                    while true {
                        guard depth > 0 else { return .failed }
                        depth -= 1
                        let frame = stack[depth]
                        if frame.pc < 0 {
                            slots?[Int(-frame.pc - 1)] = frame.position
                        } else {
                            pc = Int(frame.pc)
                            position = Int(frame.position)
                            break
                        }
                    }
                }
            }
        }
    }
}

/// A match of a `DigitPattern`: the matched range and each capturing group's range.
struct PatternMatch: Sendable {
    let range: Range<Int>
    let groups: [Range<Int>?]
}
