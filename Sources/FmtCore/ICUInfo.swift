import CICU

/// Versions of the system ICU the daemon is pinned to, for `info` (sort keys are valid for one collation version).
public enum ICUInfo {
    public static var version: String { read(fmt_icu_version) }
    public static var unicodeVersion: String { read(fmt_icu_unicode_version) }
    public static var collationVersion: String { read(fmt_icu_collation_version) }

    /// Calls a shim function that writes UTF-8 into a buffer (on the stack), retrying once with the length it asks
    /// for.
    public static func read(capacity: Int = 256, _ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String {
        let first = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> (String, Int32) in
            let length = body(buffer.baseAddress!, Int32(capacity))
            guard length > 0, length <= Int32(capacity) else { return ("", length) }
            return (text(UnsafeBufferPointer(rebasing: buffer[0..<Int(length)])), length)
        }
        guard first.1 > Int32(capacity) else { return first.0 }
        var buffer = [CChar](repeating: 0, count: Int(first.1))
        let length = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, first.1) }
        guard length > 0 else { return "" }
        return buffer.withUnsafeBufferPointer {
            text(UnsafeBufferPointer(rebasing: $0[0..<min(Int(length), $0.count)]))
        }
    }

    private static func text(_ chars: UnsafeBufferPointer<CChar>) -> String {
        chars.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
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
    package static var availableLocales: [String] {
        (0..<fmt_icu_available_locale_count()).compactMap { index in
            fmt_icu_available_locale(index).map { String(cString: $0) }
        }
    }
}
