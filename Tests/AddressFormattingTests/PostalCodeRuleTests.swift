import FmtCore
import FmtTesting
import Testing

@testable import AddressFormatting

/// A postal-code rule answers from the entered value's bytes where it can (cleaning, the byte matcher and a flat
/// rebuild on the stack) and by its definition elsewhere. Whatever path it takes, `check`, `normalize`,
/// `normalize(utf8:)` and `withNormalized` give what the definition gives: the value cleaned as a `String`, matched
/// by ICU alone and rebuilt from the groups' substrings. Checked for every shipped rule and for rules built to
/// reach each corner of the rebuild, on values that are mixed-case, whitespace-laden, long and not ASCII.
@Suite struct PostalCodeRuleTests {
    struct ShippedRule {
        let pattern: String
        let format: String?
        let uppercase: Bool
        let example: String?
    }

    /// Every postal-code rule of the shipped formats and overrides, with its example.
    static let shipped: [ShippedRule] = {
        let store = DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
        var found: [String: ShippedRule] = [:]
        for file in ["address-formats.json", "address-overrides.json"] {
            guard let document = try? store.readJSON(file) else { continue }
            collect(document, into: &found)
        }
        return found.keys.sorted().map { found[$0]! }
    }()

    private static func collect(_ value: JSONValue, into found: inout [String: ShippedRule]) {
        switch value {
        case .object(let object):
            if let rule = object["postalCode"]?.objectValue, case .string(let pattern)? = rule["pattern"] {
                let format = rule["format"]?.stringValue
                let uppercase = rule["uppercase"] == .bool(true)
                let example = object["example"]?.objectValue?["postalCode"]?.stringValue
                let key = "\(pattern)|\(format ?? "-")|\(uppercase)"
                if found[key]?.example == nil {
                    found[key] = ShippedRule(pattern: pattern, format: format, uppercase: uppercase, example: example)
                }
            }
            for member in object { collect(member.value, into: &found) }
        case .array(let values):
            for value in values { collect(value, into: &found) }
        default: break
        }
    }

    /// `sample` as a client may send it: lower-cased, padded and split by ASCII and other whitespace, stretched
    /// past the length limit, or with letters and digits outside ASCII.
    static func decorated(_ sample: String) -> [String] {
        [
            sample, sample.lowercased(), " \t" + sample + "\r\n", sample.replacingSpaces(with: "  \n "),
            sample.replacingSpaces(with: "\t"), sample.replacingSpaces(with: "\u{A0}"),
            sample.replacingSpaces(with: "\u{3000}"), String(repeating: " ", count: 300) + sample,
            sample + String(repeating: "\r\n", count: 200), String(repeating: sample + " ", count: 12),
            String(repeating: "9", count: 31) + sample, "\u{FF11}" + sample, sample + "\u{301}", "ß" + sample,
            "ﬁ" + sample, "ǆ" + sample, sample + "ı", "\u{665}" + sample, sample + "\u{0}", "\u{1C}" + sample,
        ]
    }

    static func expectDefinition(_ rule: PostalCodeRule, _ value: String, _ label: String) {
        let definition = rule.generalCheck(value, icuOnly: true)
        #expect(rule.check(value) == definition, "\(label) on \(Array(value.unicodeScalars))")
        var expected: String?
        if case .normalized(let code) = definition { expected = code }
        #expect(rule.normalize(value) == expected, "\(label) on \(Array(value.unicodeScalars))")
        var contiguous = value
        contiguous.withUTF8 { utf8 in
            #expect(rule.normalize(utf8: utf8) == expected, "\(label) on \(Array(value.unicodeScalars))")
            let written = rule.withNormalized(utf8: utf8) { $0.map { Array($0) } }
            #expect(written == expected.map { Array($0.utf8) }, "\(label) on \(Array(value.unicodeScalars))")
        }
    }

