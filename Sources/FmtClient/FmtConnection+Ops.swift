import FmtCore
import Glibc

/// One typed call per op. Each builds the request the protocol reference describes, sends it, and returns the
/// op's result type (`PhoneDisplay`, `FormattedDate`, …), its properties named as the wire's members, with the
/// response object (`id` and `ok` included) as `raw`; an error response throws `FmtClientError.daemon` with the
/// wire's `code`, `message` and `field`, and an answer without a member the type reads throws
/// `FmtClientError.undecodable`. Optional arguments left nil are not sent, so the daemon's defaults apply. A `locale` is
/// sent as given: one tag (`nl-BE`), a comma-separated priority list (`nl-BE,de`) or an `Accept-Language` value
/// passed through from a web request (`fr-CH, fr;q=0.9, de;q=0.7`); `call(_:)` sends a JSON array of tags.
extension FmtConnection {
    /// `ping`: the daemon's `version`.
    @discardableResult
    public func ping() throws(FmtClientError) -> DaemonVersion {
        try call(["op": "ping"], as: DaemonVersion.self)
    }

    /// `info`: plugins, ops, data versions, languages and ICU versions.
    public func info() throws(FmtClientError) -> DaemonInfo {
        try call(["op": "info"], as: DaemonInfo.self)
    }

    /// `stats`: uptime, connections, requests and errors per op, reloads, latency.
    public func stats() throws(FmtClientError) -> DaemonStats {
        try call(["op": "stats"], as: DaemonStats.self)
    }

    /// `phone`: `number` parsed (with `defaultRegion` when it has no country code) and formatted for a viewer in
    /// `viewerRegion`: `display`, `valid`, `type`, `region`, `e164`, `national`, `international`, `rfc3966`.
    public func phone(
        _ number: String, viewerRegion: String, defaultRegion: String? = nil
    ) throws(FmtClientError) -> PhoneDisplay {
        var request: JSONObject = ["op": "phone", "number": .string(number)]
        if let defaultRegion { request.append("defaultRegion", .string(defaultRegion)) }
        request.append("viewerRegion", .string(viewerRegion))
        return try call(request, as: PhoneDisplay.self)
    }

    /// `phoneMatch`: whether `a` and `b` are the same number (`match`: `exact`, `nsn`, `shortNsn` or `none`), both
    /// read in `defaultRegion` when given.
    public func phoneMatch(
        _ a: String, _ b: String, defaultRegion: String? = nil
    ) throws(FmtClientError) -> PhoneMatchResult {
        try call(Self.phoneMatchRequest(a, .string(b), defaultRegion), as: PhoneMatchResult.self)
    }

    /// `phoneMatch` of `a` against each of `b` (at most 10,000): `matches`, one per entry, in order.
    public func phoneMatch(
        _ a: String, each b: [String], defaultRegion: String? = nil
    ) throws(FmtClientError) -> PhoneMatchResult {
        try call(Self.phoneMatchRequest(a, JSONValue(b), defaultRegion), as: PhoneMatchResult.self)
    }

    /// `phoneExample`: `region`'s example number of `type` (default `fixedLine`) in every form, for a viewer in
    /// `viewerRegion` (default `region`).
    public func phoneExample(
        region: String, type: String? = nil, viewerRegion: String? = nil
    ) throws(FmtClientError) -> PhoneDisplay {
        var request: JSONObject = ["op": "phoneExample", "region": .string(region)]
        if let type { request.append("type", .string(type)) }
        if let viewerRegion { request.append("viewerRegion", .string(viewerRegion)) }
        return try call(request, as: PhoneDisplay.self)
    }

    /// `date`: `date` (`YYYY-MM-DD`, or `--MM-DD` without a year) as `text` for `locale`; the year only when
    /// `yearShared`; `style` is `long`, `medium` or `short`.
    public func date(
        _ date: String, locale: String? = nil, yearShared: Bool = false, style: String? = nil
    ) throws(FmtClientError) -> FormattedDate {
        var request: JSONObject = ["op": "date", "date": .string(date)]
        if yearShared { request.append("yearShared", true) }
        if let locale { request.append("locale", .string(locale)) }
        if let style { request.append("style", .string(style)) }
        return try call(request, as: FormattedDate.self)
    }

    /// `address`: the `fields` (`name`, `organization`, `street`, `houseNumber`, `extra`, `postalCode`, `city`,
    /// `region`) of an address in `country`, as `lines` by that country's convention for a viewer.
    public func address(
        _ fields: JSONObject, country: String, locale: String? = nil, viewerRegion: String? = nil
    ) throws(FmtClientError) -> FormattedAddress {
        var address = fields
        address.append("country", .string(country))
        var request: JSONObject = ["op": "address", "address": .object(address)]
        if let locale { request.append("locale", .string(locale)) }
        if let viewerRegion { request.append("viewerRegion", .string(viewerRegion)) }
        return try call(request, as: FormattedAddress.self)
    }

