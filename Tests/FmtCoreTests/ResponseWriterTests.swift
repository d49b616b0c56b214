import FmtCore
import FmtDispatch
import FmtTesting
import Testing

/// The response writer appends JSON members as the tree encoder would have written them, after what the buffer
/// already holds, and takes back what a throwing body wrote.
@Suite struct ResponseWriterTests {
    struct Refusal: Error {}

    static func written(_ body: (inout ResponseWriter) -> Void) -> String {
        var out = Array(#"{"id":1,"ok":true"#.utf8)
        ResponseWriter.appendMembers(to: &out, body)
        return String(decoding: out, as: UTF8.self) + "}"
    }

    @Test func membersOfEveryKindMatchTheTreeEncoding() {
        let text = Self.written { response in
            response.member("text", "a\"b\\c\n\u{1}é")
            response.member("none", nil as String?)
            response.member("flag", false)
            response.member("count", -12)
            response.member("names", ["x", "y"])
            response.member("order", [2, 0, 1])
            response.member("tree", ["k": [1, "v"]] as JSONValue)
            response.null("empty")
            response.object("nested") { object in
                object.member(named: "na\"me", "v")
                object.array("list") { list in
                    list.element("e")
                    list.objectElement { $0.member("inner", true) }
                }
            }
            response.array("none") { _ in }
        }
        let tree: JSONObject = [
            "text": "a\"b\\c\n\u{1}é", "none": nil, "flag": false, "count": -12, "names": ["x", "y"],
            "order": [2, 0, 1], "tree": ["k": [1, "v"]], "empty": nil,
            "nested": ["na\"me": "v", "list": ["e", ["inner": true]]], "none": [],
        ]
        var expected: [UInt8] = []
        Dispatcher.appendSuccess(tree, id: 1, to: &expected)
        #expect(text + "\n" == String(decoding: expected, as: UTF8.self))
    }

    /// Short strings are copied and checked for escapes in one pass: at every length of a few words and around
    /// the word and short-string limits, with an escaped byte at every (or every fifth) position, members and
    /// elements are the tree encoding's bytes, many in a row (so the staged bytes fill up and flush in between).
    @Test func shortStringsAtEveryLengthMatchTheTreeEncoding() {
        var generator = SeededGenerator.forTest("shortStringsAtEveryLengthMatchTheTreeEncoding", seed: 738995)
        let specials: [UInt8] = [0x22, 0x5C, 0x0A, 0x00, 0x1F, 0x7F, 0xC3, 0x20, 0xFF]
        for length in Array(0...24) + [31, 32, 33, 63, 64, 65, 95, 96, 97, 100] {
            for position in stride(from: -1, to: length, by: length > 24 ? 5 : 1) {
                var text = (0..<length).map { _ in UInt8.random(in: 0x23...0x5B, using: &generator) }
                if position >= 0 { text[position] = specials.randomElement(using: &generator)! }
                let string = String(decoding: text, as: UTF8.self)
                let written = Self.written { response in
                    for _ in 0..<3 {
                        text.withUnsafeBufferPointer { response.member("n", utf8: $0) }
                        response.member("a-longer-member-name", string)
                        response.array("l") { list in
                            text.withUnsafeBufferPointer { list.element(utf8: $0) }
                            list.element(string)
                        }
                    }
                }
                let value = JSONValue.string(String(decoding: text, as: UTF8.self))
                var tree = JSONObject()
                for _ in 0..<3 {
                    tree.append("n", value)
                    tree.append("a-longer-member-name", .string(string))
                    tree.append("l", .array([value, .string(string)]))
                }
                var expected: [UInt8] = []
                Dispatcher.appendSuccess(tree, id: 1, to: &expected)
                #expect(Array(written.utf8) + [0x0A] == expected, "\(text)")
            }
        }
    }

    @Test func aTreesMembersAreWrittenAsTheTreeEncodingWritesThem() {
        let tree: JSONObject = [
            "version": "1.2", "na\"me": ["k": [1, nil, true]], "list": ["a\u{1}", ["x": "y"]], "empty": [:],
        ]
        let text = Self.written { response in
            response.members(tree)
            response.member("after", 1)
        }
        var withAfter = tree
        withAfter.append("after", 1)
        var expected: [UInt8] = []
        Dispatcher.appendSuccess(withAfter, id: 1, to: &expected)
        #expect(text + "\n" == String(decoding: expected, as: UTF8.self))
        #expect(Self.written { $0.members([:]) } == #"{"id":1,"ok":true}"#)
    }

    @Test func whatAThrowingBodyWroteIsTakenBack() {
        var out = Array("earlier".utf8)
        #expect(throws: Refusal.self) {
            try ResponseWriter.appendMembers(to: &out) { (response: inout ResponseWriter) throws(Refusal) in
                response.member("partial", "x")
                throw Refusal()
            }
        }
        #expect(out == Array("earlier".utf8))
    }

    /// Members encoded once and members written through a reserved cursor come out as the same members written one
    /// by one, first at their level or after another member.
    @Test func encodedAndReservedMembersAreTheMembersWrittenOneByOne() {
        let encoded = EncodedMembers { writer in
            writer.member("lang", "nl")
            writer.member("text", "a \"b\"")
        }
        for afterMembers in [false, true] {
            var direct = ResponseWriter(bytes: [UInt8(ascii: "{")])
            var fromEncoded = ResponseWriter(bytes: [UInt8(ascii: "{")])
            var fromCursor = ResponseWriter(bytes: [UInt8(ascii: "{")])
            if afterMembers {
                direct.member("ok", true)
                fromEncoded.member("ok", true)
                fromCursor.member("ok", true)
            }
            direct.member("lang", "nl")
            direct.member("text", "a \"b\"")
            fromEncoded.append(encoded)
            fromCursor.writeMembers(reserving: 64) { out, after in
                if after { out.write(",") }
                out.write(#""lang":"nl","text":"a \"b\"""#)
            }
            #expect(fromEncoded.bytes == direct.bytes, "\(afterMembers)")
            #expect(fromCursor.bytes == direct.bytes, "\(afterMembers)")
            fromEncoded.member("end", 1)
            direct.member("end", 1)
            #expect(fromEncoded.bytes == direct.bytes, "a member after them has its comma")
        }
        #expect(EncodedMembers { _ in }.isEmpty)
    }
}
