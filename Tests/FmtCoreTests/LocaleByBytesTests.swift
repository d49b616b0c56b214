import Testing

@testable import FmtCore

/// A `locale` member read flat is resolved from its bytes through a cache keyed by them, and must answer as the
/// `String` path does (the definition): the same resolution or the same failure, for tags, lists, arrays, other
/// types and malformed text, top-level and nested; the cache stays bounded as before.
@Suite struct LocaleByBytesTests {
    static let resolver = LocaleResolver(supported: ["en", "nl", "de", "fr"])

    /// `locale` values as JSON text: tags, `Accept-Language` values, arrays, escapes, other types and malformed text.
    static let values = [
        #""nl""#, #""nl-BE""#, #""NL_be""#, #""fr-FR""#, #""ja-JP""#, #""es-419""#, #""de-Latn-DE-u-co-phonebk""#,
        #""en-x-private""#, #""pl""#, #""fr-CH, fr;q=0.9, de;q=0.7""#, #""*""#, #""en;q=0, *""#, #""de;q=0.5,nl""#,
        #""nl-\u0042E""#, #""\u00fc""#, #""x""#, #""""#, #""en--GB""#, #""nl,x""#, #""nl;q=2""#, #"" nl ""#,
        #"["fr","nl"]"#, #"[null,"de-AT"]"#, #"[]"#, #"["nl",1]"#, #"["x"]"#, #"[[]]"#, "null", "1", "true",
        #"{"a":"nl"}"#, "\"" + String(repeating: "a", count: 300) + "\"",
        "\"" + Array(repeating: "zh-Hant-TW", count: 30).joined(separator: ",") + "\"",
    ]

    /// What `locale(_:field:)` answers, as text: the resolution's parts, or the failure.
    static func answer(_ fields: RequestFields, field: String = "locale") -> String {
        do {
            let resolved = try fields.locale(resolver, field: field)
            return "\(resolved.requested) \(resolved.language) \(resolved.match) \(resolved.region ?? "-") "
                + "\(resolved.icuLocale) \(resolved.isList) \(resolved.index ?? -1) \(resolved.tag)"
        } catch {
            return "\(error)"
        }
    }

    static func readings(_ line: String) throws -> (flat: Request, tree: Request) {
        let bytes = Array(line.utf8)
        let flat = try bytes.withUnsafeBufferPointer { try Request(line: $0) }
        #expect(flat.record != nil, "the flat reading takes on \(line)")
        return (flat, try Request(JSONReader.parse(bytes)))
    }

    @Test(arguments: values)
    func aLocaleReadFlatAnswersAsItsTree(value: String) throws {
        let top = try Self.readings(#"{"op":"x","locale":"# + value + "}")
        // Twice: the first answer may be made, the second comes from the cache.
        for _ in 0..<2 {
            #expect(Self.answer(top.flat.fields) == Self.answer(top.tree.fields), "\(value)")
        }
        let nested = try Self.readings(#"{"op":"x","args":{"tag":"# + value + "}}")
        let flatArgs = try #require(try nested.flat.fields.object("args"))
        let treeArgs = try #require(try nested.tree.fields.object("args"))
        #expect(Self.answer(flatArgs, field: "tag") == Self.answer(treeArgs, field: "tag"), "\(value)")
    }

    @Test func anAbsentOrNullLocaleIsEnglish() throws {
        for line in [#"{"op":"x"}"#, #"{"op":"x","locale":null}"#, #"{"op":"x","locale":"nl","locale":null}"#] {
            let (flat, tree) = try Self.readings(line)
            #expect(Self.answer(flat.fields) == Self.answer(tree.fields))
            #expect(try flat.fields.locale(Self.resolver) == Self.resolver.resolve(LanguageTag.english))
        }
    }

    /// The byte entry point against the `String` one, over every value a test above sends and a few bytes more.
    @Test func resolvingBytesAnswersAsResolvingTheirString() {
        let texts =
            ["nl", "nl-BE", "fr-CH, fr;q=0.9", "x", "", "ü", "en-GB-x", String(repeating: "b", count: 257)]
            + ["de-DE", "de-DE"]
        for text in texts {
            let expected = Result { () throws(CoreError) in try Self.resolver.resolve(text, field: "f") }
            var copy = text
            let read = copy.withUTF8 { bytes in
                Result { () throws(CoreError) in try Self.resolver.resolve(utf8: bytes, field: "f") }
            }
            #expect("\(expected)" == "\(read)", "\(text)")
        }
    }

    /// Copies of one resolution share its storage; equal parts are equal and hash alike, whatever made them.
    @Test func resolutionsCompareByTheirParts() throws {
        let cached = try Self.resolver.resolve("nl-BE")
        let made = Self.resolver.resolve(try #require(LanguageTag(parsing: "nl-BE")))
        #expect(cached == made && cached.hashValue == made.hashValue)
        #expect(cached != (try Self.resolver.resolve("nl")))
        #expect(cached != (try Self.resolver.resolve(array: ["nl-BE"])))
        #expect(Set([cached, made, try Self.resolver.resolve("de")]).count == 2)
    }

    @Test func arrayKeysSpellEachEntryAndStopPastTheLongestKey() {
        #expect(LocaleResolver.arrayKey(["nl", .null, "de-AT"]) == Array("2:nl-5:de-AT".utf8))
        #expect(LocaleResolver.arrayKey([]) == [])
        let long: [JSONValue] = Array(repeating: "abcdefghi", count: 23) + ["a"]
        #expect(LocaleResolver.arrayKey(long)?.count == LocaleResolver.longestCachedKey)
        #expect(LocaleResolver.arrayKey(long + ["a"]) == nil)
    }

    @Test func theCacheHoldsAtMostItsLimitAndNoLongKeys() throws {
        let resolver = LocaleResolver(supported: ["en", "nl"])
        for index in 0..<4096 {
            _ = try resolver.resolve("nl-x-\(String(index, radix: 36))")
            #expect(resolver.cachedCount == index + 1)
        }
        _ = try resolver.resolve("nl-x-next")
        #expect(resolver.cachedCount == 1)
        let long = "nl," + String(repeating: " ", count: LocaleResolver.longestCachedKey - 2)
        #expect(try resolver.resolve(long).language == "nl")
        #expect(try resolver.resolve(String(long.dropLast())).language == "nl")
        #expect(resolver.cachedCount == 2)
        // Arrays are kept apart from strings, at most 1,024 of them.
        for index in 0..<1024 { _ = try resolver.resolve(array: [.string("nl-x-\(String(index, radix: 36))")]) }
        #expect(resolver.cachedCount == 2 + 1024)
        _ = try resolver.resolve(array: ["nl-x-next"])
        #expect(resolver.cachedCount == 2 + 1)
    }
}
