import FmtCore
import FmtTesting
import Testing

@testable import NameServices

/// `plural` answers the CLDR cardinal category in the requested language's own rules. Expected values
/// are worked out from CLDR's published rules (common/supplemental/plurals.xml, CLDR 42 as in ICU 72),
/// quoted per language; `n` is the absolute value, `i` its integer digits, `v` the count of visible
/// fraction digits, so the string "1.0" (v = 1) differs from the number 1.
@Suite struct PluralTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let locale: String
        let count: JSONValue
        let category: String

        init(_ locale: String, _ count: Int, _ category: String) {
            self.locale = locale
            self.count = JSONValue(count)
            self.category = category
        }

        init(_ locale: String, number: String, _ category: String) {
            self.locale = locale
            self.count = .number(JSONNumber(literal: number))
            self.category = category
        }

        init(_ locale: String, decimal: String, _ category: String) {
            self.locale = locale
            self.count = .string(decimal)
            self.category = category
        }

        var testDescription: String { "\(locale) \(JSONWriter.string(count)) → \(category)" }
    }

    static let cases: [Case] = [
        // en, nl, de: one: i = 1 and v = 0.
        Case("en", 1, "one"), Case("en", 0, "other"), Case("en", 2, "other"), Case("en", -1, "one"),
        Case("en", decimal: "1", "one"), Case("en", decimal: "1.0", "other"), Case("en", number: "1.5", "other"),
        Case("nl", 1, "one"), Case("nl", 2, "other"), Case("nl", decimal: "1.0", "other"),
        Case("de", 1, "one"), Case("de", 0, "other"), Case("de", decimal: "1.00", "other"),
        // fr: one: i = 0,1; many: e = 0 and i != 0 and i % 1000000 = 0 and v = 0 or e != 0..5.
        Case("fr", 0, "one"), Case("fr", 1, "one"), Case("fr", decimal: "1.5", "one"), Case("fr", 2, "other"),
        Case("fr", 1_000_000, "many"), Case("fr", 2_000_000, "many"), Case("fr", decimal: "1000000.0", "other"),
        // pl: one: i = 1 and v = 0; few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14;
        // many: v = 0 and i != 1 and i % 10 = 0..1 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 12..14.
        Case("pl", 1, "one"), Case("pl", 2, "few"), Case("pl", 4, "few"), Case("pl", 5, "many"),
        Case("pl", 12, "many"), Case("pl", 22, "few"), Case("pl", 0, "many"), Case("pl", 101, "many"),
        Case("pl", decimal: "1.5", "other"), Case("pl", decimal: "2.0", "other"),
        // ru: one: v = 0 and i % 10 = 1 and i % 100 != 11; few: v = 0 and i % 10 = 2..4 and i % 100 != 12..14;
        // many: v = 0 and i % 10 = 0 or v = 0 and i % 10 = 5..9 or v = 0 and i % 100 = 11..14.
        Case("ru", 1, "one"), Case("ru", 21, "one"), Case("ru", 11, "many"), Case("ru", 2, "few"),
        Case("ru", 12, "many"), Case("ru", 5, "many"), Case("ru", 0, "many"), Case("ru", decimal: "1.0", "other"),
        Case("ru", number: "1.5", "other"),
        // ar: zero: n = 0; one: n = 1; two: n = 2; few: n % 100 = 3..10; many: n % 100 = 11..99.
        Case("ar", 0, "zero"), Case("ar", 1, "one"), Case("ar", 2, "two"), Case("ar", 3, "few"),
        Case("ar", 10, "few"), Case("ar", 11, "many"), Case("ar", 99, "many"), Case("ar", 100, "other"),
        Case("ar", 102, "other"), Case("ar", 103, "few"), Case("ar", decimal: "1.0", "one"),
        Case("ar", decimal: "0.5", "other"),
        // cs: one: i = 1 and v = 0; few: i = 2..4 and v = 0; many: v != 0.
        Case("cs", 1, "one"), Case("cs", 2, "few"), Case("cs", 4, "few"), Case("cs", 5, "other"),
        Case("cs", 0, "other"), Case("cs", decimal: "1.5", "many"), Case("cs", decimal: "1.0", "many"),
        Case("cs", number: "0.5", "many"),
    ]

    @Test(arguments: cases)
    func categoryFollowsTheLanguagesCLDRRules(_ example: Case) throws {
        let request: JSONValue = ["op": "plural", "locale": .string(example.locale), "count": example.count]
        let response = try shipped.answer(JSONWriter.string(request))
        #expect(response == ["category": .string(example.category)])
    }

    @Test func rulesAreThoseOfTheRequestedLanguageNotTheInterfaceLanguage() throws {
        // Polish is no interface language (it resolves to English), yet 5 is Polish "many", English "other".
        #expect(try shipped.answer(#"{"op":"plural","locale":"pl-PL","count":5}"#)["category"] == "many")
        #expect(try shipped.answer(#"{"op":"plural","locale":"en","count":5}"#)["category"] == "other")
    }

    /// The members `plural` writes for `line` read flat, as the daemon reads it: the rules are found by the locale's
    /// bytes where they lie in the line.
    func flatMembers(_ plugin: NamesPlugin, _ line: String) throws -> [UInt8] {
        let request = try Array(line.utf8).withUnsafeBufferPointer { try Request(line: $0) }
        var writer = ResponseWriter(bytes: [UInt8(ascii: "{")])
        try plugin.handle(request, into: &writer)
        return writer.bytes
    }

    /// Rules are remembered by the locale's text: one plugin answers every case twice, read flat and as a tree, with
    /// its category; an absent locale, a priority list and other spellings of a tag answer as a fresh plugin does,
    /// and a locale that fails keeps failing.
    @Test func rulesRememberedByTheLocalesTextAnswerAsFreshOnes() throws {
        for _ in 0..<2 {
            for example in Self.cases {
                let line = JSONWriter.string(
                    ["op": "plural", "locale": .string(example.locale), "count": example.count])
                let expected = Array(#"{"category":"#.utf8) + JSONWriter.encode(.string(example.category))
                #expect(try flatMembers(shipped, line) == expected, "\(line)")
                #expect(try shipped.answer(line) == ["category": .string(example.category)], "\(line)")
            }
        }
        let fresh = try loadPlugin(NamesPlugin.self)
        for line in [
            #"{"op":"plural","count":1}"#, #"{"op":"plural","locale":["pl","en"],"count":5}"#,
            #"{"op":"plural","locale":"PL-pl","count":5}"#, #"{"op":"plural","locale":"pl_PL","count":22}"#,
        ] {
            let expected = try flatMembers(fresh, line)
            for _ in 0..<2 { #expect(try flatMembers(shipped, line) == expected, "\(line)") }
        }
        let failing = #"{"op":"plural","locale":"!","count":1}"#
        for _ in 0..<2 {
            #expect(shipped.failure(failing)?.field == "locale")
            #expect(throws: (any Error).self) { try flatMembers(shipped, failing) }
        }
    }

    /// A decimal count is read by an ICU number formatter kept for its count of fraction digits, not opened per
    /// request: however many requests in however many languages, a plugin opens one per count it has met.
    @Test func decimalCountsShareOneNumberFormatterPerCountOfFractionDigits() throws {
        let plugin = try loadPlugin(NamesPlugin.self)
        #expect(plugin.decimalFormattersOpened == 0)
        // Fraction digits 1, 2, 0, 2, 3 and 1: four counts of them.
        let counts = ["1.5", "2.50", "3", "-7.25", "0.125", "1000000.0"]
        for _ in 0..<20 {
            for locale in ["en", "cs", "pl", "fr"] {
                for count in counts {
                    let line = #"{"op":"plural","locale":""# + locale + #"","count":""# + count + #""}"#
                    #expect(try plugin.answer(line) == (try shipped.answer(line)), "\(line)")
                }
            }
        }
        #expect(plugin.decimalFormattersOpened == 4)
        #expect(plugin.failure(#"{"op":"plural","count":"1.5x"}"#)?.field == "count")
        #expect(plugin.decimalFormattersOpened == 4)
    }

    /// The message a refused request is answered with.
    func refusal(_ line: String) -> String? {
        do {
            _ = try shipped.answer(line)
            return nil
        } catch let error as any WireError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// A decimal string is `-?digits(.digits)?` of at most 64 characters, at most 30 of its digits after the
    /// point (the README's bounds): up to them it has a category; past them the answer states the bound it broke
    /// rather than that the text is no decimal.
    @Test func aDecimalPastItsBoundIsRefusedStatingTheBound() throws {
        func line(_ count: String) -> String { #"{"op":"plural","locale":"en","count":""# + count + #""}"# }
        let fraction = String(repeating: "0", count: 30)
        let long = String(repeating: "9", count: 64)
        for accepted in ["1." + fraction, long, "-" + long.dropFirst(), "1." + fraction.dropLast(2) + "5"] {
            #expect(try shipped.answer(line(accepted))["category"] == "other", "\(accepted)")
        }
        let refused = [
            ("1." + fraction + "0", "at most 30 digits after the point"),
            ("-0." + fraction + "1", "at most 30 digits after the point"),
            (long + "9", "at most 64 characters"), ("-" + long, "at most 64 characters"),
            ("1." + fraction + long, "at most 64 characters"),
        ]
        for (text, bound) in refused {
            #expect(shipped.failure(line(text))?.field == "count")
            let message = refusal(line(text)) ?? ""
            #expect(message.contains(bound), "\(text.count): \(message)")
            #expect(!message.contains("is not a decimal"), "\(message)")
        }
        #expect(refusal(line("1.5x"))?.contains("is not a decimal such as") == true)
    }

    @Test func countMustBeANumberOrAPlainDecimalString() {
        #expect(shipped.failure(#"{"op":"plural","locale":"en"}"#)?.field == "count")
        #expect(shipped.failure(#"{"op":"plural","locale":"en","count":"five"}"#)?.field == "count")
        #expect(shipped.failure(#"{"op":"plural","locale":"en","count":"1e3"}"#)?.field == "count")
        #expect(shipped.failure(#"{"op":"plural","locale":"en","count":".5"}"#)?.field == "count")
        #expect(shipped.failure(#"{"op":"plural","locale":"en","count":true}"#)?.code == "invalid_field")
        #expect(shipped.failure(#"{"op":"plural","locale":"en","count":1e999}"#)?.field == "count")
    }
}