    /// `addressFormat`: the fields, labels, layout, postal-code pattern and example of `country`'s addresses.
    public func addressFormat(
        country: String, locale: String? = nil, viewerRegion: String? = nil
    ) throws(FmtClientError) -> AddressFormatDescription {
        var request: JSONObject = ["op": "addressFormat", "country": .string(country)]
        if let locale { request.append("locale", .string(locale)) }
        if let viewerRegion { request.append("viewerRegion", .string(viewerRegion)) }
        return try call(request, as: AddressFormatDescription.self)
    }

    /// `sort`: `names` in the collation order of `locale`, as `sorted`.
    public func sort(_ names: [String], locale: String? = nil) throws(FmtClientError) -> SortedNames {
        try call(Self.namesRequest("sort", names, locale), as: SortedNames.self)
    }

    /// `sortKey`: the hex ICU sort key of each of `names` (`keys`) and the `collationVersion` they are valid for.
    public func sortKey(_ names: [String], locale: String? = nil) throws(FmtClientError) -> SortKeys {
        try call(Self.namesRequest("sortKey", names, locale), as: SortKeys.self)
    }

    /// `searchForm`: each of `names` as a database indexes it for prefix search (`forms`, parallel to `names`): in
    /// Latin letters, without accents or case, words separated by single spaces. Fixed for one ICU version, which
    /// `info` reports with the transform (the names plugin's `data.searchTransform`).
    public func searchForm(_ names: [String], locale: String? = nil) throws(FmtClientError) -> SearchForms {
        try call(Self.namesRequest("searchForm", names, locale), as: SearchForms.self)
    }

    /// `nameSearch`: the names `query` finds (`matches`, in input order, each `{"index", "ranges"}` with
    /// `[start, length]` ranges in UTF-16 code units, as `NSRange` counts), compared in `locale`'s collation.
    public func nameSearch(
        _ query: String, in names: [String], locale: String? = nil
    ) throws(FmtClientError) -> NameMatches {
        var request: JSONObject = ["op": "nameSearch"]
        if let locale { request.append("locale", .string(locale)) }
        request.append("query", .string(query))
        request.append("names", JSONValue(names))
        return try call(request, as: NameMatches.self)
    }

    /// `language`: how `tag` resolves to an interface language; without a tag, the supported languages.
    public func language(_ tag: String? = nil) throws(FmtClientError) -> LanguageResolution {
        var request: JSONObject = ["op": "language"]
        if let tag { request.append("tag", .string(tag)) }
        return try call(request, as: LanguageResolution.self)
    }

    /// `plural`: the CLDR plural `category` of an integer `count` in `locale`.
    public func plural(_ count: Int, locale: String? = nil) throws(FmtClientError) -> PluralCategory {
        try call(Self.pluralRequest(JSONValue(count), locale), as: PluralCategory.self)
    }

    /// `plural` of a count written as text: an integer is sent as a number, anything else (such as `1.0`) as a
    /// string, so its visible fraction digits count.
    public func plural(_ count: String, locale: String? = nil) throws(FmtClientError) -> PluralCategory {
        try call(
            Self.pluralRequest(Int(count).map { JSONValue($0) } ?? .string(count), locale), as: PluralCategory.self)
    }

    /// `message`: the catalogue message `key` rendered as `text` for `locale`, with `arguments` for its
    /// placeholders, plural and select forms.
    public func message(
        _ key: String, arguments: JSONObject = [:], locale: String? = nil
    ) throws(FmtClientError) -> RenderedMessage {
        var request: JSONObject = ["op": "message", "key": .string(key)]
        if let locale { request.append("locale", .string(locale)) }
        request.append("args", .object(arguments))
        return try call(request, as: RenderedMessage.self)
    }

    /// Sends `request` and decodes the success answer as `type`; an error response throws `.daemon`, an answer
    /// without a member `type` reads `.undecodable`.
    public func call<Result: FmtResult>(_ request: JSONObject, as type: Result.Type) throws(FmtClientError) -> Result {
        let response = try call(request)
        do {
            return try Result(response: response)
        } catch {
            throw .undecodable(error)
        }
    }

    private static func phoneMatchRequest(_ a: String, _ b: JSONValue, _ defaultRegion: String?) -> JSONObject {
        var request: JSONObject = ["op": "phoneMatch", "a": .string(a), "b": b]
        if let defaultRegion { request.append("defaultRegion", .string(defaultRegion)) }
        return request
    }

    private static func namesRequest(_ op: String, _ names: [String], _ locale: String?) -> JSONObject {
        var request: JSONObject = ["op": .string(op)]
        if let locale { request.append("locale", .string(locale)) }
        request.append("names", JSONValue(names))
        return request
    }

    private static func pluralRequest(_ count: JSONValue, _ locale: String?) -> JSONObject {
        var request: JSONObject = ["op": "plural"]
        if let locale { request.append("locale", .string(locale)) }
        request.append("count", count)
        return request
    }
}
