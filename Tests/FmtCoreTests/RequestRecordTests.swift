import FmtDispatch
import FmtTesting
import Synchronization
import Testing

@testable import FmtCore

/// A request line read flat accepts exactly what `JSONReader` accepts (or leaves the line to it), with the same
/// values and the same bytes written back, and a reused record never changes under a request someone kept.
@Suite struct RequestRecordTests {
    static let lines = [
        #"{"op":"ping"}"#, #"{"op":"phone","id":7,"number":"+31 20 123 4567","defaultRegion":"NL"}"#,
        #" { "op" : "sort" , "names" : [ "b" , "a" ] , "locale" : [ "de" , "en" ] } "#,
        #"{"op":"x","id":"a\"b\\c\/\n\u00e9\ud83d\ude00","v":[true,false,null,{},[]]}"#,
        #"{"op":"x","id":{"nested":[1,-0.5e-3,1E+2,0]},"id":-12.25}"#, "{\"op\":\"ü€𝄞\",\"k\":\"\u{0301}e\"}",
        #"{"op":"dup","op":"last","a":1,"a":{"b":2}}"#, #"{"o\u0070":"escaped name"}"#, #"{"op":1}"#, #"[1,2]"#,
        #""text""#, #"{"op":"ping"} x"#, #"{"op":"ping""#, "{\"op\":\"a\u{1}b\"}", #"{"op":"\x"}"#,
        #"{"op":"\ud800"}"#, #"{"op":"\udc00"}"#, #"{"op":"\ud800\u0041"}"#, #"{"op":01}"#, #"{"op":1.}"#,
        #"{"op":-}"#, #"{"op":tru}"#, #"{"a":1,}"#, #"{"a" 1}"#, "", " ", "{}", #"{"":""}"#,
        #"{"op":"exactly15bytes!","s":"12345678","t":"1234567","u":"123456789abcdef0123"}"#,
        "{\"op\":\"" + String(repeating: "\u{0301}", count: 31) + "\"}",
        "{\"op\":\"e" + String(repeating: "\u{0301}", count: 30) + "\"}",
        "{\"op\":\"\\u0065" + String(repeating: "\\u0301", count: 31) + "\"}",
        String(repeating: "[", count: 16) + String(repeating: "]", count: 16),
        String(repeating: "[", count: 17) + String(repeating: "]", count: 17),
        String(repeating: "[", count: 65) + String(repeating: "]", count: 65),
        // At and past the scan's depth: an empty container counts as a level.
        String(repeating: "[", count: 15) + "[]" + String(repeating: "]", count: 15),
        String(repeating: "[", count: 15) + "{}" + String(repeating: "]", count: 15),
        String(repeating: "[", count: 16) + "{}" + String(repeating: "]", count: 16),
        String(repeating: #"{"a":"#, count: 16) + "1" + String(repeating: "}", count: 16),
        String(repeating: #"{"a":"#, count: 17) + "1" + String(repeating: "}", count: 17),
        #"{"op":"x","a":"# + String(repeating: "[", count: 15) + "{}" + String(repeating: "]", count: 15) + "}",
        #"{"op":"x","a":"# + String(repeating: "[", count: 14) + #"{"b":[1,{}],"c":2}"#
            + String(repeating: "]", count: 14) + "}",
        // Separators alone, doubled or misplaced.
        ",", ":", ",,,,", "::::", "[,]", "{,}", "[1,,2]", "[1 2]", "[,1]", #"{"a":1,,"b":2}"#, #"{"a"::1}"#,
        #"{"a":1:"b"}"#, #"{:1}"#, #"{"a",1}"#, "[1:2]", "{1:2}", "]", "}", "[}", "{]", #"{"a":[1}]}"#,
        // Whitespace of every kind around every token.
        " \t\r\n{ \t\"op\"\r:\n\"x\" ,\t\"a\" : [ 1 ,\n2 ] , \"b\":{ } }\r\n\t ", "\u{0B}{}", "{}\u{0C}",
        // Words and numbers cut off by the line's end, or running into other bytes.
        "true", "false", "null", "tru", "fals", "nul", "[true", "[nul", "truex", "[truefalse]", "[nulll]", "nullx",
        "[t]", "[f]", "[n]", "1", "-", "-0", "01", "1.", "1.5", "1e", "1e+", "1E-3", "0.5e+10", "-1.5e", "[1.e3]",
        "[-]", "[--1]", "[1-]", "[0x1]", "[1e1.5]", "[.5]", "[+1]", "123456789012345678901234567890",
        // A zero byte inside the line, which the scan must not take for its end.
        "{\"op\":\"ping\"}\u{0}", "{\"op\":\"pi\u{0}ng\"}", "[1,\u{0}2]", "[1\u{0}]", "\u{0}",
    ]

    /// What the flat reading gives for `bytes`: nil when it leaves the line to `JSONReader`.
    static func flat(_ bytes: [UInt8]) -> (value: JSONValue, written: [UInt8])? {
        let record = RequestRecord()
        let scanned = bytes.withUnsafeBufferPointer { record.scan($0) }
        guard scanned else { return nil }
        var written: [UInt8] = []
        record.appendValue(0, to: &written)
        return (record.value(0), written)
    }

    static func check(_ bytes: [UInt8]) {
        let tree = try? JSONReader.parse(bytes)
        guard let (value, written) = flat(bytes) else {
            // Left to the reader: an error, or one of the few shapes the scan does not take on.
            if tree != nil {
                let text = String(decoding: bytes, as: UTF8.self)
                #expect(text.contains("\\") || nesting(bytes) > RequestRecord.maxDepth, "\(text)")
            }
            return
        }
        #expect(tree == value, "\(String(decoding: bytes, as: UTF8.self))")
        if let tree { #expect(written == JSONWriter.encode(tree)) }
    }

    /// How deeply the containers of a JSON text nest (brackets in strings aside).
    static func nesting(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    @Test(arguments: lines)
    func readsAsTheTreeReaderDoes(_ line: String) {
        Self.check(Array(line.utf8))
    }

    /// `Request(line:)` gives what the tree gives, and the tree's errors.
    @Test func aDecodedLineReadsAsItsTree() throws {
        let line = Array(#"{"op":"phone","id":[1],"number":"+31 20","n":null,"a":{"b":"c"}}"#.utf8)
        let flat = try line.withUnsafeBufferPointer { try Request(line: $0) }
        let tree = try Request(try JSONReader.parse(line))
        #expect(flat.op == tree.op && flat.id == tree.id && flat.fields.object == tree.fields.object)
        #expect(try flat.fields.string("number") == "+31 20" && flat.fields["n"] == nil)
        #expect(try flat.fields.object("a")?.string("b") == "c")
        #expect(flat.fields.members.map(\.name) == tree.fields.members.map(\.name))
        for bad in [#"{"op":1}"#, #"[]"#, #"{"op":"a""#, #"{"id":2}"#] {
            let bytes = Array(bad.utf8)
            let flatError = bytes.withUnsafeBufferPointer { line in "\(Result { try Request(line: line).op })" }
            let treeError = "\(Result { try Request(try JSONReader.parse(bytes)).op })"
            #expect(flatError == treeError)
        }
    }

    @Test func invalidUTF8IsLeftToTheReader() {
        for bytes: [UInt8] in [
            [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82],
        ] {
            let line = Array(#"{"op":""#.utf8) + bytes + Array(#""}"#.utf8)
            #expect(Self.flat(line) == nil)
            Self.check(line)
        }
    }

    @Test func randomLinesReadAsTheTreeReaderDoes() {
        var generator = SeededGenerator.forTest("randomLinesReadAsTheTreeReaderDoes", seed: 912956)
        let alphabet =
            Array(#"{}[]",:0123456789.eE+-truefalsn\u/"op"#.utf8) + [
                0x20, 0xC3, 0xA9, 0xCC, 0x81, 0xFF, 0x00, 0x0A, 0xED,
            ]
        let pieces = [#"{"op":"#, #""ping""#, #","id":"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\""#, "ab", "é"].map {
            Array($0.utf8)
        }
        for _ in 0..<20_000 {
            var line: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<24, using: &generator) {
                if Bool.random(using: &generator) {
                    line.append(alphabet.randomElement(using: &generator)!)
                } else {
                    line += pieces.randomElement(using: &generator)!
                }
            }
            Self.check(line)
        }
    }

    /// The string scan reads eight bytes at a time: whatever stops it (an escape, a control byte, a non-ASCII
    /// character, a quote) gives the tree's answer at every offset around those words, in names and in values.
    @Test func stringsReadAsTheTreeReaderDoesAtEveryOffset() {
        let specials: [[UInt8]] =
            [
                #"\""#, #"\\"#, #"\n"#, #"\u00e9"#, #"\ud83d\ude00"#, "é", "€", "𝄞", "\u{0301}", "\u{7F}", #"""#, "\\",
            ].map { Array($0.utf8) } + [[0x01], [0x00], [0x1F], [0x0A], [0x20]]
        for padding in 0..<8 {
            let space = [UInt8](repeating: 0x20, count: padding)
            for length in 0...17 {
                for offset in 0...length {
                    for special in specials {
                        var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        text.insert(contentsOf: special, at: offset)
                        let quoted = [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]
                        let open = Array(#"{"op":"#.utf8)
                        Self.check(space + open + quoted + Array("}".utf8))
                        Self.check(Array("{".utf8) + space + quoted + Array(#":"v","op":"x"}"#.utf8))
                        Self.check(open + quoted + Array(#","k":["#.utf8) + space + quoted + Array("]}".utf8))
                    }
                }
            }
        }
    }

    /// Invalid UTF-8 anywhere in a string, in any of its eight-byte words, leaves the line to the reader.
    @Test func invalidUTF8AtEveryPositionIsLeftToTheReader() {
        let invalid: [[UInt8]] = [
            [0xFF], [0x80], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        ]
        for length in 0...24 {
            for position in 0...length {
                for bytes in invalid {
                    var text = [UInt8](repeating: UInt8(ascii: "b"), count: length)
                    text.insert(contentsOf: bytes, at: position)
                    let line = Array(#"{"op":""#.utf8) + text + Array(#""}"#.utf8)
                    #expect(Self.flat(line) == nil, "\(line)")
                    Self.check(line)
                    let escaped = Array(#"{"op":"\n"#.utf8) + text + Array(#""}"#.utf8)
                    #expect(Self.flat(escaped) == nil, "\(escaped)")
                }
            }
        }
    }

    /// Lines of more values than the record's first buffer holds, up to one value for every two bytes, read into
    /// one record one after the other (growing it, then reusing it for a short line), read as the tree does.
    @Test func aReusedRecordGrowsForEveryValue() throws {
        let record = RequestRecord()
        var lines: [[UInt8]] = []
        for count in [0, 1, 15, 16, 17, 31, 32, 33, 1_000, 5_000] {
            let elements = (0..<count).map { $0 % 3 == 0 ? "1" : $0 % 3 == 1 ? "[]" : "{}" }
            lines.append(Array("[\(elements.joined(separator: ","))]".utf8))
            let members = [#""op":"x""#] + (0..<count).map { #""k\#($0)":"\#($0)""# } + [#""id":7"#]
            lines.append(Array("{\(members.joined(separator: ","))}".utf8))
        }
        lines.append(Array(#"{"op":"ping"}"#.utf8))
        lines.append(Array(("[" + String(repeating: "1,", count: 2_000) + "1]").utf8))
        for line in lines {
            let tree = try JSONReader.parse(line)
            let scanned = line.withUnsafeBufferPointer { record.scan($0) }
            try #require(scanned)
            #expect(record.value(0) == tree)
            if case .object(let object) = tree {
                #expect(record.rootOp >= 0 && record.string(record.rootOp) == object["op"]?.stringValue)
                let id = record.rootId >= 0 ? Optional(record.value(record.rootId)) : nil
                #expect(id == object["id"])
            }
        }
    }

    /// The envelope's `op` and `id` are the root object's last members of those names, never a nested object's.
    @Test(arguments: [
        #"{"a":{"op":"inner","id":1},"op":"outer"}"#, #"{"op":"first","id":1,"op":"last","id":[2]}"#,
        #"{"id":"x","op":"ping","b":[{"id":3}]}"#, #"{"x":{"op":"only-inner"}}"#, #"{"op":1,"id":2}"#,
        #"{"opx":"a","op":"b","i":"c","idd":4}"#,
    ])
    func theEnvelopeIsTheRootObjects(_ text: String) {
        let line = Array(text.utf8)
        let flat = line.withUnsafeBufferPointer { line in Result { try Request(line: line) } }
        let tree = Result { try Request(try JSONReader.parse(line)) }
        #expect("\(flat.map(\.op))" == "\(tree.map(\.op))")
        #expect((try? flat.get().id) == (try? tree.get().id))
    }

    /// Members are found by their whole name, whatever its length: names that share a prefix, or differ only in
    /// their last byte or in the byte after a word, never stand in for each other.
    @Test func membersAreFoundByTheirWholeName() throws {
        var generator = SeededGenerator.forTest("membersAreFoundByTheirWholeName", seed: 458151)
        // Every length to 17, and names differing from them only in their first, middle or last byte.
        let alphabet = Array("abcdefghijklmnopq")
        let prefixes = (0...17).map { String(alphabet[0..<$0]) }
        let variants = prefixes.filter { !$0.isEmpty }.flatMap { name -> [String] in
            var bytes = Array(name.utf8)
            return [0, bytes.count / 2, bytes.count - 1].map { at in
                bytes[at] ^= 0x01
                defer { bytes[at] ^= 0x01 }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        let names = prefixes + variants + ["op", "id", "é", "é1234567", "1234567é"]
        for _ in 0..<2_000 {
            let members = (0..<Int.random(in: 0..<8, using: &generator)).map { index in
                "\"\(names.randomElement(using: &generator)!)\":\"v\(index)\""
            }
            let line = Array(("{\"op\":\"x\"" + members.map { "," + $0 }.joined() + "}").utf8)
            let flat = try line.withUnsafeBufferPointer { try Request(line: $0) }
            let tree = try Request(try JSONReader.parse(line))
            for name in names + ["x", "abcdefghijklmnopqr"] {
                #expect(try flat.fields.string(name) == tree.fields.string(name), "\(name) in \(line)")
            }
        }
    }

    enum Kind: String, CaseIterable {
        case short, long, café
    }

    /// An enum member read flat (its bytes against each case's) gives the tree's case or the tree's failure.
    @Test(arguments: [
        #""short""#, #""long""#, #""caf\u00e9""#, "\"café\"", "\"cafe\u{0301}\"", #""LONG""#, #""shor""#, #""""#,
        "1", "null", #""long ""#,
    ])
    func enumsReadFlatAsFromTheTree(_ value: String) throws {
        let line = Array(#"{"op":"x","k":"#.utf8) + Array(value.utf8) + Array("}".utf8)
        let flat = try line.withUnsafeBufferPointer { try Request(line: $0) }
        let tree = try Request(try JSONReader.parse(line))
        let read = { (request: Request) in
            "\(Result { () throws(CoreError) in try request.fields.enum("k", as: Kind.self, noun: "a kind") })"
        }
        #expect(read(flat) == read(tree))
    }

    @Test func validatesUTF8AsStringDoes() {
        var generator = SeededGenerator.forTest("validatesUTF8AsStringDoes", seed: 914001)
        let bytes: [UInt8] = [
            0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xA0, 0xED, 0x9F, 0xEF, 0xF0, 0x90, 0xF4, 0x8F, 0xF5,
        ]
        for _ in 0..<50_000 {
            let text = (0..<Int.random(in: 1..<6, using: &generator)).map { _ in bytes.randomElement(using: &generator)!
            }
            let line = Array(#"{"op":""#.utf8) + text + Array(#""}"#.utf8)
            let valid = String(validating: text, as: UTF8.self) != nil
            #expect((Self.flat(line) != nil) == valid, "\(text)")
        }
    }

    /// UTF-8 is checked where it lies, past runs of ASCII and up to an escape, a control byte or the line's end:
    /// any mix of well-formed and broken sequences, combining marks and escapes reads as the tree reads it.
    @Test func mixedTextReadsAsTheTreeReaderDoes() {
        var generator = SeededGenerator.forTest("mixedTextReadsAsTheTreeReaderDoes", seed: 685251)
        let pieces: [[UInt8]] =
            ["a", "abcdefghijk", "é", "€", "𝄞", "\u{0301}", "ё", #"\n"#, #"\u00e9"#, #"\u0301"#, #"\""#].map {
                Array($0.utf8)
            } + [[0xC3], [0xE2, 0x82], [0xF0, 0x9D, 0x84], [0x80], [0xED, 0xA0, 0x80], [0xC0, 0x80], [0x01]]
        for _ in 0..<20_000 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0..<12, using: &generator) {
                let piece = pieces.randomElement(using: &generator)!
                for _ in 0..<(piece == Array("\u{0301}".utf8) ? Int.random(in: 1...32, using: &generator) : 1) {
                    text += piece
                }
            }
            let open = Array(#"{"op":""#.utf8) + text
            Self.check(open + Array(#""}"#.utf8))
            // Cut off at every length: the line ends inside the string, maybe inside a sequence.
            Self.check(Array(open.prefix(Int.random(in: 0...open.count, using: &generator))))
        }
    }

    @Test func escapeCheckAgreesWithEveryByte() {
        var generator = SeededGenerator.forTest("escapeCheckAgreesWithEveryByte", seed: 372526)
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? UInt8.random(in: 0x20...0x7E, using: &generator) : .random(in: 0...0xFF)
            }
            let expected = !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            #expect(bytes.withUnsafeBufferPointer { ByteScan.needsNoEscape($0) } == expected, "\(bytes)")
            #expect(bytes.withUnsafeBufferPointer { ByteScan.escapeFlags(of: $0) == 0 } == expected, "\(bytes)")
        }
    }

    /// Every `id` comes back as the tree's encoding would write it, whichever way the line was read.
    @Test(arguments: [#"7"#, #"-1.5e3"#, #""abc""#, #""a\u0041\/""#, #"null"#, #"true"#, #"{"k":[1, "v"]}"#, #""é""#])
    func echoesTheIDAsTheTreeWouldBe(_ id: String) throws {
        let registry = try PluginRegistry(
            pluginTypes: [], store: DataStore(source: .embedded([:]), localDirectory: nil),
            environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en"])))
        let dispatcher = Dispatcher(registry: registry, builtins: ["ping": { _, _ in }])
        let line = #"{"op":"ping","id":"# + id + "}"
        var expected: [UInt8] = []
        Dispatcher.appendSuccess([:], id: try JSONReader.parse(id), to: &expected)
        #expect(dispatcher.respond(to: Array(line.utf8)) == expected)
        let lane = Dispatcher.Lane(dispatcher)
        var out: [UInt8] = []
        Array(line.utf8).withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
        #expect(out == expected)
    }

    /// A loop's lane reads every line into one record, but not while a request read from it is still held.
    @Test func aKeptRequestKeepsItsLine() throws {
        final class Kept: Sendable {
            let requests = Mutex<[Request]>([])
        }
        let kept = Kept()
        let registry = try PluginRegistry(
            pluginTypes: [], store: DataStore(source: .embedded([:]), localDirectory: nil),
            environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en"])))
        let dispatcher = Dispatcher(
            registry: registry, builtins: ["keep": { request, _ in kept.requests.withLock { $0.append(request) } }])
        let lane = Dispatcher.Lane(dispatcher)
        var out: [UInt8] = []
        for text in ["first", "second-and-longer", "third"] {
            let line = Array(#"{"op":"keep","id":"\#(text)","text":"\#(text)"}"#.utf8)
            line.withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
        }
        let texts = try kept.requests.withLock { requests in try requests.map { try $0.fields.string("text") } }
        #expect(texts == ["first", "second-and-longer", "third"])
        #expect(kept.requests.withLock { $0.map(\.id) } == ["first", "second-and-longer", "third"])
        #expect(kept.requests.withLock { $0.map(\.op) } == ["keep", "keep", "keep"])
    }

    /// A `RequestText` kept past its request (all a builtin keeps of it, with a `TextRange`) holds the record, so
    /// the lane reads the next lines into another and the kept text stays as it was; read, trimmed, where it lies.
    @Test func aKeptRequestTextKeepsItsBytesWhileTheLaneReadsOn() throws {
        final class Kept: Sendable {
            let strings = Mutex<[(RequestText, TextRange)]>([])
        }
        let kept = Kept()
        let registry = try PluginRegistry(
            pluginTypes: [], store: DataStore(source: .embedded([:]), localDirectory: nil),
            environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en"])))
        let dispatcher = Dispatcher(
            registry: registry,
            builtins: [
                "keep": { request, _ in
                    _ = request.fields.forEachMember { name, slot in
                        guard name.withUnsafeBufferPointer({ Array($0) }) == Array("text".utf8) else { return }
                        let count = request.fields.withUTF8(at: slot) { $0.count } ?? 0
                        guard let text = request.fields.text,
                            let range = request.fields.textRange(at: slot, trimmedTo: 1..<max(count - 1, 1))
                        else { return }
                        kept.strings.withLock { $0.append((text, range)) }
                    }
                }
            ])
        let lane = Dispatcher.Lane(dispatcher)
        var out: [UInt8] = []
        let texts = ["[first]", #"[second \"and\" longer]"#, "[third]", "[x]"]
        for text in texts {
            let line = Array(#"{"op":"keep","text":"\#(text)"}"#.utf8)
            line.withUnsafeBufferPointer { lane.respond(to: $0, into: &out) }
        }
        let read = kept.strings.withLock { strings in strings.map { text, range in text.string(range) } }
        #expect(read == ["first", "second \"and\" longer", "third", "x"])
    }

    #if DEBUG
    /// A slot is a place in one request's record: read with another request's reader, a debug build traps
    /// rather than read the other request's bytes.
    @Test func aSlotReadWithAnotherRequestsReaderTraps() async {
        await #expect(processExitsWith: .failure) {
            let first = try Array(#"{"a":"one"}"#.utf8).withUnsafeBufferPointer { try Request(line: $0) }
            let second = try Array(#"{"a":"two"}"#.utf8).withUnsafeBufferPointer { try Request(line: $0) }
            var slot: MemberSlot?
            _ = first.fields.forEachMember { _, found in slot = found }
            _ = second.fields.withUTF8(at: slot!) { $0.count }
        }
    }
    #endif
}
