import Testing

@testable import FmtCore

/// A plugin reads a string, or an array of strings, as UTF-8 where it lies in the request line, and gets the same
/// bytes and the same failures as from the `String` accessors, whether the request was read flat or from a tree.
@Suite struct FieldReaderUTF8Tests {
    static let lines = [
        #"{"op":"sort","names":["de Vries","Zo\u00eb","Émile","a\"b","","x\ny"],"name":"\ud83d\ude00 ok"}"#,
        #"{"op":"sort","names":[],"name":""}"#,
        #"{"op":"sort","names":["a",1],"name":2}"#,
        #"{"op":"sort","names":"a","name":["a"]}"#,
        #"{"op":"sort","names":null,"name":null}"#,
        #"{"op":"sort","names":["a",null],"name":{}}"#,
        #"{"op":"sort","names":["first"],"names":["last","one"],"name":"first","name":"last"}"#,
        #"{"op":"sort"}"#,
    ]

    /// The request of `line` read flat, as the dispatcher reads it, and the same request made from a tree.
    static func readings(_ line: String) throws -> [Request] {
        let bytes = Array(line.utf8)
        let flat = try bytes.withUnsafeBufferPointer { try Request(line: $0) }
        #expect(flat.record != nil, "the flat reading takes on \(line)")
        let tree = try Request(JSONReader.parse(bytes))
        return [flat, tree]
    }

    @Test(arguments: lines)
    func aStringMemberReadsAsItsUTF8(line: String) throws {
        for request in try Self.readings(line) {
            let expected = Result { try request.fields.string("name") }
            let read = Result { try request.fields.withUTF8("name") { $0.array } }
            switch (expected, read) {
            case (.success(let text), .success(let bytes)): #expect(text.map { Array($0.utf8) } == bytes)
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
            default: Issue.record("\(line): string gave \(expected), withUTF8 \(read)")
            }
        }
    }

    @Test(arguments: lines)
    func anArrayOfStringsReadsAsTheirUTF8(line: String) throws {
        for request in try Self.readings(line) {
            let expected = Result { try request.fields.strings("names") }
            let read = Result {
                try request.fields.withUTF8Strings("names") { strings in (0..<strings.count).map { strings[$0].array }
                }
            }
            switch (expected, read) {
            case (.success(let texts), .success(let bytes)): #expect(texts?.map { Array($0.utf8) } == bytes)
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)")
            default: Issue.record("\(line): strings gave \(expected), withUTF8Strings \(read)")
            }
        }
    }

    @Test func namesWrittenFromTheirUTF8AreEscapedAsStrings() throws {
        let request = try Self.readings(Self.lines[0])[0]
        var fromBytes = ResponseWriter()
        var fromStrings = ResponseWriter()
        try request.fields.withUTF8Strings("names") { strings in
            fromBytes.array("sorted") { sorted in
                for index in 0..<strings.count { strings[index].withUnsafeBufferPointer { sorted.element(utf8: $0) } }
            }
        }
        let names = try #require(try request.fields.strings("names"))
        fromStrings.array("sorted") { sorted in
            for name in names { sorted.element(name) }
        }
        #expect(fromBytes.bytes == fromStrings.bytes)
        #expect(String(decoding: fromBytes.bytes, as: UTF8.self).contains(#""a\"b""#))
    }

    /// A flat object's members are walked in order, duplicates included, each slot reading the string it holds (nil
    /// for any other value); a nested object read flat walks its own members; a tree is not walked.
    @Test(arguments: lines + [#"{"op":"address","address":{"street":"Here","n":5,"city":"Zo\u00eb","street":"x"}}"#])
    func membersWalkedFlatReadAsTheirValues(line: String) throws {
        let readings = try Self.readings(line)
        let (flat, tree) = (readings[0].fields, readings[1].fields)
        try Self.expectWalk(flat, as: tree)
        if let nested = try flat.object("address"), let nestedTree = try tree.object("address") {
            try Self.expectWalk(nested, as: nestedTree)
        }
        #expect(!tree.forEachMember { _, _ in Issue.record("a tree's member was walked") })
    }

    /// Whether walking `flat` gives the members of `tree`, with the strings' bytes.
    static func expectWalk(_ flat: RequestFields, as tree: RequestFields) throws {
        var walked: [(name: String, text: [UInt8]?)] = []
        #expect(
            flat.forEachMember { name, slot in
                walked.append((String(decoding: name.array, as: UTF8.self), flat.withUTF8(at: slot) { $0.array }))
            })
        #expect(walked.map(\.name) == tree.members.map(\.name))
        #expect(walked.map(\.text) == tree.members.map { $0.value.value?.stringValue.map { Array($0.utf8) } })
    }
}

extension Span<UInt8> {
    /// The lent bytes, copied.
    var array: [UInt8] { withUnsafeBufferPointer { Array($0) } }
}
