/// One instruction of a compiled pattern. Operands are `Int32`, so with a digit set an instruction is 12 bytes
/// and with an ASCII set 24.
package enum PatternInstruction<Set: PatternSet>: Sendable {
    /// Take one character of the set.
    case accept(Set)
    /// Try the first target, and on failure the second.
    case split(Int32, Int32)
    case jump(Int32)
    /// Record the position in a capture slot.
    case save(Int32)
    /// Go on only at the end of the text.
    case atEnd
    /// Succeed (the caller says whether the whole text must have been taken).
    case match
}

/// A pattern read and laid out as a program for a backtracking matcher: alternatives in order, greedy repeats, so
/// the first match found is the one ICU and upstream's leftmost-first engines report.
package struct CompiledPatternProgram<Set: PatternSet> {
    /// The tree the program was laid out from.
    package let node: PatternNode<Set>
    /// The number of capturing groups.
    package let groupCount: Int
    /// Ends with `match`. Group `i` saves its start and end in slots `2 * i` and `2 * i + 1`, or, with the whole
    /// match captured, `2 * i + 2` and `2 * i + 3` after the whole match's 0 and 1.
    package let program: [PatternInstruction<Set>]

    /// Reads and lays out `source`; an error when it uses anything outside the covered syntax or passes a limit
    /// (the program limit counts the pattern's own instructions, not the closing `match` or the whole match's saves).
    @_specialize(exported:true,where Set == ASCIISet)
    @_specialize(exported:true,where Set == DigitSet)
    package init(_ source: String, limits: PatternLimits, capturingWholeMatch: Bool) throws(PatternParseError) {
        (node, groupCount) = try PatternParser<Set>.parse(source, limits: limits)
        guard Self.size(of: node, limit: limits.maximumProgram) <= limits.maximumProgram else {
            throw PatternParseError(
                offset: 0, detail: "a pattern that compiles to more than \(limits.maximumProgram) instructions")
        }
        var emitter = Emitter(slotOffset: capturingWholeMatch ? 2 : 0)
        if capturingWholeMatch { emitter.program.append(.save(0)) }
        emitter.emit(node)
        if capturingWholeMatch { emitter.program.append(.save(1)) }
        emitter.program.append(.match)
        program = emitter.program
    }

    /// The number of instructions `emit` appends for `node`, or some value above `limit` once it is exceeded.
    private static func size(of node: PatternNode<Set>, limit: Int) -> Int {
        func capped(_ value: Int) -> Int { min(value, limit + 1) }
        switch node {
        case .characters, .atEnd:
            return 1
        case .sequence(let items):
            return items.reduce(0) { capped($0 + size(of: $1, limit: limit)) }
        case .group(let index, let inner):
            return capped(size(of: inner, limit: limit) + (index == nil ? 0 : 2))
        case .alternation(let branches):
            return branches.reduce(0) { capped($0 + size(of: $1, limit: limit) + 2) }
        case .repeated(let inner, let minimum, let maximum):
            let body = size(of: inner, limit: limit)
            guard let maximum else { return capped(minimum > 0 ? minimum * body + 1 : body + 2) }
            return capped(minimum * body + (maximum - minimum) * (body + 1))
        }
    }

    private struct Emitter {
        let slotOffset: Int
        var program: [PatternInstruction<Set>] = []

        var next: Int32 { Int32(program.count) }

        mutating func emit(_ node: PatternNode<Set>) {
            switch node {
            case .characters(let set):
                program.append(.accept(set))
            case .atEnd:
                program.append(.atEnd)
            case .sequence(let items):
                for item in items { emit(item) }
            case .group(let index, let inner):
                if let index { program.append(.save(Int32(2 * index + slotOffset))) }
                emit(inner)
                if let index { program.append(.save(Int32(2 * index + 1 + slotOffset))) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (position, branch) in branches.enumerated() {
                    if position < branches.count - 1 {
                        let split = program.count
                        program.append(.split(0, 0))
                        emit(branch)
                        jumps.append(program.count)
                        program.append(.jump(0))
                        program[split] = .split(Int32(split + 1), next)
                    } else {
                        emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(next) }
            case .repeated(let inner, let minimum, nil) where minimum > 0:
                // `x{n,}` is n-1 copies, then one copy that loops back: one body for the open end, not two.
                for _ in 1..<minimum { emit(inner) }
                let loop = next
                emit(inner)
                program.append(.split(loop, next + 1))
            case .repeated(let inner, let minimum, let maximum):
                for _ in 0..<minimum { emit(inner) }
                if let maximum {
                    // x{n,m}: n copies, then (x(x…)?)? so that skipping one skips the rest, as a greedy count does.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(program.count)
                        program.append(.split(0, 0))
                        emit(inner)
                    }
                    for split in splits { program[split] = .split(Int32(split + 1), next) }
                } else {
                    let loop = program.count
                    program.append(.split(0, 0))
                    emit(inner)
                    program.append(.jump(Int32(loop)))
                    program[loop] = .split(Int32(loop + 1), next)
                }
            }
        }
    }
}
