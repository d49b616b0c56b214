import CICU

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
/// regional conventions, and the ICU locale that has data for that combination. Its parts live in one shared
/// object, so copying a resolution (out of the cache, into a plugin) costs one reference count.
public struct ResolvedLocale: Sendable, Hashable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let requested: LanguageTag
        @usableFromInline let language: String
        @usableFromInline let match: LocaleMatch
        @usableFromInline let region: String?
        @usableFromInline let icuLocale: String
        @usableFromInline let isList: Bool
        @usableFromInline let index: Int?
        @usableFromInline let tag: String
        /// `region` as a `Region`, made once with the resolution for `ResolvedLocale.viewerRegion`.
        @usableFromInline let viewerRegion: Region?

        init(
            requested: LanguageTag, language: String, match: LocaleMatch, region: String?, icuLocale: String,
            isList: Bool, index: Int?
        ) {
            self.requested = requested
            self.language = language
            self.match = match
            self.region = region
            self.icuLocale = icuLocale
            self.isList = isList
            self.index = index
            tag = region.map { "\(language)-\($0)" } ?? language
            viewerRegion = region.flatMap { Region(subtag: $0) }
        }
    }

    @usableFromInline let storage: Storage

    /// The tag as the caller sent it, parsed (collation and plural rules use it directly).
    @inlinable public var requested: LanguageTag { storage.requested }
    /// The supported language (`en`, `nl`, `de`): the `lang` of every text produced for it.
    @inlinable public var language: String { storage.language }
    @inlinable public var match: LocaleMatch { storage.match }
    /// The viewer's region, kept even when the language fell back (`FR` for `fr-FR`).
    @inlinable public var region: String? { storage.region }
    /// The ICU locale id with data for language and region, after region containment (`en_150`).
    @inlinable public var icuLocale: String { storage.icuLocale }
    /// Whether the caller sent a priority list (an array or an `Accept-Language` value) rather than one tag.
    @inlinable public var isList: Bool { storage.isList }
    /// For a priority list, the index of the entry whose language won (`LocalePriorityList.Entry.index`); nil when
    /// none did and English is the default, and for a single tag.
    @inlinable public var index: Int? { storage.index }

    public init(
        requested: LanguageTag, language: String, match: LocaleMatch, region: String?, icuLocale: String,
        isList: Bool = false, index: Int? = nil
    ) {
        storage = Storage(
            requested: requested, language: language, match: match, region: region, icuLocale: icuLocale,
            isList: isList, index: index)
    }

    /// Language plus kept region as a BCP 47 tag (`nl-BE`, `en-FR`): the `locale` of responses. Made once, with
    /// the resolution.
    @inlinable public var tag: String { storage.tag }

    public static func == (lhs: ResolvedLocale, rhs: ResolvedLocale) -> Bool {
        if lhs.storage === rhs.storage { return true }
        return lhs.requested == rhs.requested && lhs.language == rhs.language && lhs.match == rhs.match
            && lhs.region == rhs.region && lhs.icuLocale == rhs.icuLocale && lhs.isList == rhs.isList
            && lhs.index == rhs.index
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(requested)
        hasher.combine(language)
        hasher.combine(match)
        hasher.combine(region)
        hasher.combine(icuLocale)
        hasher.combine(isList)
        hasher.combine(index)
    }
}

/// Resolves tags: exact tag, then base language, then English, keeping the region; finds the ICU locale
/// by walking ICU's region containment (FR → 155 → 150 → 001) so a French viewer reading English gets
/// `en_150`, not American conventions. Results are cached (bounded), since every request resolves.
public final class LocaleResolver: Sendable {
    /// Supported interface languages, English first.
    public let supported: [String]
    private let available: Set<String>
    /// Resolutions of strings by their bytes, found without a `String`. Only strings are kept here, so a string is
    /// never answered with what another kind of value resolved to, whatever bytes it holds.
    private let cache = LookupCache<UTF8Keys, ResolvedLocale, ForgetAll>(
        limit: 4096, longestKey: LocaleResolver.longestCachedKey)
    /// Resolutions of arrays by `arrayKey(_:)`: a cache of their own, so no string can spell an array's key.
    private let arrayCache = LookupCache<UTF8Keys, ResolvedLocale, ForgetAll>(
        limit: 1024, longestKey: LocaleResolver.longestCachedKey)
    /// What an absent `locale` resolves to: English, made once.
    public let english: ResolvedLocale

