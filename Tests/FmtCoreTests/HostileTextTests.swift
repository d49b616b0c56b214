import FmtCore
import Testing

/// Text a client controls costs time linear in its length: strings must be Stream-Safe (UAX #15), protocol
/// names match byte for byte, numbers out of a double's range are refused, and private-use tags are tags.
@Suite struct HostileTextTests {
    static let mark = "\u{301}"

    static func parse(_ text: String) throws(JSONReadError) -> JSONValue {
        try JSONReader.parse(#"{"op":"ping","text":""# + text + #""}"#)
    }

    @Test func thirtyCombiningMarksInARowAreTextAndThirtyOneAreRefused() throws {
        _ = try Self.parse("a" + String(repeating: Self.mark, count: 30))
        let error = #expect(throws: JSONReadError.self) {
            try Self.parse("a" + String(repeating: Self.mark, count: 31))
        }
        #expect(error?.isUnsafeText == true)
        #expect(error?.offset == 21)
    }

    @Test func escapedMarksCountAsMarks() {
        let escaped = "a" + String(repeating: #"\u0301\u0316"#, count: 16)
        let error = #expect(throws: JSONReadError.self) { try Self.parse(escaped) }
        #expect(error?.isUnsafeText == true)
    }

    @Test func aStarterEndsTheRunSoLongMarkedTextIsAccepted() throws {
        let segment = "a" + String(repeating: "\u{301}\u{316}", count: 15)
        let value = try Self.parse(String(repeating: segment, count: 2_000))
        #expect(value.objectValue?["text"]?.stringValue?.unicodeScalars.count == 62_000)
    }

    /// U+0F73 is a starter by its own class but decomposes into two marks: it is counted by its decomposition.
    @Test func marksAreCountedAfterCanonicalDecomposition() throws {
        _ = try Self.parse("a" + String(repeating: "\u{F73}", count: 15))
        let error = #expect(throws: JSONReadError.self) {
            try Self.parse("a" + String(repeating: "\u{F73}", count: 16))
        }
        #expect(error?.isUnsafeText == true)
        // A precomposed letter's own mark counts too: é + 30 marks is 31 in a row.
        #expect(throws: JSONReadError.self) { try Self.parse("\u{E9}" + String(repeating: Self.mark, count: 30)) }
    }

    @Test func ordinaryTextInManyScriptsIsStreamSafe() throws {
        for text in ["Zoë Ångström", "Nguyễn Thị Minh Khai", "ผู้ใหญ่", "한국어", "ئۇيغۇرچە", "हिन्दी", "𝄞 ü ẞ"] {
            #expect(try Self.parse(text).objectValue?["text"]?.stringValue == text)
        }
    }

    @Test func memberNamesMatchByteForByteNotByCanonicalEquivalence() throws {
        let object = try JSONReader.parse(#"{"caf\u00e9":1,"cafe\u0301":2}"#).objectValue
        #expect(object?["caf\u{E9}"] == .number(JSONNumber(1)))
        #expect(object?["cafe\u{301}"] == .number(JSONNumber(2)))
        #expect(WireName("caf\u{E9}") != WireName("cafe\u{301}"))
        #expect(WireName("op") == WireName(String(decoding: Array("op".utf8), as: UTF8.self)))
    }

    @Test(arguments: [
        ("0e9999999999", 0.0, "0"), ("-0.00e99999999999", -0.0, "0.00"), ("1.5e3", 1500, "1.5e3"), ("2", 2, "2"),
        ("1e-300", 1e-300, "1e-300"), ("-0", -0.0, "0"), ("-0E+5", -0.0, "0"), ("-1.5e3", -1500, "-1.5e3"),
    ])
    func numbersInADoublesRangeKeepAnExactDecimal(literal: String, value: Double, decimal: String) {
        let number = JSONNumber(literal: literal)
        #expect(number.doubleValue == value)
        #expect(number.decimalText == decimal)
    }

    @Test(arguments: ["1e-9999999999", "0.5e-400", "1e400", "-1e99999999999"])
    func numbersOutOfADoublesRangeHaveNoValue(literal: String) {
        #expect(JSONNumber(literal: literal).doubleValue == nil)
        #expect(JSONNumber(literal: literal).decimalText == nil)
    }

    @Test(arguments: ["en-x-a", "en-US-x-1", "de-x-ab-c", "nl-BE-u-co-phonebk-x-a-b", "de-x-12345678"])
    func privateUseSubtagsAreWellFormed(_ text: String) {
        #expect(LanguageTag(parsing: text) != nil, "\(text)")
    }

    @Test(arguments: ["en-x", "en-x-", "en-x-123456789", "en-a-b", "en-u", "x-a"])
    func malformedExtensionsAndPrivateUseAreRefused(_ text: String) {
        #expect(LanguageTag(parsing: text) == nil, "\(text)")
    }

    @Test func privateUseResolvesToItsLanguageAndKeepsTheRegion() throws {
        let resolved = try LocaleResolver(supported: ["en", "nl", "de"]).resolve("de-CH-x-ab-c")
        #expect(resolved.language == "de")
        #expect(resolved.region == "CH")
    }
}
