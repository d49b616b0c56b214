import Testing

@testable import PhoneNumbers

/// The scratch memory of a parse: on the stack in the common case, and still whole when a request needs more than
/// the stack part (a national prefix transform).
@Suite struct ByteBuffersTests {
    @Test func anArenaPastItsStackPartHandsOutSeparateHeapBlocksThatStayWritable() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { storage in
            var arena = ScratchArena(storage)
            let first = arena.take(6)
            let spilled = arena.take(100)
            let second = arena.take(2)
            first.update(repeating: 1)
            spilled.update(repeating: 2)
            second.update(repeating: 3)
            #expect(first.baseAddress == storage.baseAddress)
            #expect(second.baseAddress == storage.baseAddress! + 6)
            #expect(spilled.count == 100)
            let total = arena.keepingAlive { () -> Int in
                var sum = 0
                for byte in first { sum += Int(byte) }
                for byte in spilled { sum += Int(byte) }
                return sum
            }
            #expect(total == 6 + 200)
            #expect(first.allSatisfy { $0 == 1 } && second.allSatisfy { $0 == 3 })
        }
    }
}

/// A format whose national template is text and then its international one writes its international grouping as
/// a copy of the national one after that text; any other pair of templates is substituted anew.
@Suite struct TemplatePrefixTests {
    static func template(_ text: String) -> Template { Template(NumberFormat.pieces(text)) }

    @Test func theNationalPrefixBeforeTheInternationalTemplateIsFound() {
        let cases: [(String, String, Int?)] = [
            ("0$1 $2", "$1 $2", 1), ("$1 $2", "$1 $2", 0), ("8 $1 $2", "$1 $2", 2), ("($1) $2-$3", "$1-$2-$3", nil),
            ("0$1 $2", "$1-$2", nil), ("$1 0$2", "0$2", nil), ("0$1", "", nil), ("", "", 0),
        ]
        for (national, international, expected) in cases {
            let (first, second) = (Self.template(national), Self.template(international))
            defer {
                first.bytes.deallocate()
                second.bytes.deallocate()
            }
            let found = FormatPlan.prefixLength(of: first, before: second)
            #expect(found == expected, "\(national) before \(international)")
        }
    }
}