    public init(supported: [String]) {
        var languages = ["en"]
        for language in supported where !languages.contains(language) { languages.append(language) }
        self.supported = languages
        var available = Set<String>()
        for index in 0..<fmt_icu_available_locale_count() {
            if let id = fmt_icu_available_locale(index) { available.insert(String(cString: id)) }
        }
        self.available = available
        english = Self.resolve(.english, supported: languages, available: available)
    }

    /// The longest key the cache keeps, in bytes: a single tag (at most 128 bytes) always fits, as do the lists
    /// browsers and services send; a longer list is resolved afresh each time, so 4,096 hostile lists of 32 long
    /// tags cannot pin megabytes of keys.
    static let longestCachedKey = 256

    /// How many resolutions the caches hold, strings' and arrays' (for tests of their bound).
    var cachedCount: Int { cache.count + arrayCache.count }

    /// Resolves a tag, or an `Accept-Language` value (`fr-CH, fr;q=0.9, de;q=0.7`), from a request field; a
    /// malformed tag is `invalid_field` naming that field, a malformed element of a list naming it by index
    /// (`locale[2]`).
    public func resolve(_ text: String, field: String = "locale") throws(CoreError) -> ResolvedLocale {
        guard text.utf8.count <= Self.longestCachedKey else { return try make(text, field: field) }
        var key = text
        let resolved = key.withUTF8 { key in
            Result { () throws(CoreError) -> ResolvedLocale in
                // `make` never answers nil, so neither does the cache.
                try cache.value(for: key) { () throws(CoreError) -> ResolvedLocale? in try make(text, field: field) }!
            }
        }
        return try resolved.get()
    }

    /// As `resolve(_:field:)`, for a text's UTF-8 (a request's member where it lies in the line): a `String` is
    /// made of it, and `field` asked, only when the cache does not hold it. Invalid UTF-8 reads as
    /// `String(decoding:as:)` repairs it.
    public func resolve(
        utf8 text: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String
    ) throws(CoreError) -> ResolvedLocale {
        // A hit builds no closure of `make`, whose context retained the resolver.
        if let cached = cache.value(for: text) { return cached }
        return try resolveMissing(utf8: text, field: field())
    }

    /// `resolve(utf8:field:)` for a text the cache did not hold: made, and remembered.
    private func resolveMissing(
        utf8 text: UnsafeBufferPointer<UInt8>, field: String
    ) throws(CoreError) -> ResolvedLocale {
        // `make` never answers nil, so neither does the cache.
        try cache.value(for: text) { () throws(CoreError) -> ResolvedLocale? in
            try make(String(decoding: text, as: UTF8.self), field: field)
        }!
    }

    /// The resolution of a text, uncached.
    private func make(_ text: String, field: String) throws(CoreError) -> ResolvedLocale {
        if LocalePriorityList.isAcceptLanguage(text) {
            return resolve(try LocalePriorityList(acceptLanguage: text, field: field))
        }
        guard let tag = LanguageTag(parsing: text) else {
            throw .invalidField(
                field, message: "\"\(text.prefix(64))\" is not a well-formed language tag (e.g. nl-BE).")
        }
        return resolve(tag)
    }

