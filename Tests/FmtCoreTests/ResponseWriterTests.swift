import FmtCore
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
}
