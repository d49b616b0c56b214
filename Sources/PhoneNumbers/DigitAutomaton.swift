/// A deterministic automaton over ASCII digits with the same language as a pattern's program, for the questions
/// that need no captures: does the whole input match, does some prefix. Built at load by subset construction over
/// the program (captures are ignored, priorities do not matter for whether a match exists), and only when it stays
/// within `maximumStates`; a pattern whose automaton would be larger keeps to the backtracking run.
struct DigitAutomaton {
    /// The most states an automaton may have (its state numbers are bytes; `dead` is not a state).
    static let maximumStates = 255
    static let dead: UInt8 = 0xFF
    /// The longest program an automaton is built for (upstream's longest compiles to about 800 instructions).
    static let maximumProgram = 1024

    /// `transitions[10 * state + digit]`: the next state, or `dead`.
    let transitions: UnsafeBufferPointer<UInt8>
    /// Per state: bit 0 when a match ends here (the input may go on), bit 1 when one ends here at the input's end
    /// (through a `$` as well).
    let accepts: UnsafeBufferPointer<UInt8>

    /// Whether the whole input is a match.
    @inline(__always)
    func matchesWhole(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        var state = 0
        for byte in input {
            let digit = byte &- 48
            guard digit < 10 else { return false }
            let next = transitions[10 &* state &+ Int(digit)]
            guard next != Self.dead else { return false }
            state = Int(next)
        }
        return accepts[state] & 2 != 0
    }

    /// Whether some prefix of the input (the empty one included) is a match.
    @inline(__always)
    func matchesPrefix(_ input: UnsafeBufferPointer<UInt8>) -> Bool {
        var state = 0
        for byte in input {
            if accepts[state] & 1 != 0 { return true }
            let digit = byte &- 48
            guard digit < 10 else { return false }
            let next = transitions[10 &* state &+ Int(digit)]
            guard next != Self.dead else { return false }
            state = Int(next)
        }
        return accepts[state] != 0
    }

    /// The automaton of `program`, or nil when the program is longer than `maximumProgram`, the automaton would
    /// have more than `maximumStates` states, or building it would take more than `maximumWork`. States are sets of
    /// the program's digit instructions (as many words of bits as the program needs) with their acceptance.
    static func build(_ program: [DigitPattern.Instruction]) -> DigitAutomaton? {
        guard program.count <= maximumProgram else { return nil }
        var builder = Builder(program)
        defer { builder.deallocate() }
        return builder.build()
    }

    /// Frees the automaton's memory (one block: the transitions, then the acceptance).
    func deallocate() {
        transitions.deallocate()
    }

    /// The most words of sets a build may merge (each digit instruction of each state adds its closure to one set
    /// per digit it takes): bounds the load of a hostile pattern to a few milliseconds.
    static let maximumWork = 1 << 22

    /// Subset construction in scratch memory of its own (it runs for every pattern at load). A set of digit
    /// instructions is `words` words of bits, bit `pc` for instruction `pc`.
    private struct Builder {
        let program: [DigitPattern.Instruction]
        let count: Int
        let words: Int
        /// Per instruction, once worked out: the digit instructions reachable from it without consuming, and its
        /// acceptance (bit 0: `match` reachable without passing a `$`, bit 1: reachable at all).
        let closures: UnsafeMutablePointer<UInt64>
        let closureAccepts: UnsafeMutablePointer<UInt8>
        let known: UnsafeMutablePointer<Bool>
        let marks: UnsafeMutablePointer<Int32>
        let masks: UnsafeMutablePointer<UInt16>
        /// The depth-first stack: paths before a `$` from the bottom, after one from `count + 1` on.
        let stack: UnsafeMutablePointer<Int32>
        var mark: Int32 = 0
        let states: UnsafeMutablePointer<UInt64>
        let stateAccepts: UnsafeMutablePointer<UInt8>
        var stateCount = 0
        /// The sets one state's digits lead to, `words` words per digit, while its transitions are worked out.
        let nexts: UnsafeMutablePointer<UInt64>
        let nextAccepts: UnsafeMutablePointer<UInt8>
        var work = 0
        /// An open-addressed index of the states, -1 where empty.
        let slots: UnsafeMutablePointer<Int16>
        static let slotCount = 1024

