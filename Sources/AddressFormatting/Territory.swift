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

/// Territory lookups for one snapshot. Canonical codes are asked of ICU once at load for all 676 two-letter
/// codes, so a request finds one by indexing; names in the viewer's locale are memoised on first use (ICU's
/// display names read resource bundles each time), bounded like the resolver.
final class TerritoryCache: Sendable {
    /// The canonical code of each upper-case two-letter code, at `slot(_:)`; nil where ICU knows none.
    private let canonicalCodes: [String?]
    private let names = Mutex<[NameKey: String]>([:])
    private static let limit = 4096

    private struct NameKey: Hashable {
        let code: String
        let icuLocale: String
    }

    init() {
        var codes: [String?] = []
        codes.reserveCapacity(26 * 26)
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                codes.append(Territory.canonical(String(decoding: [first, second], as: UTF8.self)))
            }
        }
        canonicalCodes = codes
    }

    /// `Territory.canonical`, from the table.
    func canonical(_ text: String) -> String? {
        Self.slot(text).flatMap { canonicalCodes[$0] }
    }

    /// `Territory.name`, remembered per ICU locale.
    func name(_ code: String, locale: ResolvedLocale) -> String {
        let key = NameKey(code: code, icuLocale: locale.icuLocale)
        if let name = names.withLock({ $0[key] }) { return name }
        let name = Territory.name(code, locale: locale)
        names.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
            cache[key] = name
        }
        return name
    }

    /// The table index of two ASCII letters in either case, as `Territory.canonical` accepts them.
    private static func slot(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard utf8.count == 2 else { return nil }
        let first = utf8[utf8.startIndex] & 0xDF
        let second = utf8[utf8.index(after: utf8.startIndex)] & 0xDF
        let letters = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard letters.contains(first), letters.contains(second) else { return nil }
        return Int(first - UInt8(ascii: "A")) * 26 + Int(second - UInt8(ascii: "A"))
    }
}
