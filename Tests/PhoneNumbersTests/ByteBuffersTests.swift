import Testing

@testable import PhoneNumbers

/// The scratch memory of a parse and a description: on the stack in the common case, and still whole when a
/// request needs more than the stack part (a national prefix transform, a long extension prefix in a plan).
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

    @Test func aWriterThatOutgrowsTheStackKeepsWhatItWroteAtTheSameOffsets() {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { storage in
            var out = ByteWriter(storage)
            out.append("+31")
            out.appendDecimal(-612)
            let start = out.count
            Array("12345678".utf8).withUnsafeBufferPointer { out.append($0) }
            out.appendCopy(of: 0..<3)
            out.append(atMost: 3) { target in
                target[0] = UInt8(ascii: "x")
                return 1
            }
            let text = out.withBase {
                String(decoding: UnsafeBufferPointer(start: $0, count: out.count), as: UTF8.self)
            }
            #expect(text == "+31-61212345678+31x")
            #expect(out.bytes(start..<start + 2).elementsEqual("12".utf8))
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
