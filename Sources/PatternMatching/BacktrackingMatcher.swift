/// A compiled pattern run by a bounded backtracking matcher: it answers a whole-text match in priority order
/// (alternatives left to right, greedy repeats) as ICU's `matches` does, or says it cannot (nil) when the match
/// would take more than `maximumSteps` steps or `maximumStack` backtracking entries, so that the caller asks an
/// engine without those bounds. A program without branches runs straight through. A class of constants, so that a
/// caller in another module passes one reference to a match, not each of its arrays.
package final class BacktrackingMatcher<Set: PatternSet>: Sendable {
    /// Operands are `Int32`, so with an ASCII set an operation is 24 bytes: a postal pattern's program fits in a few
    /// cache lines.
    enum Operation: Sendable {
        /// Take one character of the set (held in the operation: one load fewer per character than an index).
        case accept(Set)
        case split(Int32, Int32)
        /// `split` whose first target has a `BranchGuard` (by its index), which says when trying it must fail.
        case guardedSplit(Int32, Int32, Int32)
        case jump(Int32)
        case save(Int32)
        case atEnd
        case match
    }

    /// The number of capture slots the program saves into.
    package let slotCount: Int
    let program: [Operation]
    let guards: [BranchGuard]
    /// How many branches have a guard.
    package var guardCount: Int { guards.count }
    /// Whether the program has no branch (`\d{5}`, `9[78][01]\d{2}`): it then runs straight through, without a
    /// backtracking stack or a step count.
    let isStraight: Bool
    /// A straight program as what it is: the set of each character in turn, and the capture slots with the number
    /// of characters taken when each is saved.
    let straightSets: [Set]
    let straightSaves: [(slot: Int32, position: Int32)]

    /// The most steps one match may take and the most backtracking entries it may hold. A real postal code takes a
    /// few dozen of each; the limits stay far below ICU's own (50,000 operations, a 64 KB stack), so whatever ICU
    /// would stop at its limit reaches ICU. 128 entries of 8 bytes are 1 KB, which the standard library puts on the
    /// stack without asking the runtime (a larger buffer is a heap allocation per match).
    package static var maximumSteps: Int { 4096 }
    package static var maximumStack: Int { 128 }

    /// The matcher of `compiled`; without `guarded`, every branch is tried as the plain backtracker tries it (what
    /// the guards must not change, for tests).
    @_specialize(exported:true,where Set == ASCIISet)
    @_specialize(exported:true,where Set == DigitSet)
    package init(_ compiled: CompiledPatternProgram<Set>, guarded: Bool = true) {
        var program: [Operation] = compiled.program.map {
            switch $0 {
            case .accept(let set): .accept(set)
            case .split(let first, let second): .split(first, second)
            case .jump(let target): .jump(target)
            case .save(let slot): .save(slot)
            case .atEnd: .atEnd
            case .match: .match
            }
        }
        var slotCount = 0
        var isStraight = true
        var straightSets: [Set] = []
        var straightSaves: [(slot: Int32, position: Int32)] = []
        for operation in program {
            switch operation {
            case .accept(let set): straightSets.append(set)
            case .save(let slot):
                slotCount = max(slotCount, Int(slot) + 1)
                straightSaves.append((slot, Int32(straightSets.count)))
            case .split, .guardedSplit, .jump, .atEnd: isStraight = false
            case .match: break
            }
        }
        self.slotCount = slotCount
        self.isStraight = isStraight
        self.straightSets = isStraight ? straightSets : []
        self.straightSaves = isStraight ? straightSaves : []
        var analysis = BranchAnalysis(program: program)
        var guards: [BranchGuard] = []
        for (pc, operation) in program.enumerated() where guarded {
            guard case .split(let first, let second) = operation, let branch = analysis.guard(at: Int(first)) else {
                continue
            }
            program[pc] = .guardedSplit(first, second, Int32(guards.count))
            guards.append(branch)
        }
        self.program = program
        self.guards = guards
    }

    /// When trying a branch must fail, decided by the next character: it takes none outside `first`, and at the end
    /// of the text it fails unless it `reachesMatch` without taking one. The plain backtracker would still try it,
    /// in `steps` steps holding at most `growth` more backtracking entries; `run` skips it and counts the same, so
    /// the limits stop exactly the matches they stopped before.
    struct BranchGuard: Sendable {
        var first: Set
        var reachesMatch: Bool
        var steps: Int
        var growth: Int
    }

    /// The `BranchGuard` of each operation, as the closure of the operations that take no character from it; nil
    /// where that closure has a loop (the backtracker then runs until its step limit), passes a `$`, or nests past
    /// `maximumNesting`.
    private struct BranchAnalysis {
        let program: [Operation]
        private var known: [Int: BranchGuard?] = [:]
        private var open: Swift.Set<Int> = []
        private static var maximumNesting: Int { 256 }

        init(program: [Operation]) {
            self.program = program
        }

        mutating func `guard`(at pc: Int) -> BranchGuard? {
            if let found = known[pc] { return found }
            guard !open.contains(pc), open.count < Self.maximumNesting, pc >= 0, pc < program.count else { return nil }
            open.insert(pc)
            var result: BranchGuard?
            switch program[pc] {
            case .accept(let set):
                result = BranchGuard(first: set, reachesMatch: false, steps: 1, growth: 0)
            case .match:
                result = BranchGuard(first: .empty, reachesMatch: true, steps: 1, growth: 0)
            case .atEnd:
                result = nil
            case .save:
                result = self.guard(at: pc + 1).map { next in
                    BranchGuard(
                        first: next.first, reachesMatch: next.reachesMatch, steps: Self.capped(1 + next.steps),
                        growth: Self.capped(1 + next.growth))
                }
            case .jump(let target):
                result = self.guard(at: Int(target)).map { next in
                    BranchGuard(
                        first: next.first, reachesMatch: next.reachesMatch, steps: Self.capped(1 + next.steps),
                        growth: next.growth)
                }
            case .split(let first, let second), .guardedSplit(let first, let second, _):
                if let one = self.guard(at: Int(first)), let other = self.guard(at: Int(second)) {
                    result = BranchGuard(
                        first: one.first.union(other.first), reachesMatch: one.reachesMatch || other.reachesMatch,
                        steps: Self.capped(1 + one.steps + other.steps), growth: max(1 + one.growth, other.growth))
                }
            }
            open.remove(pc)
            known[pc] = .some(result)
            return result
        }

        /// Counts past both limits say the same as the limits themselves.
        private static func capped(_ count: Int) -> Int {
            min(count, max(BacktrackingMatcher.maximumSteps, BacktrackingMatcher.maximumStack) + 1)
        }
    }

    /// Whether `text` matches whole: true with `slots` (`slotCount` of them, each a start or end offset, -1 for a
    /// group that took no part) filled, false on no match, nil when the matcher cannot answer (a text the alphabet
    /// does not admit, or the step or stack limit reached).
    @_specialize(exported:true,where Set == ASCIISet)
    @_specialize(exported:true,where Set == DigitSet)
    package func wholeMatch(_ text: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>) -> Bool? {
        guard Set.admits(text) else { return nil }
        return wholeMatch(admitted: text, slots: slots)
    }

    /// `wholeMatch(_:slots:)` for a text the caller has found the alphabet admits. Specialised for each alphabet
    /// here, where the matching loop is, so callers in other modules run it without generic dispatch (`@inlinable`
    /// would not do: the toolchain does not hand a `package` generic's body to other modules to specialise).
    @_specialize(exported:true,where Set == ASCIISet)
    @_specialize(exported:true,where Set == DigitSet)
    package func wholeMatch(
        admitted text: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>
    )
        -> Bool?
    {
        slots.initialize(repeating: -1)
        if isStraight { return runStraight(text, slots) }
        return program.withUnsafeBufferPointer { program in
            guards.withUnsafeBufferPointer { guards in run(text, slots, program: program, guards: guards) }
        }
    }

    /// `run` for a program without branches: its one path takes one character per set, so it matches a text exactly
    /// as long with each character in its set, and then every save happens at its fixed position.
    private func runStraight(_ text: UnsafeBufferPointer<UInt8>, _ slots: UnsafeMutableBufferPointer<Int32>) -> Bool {
        guard text.count == straightSets.count else { return false }
        let matched = straightSets.withUnsafeBufferPointer { sets in
            for index in 0..<text.count where !sets[index].contains(text[index]) { return false }
            return true
        }
        guard matched else { return false }
        for save in straightSaves { slots[Int(save.slot)] = save.position }
        return true
    }

    private func run(
        _ text: UnsafeBufferPointer<UInt8>, _ slots: UnsafeMutableBufferPointer<Int32>,
        program: UnsafeBufferPointer<Operation>, guards: UnsafeBufferPointer<BranchGuard>
    ) -> Bool? {
        // Each entry is a branch to resume (pc, position) or a capture to restore (-1 - slot, old value).
        withUnsafeTemporaryAllocation(of: (Int32, Int32).self, capacity: Self.maximumStack) { stack -> Bool? in
            var depth = 0
            var pc = 0
            var position = 0
            var steps = 0
            while true {
                steps &+= 1
                if steps > Self.maximumSteps { return nil }
                var failed = false
                switch program[pc] {
                case .accept(let set):
                    if position < text.count && set.contains(text[position]) {
                        position &+= 1
                        pc &+= 1
                    } else {
                        failed = true
                    }
                case .split(let first, let second):
                    guard depth < Self.maximumStack else { return nil }
                    stack[depth] = (second, Int32(truncatingIfNeeded: position))
                    depth &+= 1
                    pc = Int(first)
                case .guardedSplit(let first, let second, let index):
                    let branch = guards[Int(index)]
                    let fails =
                        position < text.count ? !branch.first.contains(text[position]) : !branch.reachesMatch
                    guard fails else {
                        guard depth < Self.maximumStack else { return nil }
                        stack[depth] = (second, Int32(truncatingIfNeeded: position))
                        depth &+= 1
                        pc = Int(first)
                        continue
                    }
                    // As if `first` was pushed, tried and failed: the same steps and backtracking entries.
                    guard depth &+ branch.growth < Self.maximumStack else { return nil }
                    steps &+= branch.steps
                    if steps > Self.maximumSteps { return nil }
                    pc = Int(second)
                case .jump(let target):
                    pc = Int(target)
                case .save(let slot):
                    guard depth < Self.maximumStack else { return nil }
                    stack[depth] = (-1 - slot, slots[Int(slot)])
                    depth &+= 1
                    slots[Int(slot)] = Int32(truncatingIfNeeded: position)
                    pc &+= 1
                case .atEnd:
                    if position == text.count { pc &+= 1 } else { failed = true }
                case .match:
                    if position == text.count { return true }
                    failed = true
                }
                guard failed else { continue }
                var resumed = false
                while depth > 0 {
                    depth -= 1
                    let (target, value) = stack[depth]
                    if target < 0 {
                        slots[Int(-1 - target)] = value
                    } else {
                        pc = Int(target)
                        position = Int(value)
                        resumed = true
                        break
                    }
                }
                if !resumed { return false }
            }
        }
    }
}
