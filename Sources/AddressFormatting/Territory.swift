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

/// Territory names for one snapshot, in the viewer's ICU locale, memoised on first use (ICU's display names read
/// resource bundles each time). A request finds its name without hashing: the ICU locales met are few (one per
/// language and region group), so their keys are compared in turn, and a locale's names are held by the
/// country's two letters. At most `localeLimit` locales are held; the next one starts afresh.
final class TerritoryCache: Sendable {
    static let localeLimit = 64

    private let locales = Mutex<Locales>(Locales())

    private struct Locales {
        /// Per locale held, in the order they were met.
        var keys: [LocaleKey] = []
        /// Per locale held, by `slot(_:)`: nil until asked.
        var names: [[String?]] = []
    }

    /// An ICU locale id compared as three words: its length and its first 16 bytes; a longer id is compared
    /// whole as well.
    private struct LocaleKey: Equatable {
        let count: Int
        let first: UInt64
        let second: UInt64
        let id: String

        init(_ id: String) {
            var id = id
            self.id = id
            count = id.utf8.count
            (first, second) = id.withUTF8 { utf8 in
                var words: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &words) {
                    $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: utf8.prefix(16))))
                }
                return words
            }
        }

        static func == (left: LocaleKey, right: LocaleKey) -> Bool {
            left.count == right.count && left.first == right.first && left.second == right.second
                && (left.count <= 16 || left.id == right.id)
        }
    }

    /// `Territory.name`, remembered per ICU locale.
    func name(_ code: String, locale: ResolvedLocale) -> String {
        guard let slot = FormatCatalog.slot(code) else { return Territory.name(code, locale: locale) }
        let key = LocaleKey(locale.icuLocale)
        let known = locales.withLock { locales -> String? in
            guard let index = locales.keys.firstIndex(of: key) else { return nil }
            return locales.names[index][slot]
        }
        if let known { return known }
        let name = Territory.name(code, locale: locale)
        locales.withLock { locales in
            if let index = locales.keys.firstIndex(of: key) {
                locales.names[index][slot] = name
                return
            }
            if locales.keys.count >= Self.localeLimit { locales = Locales() }
            var names = [String?](repeating: nil, count: 26 * 26)
            names[slot] = name
            locales.keys.append(key)
            locales.names.append(names)
        }
        return name
    }
}
