import CICU
import Synchronization

/// How a requested tag matched a supported language.
public enum LocaleMatch: String, Sendable {
    /// The tag is a supported language itself (`nl`).
    case exact
    /// The tag's language is supported, with more subtags (`nl-BE`).
    case base
    /// The language is not supported; English is used.
    case `default`
}

/// The outcome of resolving a viewer's tag: the language text is produced in, the region kept for
/// regional conventions, and the ICU locale that has data for that combination.
public struct ResolvedLocale: Sendable, Hashable {
    /// The tag as the caller sent it, parsed (collation and plural rules use it directly).
    public let requested: LanguageTag
    /// The supported language (`en`, `nl`, `de`): the `lang` of every text produced for it.
    public let language: String
    public let match: LocaleMatch
    /// The viewer's region, kept even when the language fell back (`FR` for `fr-FR`).
    public let region: String?
    /// The ICU locale id with data for language and region, after region containment (`en_150`).
    public let icuLocale: String

    /// Language plus kept region as a BCP 47 tag (`nl-BE`, `en-FR`): the `locale` of responses.
    public var tag: String {
        region.map { "\(language)-\($0)" } ?? language
    }
}

/// Resolves tags: exact tag, then base language, then English, keeping the region; finds the ICU locale
/// by walking ICU's region containment (FR → 155 → 150 → 001) so a French viewer reading English gets
/// `en_150`, not American conventions. Results are cached (bounded), since every request resolves.
public final class LocaleResolver: Sendable {
    /// Supported interface languages, English first.
    public let supported: [String]
    private let available: Set<String>
    private let cache = BoundedCache<WireName, ResolvedLocale>(limit: 4096)

    public init(supported: [String]) {
        var languages = ["en"]
        for language in supported where !languages.contains(language) { languages.append(language) }
        self.supported = languages
        var available = Set<String>()
        for index in 0..<fmt_icu_available_locale_count() {
            if let id = fmt_icu_available_locale(index) { available.insert(String(cString: id)) }
        }
        self.available = available
    }

    /// Resolves a tag from a request field; a malformed tag is `invalid_field` naming that field.
    public func resolve(_ text: String, field: String = "locale") throws(CoreError) -> ResolvedLocale {
        let resolved = try cache.value(for: WireName(text)) { () throws(CoreError) -> ResolvedLocale? in
            guard let tag = LanguageTag(parsing: text) else {
                throw .invalidField(
                    field, message: "\"\(text.prefix(64))\" is not a well-formed language tag (e.g. nl-BE).")
            }
            return resolve(tag)
        }
        // `make` never answers nil, so neither does the cache.
        return resolved!
    }

    public func resolve(_ tag: LanguageTag) -> ResolvedLocale {
        let match: LocaleMatch
        let language: String
        if supported.contains(tag.language) {
            language = tag.language
            match =
                tag.script == nil && tag.region == nil && !tag.trailing.contains(where: { $0.count > 1 })
                ? .exact : .base
        } else {
            language = "en"
            match = .default
        }
        return ResolvedLocale(
            requested: tag, language: language, match: match, region: tag.region,
            icuLocale: icuLocale(language: language, region: tag.region))
    }

    /// Whether ICU has locale data under this exact id (`en_150`).
    public func hasICULocale(_ id: String) -> Bool {
        available.contains(id)
    }

    private func icuLocale(language: String, region: String?) -> String {
        guard let region else { return language }
        // Groupings such as 419 have no containing region in ICU: the walk then ends at the world, 001.
        var chain = [region]
        while chain.count < 8, let parent = Self.containingRegion(of: chain[chain.count - 1]) { chain.append(parent) }
        if chain.last != "001" { chain.append("001") }
        return chain.lazy.map { "\(language)_\($0)" }.first(where: available.contains) ?? language
    }

    /// ICU's containing region (`FR` → `155`), or nil at the top (`001`) or for an unknown code.
    public static func containingRegion(of region: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 16)
        let length = fmt_icu_containing_region(region, &buffer, 16)
        guard length > 0, length < 16 else { return nil }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
