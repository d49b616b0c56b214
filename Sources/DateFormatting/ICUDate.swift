import CICU
import FmtCore

/// An ICU date formatter for one locale and pattern, in UTC on the proleptic Gregorian calendar. It is
/// configured once and afterwards only read (ICU's format call is const), so threads share it freely.
final class ICUDateFormatter: Sendable {
    private nonisolated(unsafe) let handle: OpaquePointer

    init?(locale: String, pattern: String) {
        guard let handle = fmt_date_formatter_open(locale, pattern) else { return nil }
        self.handle = handle
    }

    deinit {
        fmt_date_formatter_close(handle)
    }

    /// The text for a date; a year-less date is placed in `referenceYear`, which the caller's pattern omits.
    func format(_ date: CalendarDate, referenceYear: Int) -> String? {
        withText(date, referenceYear: referenceYear) { String(decoding: $0, as: UTF8.self) }
    }

    /// Formats into a stack buffer and hands `body` the UTF-8 text (nil when ICU fails or the text is empty),
    /// so a response takes it without a `String` made and freed per request.
    func withText<Result>(
        _ date: CalendarDate, referenceYear: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        // The shim formats at most 256 UTF-16 units, which take at most three UTF-8 bytes each.
        let capacity = 256 * 3
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> Result? in
            let length = fmt_date_formatter_format(
                handle, Int32(date.year ?? referenceYear), Int32(date.month), Int32(date.day), buffer.baseAddress,
                Int32(capacity))
            guard length > 0, length <= Int32(capacity) else { return nil }
            return UnsafeBufferPointer(rebasing: buffer[0..<Int(length)]).withMemoryRebound(to: UInt8.self, body)
        }
    }
}

/// ICU's DateTimePatternGenerator for one locale. It mutates internal state while answering, so it is
/// never shared: the formatter cache uses it only while holding its generator lock.
final class ICUPatternGenerator {
    private let handle: OpaquePointer

    init?(locale: String) {
        guard let handle = fmt_date_generator_open(locale) else { return nil }
        self.handle = handle
    }

    deinit {
        fmt_date_generator_close(handle)
    }

    /// The locale's pattern for a skeleton (`yMMMMd` in `nl` → `d MMMM y`).
    func bestPattern(for skeleton: String) -> String? {
        let pattern = ICUInfo.read(capacity: 128) { fmt_date_generator_best_pattern(handle, skeleton, $0, $1) }
        return pattern.isEmpty ? nil : pattern
    }
}

/// Versions of the locale data behind every date the plugin formats.
enum ICUDateData {
    /// The CLDR release ICU's locale data comes from (`42.0` in ICU 72).
    static var cldrVersion: String {
        ICUInfo.read(capacity: 32, fmt_icu_cldr_version)
    }
}
