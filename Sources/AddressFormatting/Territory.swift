import CICU
import FmtCore
import Synchronization

/// ISO 3166-1 territory codes as ICU knows them.
enum Territory {
    /// The canonical code for a well-formed alpha-2 code in any case (`uk` → `GB`), or nil when the text is
    /// not two ASCII letters or ICU knows no territory by it (`ZZ`, `EU`, `QQ`).
    static func canonical(_ text: String) -> String? {
        guard text.utf8.count == 2, text.utf8.allSatisfy({ (0x41...0x5A).contains($0 & 0xDF) }) else { return nil }
        let code = ICUInfo.read(capacity: 8) { fmt_icu_address_territory(text.uppercased(), $0, $1) }
        return code.isEmpty ? nil : code
    }

    /// The territory's name in the viewer's ICU locale (`BE` in `nl_BE` → `België`), falling back to the
    /// plain language and then English, so the country line is never a bare code.
    static func name(_ code: String, locale: ResolvedLocale) -> String {
        ICUInfo.regionName(code, locale: locale.icuLocale)
            ?? ICUInfo.regionName(code, locale: locale.language)
            ?? ICUInfo.regionName(code, locale: "en")
            ?? code
    }
}

/// Territory lookups memoised per snapshot, since every request needs the canonical code and the name in
/// the viewer's locale and ICU's display names read resource bundles each time. Bounded like the resolver.
final class TerritoryCache: Sendable {
    private let canonicalCodes = Mutex<[String: String]>([:])
    private let names = Mutex<[String: String]>([:])
    private static let limit = 4096

    /// `Territory.canonical`, remembered; unknown codes are not remembered (they are errors anyway).
    func canonical(_ text: String) -> String? {
        if let code = canonicalCodes.withLock({ $0[text] }) { return code }
        guard let code = Territory.canonical(text) else { return nil }
        canonicalCodes.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
            cache[text] = code
        }
        return code
    }

    /// `Territory.name`, remembered per ICU locale.
    func name(_ code: String, locale: ResolvedLocale) -> String {
        let key = code + "|" + locale.icuLocale
        if let name = names.withLock({ $0[key] }) { return name }
        let name = Territory.name(code, locale: locale)
        names.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = name
        }
        return name
    }
}