        /// Where a state's transitions are gathered until the automaton is complete.
        let transitions: UnsafeMutablePointer<UInt8>
        let block: UnsafeMutableRawPointer

        init(_ program: [DigitPattern.Instruction]) {
            self.program = program
            count = program.count
            words = max(1, (count + 63) / 64)
            // One block of scratch memory, the widest values first so that every part is aligned.
            let sets = (count + 1 + maximumStates + 10) * words * 8
            let integers = (count + 4 * count + 4) * 4
            let halves = (count + Self.slotCount) * 2
            let bytes = 2 * (count + 1) + 2 * maximumStates + 10 + 10 * maximumStates
            block = .allocate(byteCount: sets + integers + halves + bytes, alignment: MemoryLayout<UInt64>.alignment)
            var cursor = block
            func take<T>(_ type: T.Type, _ count: Int) -> UnsafeMutablePointer<T> {
                let pointer = cursor.bindMemory(to: type, capacity: count)
                cursor += count * MemoryLayout<T>.stride
                return pointer
            }
            closures = take(UInt64.self, (count + 1) * words)
            states = take(UInt64.self, maximumStates * words)
            nexts = take(UInt64.self, 10 * words)
            marks = take(Int32.self, count)
            stack = take(Int32.self, 4 * count + 4)
            masks = take(UInt16.self, count)
            slots = take(Int16.self, Self.slotCount)
            closureAccepts = take(UInt8.self, count + 1)
            known = take(Bool.self, count + 1)
            stateAccepts = take(UInt8.self, maximumStates)
            nextAccepts = take(UInt8.self, 10)
            transitions = take(UInt8.self, 10 * maximumStates)
            known.initialize(repeating: false, count: count + 1)
            marks.initialize(repeating: -1, count: count)
            slots.initialize(repeating: -1, count: Self.slotCount)
            for pc in 0..<count {
                if case .accept(let set) = program[pc] { masks[pc] = set.mask } else { masks[pc] = 0 }
            }
        }

        func deallocate() {
            block.deallocate()
        }

        mutating func close(_ origin: Int) {
            known[origin] = true
            let set = closures + origin * words
            set.initialize(repeating: 0, count: words)
            var accepts: UInt8 = 0
            mark += 2
            let before = mark
            let after = mark + 1
            var depth = 1
            stack[0] = Int32(origin)
            let ended = count + 1
            var endedDepth = 0
            while depth > 0 {
                depth -= 1
                let pc = Int(stack[depth])
                guard marks[pc] != before else { continue }
                marks[pc] = before
                switch program[pc] {
                case .accept: set[pc >> 6] |= 1 << UInt64(pc & 63)
                case .split(let first, let second):
                    stack[depth] = second
                    stack[depth + 1] = first
                    depth += 2
                case .jump(let target):
                    stack[depth] = target
                    depth += 1
                case .save:
                    stack[depth] = Int32(pc + 1)
                    depth += 1
                case .atEnd:
                    stack[ended + endedDepth] = Int32(pc + 1)
                    endedDepth += 1
                case .match: accepts |= 3
                }
            }
            // Past a `$` only the input's end is left: those paths can accept, and consume nothing.
            while endedDepth > 0 {
                endedDepth -= 1
                let pc = Int(stack[ended + endedDepth])
                guard marks[pc] != after else { continue }
                marks[pc] = after
                switch program[pc] {
                case .accept: break
                case .split(let first, let second):
                    stack[ended + endedDepth] = first
                    stack[ended + endedDepth + 1] = second
                    endedDepth += 2
                case .jump(let target):
                    stack[ended + endedDepth] = target
                    endedDepth += 1
                case .save, .atEnd:
                    stack[ended + endedDepth] = Int32(pc + 1)
                    endedDepth += 1
                case .match: accepts |= 2
                }
            }
            closureAccepts[origin] = accepts
        }

