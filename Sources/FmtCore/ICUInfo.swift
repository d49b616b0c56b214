import CICU

/// Versions of the system ICU the daemon is pinned to, for `info` (sort keys are valid for one collation version).
public enum ICUInfo {
    public static var version: String { read(fmt_icu_version) }
    public static var unicodeVersion: String { read(fmt_icu_unicode_version) }
    public static var collationVersion: String { read(fmt_icu_collation_version) }

    /// Calls a shim function that writes UTF-8 into a buffer, retrying once with the length it asks for.
    public static func read(capacity: Int = 256, _ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: capacity)
        var length = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, Int32(capacity)) }
        if length > Int32(capacity) {
            buffer = [CChar](repeating: 0, count: Int(length))
            length = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, length) }
        }
        guard length > 0 else { return "" }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The display name of a region in an ICU locale (`BE` in `nl` → `België`), or nil when ICU has none.
    public static func regionName(_ region: String, locale: String) -> String? {
        let name = read { fmt_icu_region_display_name(region, locale, $0, $1) }
        return name.isEmpty || name == region ? nil : name
    }

    /// The display name of a language in an ICU locale (`nl` in `de` → `Niederländisch`).
    public static func languageName(_ language: String, locale: String) -> String? {
        let name = read { fmt_icu_language_display_name(language, locale, $0, $1) }
        return name.isEmpty ? nil : name
    }
}

extension ICUInfo {
    /// The locales ICU has data for, as ICU ids (`en_150`, `nl_BE`), in ICU's order.
    public static var availableLocales: [String] {
        (0..<fmt_icu_available_locale_count()).compactMap { index in
            fmt_icu_available_locale(index).map { String(cString: $0) }
        }
    }
}
