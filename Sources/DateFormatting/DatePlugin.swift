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
    private let routes = BoundedCache<RouteKey, Route>(limit: 4096)
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
        let date = try CalendarDate(parsing: try fields.required("date"))
        let yearShared = try fields.bool("yearShared") ?? false
        let style = try fields.enum("style", as: DateStyle.self, noun: "a date style") ?? .long
        let route = try route(fields, style: style, showYear: yearShared && date.year != nil)
        response.member("lang", route.language)
        response.member("locale", route.tag)
        let written: Void? = route.formatter.withText(date, referenceYear: Self.referenceYear) {
            response.member("text", utf8: $0)
        }
        guard written != nil else { throw CoreError.internal("ICU could not format \(date) in \(route.icuLocale)") }
        response.member("pattern", route.pattern)
    }

    /// What one (locale text, style, year shown) formats with.
    final class Route: Sendable {
        let language: String
        let tag: String
        let icuLocale: String
        let pattern: String
        let formatter: ICUDateFormatter

        init(locale: ResolvedLocale, entry: DateFormatterCache.Entry) {
            language = locale.language
            tag = locale.tag
            icuLocale = locale.icuLocale
            pattern = entry.pattern
            formatter = entry.formatter
        }
    }

    struct RouteKey: Hashable, Sendable {
        /// The `locale` member's text, nil when absent.
        let locale: WireName?
        let style: DateStyle
        let showYear: Bool
    }

    /// The request's route; a `locale` that is not a string is read (or refused) by `FieldReader.locale`, uncached.
    private func route(_ fields: RequestFields, style: DateStyle, showYear: Bool) throws -> Route {
        let text: WireName?
        switch fields["locale"] {
        case nil: text = nil
        case .string(let locale)?: text = WireName(locale)
        case .some: return try makeRoute(fields, style: style, showYear: showYear)
        }
        let key = RouteKey(locale: text, style: style, showYear: showYear)
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
