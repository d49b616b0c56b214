import FmtCore
import Synchronization

/// Patterns and formatters per (ICU locale, skeleton), made on first use and kept for the snapshot's life.
/// Opening a generator costs milliseconds and a formatter microseconds, formatting well under one: so each
/// pair is computed once. Entries are read-only and shared; generators stay behind their own lock.
final class DateFormatterCache: Sendable {
    /// One locale's pattern for one skeleton, and a formatter configured with it.
    struct Entry: Sendable {
        let pattern: String
        let formatter: ICUDateFormatter
    }

    private struct Key: Hashable {
        let locale: String
        let skeleton: String
    }

    /// Bounded by ICU's locale list: the resolver yields only ICU locale ids or bare supported languages.
    private let entries = Mutex<[Key: Entry]>([:])
    private let generators = Mutex<[String: ICUPatternGenerator]>([:])

    /// The cached entry, creating it on a miss. Fails only when ICU cannot serve the locale or skeleton.
    func entry(locale: String, skeleton: String) throws(CoreError) -> Entry {
        let key = Key(locale: locale, skeleton: skeleton)
        if let entry = entries.withTracedLock({ $0[key] }) { return entry }

        let pattern = try generators.withTracedLock { generators throws(CoreError) -> String in
            let generator: ICUPatternGenerator
            if let existing = generators[locale] {
                generator = existing
            } else if let opened = ICUPatternGenerator(locale: locale) {
                generators[locale] = opened
                generator = opened
            } else {
                throw .internal("ICU has no date pattern generator for \(locale)")
            }
            guard let pattern = generator.bestPattern(for: skeleton) else {
                throw .internal("ICU has no pattern for skeleton \(skeleton) in \(locale)")
            }
            return pattern
        }
        guard Self.hasYearField(pattern) == skeleton.contains("y") else {
            throw .internal("ICU's pattern \"\(pattern)\" for \(skeleton) in \(locale) disagrees on the year")
        }
        guard let formatter = ICUDateFormatter(locale: locale, pattern: pattern) else {
            throw .internal("ICU cannot format the pattern \"\(pattern)\" in \(locale)")
        }
        let entry = Entry(pattern: pattern, formatter: formatter)
        return entries.withTracedLock { entries in
            if let raced = entries[key] { return raced }
            entries[key] = entry
            return entry
        }
    }

    /// Whether a date pattern shows any kind of year (`y`, `Y`, `u`, `U`, `r`) outside quoted literal text.
    static func hasYearField(_ pattern: String) -> Bool {
        var quoted = false
        for byte in pattern.utf8 {
            if byte == UInt8(ascii: "'") {
                quoted.toggle()
            } else if !quoted, "yYuUr".utf8.contains(byte) {
                return true
            }
        }
        return false
    }
}
