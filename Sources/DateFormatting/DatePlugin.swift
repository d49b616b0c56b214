import FmtCore

/// A date as the viewer reads it, with the ICU pattern that produced it.
public struct FormattedDate: Sendable, Hashable {
    public let text: String
    public let pattern: String
}

/// The `date` op: day and month always, the year only when the date has one and the caller says it is
/// shared, in the viewer's locale on the Gregorian calendar. It never computes or shows an age.
public struct DatePlugin: FormatterPlugin {
    public static let name = "date"
    /// `date` formats a day and month, with the year when it is shared.
    public enum Op: String, PluginOp {
        case date
    }

    /// A leap year, so `--02-29` formats; year-less patterns have no year field, so it never shows.
    static let referenceYear = 2000

    private let resolver: LocaleResolver
    private let cache = DateFormatterCache()
    /// Routes by the request's locale text (its bytes), style and whether the year shows: one lookup per request
    /// instead of resolving the tag, building the response's tag and finding the formatter. Bounded, since the
    /// text is the client's.
    private let routes = LookupCache<HashableKeys<RouteKey>, Route, ForgetAll>(limit: 4096)
    public let dataInfo: JSONObject

    /// Checks that ICU serves every skeleton in each supported language (warming the cache); the plugin's
    /// data is ICU's own, so the checksum covers the ICU and CLDR versions and the skeleton table.
    public init(loading data: DataStore, environment: PluginEnvironment) throws {
        resolver = environment.resolver
        var skeletons: [String] = []
        for style in DateStyle.allCases {
            for withYear in [false, true] {
                let skeleton = style.skeleton(withYear: withYear)
                skeletons.append("\(style.rawValue):\(skeleton)")
                for language in resolver.supported {
                    do {
                        _ = try cache.entry(locale: language, skeleton: skeleton)
                    } catch {
                        throw DataError(file: "icu", field: "\(language) \(skeleton)", error.message)
                    }
                }
            }
        }
        let version = ICUInfo.version
        let cldrVersion = ICUDateData.cldrVersion
        let identity = "icu \(version)\ncldr \(cldrVersion)\n" + skeletons.joined(separator: "\n")
        dataInfo = [
            "source": "icu",
            "version": .string(version),
            "cldrVersion": .string(cldrVersion),
            "checksum": .string(SHA256.hex(Array(identity.utf8))),
        ]
    }

    /// Answers `{"op":"date","date":…,"yearShared":…,"locale":…,"style":…}` with `lang`, `locale`, `text`
    /// and `pattern`, in that order.
    public func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws {
        let fields = request.fields
        let parsed = try fields.withUTF8("date") { utf8 in
            utf8.withUnsafeBufferPointer { utf8 in Result { () throws(DateError) in try CalendarDate(utf8: utf8) } }
        }
        guard let date = parsed else { throw fields.failures.missing("date") }
        let calendarDate = try date.get()
        let yearShared = try fields.bool("yearShared") ?? false
        let style = try fields.enum("style", as: DateStyle.self, noun: "a date style") ?? .long
        let route = try route(fields, style: style, showYear: yearShared && calendarDate.year != nil)
        response.append(route.head)
        let written: Void? = route.formatter.withText(calendarDate, referenceYear: Self.referenceYear) {
            response.member("text", utf8: $0)
        }
        guard written != nil else {
            throw CoreError.internal("ICU could not format \(calendarDate) in \(route.icuLocale)")
        }
        response.append(route.tail)
    }

    /// What one (locale text, style, year shown) formats with, and its members ready as JSON.
    final class Route: Sendable {
        let icuLocale: String
        let formatter: ICUDateFormatter
        /// `lang` and `locale`.
        let head: EncodedMembers
        /// `pattern`.
        let tail: EncodedMembers

        init(locale: ResolvedLocale, entry: DateFormatterCache.Entry) {
            icuLocale = locale.icuLocale
            formatter = entry.formatter
            head = EncodedMembers { head in
                head.member("lang", locale.language)
                head.member("locale", locale.tag)
            }
            tail = EncodedMembers { $0.member("pattern", entry.pattern) }
        }
    }

    /// A route's key: the `locale` member's bytes (packed in two words when they fit, as most tags do), the
    /// style and whether the year shows.
    struct RouteKey: Hashable, Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        /// How many bytes the text has; -1 when there is no `locale`.
        var count = -1
        /// A text longer than 16 bytes.
        var long: WireName?
        let style: DateStyle
        let showYear: Bool

        init(locale: UnsafeBufferPointer<UInt8>?, style: DateStyle, showYear: Bool) {
            self.style = style
            self.showYear = showYear
            guard let locale else { return }
            count = locale.count
            guard locale.count <= 16 else {
                long = WireName(String(decoding: locale, as: UTF8.self))
                return
            }
            withUnsafeMutableBytes(of: &low) { low in
                withUnsafeMutableBytes(of: &high) { high in
                    for (offset, byte) in locale.enumerated() {
                        if offset < 8 { low[offset] = byte } else { high[offset - 8] = byte }
                    }
                }
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(low)
            hasher.combine(high ^ UInt64(bitPattern: Int64(count)) &* 0x9E37_79B9_7F4A_7C15)
            hasher.combine(UInt8(style == .long ? 0 : style == .medium ? 2 : 4) | (showYear ? 1 : 0))
            if let long { hasher.combine(long) }
        }
    }

    /// The request's route; a `locale` that is not a string is read (or refused) by `FieldReader.locale`, uncached.
    private func route(_ fields: RequestFields, style: DateStyle, showYear: Bool) throws -> Route {
        let key: RouteKey
        do {
            key =
                try fields.withUTF8("locale") {
                    $0.withUnsafeBufferPointer { RouteKey(locale: $0, style: style, showYear: showYear) }
                }
                ?? RouteKey(locale: nil, style: style, showYear: showYear)
        } catch {
            return try makeRoute(fields, style: style, showYear: showYear)
        }
        let route = try routes.value(for: key) { () throws(CoreError) -> Route? in
            try makeRoute(fields, style: style, showYear: showYear)
        }
        // `makeRoute` never answers nil, so neither does the cache.
        return route!
    }

    private func makeRoute(_ fields: RequestFields, style: DateStyle, showYear: Bool) throws(CoreError) -> Route {
        let locale = try fields.locale(resolver)
        let entry = try cache.entry(locale: locale.icuLocale, skeleton: style.skeleton(withYear: showYear))
        return Route(locale: locale, entry: entry)
    }

    /// Formats a date for a resolved locale; the year appears only when the date has one and it is shared.
    public func format(
        _ date: CalendarDate, locale: ResolvedLocale, style: DateStyle = .long, yearShared: Bool = false
    ) throws(CoreError) -> FormattedDate {
        let showYear = yearShared && date.year != nil
        let entry = try cache.entry(locale: locale.icuLocale, skeleton: style.skeleton(withYear: showYear))
        guard let text = entry.formatter.format(date, referenceYear: Self.referenceYear) else {
            throw .internal("ICU could not format \(date) in \(locale.icuLocale)")
        }
        return FormattedDate(text: text, pattern: entry.pattern)
    }
}
