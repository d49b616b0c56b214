import CICU
import Testing

/// The date shim writes a pattern of day, month and year fields without ICU once that pattern has written what
/// ICU writes; these tests hold the compiled form to `udat_format` over every locale ICU has.
@Suite struct CompiledDatePatterns {
    static let skeletons = ["dMMMM", "yMMMMd", "dMMM", "yMMMd", "dM", "yMd"]

    /// Every day of a leap year and years of one to four digits, each with its month's length.
    static let dates: [(year: Int32, month: Int32, day: Int32)] = {
        let lengths: [Int32] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var dates: [(Int32, Int32, Int32)] = []
        for month in Int32(1)...12 {
            for day in 1...lengths[Int(month) - 1] { dates.append((2000, month, day)) }
        }
        for year in stride(from: Int32(1), through: 9999, by: 97) { dates.append((year, (year % 12) + 1, 28)) }
        return dates
    }()

    static func text(_ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> [UInt8]? {
        var buffer = [CChar](repeating: 0, count: 768)
        let length = buffer.withUnsafeMutableBufferPointer { body($0.baseAddress!, 768) }
        guard length > 0, length <= 768 else { return nil }
        return buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }
    }

    /// The locale's pattern for a skeleton, as the formatter cache asks for it.
    static func pattern(_ generator: OpaquePointer, _ skeleton: String) -> String? {
        let bytes = text { fmt_date_generator_best_pattern(generator, skeleton, $0, $1) }
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func compiledPatternsWriteWhatICUWritesInEveryLocale() throws {
        var compiled = 0
        var compiledInServedLanguages = 0
        var servedLanguageFormatters = 0
        var mismatches: [String] = []
        for index in 0..<fmt_icu_available_locale_count() {
            let locale = String(cString: fmt_icu_available_locale(index))
            guard let generator = fmt_date_generator_open(locale) else { continue }
            defer { fmt_date_generator_close(generator) }
            let served = ["en", "nl", "de"].contains(locale.split(separator: "_").first.map(String.init) ?? "")
            for skeleton in Self.skeletons {
                guard let pattern = Self.pattern(generator, skeleton),
                    let formatter = fmt_date_formatter_open(locale, pattern)
                else { continue }
                defer { fmt_date_formatter_close(formatter) }
                let isCompiled = fmt_date_formatter_is_compiled(formatter) == 1
                if isCompiled { compiled += 1 }
                if served {
                    servedLanguageFormatters += 1
                    if isCompiled { compiledInServedLanguages += 1 }
                }
                guard isCompiled else { continue }
                for date in Self.dates {
                    let fast = Self.text {
                        fmt_date_formatter_format(formatter, date.year, date.month, date.day, $0, $1)
                    }
                    let icu = Self.text {
                        fmt_date_formatter_format_icu(formatter, date.year, date.month, date.day, $0, $1)
                    }
                    if fast != icu, mismatches.count < 20 {
                        let text = fast.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
                        mismatches.append("\(locale) \(pattern) \(date): \(text)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        // Every pattern of the served languages, in every region ICU knows them in, is compiled: the fast path is
        // what the daemon runs, not a rarity.
        #expect(servedLanguageFormatters > 500)
        #expect(compiledInServedLanguages == servedLanguageFormatters)
        #expect(compiled > compiledInServedLanguages)
    }

    @Test func aPatternWithOtherFieldsStaysWithICU() throws {
        for pattern in ["EEEE d MMMM", "d MMMM G", "d MMMM y 'at' HH:mm", "MMMMM d", "'unclosed d"] {
            let formatter = try #require(fmt_date_formatter_open("en_GB", pattern), "\(pattern)")
            defer { fmt_date_formatter_close(formatter) }
            #expect(fmt_date_formatter_is_compiled(formatter) == 0, "\(pattern)")
        }
    }

    @Test func quotedTextAndApostrophesAreLiteral() throws {
        let formatter = try #require(fmt_date_formatter_open("en_GB", "'day' d 'of' MMMM, ''yy"))
        defer { fmt_date_formatter_close(formatter) }
        #expect(fmt_date_formatter_is_compiled(formatter) == 1)
        let fast = Self.text { fmt_date_formatter_format(formatter, 1990, 11, 29, $0, $1) }
        #expect(fast.map { String(decoding: $0, as: UTF8.self) } == "day 29 of November, '90")
        #expect(fast == Self.text { fmt_date_formatter_format_icu(formatter, 1990, 11, 29, $0, $1) })
    }
}