        func isEmpty(_ set: UnsafeMutablePointer<UInt64>) -> Bool {
            (0..<words).allSatisfy { set[$0] == 0 }
        }

        func equal(_ first: UnsafeMutablePointer<UInt64>, _ second: UnsafeMutablePointer<UInt64>) -> Bool {
            (0..<words).allSatisfy { first[$0] == second[$0] }
        }

        func slot(of set: UnsafeMutablePointer<UInt64>, _ accepts: UInt8) -> Int {
            var hash = UInt64(accepts) &* 0x9E37_79B9_7F4A_7C15
            for word in 0..<words {
                hash = (hash ^ set[word]) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
            }
            hash ^= hash >> 32
            return Int(truncatingIfNeeded: hash) & (Self.slotCount - 1)
        }

        /// The state of `set`, added when new; nil past `maximumStates`.
        mutating func state(_ set: UnsafeMutablePointer<UInt64>, _ accepts: UInt8) -> Int? {
            var slot = slot(of: set, accepts)
            while slots[slot] >= 0 {
                let candidate = Int(slots[slot])
                if stateAccepts[candidate] == accepts && equal(states + candidate * words, set) { return candidate }
                slot = (slot + 1) & (Self.slotCount - 1)
            }
            guard stateCount < maximumStates else { return nil }
            (states + stateCount * words).update(from: set, count: words)
            stateAccepts[stateCount] = accepts
            slots[slot] = Int16(stateCount)
            stateCount += 1
            return stateCount - 1
        }

        /// Works out the transitions of state `current` into `transitions` from `written` on; false when a target
        /// would be a state past `maximumStates` or the work past `maximumWork`.
        mutating func expand(_ current: Int, written: Int) -> Bool {
            nexts.update(repeating: 0, count: 10 * words)
            nextAccepts.update(repeating: 0, count: 10)
            let set = states + current * words
            for word in 0..<words {
                var bits = set[word]
                while bits != 0 {
                    let pc = word * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
                    if !known[pc + 1] { close(pc + 1) }
                    let reached = closures + (pc + 1) * words
                    let reachedAccepts = closureAccepts[pc + 1]
                    var digits = masks[pc]
                    work += digits.nonzeroBitCount * words
                    if work > maximumWork { return false }
                    while digits != 0 {
                        let digit = digits.trailingZeroBitCount
                        digits &= digits - 1
                        let next = nexts + digit * words
                        for index in 0..<words { next[index] |= reached[index] }
                        nextAccepts[digit] |= reachedAccepts
                    }
                }
            }
            for digit in 0..<10 {
                let next = nexts + digit * words
                let index = written + digit
                if digit > 0 && nextAccepts[digit] == nextAccepts[digit - 1] && equal(next, next - words) {
                    // `\d` and classes send many digits to one state: found once.
                    transitions[index] = transitions[index - 1]
                } else if nextAccepts[digit] == 0 && isEmpty(next) {
                    transitions[index] = DigitAutomaton.dead
                } else if let target = state(next, nextAccepts[digit]) {
                    transitions[index] = UInt8(target)
                } else {
                    return false
                }
            }
            return true
        }

        mutating func build() -> DigitAutomaton? {
            close(0)
            _ = state(closures, closureAccepts[0])
            var current = 0
            while current < stateCount {
                guard expand(current, written: 10 * current) else { return nil }
                current += 1
            }
            let result = UnsafeMutablePointer<UInt8>.allocate(capacity: 11 * stateCount)
            result.initialize(from: transitions, count: 10 * stateCount)
            (result + 10 * stateCount).initialize(from: stateAccepts, count: stateCount)
            return DigitAutomaton(
                transitions: UnsafeBufferPointer(start: result, count: 10 * stateCount),
                accepts: UnsafeBufferPointer(start: result + 10 * stateCount, count: stateCount))
        }
    }
}