    /// Resolves a JSON array of tags in priority order (`[null, "nl"]`); `field` names the array in errors.
    public func resolve(array values: [JSONValue], field: String = "locale") throws(CoreError) -> ResolvedLocale {
        let list = try LocalePriorityList(array: values, field: field)
        guard let key = Self.arrayKey(values) else { return resolve(list) }
        return key.withUnsafeBufferPointer { key in
            arrayCache.value(for: key) { () -> ResolvedLocale? in resolve(list) }!
        }
    }

    /// An array's key in `arrayCache`: each entry's byte length, a colon and its text (`-` for an entry that is
    /// not a string), so no two arrays share a key; nil past `longestCachedKey` bytes. Strings are cached apart,
    /// so a string that spells the same bytes finds nothing of an array's.
    static func arrayKey(_ values: [JSONValue]) -> [UInt8]? {
        var key: [UInt8] = []
        for value in values {
            switch value {
            case .string(let text):
                key.append(contentsOf: String(text.utf8.count).utf8)
                key.append(UInt8(ascii: ":"))
                key.append(contentsOf: text.utf8)
            default: key.append(UInt8(ascii: "-"))
            }
            if key.count > longestCachedKey { return nil }
        }
        return key
    }

    public func resolve(_ tag: LanguageTag) -> ResolvedLocale {
        Self.resolve(tag, supported: supported, available: available)
    }

    private static func resolve(_ tag: LanguageTag, supported: [String], available: Set<String>) -> ResolvedLocale {
        let language = supported.contains(tag.language) ? tag.language : "en"
        return ResolvedLocale(
            requested: tag, language: language, match: match(tag, supported: language == tag.language),
            region: tag.region, icuLocale: icuLocale(language: language, region: tag.region, available: available))
    }

    /// The first entry whose language is supported, exactly or by its base, wins and lends its region; `*` wins
    /// with English (or the first supported language not refused with `q=0`). Without a winner the language is
    /// English. The region kept is the winner's, else the first any entry names; the requested tag (for
    /// collation and plural rules) is the first entry's.
    public func resolve(_ list: LocalePriorityList) -> ResolvedLocale {
        let requested = list.firstTag ?? .english
        var winner: (index: Int, language: String, match: LocaleMatch, region: String?)?
        for entry in list.entries {
            if let tag = entry.tag {
                guard supported.contains(tag.language) else { continue }
                winner = (entry.index, tag.language, Self.match(tag, supported: true), tag.region)
            } else {
                let any = supported.first { !list.refused.contains($0) } ?? "en"
                winner = (entry.index, any, .default, nil)
            }
            break
        }
        let region = winner?.region ?? list.entries.lazy.compactMap(\.tag?.region).first
        let language = winner?.language ?? "en"
        return ResolvedLocale(
            requested: requested, language: language, match: winner?.match ?? .default, region: region,
            icuLocale: Self.icuLocale(language: language, region: region, available: available), isList: true,
            index: winner?.index)
    }

    private static func match(_ tag: LanguageTag, supported: Bool) -> LocaleMatch {
        guard supported else { return .default }
        return tag.script == nil && tag.region == nil && !tag.trailing.contains(where: { $0.count > 1 })
            ? .exact : .base
    }

    /// Whether ICU has locale data under this exact id (`en_150`).
    package func hasICULocale(_ id: String) -> Bool {
        available.contains(id)
    }

    private static func icuLocale(language: String, region: String?, available: Set<String>) -> String {
        guard let region else { return language }
        // Groupings such as 419 have no containing region in ICU: the walk then ends at the world, 001.
        var chain = [region]
        while chain.count < 8, let parent = containingRegion(of: chain[chain.count - 1]) { chain.append(parent) }
        if chain.last != "001" { chain.append("001") }
        return chain.lazy.map { "\(language)_\($0)" }.first(where: available.contains) ?? language
    }

    /// ICU's containing region (`FR` → `155`), or nil at the top (`001`) or for an unknown code.
    package static func containingRegion(of region: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 16)
        let length = fmt_icu_containing_region(region, &buffer, 16)
        guard length > 0, length < 16 else { return nil }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