    @Test func everyShippedRuleAnswersAsItsDefinition() throws {
        #expect(Self.shipped.count >= 60)
        #expect(Self.shipped.contains { $0.format != nil && $0.uppercase })
        for (offset, shipped) in Self.shipped.enumerated() {
            let rule = try PostalCodeRule(
                pattern: shipped.pattern, format: shipped.format, uppercase: shipped.uppercase)
            let samples = BytePatternTests.samples(example: shipped.example, count: 200, seed: UInt64(offset + 7))
            for sample in samples {
                for value in Self.decorated(sample) { Self.expectDefinition(rule, value, shipped.pattern) }
            }
        }
    }

    /// Rules whose rebuild reaches each corner: an optional part whose group took no part, a group outside one
    /// that took none (the cleaned value is kept), the whole match as `$0`, an empty format, a format too long
    /// for the stack space, more groups than the stack slots, and a pattern the byte matcher does not cover.
    @Test(
        arguments: [
            ("([0-9]{5})(?:[ -]?([0-9]{4}))?", "$1{-$2}", false), ("(A)?(B)", "$1$2", true),
            ("(a)(b)?", "{<$2>}$1", false), ("(\\d)(\\d)", "$0:$2-$1", false), ("(\\d+)", "", false),
            ("([A-Z]+)", "{x$1y}", true), ("(x)?y", "{[$1]}-{$1}", false), ("(\\d)?(\\d)?", "$1{$2}", false),
            ("(\\d{2})", String(repeating: "-", count: 300) + "$1", false),
            ("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)(m)(n)(o)(p)(q)", "$17$1", false),
            ("(\\w+) ?(\\d)", "$2$1", true), ("[A-Z]{1,3}", nil, true), ("(A)|(B)", "{$1}{$2}!", true),
        ] as [(String, String?, Bool)])
    func eachRebuildCornerAnswersAsTheDefinition(pattern: String, format: String?, uppercase: Bool) throws {
        let rule = try PostalCodeRule(pattern: pattern, format: format, uppercase: uppercase)
        var generator = BytePatternTests.Generator(state: UInt64(pattern.utf8.count))
        let letters = Array("ABxyab0129- \t")
        var samples = ["", " ", "A", "B", "AB", "b", "ab", "a", "y", "xy", "12", "1", "943031234", "94303 1234"]
        samples.append("abcdefghijklmnopq")
        for _ in 0..<400 {
            samples.append(String((0..<generator.next(10)).map { _ in letters[generator.next(letters.count)] }))
        }
        for sample in samples {
            for value in Self.decorated(sample) { Self.expectDefinition(rule, value, pattern) }
        }
    }

    /// Bytes that are not UTF-8 are answered as `String(decoding:as:)` repairs them.
    @Test func theByteEntryPointsAnswerInvalidUTF8AsItsRepairedText() throws {
        let rule = try PostalCodeRule(pattern: "([A-Z]{2}) ?(\\d{4})", format: "$1 $2", uppercase: true)
        for bytes: [UInt8] in [[0x41, 0x42, 0xFF, 0x31], [0xC3], [0x61, 0x62, 0x31, 0x32, 0x33, 0x34, 0xE2, 0x82]] {
            let repaired = String(decoding: bytes, as: UTF8.self)
            bytes.withUnsafeBufferPointer { utf8 in
                #expect(rule.normalize(utf8: utf8) == rule.normalize(repaired), "\(bytes)")
                #expect(
                    rule.withNormalized(utf8: utf8) { $0.map { Array($0) } }
                        == rule.normalize(repaired).map { Array($0.utf8) })
            }
        }
    }

    @Test func anEnteredCodeAlreadyInItsShownFormIsAnsweredWithItself() throws {
        let rule = try PostalCodeRule(pattern: "([0-9]{5})(?:[ -]?([0-9]{4}))?", format: "$1{-$2}", uppercase: false)
        #expect(rule.normalize("22162-1010") == "22162-1010")
        #expect(rule.normalize(" 94303  1234") == "94303-1234")
        #expect(rule.normalize("94303") == "94303")
        #expect(rule.normalize("9430") == nil)
        #expect(rule.check(String(repeating: "9", count: 33)) == .tooLong)
        #expect(rule.check(String(repeating: " ", count: 1000) + "94303") == .normalized("94303"))
    }
}

extension String {
    fileprivate func replacingSpaces(with separator: String) -> String {
        split(separator: " ", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
