import Testing

@testable import FmtCore

/// A nested reader names its members by their dotted path (`address.country`, `a.b.c`), joined only when an
/// error asks for it: the same path for flat and tree requests, data files and readers made with a path.
@Suite struct FieldReaderPathTests {
    /// The failure of reading `name` as a string, as text.
    static func failure(_ fields: RequestFields, _ name: String) -> String {
        "\(Result { try fields.string(name) })"
    }

    @Test func nestedObjectsNameTheirMembersByTheirWholePath() throws {
        let line = #"{"op":"x","a":{"n":1,"b":{"n":2,"c":{"n":3}}}}"#
        let bytes = Array(line.utf8)
        let flat = try bytes.withUnsafeBufferPointer { try Request(line: $0) }.fields
        let tree = try Request(JSONReader.parse(bytes)).fields
        for fields in [flat, tree] {
            let a = try #require(try fields.object("a"))
            let b = try #require(try a.object("b"))
            let c = try #require(try b.object("c"))
            #expect(fields.path("n") == "n" && a.path("n") == "a.n" && b.path("n") == "a.b.n")
            #expect(c.path("n") == "a.b.c.n")
            #expect(Self.failure(c, "n").contains(#"The field \"a.b.c.n\" must be a string, got number."#))
            #expect(Self.failure(a, "n").contains(#"The field \"a.n\" must be a string, got number."#))
            #expect(a.member("n").path == "a.n" && c.member("n").path == "a.b.c.n")
            let viaValue = try #require(try a.member("b").object())
            #expect(viaValue.path("n") == "a.b.n")
        }
    }

    @Test func aReaderMadeWithAPathPrefixesItAsBefore() throws {
        let object: JSONObject = ["n": 1, "o": ["m": 2]]
        #expect(RequestFields(object).path("n") == "n")
        #expect(RequestFields(object, path: "p").path("n") == "p.n")
        #expect(RequestFields(object, path: "").path("n") == ".n")
        #expect(try RequestFields(object, path: "p").object("o")?.path("m") == "p.o.m")
        #expect(try RequestFields(object, path: "").object("o")?.path("m") == ".o.m")
        let data = DataFields(object, path: "formats.BE", file: "f.json")
        #expect(try data.object("o")?.path("m") == "formats.BE.o.m")
        #expect("\(Result { try data.string("n") })".contains("formats.BE.n"))
    }
}
