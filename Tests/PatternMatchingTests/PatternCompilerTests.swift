import Testing

@testable import PatternMatching

/// How a pattern is laid out: repeats copy their body (an open one keeps one looping copy), alternatives and
/// optional parts become splits in priority order, groups save into their slots.
@Suite struct PatternCompilerTests {
    @Test func anOpenRepeatKeepsOneLoopingCopyOfItsBody() throws {
        let program = try PatternSyntaxTests.digits("(?:12345){3,}").program
        #expect(program.count == 2 * 5 + 5 + 2)
        guard case .split(let back, let out) = program[15] else {
            Issue.record("\(program[15]) is not the loop's split")
            return
        }
        #expect(back == 10 && out == 16)
    }

    @Test func aBoundedRepeatSkipsTheRestWhenItSkipsOne() throws {
        let program = try PatternSyntaxTests.digits("1{1,3}").program
        // 1, split(2, 6), 1, split(4, 6), 1, match: each optional copy's split leaves past all of them.
        #expect(program.count == 6)
        for pc in [1, 3] {
            guard case .split(let first, let second) = program[pc] else {
                Issue.record("\(program[pc]) is not a split")
                continue
            }
            #expect(first == Int32(pc + 1) && second == 5)
        }
    }

    @Test func groupsSaveAfterTheWholeMatchWhenItIsCaptured() throws {
        let whole = try PatternSyntaxTests.ascii("(a)(?:b)(c)")
        let plain = try PatternSyntaxTests.digits("(1)(?:2)(3)")
        #expect(whole.groupCount == 2 && plain.groupCount == 2)
        #expect(Self.saves(whole.program) == [0, 2, 3, 4, 5, 1])
        #expect(Self.saves(plain.program) == [0, 1, 2, 3])
    }

    @Test func alternativesTryLeftToRight() throws {
        let program = try PatternSyntaxTests.ascii("a|b|c").program
        // save 0, split(2, 5), a, jump, split(6, 9)... each split tries its own branch first.
        var firsts: [Int32] = []
        for (pc, instruction) in program.enumerated() {
            if case .split(let first, _) = instruction {
                #expect(first == Int32(pc + 1))
                firsts.append(first)
            }
        }
        #expect(firsts.count == 2)
    }

    static func saves<Set>(_ program: [PatternInstruction<Set>]) -> [Int32] {
        program.compactMap {
            if case .save(let slot) = $0 { return slot }
            return nil
        }
    }
}
