/// A postal-code pattern compiled at load into a small backtracking program over bytes, answering as ICU's
/// `matches` does for ASCII text in nanoseconds instead of an ICU matcher's reset and run. It covers what postal
/// patterns use: literals, `\d`, classes with ranges, groups (capturing or `(?:`), alternation and greedy `?`, `*`,
/// `+`, `{n}`, `{n,}`, `{n,m}`. A pattern with anything else compiles to nil, and a text with a non-ASCII byte (where
/// `\d` means every decimal digit) or a match that takes too many steps is answered by ICU instead.
struct BytePattern: Sendable {
    /// The bytes one instruction accepts, as a bit set over ASCII.
    private struct ByteSet: Sendable, Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0

        mutating func insert(_ byte: UInt8) {
            if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
        }

        mutating func insert(_ range: ClosedRange<UInt8>) {
            for byte in range { insert(byte) }
        }

        @inline(__always)
        func contains(_ byte: UInt8) -> Bool {
            byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte &- 64)) != 0
        }

        /// `contains` for a byte known to be ASCII, without a branch.
        @inline(__always)
        func containsASCII(_ byte: UInt8) -> Bool {
            (byte < 64 ? low : high) >> UInt64(byte & 63) & 1 != 0
        }

        var inverted: ByteSet { ByteSet(low: ~low, high: ~high) }

        static let digits: ByteSet = {
            var set = ByteSet()
            set.insert(UInt8(ascii: "0")...UInt8(ascii: "9"))
            return set
        }()
    }

    private indirect enum Node {
        case bytes(ByteSet)
        case sequence([Node])
        case alternation([Node])
        /// A group; `index` nil for `(?:`.
        case group(index: Int?, Node)
        case repeated(Node, minimum: Int, maximum: Int?)
    }

    /// Operands are `Int32` and sets 16 bytes, so an instruction is 24 bytes: a postal pattern's program fits in a
    /// few cache lines.
    private enum Instruction: Sendable {
        /// Accept one byte of the set (held in the instruction: one load fewer per byte than an index).
        case accept(ByteSet)
        /// Try the first target, and on failure the second.
        case split(Int32, Int32)
        /// `split` whose first target has a `BranchGuard` (by its index), which says when trying it must fail.
        case guardedSplit(Int32, Int32, Int32)
        case jump(Int32)
        /// Record the position in a capture slot.
        case save(Int32)
        /// Succeed when the whole text was taken.
        case match
    }

    /// The number of capture groups, as ICU counts them.
    let groupCount: Int
    private let program: [Instruction]
    private let guards: [BranchGuard]
    /// How many branches have a guard.
    var guardCount: Int { guards.count }
    /// Whether the program has no branch (`\d{5}`, `9[78][01]\d{2}`): it then runs straight through, without a
    /// backtracking stack or a step count.
    private let isStraight: Bool
    /// A straight program as what it is: the set of each byte in turn, and the capture slots with the number of
    /// bytes taken when each is saved.
    private let straightSets: [ByteSet]
    private let straightSaves: [(slot: Int32, position: Int32)]

    /// The most instructions a program may have, the most repetitions a count may ask, the most steps one match may
    /// take and the most backtracking entries it may hold: beyond them ICU answers. A real postal code takes a few
    /// dozen steps and entries; the limits stay far below ICU's own (50,000 operations, a 64 KB stack), so whatever
    /// ICU would stop at its limit reaches ICU. 128 entries of 8 bytes are 1 KB, which the standard library puts on
    /// the stack without asking the runtime (a larger buffer is a heap allocation per match).
    private static let maximumProgram = 4096
    private static let maximumCount = 64
    private static let maximumSteps = 4096
    private static let maximumStack = 128

    /// Compiles `pattern`, or nil when it uses anything this matcher does not cover; without `guarded`, every branch
    /// is tried as the plain backtracker tries it (what the guards must not change, for tests).
    init?(_ pattern: String, guarded: Bool = true) {
        var parser = Parser(bytes: Array(pattern.utf8))
        guard let node = parser.parseAlternation(), parser.index == parser.bytes.count else { return nil }
        var emitter = Emitter()
        emitter.emit(.save(0))
        emitter.emit(node)
        emitter.emit(.save(1))
        emitter.emit(.match)
        guard emitter.program.count <= Self.maximumProgram else { return nil }
        groupCount = parser.groupCount
        isStraight = emitter.program.allSatisfy {
            switch $0 {
            case .split, .guardedSplit, .jump: false
            case .accept, .save, .match: true
            }
        }
        var straightSets: [ByteSet] = []
        var straightSaves: [(slot: Int32, position: Int32)] = []
        for instruction in emitter.program where isStraight {
            switch instruction {
            case .accept(let set): straightSets.append(set)
            case .save(let slot): straightSaves.append((slot, Int32(straightSets.count)))
            case .match, .split, .guardedSplit, .jump: break
            }
        }
        self.straightSets = straightSets
        self.straightSaves = straightSaves
        var analysis = BranchAnalysis(program: emitter.program)
        var program = emitter.program
        var guards: [BranchGuard] = []
        for (pc, instruction) in program.enumerated() where guarded {
            guard case .split(let first, let second) = instruction, let branch = analysis.guard(at: Int(first)) else {
                continue
            }
            program[pc] = .guardedSplit(first, second, Int32(guards.count))
            guards.append(branch)
        }
        self.program = program
        self.guards = guards
    }

    /// When trying a branch must fail, decided by the next byte: it takes no byte outside `first`, and at the end of
    /// the text it fails unless it `reachesMatch` without taking one. The plain backtracker would still try it, in
    /// `steps` steps holding at most `growth` more backtracking entries; `run` skips it and counts the same, so the
    /// limits stop exactly the matches they stopped before.
    private struct BranchGuard: Sendable {
        var first = ByteSet()
        var reachesMatch = false
        var steps = 0
        var growth = 0
    }

    /// The `BranchGuard` of each instruction, as the closure of the instructions that take no byte from it; nil where
    /// that closure has a loop (the backtracker then runs until its step limit) or nests past `maximumNesting`.
    private struct BranchAnalysis {
        let program: [Instruction]
        private var known: [Int: BranchGuard?] = [:]
        private var open: Set<Int> = []
        private static let maximumNesting = 256

        init(program: [Instruction]) {
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
                result = BranchGuard(first: ByteSet(), reachesMatch: true, steps: 1, growth: 0)
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
                        first: ByteSet(low: one.first.low | other.first.low, high: one.first.high | other.first.high),
                        reachesMatch: one.reachesMatch || other.reachesMatch,
                        steps: Self.capped(1 + one.steps + other.steps), growth: max(1 + one.growth, other.growth))
                }
            }
            open.remove(pc)
            known[pc] = .some(result)
            return result
        }

        /// Counts past both limits say the same as the limits themselves.
        private static func capped(_ count: Int) -> Int {
            min(count, max(BytePattern.maximumSteps, BytePattern.maximumStack) + 1)
        }
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
        if utf8.contains(where: { $0 >= 0x80 }) { return nil }
        return wholeMatch(ascii: utf8, slots: slots)
    }

    /// `wholeMatch(_:slots:)` for text the caller has found to be ASCII.
    func wholeMatch(ascii text: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>) -> Bool? {
        slots.initialize(repeating: -1)
        if isStraight { return runStraight(text, slots) }
        return program.withUnsafeBufferPointer { program in
            guards.withUnsafeBufferPointer { guards in run(text, slots, program: program, guards: guards) }
        }
    }

    /// `run` for a program without branches: its one path takes one byte per set, so it matches a text exactly as
    /// long with each byte in its set, and then every save happens at its fixed position.
    private func runStraight(_ text: UnsafeBufferPointer<UInt8>, _ slots: UnsafeMutableBufferPointer<Int32>) -> Bool {
        guard text.count == straightSets.count else { return false }
        let matched = straightSets.withUnsafeBufferPointer { sets in
            for index in 0..<text.count where !sets[index].containsASCII(text[index]) { return false }
            return true
        }
        guard matched else { return false }
        for save in straightSaves { slots[Int(save.slot)] = save.position }
        return true
    }

    private func run(
        _ text: UnsafeBufferPointer<UInt8>, _ slots: UnsafeMutableBufferPointer<Int32>,
        program: UnsafeBufferPointer<Instruction>, guards: UnsafeBufferPointer<BranchGuard>
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
                    if position < text.count && set.containsASCII(text[position]) {
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
                        position < text.count ? !branch.first.containsASCII(text[position]) : !branch.reachesMatch
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

    /// Reads the covered syntax into a tree; nil at anything else.
    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var groupCount = 0
        /// Groups nest at most this deep, so parsing stays shallow.
        private static let maximumDepth = 16
        private var depth = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func parseAlternation() -> Node? {
            var branches: [Node] = []
            while true {
                guard let branch = parseSequence() else { return nil }
                branches.append(branch)
                guard next == UInt8(ascii: "|") else { break }
                index += 1
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        private mutating func parseSequence() -> Node? {
            var items: [Node] = []
            while let byte = next, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
                guard let atom = parseAtom(), let item = parseQuantifier(atom) else { return nil }
                items.append(item)
            }
            return .sequence(items)
        }

        private mutating func parseAtom() -> Node? {
            guard let byte = next else { return nil }
            index += 1
            switch byte {
            case UInt8(ascii: "("):
                guard depth < Self.maximumDepth else { return nil }
                var group: Int?
                if next == UInt8(ascii: "?") {
                    guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":") else { return nil }
                    index += 2
                } else {
                    groupCount += 1
                    group = groupCount
                }
                depth += 1
                guard let inner = parseAlternation(), next == UInt8(ascii: ")") else { return nil }
                depth -= 1
                index += 1
                return .group(index: group, inner)
            case UInt8(ascii: "["):
                return parseClass().map(Node.bytes)
            case UInt8(ascii: "\\"):
                return parseEscape().map(Node.bytes)
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: "#"):
                return nil
            default:
                return Self.literal(byte).map(Node.bytes)
            }
        }

        /// A printable ASCII byte standing for itself.
        private static func literal(_ byte: UInt8) -> ByteSet? {
            guard byte >= 0x20, byte < 0x7F else { return nil }
            var set = ByteSet()
            set.insert(byte)
            return set
        }

        /// `\d`, or an escaped ASCII punctuation byte; nil for every other escape.
        private mutating func parseEscape() -> ByteSet? {
            guard let byte = next else { return nil }
            index += 1
            if byte == UInt8(ascii: "d") { return .digits }
            let isPunctuation =
                (0x21...0x2F).contains(byte) || (0x3A...0x40).contains(byte) || (0x5B...0x60).contains(byte)
                || (0x7B...0x7E).contains(byte)
            return isPunctuation ? Self.literal(byte) : nil
        }

        /// A class after its `[`: bytes, ranges and `\d`, possibly negated; nil for nested sets or set operations.
        private mutating func parseClass() -> ByteSet? {
            var set = ByteSet()
            var negated = false
            if next == UInt8(ascii: "^") {
                negated = true
                index += 1
            }
            var first = true
            while true {
                guard let byte = next else { return nil }
                if byte == UInt8(ascii: "]") && !first { break }
                first = false
                guard byte != UInt8(ascii: "["), byte != UInt8(ascii: "&"), byte != UInt8(ascii: "]") else {
                    return nil
                }
                let lower: UInt8
                index += 1
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = next else { return nil }
                    if escaped == UInt8(ascii: "d") {
                        index += 1
                        set.low |= ByteSet.digits.low
                        continue
                    }
                    guard let literal = parseEscape(), let value = Self.single(literal) else { return nil }
                    lower = value
                } else {
                    guard Self.literal(byte) != nil else { return nil }
                    lower = byte
                }
                if next == UInt8(ascii: "-"), index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "]") {
                    index += 1
                    guard let upperByte = next, upperByte != UInt8(ascii: "\\"), upperByte != UInt8(ascii: "["),
                        upperByte != UInt8(ascii: "&"), Self.literal(upperByte) != nil, upperByte >= lower
                    else { return nil }
                    index += 1
                    set.insert(lower...upperByte)
                } else {
                    set.insert(lower)
                }
            }
            index += 1
            if negated {
                // Only ASCII text reaches the program, so the complement is taken within ASCII.
                let inverted = set.inverted
                set = ByteSet(low: inverted.low, high: inverted.high)
            }
            return set
        }

        private static func single(_ set: ByteSet) -> UInt8? {
            (0..<128).first { set.contains(UInt8($0)) }.map(UInt8.init)
        }

        /// The atom with a greedy `?`, `*`, `+`, `{n}`, `{n,}` or `{n,m}` after it, if any; nil for lazy or
        /// possessive ones and counts past `maximumCount`.
        private mutating func parseQuantifier(_ atom: Node) -> Node? {
            let minimum: Int
            var maximum: Int?
            switch next {
            case UInt8(ascii: "?"):
                index += 1
                (minimum, maximum) = (0, 1)
            case UInt8(ascii: "*"):
                index += 1
                minimum = 0
            case UInt8(ascii: "+"):
                index += 1
                minimum = 1
            case UInt8(ascii: "{"):
                index += 1
                guard let low = parseCount() else { return nil }
                minimum = low
                if next == UInt8(ascii: ",") {
                    index += 1
                    if next != UInt8(ascii: "}") {
                        guard let high = parseCount(), high >= low else { return nil }
                        maximum = high
                    }
                } else {
                    maximum = low
                }
                guard next == UInt8(ascii: "}") else { return nil }
                index += 1
            default:
                return atom
            }
            if let following = next, following == UInt8(ascii: "?") || following == UInt8(ascii: "+") {
                return nil
            }
            guard minimum <= BytePattern.maximumCount, (maximum ?? 0) <= BytePattern.maximumCount else { return nil }
            return .repeated(atom, minimum: minimum, maximum: maximum)
        }

        private mutating func parseCount() -> Int? {
            var value = 0
            var digits = 0
            while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 3 {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            guard digits > 0, let byte = next, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                return nil
            }
            return value
        }
    }

    /// Lays a tree out as a program; stops growing once past `maximumProgram`, which the caller then refuses.
    private struct Emitter {
        var program: [Instruction] = []

        mutating func emit(_ instruction: Instruction) {
            program.append(instruction)
        }

        mutating func emit(_ node: Node) {
            guard program.count <= BytePattern.maximumProgram else { return }
            switch node {
            case .bytes(let set):
                emit(.accept(set))
            case .sequence(let items):
                for item in items { emit(item) }
            case .alternation(let branches):
                var exits: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset == branches.count - 1 {
                        emit(branch)
                    } else {
                        let split = program.count
                        emit(.split(Int32(split + 1), -1))
                        emit(branch)
                        exits.append(program.count)
                        emit(.jump(-1))
                        program[split] = .split(Int32(split + 1), Int32(program.count))
                    }
                }
                for exit in exits { program[exit] = .jump(Int32(program.count)) }
            case .group(let index, let inner):
                if let index { emit(.save(Int32(2 * index))) }
                emit(inner)
                if let index { emit(.save(Int32(2 * index + 1))) }
            case .repeated(let atom, let minimum, let maximum):
                for _ in 0..<minimum { emit(atom) }
                if let maximum {
                    // x{n,m}: n copies, then (x(x…)?)? so that skipping one skips the rest, as a greedy count does.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(program.count)
                        emit(.split(Int32(program.count + 1), -1))
                        emit(atom)
                    }
                    for split in splits { program[split] = .split(Int32(split + 1), Int32(program.count)) }
                } else {
                    let loop = program.count
                    emit(.split(Int32(loop + 1), -1))
                    emit(atom)
                    emit(.jump(Int32(loop)))
                    program[loop] = .split(Int32(loop + 1), Int32(program.count))
                }
            }
        }
    }
}
