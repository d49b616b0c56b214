import FmtCore
import Testing

@testable import AddressFormatting

/// `TerritoryCache` finds a remembered country name by the viewer's language and region: every answer, first or
/// remembered, is `Territory.name`'s for that locale.
@Suite struct TerritoryCacheTests {
    static let languages = ["en", "nl", "de"]

    @Test func rememberedNamesAreTheLocalesOwn() throws {
        let resolver = LocaleResolver(supported: Self.languages)
        let cache = TerritoryCache(languageCount: Self.languages.count)
        let tags = ["en", "nl-NL", "nl-BE", "de-AT", "en-FR", "en-419", "es-419", "en-US", "de", "fr-CA", "nl-001"]
        for _ in 0..<2 {
            for tag in tags {
                let locale = try resolver.resolve(tag)
                let language = Self.languages.firstIndex(of: locale.language)
                for code in ["BE", "DE", "US", "JP", "ZZ", "419"] {
                    let name = cache.name(code, slot: FormatCatalog.slot(code), language: language, locale: locale)
                    #expect(name == Territory.name(code, locale: locale), "\(tag) \(code)")
                }
            }
        }
    }

    /// A locale made in code whose ICU id is not the one its language and region give gets its own id's names,
    /// not those remembered for the language and region.
    @Test func aRowAnswersOnlyTheIdItWasMadeFor() throws {
        let cache = TerritoryCache(languageCount: Self.languages.count)
        let tag = try #require(LanguageTag(parsing: "en-FR"))
        let european = ResolvedLocale(requested: tag, language: "en", match: .base, region: "FR", icuLocale: "en_150")
        let other = ResolvedLocale(requested: tag, language: "en", match: .base, region: "FR", icuLocale: "de")
        let slot = FormatCatalog.slot("DE")
        #expect(cache.name("DE", slot: slot, language: 0, locale: european) == Territory.name("DE", locale: european))
        #expect(cache.name("DE", slot: slot, language: 0, locale: other) == Territory.name("DE", locale: other))
        #expect(cache.name("DE", slot: slot, language: 0, locale: european) == Territory.name("DE", locale: european))
    }

    /// Past `localeLimit` locales the cache starts afresh and still answers each locale's own names.
    @Test func moreLocalesThanTheLimitAreAnsweredToo() throws {
        let resolver = LocaleResolver(supported: Self.languages)
        let cache = TerritoryCache(languageCount: Self.languages.count)
        let letters = (0x41...0x5A).map { String(UnicodeScalar(UInt8($0))) }
        let regions = letters.prefix(4).flatMap { first in letters.map { first + $0 } }
        for region in regions.prefix(TerritoryCache.localeLimit + 10) {
            let locale = try resolver.resolve("nl-\(region)")
            let name = cache.name("BE", slot: FormatCatalog.slot("BE"), language: 1, locale: locale)
            #expect(name == Territory.name("BE", locale: locale), "\(region)")
        }
    }

    @Test func regionKeysAreDistinctForLettersNoneAndDigits() {
        #expect(TerritoryCache.regionKey("AA") == 0)
        #expect(TerritoryCache.regionKey("ZZ") == 26 * 26 - 1)
        #expect(TerritoryCache.regionKey(nil) == 26 * 26)
        #expect(TerritoryCache.regionKey("000") == 26 * 26 + 1)
        #expect(TerritoryCache.regionKey("419") == 26 * 26 + 1 + 419)
        #expect(TerritoryCache.regionKey("999") == 26 * 26 + 1 + 999)
        for odd in ["", "A", "fr", "F1", "4a9", "ABC", "1234", "É1"] {
            #expect(TerritoryCache.regionKey(odd) == nil, "\(odd)")
        }
    }
}
