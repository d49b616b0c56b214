import FmtCore
import Synchronization

/// Territory names as ICU knows them.
enum Territory {
    /// The territory's name in the viewer's ICU locale (`BE` in `nl_BE` → `België`), falling back to the
    /// plain language and then English, so the country line is never a bare code.
    static func name(_ code: String, locale: ResolvedLocale) -> String {
        ICUInfo.regionName(code, locale: locale.icuLocale)
            ?? ICUInfo.regionName(code, locale: locale.language)
            ?? ICUInfo.regionName(code, locale: "en")
            ?? code
    }
}

/// Territory names for one snapshot, in the viewer's locale, memoised on first use (ICU's display names read
/// resource bundles each time), bounded like the resolver.
final class TerritoryCache: Sendable {
    private let names = BoundedCache<NameKey, String>(limit: 4096)

    private struct NameKey: Hashable {
        let code: String
        let icuLocale: String
    }

    /// `Territory.name`, remembered per ICU locale.
    func name(_ code: String, locale: ResolvedLocale) -> String {
        names.value(for: NameKey(code: code, icuLocale: locale.icuLocale)) { Territory.name(code, locale: locale) }
            ?? code
    }
}
