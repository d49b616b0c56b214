import FmtCore
import FmtTesting
import Foundation
import Testing

/// The byte-level reader agrees with Foundation's JSONSerialization on what is JSON, and never traps.
@Suite struct JSONReaderTests {
    static let valid = [
        #"{}"#, #"[]"#, #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#, #"  {"op" : "ping"}  "#, #"-0.5e-3"#,
        #""\u00e9\ud83d\ude00\n\t\"\\\/""#, #"[1E+2,0,-0,1.25]"#, "\"ü€𝄞\"", #"{"a":{"a":{"a":{}}}}"#,
    ]
    static let invalid = [
        "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{'a':1}", "01", "1.", ".5", "+1", "-", "1e", "tru", "nul",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"a\u{1}b\"", "{\"a\" 1}", "[1 2]", "{} {}", "NaN", "Infinity", "\"\\ud800\"",
    ]

    @Test(arguments: valid)
    func acceptsWhatFoundationAccepts(_ text: String) throws {
        let ours = try JSONReader.parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(Self.equivalent(ours, theirs), "\(text)")
    }

    @Test(arguments: invalid)
    func rejectsWhatIsNotJSON(_ text: String) {
        #expect(throws: JSONReadError.self) { try JSONReader.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONReadError.self) { try JSONReader.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONReadError.self) { try JSONReader.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test func limitsNesting() throws {
        #expect(throws: JSONReadError.self) { try JSONReader.parse(String(repeating: "[", count: 100_000)) }
        _ = try JSONReader.parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64))
        #expect(throws: JSONReadError.self) {
            try JSONReader.parse(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))
        }
    }

    @Test func keepsNumberTextAndOverflowIsNotFinite() throws {
        let value = try JSONReader.parse(#"[1e999999, 5.0, 12]"#)
        let numbers = value.arrayValue?.compactMap(\.numberValue) ?? []
        #expect(numbers.map(\.text) == ["1e999999", "5.0", "12"])
        #expect(numbers[0].doubleValue == nil)
        #expect(numbers[1].intValue == 5)
    }

    @Test func writerRoundTripsThroughFoundation() throws {
        for text in Self.valid {
            let written = JSONWriter.encode(try JSONReader.parse(text))
            let reparsed = try JSONSerialization.jsonObject(with: Data(written), options: [.fragmentsAllowed])
            #expect(Self.equivalent(try JSONReader.parse(written), reparsed))
        }
        #expect(JSONWriter.string(.string("a\u{0}\u{1f}\"\\\n")) == #""a\u0000\u001f\"\\\n""#)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SeededGenerator.forTest("randomBytesNeverTrap", seed: 332974)
        let alphabet = Array(#"{}[]",:0123456789.eE+-truefalsn\u "#.utf8) + [0xC3, 0xA9, 0xFF, 0x00]
        for _ in 0..<20_000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            _ = try? JSONReader.parse(bytes)
        }
    }

    static func equivalent(_ ours: JSONValue, _ theirs: Any) -> Bool {
        switch ours {
        case .null: return theirs is NSNull
        case .bool(let flag): return (theirs as? Bool) == flag
        case .number(let number):
            guard let theirs = theirs as? NSNumber, let ours = number.doubleValue else { return false }
            return abs(theirs.doubleValue - ours) <= 1e-12 * max(1, abs(ours))
        case .string(let text): return (theirs as? String) == text
        case .array(let elements):
            guard let array = theirs as? [Any], array.count == elements.count else { return false }
            return zip(elements, array).allSatisfy { equivalent($0, $1) }
        case .object(let object):
            guard let dictionary = theirs as? [String: Any], dictionary.count == object.count else { return false }
            return object.allSatisfy { member in dictionary[member.key].map { equivalent(member.value, $0) } ?? false }
        }
    }
}
