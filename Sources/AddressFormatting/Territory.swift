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
/// resource bundles each time). A request finds its name without hashing or comparing ids in turn: the ICU locale
/// follows from the viewer's language and region (`LocaleResolver` derives it from them), so a row of names is
/// found by the language's index and the region's code, and a name in it by the country's two letters. Each row
/// keeps the id it was made for and answers only a locale with that id. At most `localeLimit` rows are held; the
/// next one starts afresh.
final class TerritoryCache: Sendable {
    static let localeLimit = 64

    /// Region keys per language: two letters (`(A…Z) * 26 + (A…Z)`), no region, then three digits.
    private static let regionKeys = 26 * 26 + 1 + 1000

    private let languageCount: Int
    private let rows: Mutex<Rows>

    private struct Rows {
        /// The row of each language and region key (`language * regionKeys + key`), -1 for none yet.
        var byKey: [Int16]
        /// Per row, the ICU locale id its names are in.
        var ids: [String] = []
        /// Per row, by `FormatCatalog.slot(_:)`: nil until asked.
        var names: [[String?]] = []

        init(keys: Int) {
            byKey = [Int16](repeating: -1, count: keys)
        }
    }

    /// A cache for viewers in `languageCount` languages (the label tables', by `AddressRenderer.LanguageChoice`).
    init(languageCount: Int) {
        self.languageCount = languageCount
        rows = Mutex(Rows(keys: languageCount * Self.regionKeys))
    }

    /// The key of a viewer's region: its `FormatCatalog.slot(_:)` for two upper-case letters, `26 * 26` for none,
    /// above that for three digits; nil for anything else.
    static func regionKey(_ region: String?) -> Int? {
        guard let region else { return 26 * 26 }
        if let slot = FormatCatalog.slot(region) { return slot }
        guard region.utf8.count == 3 else { return nil }
        return FormatCatalog.withBytes(region) { digits -> Int? in
            guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return 26 * 26 + 1 + Int(digits[0] &- 0x30) * 100 + Int(digits[1] &- 0x30) * 10 + Int(digits[2] &- 0x30)
        }
    }

    /// `Territory.name` of the country at `slot` (`FormatCatalog.slot(_:)`, nil for a code without one), remembered
    /// per viewer language (`language`, nil for one without a label table) and region.
    func name(_ code: String, slot: Int?, language: Int?, locale: ResolvedLocale) -> String {
        guard let slot, let language, language < languageCount, let region = Self.regionKey(locale.region) else {
            return Territory.name(code, locale: locale)
        }
        let key = language * Self.regionKeys + region
        let id = locale.icuLocale
        let known = rows.withTracedLock { rows -> String? in
            let row = Int(rows.byKey[key])
            guard row >= 0, rows.ids[row] == id else { return nil }
            return rows.names[row][slot]
        }
        if let known { return known }
        let name = Territory.name(code, locale: locale)
        rows.withTracedLock { rows in
            let row = Int(rows.byKey[key])
            if row >= 0 {
                if rows.ids[row] == id { rows.names[row][slot] = name }
                return
            }
            if rows.ids.count >= Self.localeLimit { rows = Rows(keys: languageCount * Self.regionKeys) }
            var names = [String?](repeating: nil, count: 26 * 26)
            names[slot] = name
            rows.byKey[key] = Int16(rows.ids.count)
            rows.ids.append(id)
            rows.names.append(names)
        }
        return name
    }
}
