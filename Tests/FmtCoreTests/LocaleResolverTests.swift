import FmtCore
import Testing

/// Locale resolution: exact tag → base language → English, keeping the viewer's region, with ICU's region
/// containment choosing the locale that has data.
@Suite struct LocaleResolverTests {
    static let resolver = LocaleResolver(supported: ["en", "nl", "de"])

    @Test(arguments: [
        ("nl", "nl", LocaleMatch.exact, "nl", "nl"),
        ("nl-BE", "nl", .base, "nl-BE", "nl_BE"),
        ("nl_BE", "nl", .base, "nl-BE", "nl_BE"),
        ("NL-be", "nl", .base, "nl-BE", "nl_BE"),
        ("de-AT", "de", .base, "de-AT", "de_AT"),
        ("de-CH", "de", .base, "de-CH", "de_CH"),
        ("en", "en", .exact, "en", "en"),
        ("en-US", "en", .base, "en-US", "en_US"),
        ("en-GB", "en", .base, "en-GB", "en_GB"),
        ("fr-FR", "en", .default, "en-FR", "en_150"),
        ("fr", "en", .default, "en", "en"),
        ("es-419", "en", .default, "en-419", "en_001"),
        ("ja-JP", "en", .default, "en-JP", "en_001"),
        ("nl-FR", "nl", .base, "nl-FR", "nl"),
        ("de-Latn-DE", "de", .base, "de-DE", "de_DE"),
        ("de-DE-u-ca-buddhist", "de", .base, "de-DE", "de_DE"),
        ("pl", "en", .default, "en", "en"),
    ])
    func resolves(tag: String, language: String, match: LocaleMatch, locale: String, icu: String) throws {
        let resolved = try Self.resolver.resolve(tag)
        #expect(resolved.language == language)
        #expect(resolved.match == match)
        #expect(resolved.tag == locale)
        #expect(resolved.icuLocale == icu)
    }

    @Test(arguments: ["x", "123", "en--GB", "", "-en", "en-", "toolongtag", "en-GB-x", "e n", "ü", "en-ü"])
    func refusesMalformedTagsNamingTheField(tag: String) {
        #expect(throws: CoreError.invalidField("locale", message: "")) {
            do {
                _ = try Self.resolver.resolve(tag)
            } catch CoreError.invalidField(let field, _) {
                throw CoreError.invalidField(field, message: "")
            }
        }
    }

    @Test func regionContainmentWalksUpToTheWorld() {
        #expect(LocaleResolver.containingRegion(of: "FR") == "155")
        #expect(LocaleResolver.containingRegion(of: "155") == "150")
        #expect(LocaleResolver.containingRegion(of: "150") == "001")
        #expect(LocaleResolver.containingRegion(of: "001") == nil)
    }

    @Test func keepsExtensionsInTheRequestedTag() throws {
        let resolved = try Self.resolver.resolve("de-u-co-phonebk")
        #expect(resolved.requested.description == "de-u-co-phonebk")
        #expect(resolved.language == "de")
    }
}
