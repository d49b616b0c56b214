import FmtCommandLine

/// fmtd's wire protocol v1 described once, for people: fmtd-protocol(7) and the completion of `fmtq raw` are
/// generated from it. It describes; the daemon's code decides. Tests hold the two together: every op `info` lists
/// and every error code the core sends must be described here.
public enum ProtocolDescription {
    /// A request field or a response member.
    public struct Field: Sendable {
        /// Its name on the wire.
        public let name: String
        /// Its JSON type, with `required` or `optional, default …`.
        public let type: String
        /// What it means.
        public let meaning: String

        init(_ name: String, _ type: String, _ meaning: String) {
            self.name = name
            self.type = type
            self.meaning = meaning
        }
    }

    /// One op: what it does, its request fields, its response members in order, and its errors.
    public struct Op: Sendable {
        /// The value of `op`.
        public let name: String
        /// One sentence.
        public let summary: String
        /// Its fields besides `op` and `id`.
        public let request: [Field]
        /// The members after `id` and `ok`, in the order they are written.
        public let response: [Field]
        /// The errors it answers besides the envelope's, with their `field`.
        public let errors: String
        /// A request line.
        public let example: String
    }

    /// The protocol's version, as `info` reports it.
    public static let version = 1

    /// How requests and responses travel.
    public static let framing = [
        "A Unix stream socket: /run/fmtd/fmtd.sock by default (mode 0660, group fmtd under systemd).",
        "Each request is one line: a UTF-8 JSON object ending in a newline (`\\n`; `\\r\\n` is accepted). Every "
            + "non-blank line gets exactly one response line; blank lines are skipped. A final line without a "
            + "newline before end of input counts as a request.",
        "A connection may pipeline: responses come back in request order. A client that half-closes still gets "
            + "every response, then fmtd closes.",
        "The protocol grows only by optional request fields and new response members; `info` reports `protocol`.",
    ]

    /// The request and response envelopes.
    public static let envelope = [
        Field("op", "string, required", "the operation"),
        Field("id", "any JSON value, optional", "echoed verbatim in the response (`null` when absent)"),
        Field("ok", "boolean (response)", "`true` with the op's members after it, `false` with `error`"),
        Field(
            "error", "object (response)",
            "`code` (stable, below), `message` (for people), `field` (the field at fault, when there is one), "
                + "and members of the op's own (`reason` for `invalid_number`)"),
    ]

    /// Every error code, with when it is sent.
    public static let errors = [
        Field("bad_json", "", "not JSON, not UTF-8, a NUL or control byte in a string, nesting deeper than 64"),
        Field("bad_request", "", "JSON but not a request: not an object, `op` missing or not a string"),
        Field("unknown_op", "", "no such op (`info` lists them)"),
        Field("invalid_field", "", "a field has the wrong type or value; `field` names it"),
        Field(
            "too_large", "",
            "the line is longer than --max-line, not counting its LF or CR LF ending; the rest of the line is discarded"
        ),
        Field(
            "overloaded", "",
            "the daemon is at its connection limits; this one line is sent, then the connection closes"),
        Field("line_timeout", "", "a line stayed unfinished longer than --line-timeout; one line, then closed"),
        Field(
            "forbidden", "", "the peer's uid and gid are not allowed (--allow-uid, --allow-gid); one line, then closed"),
        Field("internal", "", "a bug; logged; the daemon keeps serving"),
        Field(
            "invalid_number", "",
            "phone, phoneMatch: the text cannot be parsed as a phone number; `reason` says why"),
        Field("no_example", "", "phoneExample: the region has no example number of that type"),
        Field("invalid_date", "", "date: not a date that exists as YYYY-MM-DD or --MM-DD"),
        Field("unknown_key", "", "message: no catalogue has the key"),
    ]

    private static let locale = Field(
        "locale", "string or array, optional, default en",
        "the viewer's BCP 47 tag, an array of tags in priority order or an Accept-Language value (LOCALES)")

    /// The forms `locale` takes and how they resolve, for the LOCALES section.
    public static let locales = [
        "`locale` is one BCP 47 tag (`nl-BE`; `nl_BE` is read as `nl-BE`), resolved exact tag, then base language, "
            + "then English, keeping the viewer's region.",
        "Or a priority list: a JSON array of tags (`[null, \"nl\"]`; null and empty entries are skipped) or an "
            + "HTTP Accept-Language value (`fr-CH, fr;q=0.9, de;q=0.7`; higher q first, equal q in the order sent, "
            + "q=0 excludes, `*` is any language: English, or the first supported language not excluded). The first "
            + "entry whose language is supported, exactly or by its base, wins; with none, English. The region kept "
            + "is the winner's, else the first region any entry names. sort, sortKey and plural use the first entry "
            + "instead. At most 32 entries; an Accept-Language value is at most 1024 bytes.",
        "A malformed entry is invalid_field naming it by index (`locale[2]`, counting from 0 over the array, or "
            + "over the comma-separated elements, empty ones included); a value without a comma is named `locale`.",
    ]
    private static let lang = Field("lang", "string", "the language the text is in after fallback")

    /// Every op, built-in ones first.
    public static let ops: [Op] = [
        Op(
            name: "ping", summary: "Checks that the daemon answers.", request: [],
            response: [Field("version", "string", "the daemon's version")], errors: "", example: #"{"op":"ping"}"#),
        Op(
            name: "info", summary: "What the daemon serves and which data it loaded.", request: [],
            response: [
                Field("version", "string", "the daemon's version"),
                Field("protocol", "number", "the protocol version"),
                Field("ops", "array of strings", "every op served"),
                Field("plugins", "array", "`name`, `ops` and `data` (`source`, `version`, `checksum`, ...) per plugin"),
                Field("languages", "array of strings", "the supported languages"),
                Field("data", "object", "`source` (a directory or `embedded`) and `configDirectory`"),
                Field("icu", "object", "ICU's `version`, `unicode` and `collation` versions"),
            ], errors: "", example: #"{"op":"info"}"#),
        Op(
            name: "stats", summary: "The daemon's counters since it started.", request: [],
            response: [
                Field("uptimeSeconds", "number", "seconds since start"),
                Field(
                    "connections", "object",
                    "`open`, `limit`, `total`, `overloaded`, `perUidLimit`, `perUidOverloaded`, `uids`, "
                        + "`busiestUidOpen`, `outOfDescriptors`, `bufferedBytes`, `bufferedLimit`, `bufferedPauses` "
                        + "(input held, across connections), `outputBytes`, `outputLimit`, `outputPauses` (answers "
                        + "not yet read, across connections), `yields` (turns a busy connection gave up), "
                        + "`forbidden`, `idleClosed`, `lineTimeouts`, `tooLarge`, `readPauses`"
                ),
                Field("requests", "object", "`total`, `errors`, `perOp` (`requests` and `errors` per op; `(other)`)"),
                Field(
                    "latency", "object",
                    "`p50Us`, `p99Us`, `p999Us`; `count`, `sumUs` and `buckets` (`[upper bound in µs, requests below "
                        + "it]`, cumulative): handling time from decoded line to encoded response"),
                Field(
                    "reloads", "object",
                    "`ok`, `failed`, `lastError`, `lastDurationUs`, `lastKept`, `generation`, `loadedAtUnixSeconds` "
                        + "(when the data serving now was loaded); `requested`, `started`, `finished` (request numbers: "
                        + "SIGHUPs received, the newest the running and the last finished reload answer) and `lastOk`"),
                Field(
                    "copyRules", "object",
                    "`findings` (the copy rules' warnings about the catalogues serving now) and `byRule`"),
            ], errors: "", example: #"{"op":"stats"}"#),
        Op(
            name: "address", summary: "Formats a postal address by its country's convention, in the viewer's language.",
            request: [
                Field(
                    "address", "object, required",
                    "`name`, `organization`, `street`, `houseNumber`, `extra`, `postalCode`, `city`, `region`, "
                        + "`district`, `sortingCode` (optional strings), `language` (optional BCP 47 tag of the "
                        + "text, at most 64 characters; picks the local or Latin layout) and `country` (required, "
                        + "ISO 3166-1 alpha-2)"),
                locale, Field("viewerRegion", "string, optional", "decides whether the country line is shown"),
            ],
            response: [
                lang, Field("country", "string", "the address's country code"),
                Field("format", "string", "the format used: a country code or `default`"),
                Field("lines", "array of strings", "the address lines"),
                Field(
                    "linesLang", "array of strings",
                    "the language of each line: `lang` for the country line, else `address.language` or `und`"),
                Field("oneLine", "string", "the address on one line, without name and organization"),
                Field(
                    "fields", "array",
                    "`field`, `label`, `value`, `valueLang` (as `linesLang`), `valueDir` (as `linesDir`) of each field "
                        + "shown, in display order"),
                Field(
                    "warnings", "array",
                    "`code`, `field`, `message`: postal_code_format, postal_code_region, missing_required, "
                        + "region_unknown, city_unknown, district_unknown, field_not_used (a value shown where the "
                        + "country's format has no place for it)"),
                Field(
                    "linesDir", "array of strings",
                    "parallel to `lines`, by each line's first strong character: `rtl` (bidi class R or AL: Hebrew, "
                        + "Arabic), `ltr` (L), `auto` (none: digits and punctuation only)"),
                Field(
                    "spokenPostalCode", "string, optional",
                    "only for a postal code with a letter or more than four digits: read aloud in `lang`, each digit "
                        + "as ICU's spell-out word, each letter as the capital, groups joined by `, ` (`1017 CD`: "
                        + "`one zero one seven, C D`)"),
            ],
            errors: "invalid_field on address, address.country, address.language, address.<name>, viewerRegion or "
                + "locale.",
            example:
                #"{"op":"address","address":{"street":"Rue de la Loi","houseNumber":"16","postalCode":"1000","city":"Bruxelles","country":"BE"},"locale":"nl"}"#
        ),
        Op(
            name: "addressFormat", summary: "Describes a country's address format for a viewer.",
            request: [
                Field("country", "string, required", "ISO 3166-1 alpha-2"), locale,
                Field("viewerRegion", "string, optional", "as for address"),
                Field(
                    "language", "string, optional",
                    "as address.language: the layout described (ja-Latn: JP's Latin one; absent: the local one)"),
                Field(
                    "region", "string, optional",
                    "a region (key, name, Latin name or ISO code): `regions` lists its cities or districts"),
                Field("city", "string, optional", "with `region`, a city: `regions` lists its districts"),
            ],
            response: [
                lang, Field("country", "string", "the country code"),
                Field("countryName", "string", "in the viewer's language"),
                Field("format", "string", "a country code or `default`"),
                Field("fields", "array", "`field`, `label`, `required`, in display order"),
                Field(
                    "layoutScript", "string, optional",
                    "`local` or `latin`: which layout is described, for a country with both"),
                Field("layout", "array of strings", "the line templates"),
                Field("oneLine", "string", "the one-line template"),
                Field("postalCode", "object or null", "`pattern`, `example`"),
                Field("example", "object", "`address`, `lines`, `oneLine`"),
                Field("region", "string, optional", "the key of the region sent"),
                Field("city", "string, optional", "the key of the city sent"),
                Field(
                    "regions", "array, optional",
                    "for a country with sub-regions: `key`, `name`, `latinName`, `isoCode`, `viewerName`, "
                        + "`postalCodePrefixes` of each region (or city or district), in the viewer's collation"),
            ], errors: "invalid_field on country, language, region, city, viewerRegion or locale.",
            example: #"{"op":"addressFormat","country":"BE","locale":"nl"}"#),
        Op(
            name: "date", summary: "Formats a calendar date in the viewer's locale; the year only when shared.",
            request: [
                Field("date", "string, required", "YYYY-MM-DD, or --MM-DD for a date without a year"),
                Field("yearShared", "boolean, optional, default false", "show the year when the date has one"),
                locale, Field("style", "string, optional, default long", "`long`, `medium` or `short`"),
            ],
            response: [
                lang, Field("locale", "string", "the language plus the viewer's kept region"),
                Field("text", "string", "the date for people"),
                Field("pattern", "string", "the ICU date pattern used"),
            ], errors: "invalid_date on date; invalid_field on date, yearShared, style or locale.",
            example: #"{"op":"date","date":"1990-11-29","yearShared":true,"locale":"nl-BE"}"#),
        Op(
            name: "phone", summary: "Parses, validates and formats a phone number as libphonenumber does.",
            request: [
                Field("number", "string, required", "the number as written"),
                Field(
                    "defaultRegion", "string, optional",
                    "region for a number without a country code: any two letters, ZZ for none"),
                Field("viewerRegion", "string, required", "region of the reader, ZZ when unknown: decides `display`"),
                Field(
                    "locale", "string or array, optional, default en", "the viewer's language: the language of `spoken`"
                ),
            ],
            response: [
                Field("valid", "boolean", "whether the metadata knows the number"),
                Field("e164", "string", "the E.164 form"), Field("region", "string or null", "the number's region"),
                Field("type", "string", "fixedLine, mobile, tollFree, ..., unknown"),
                Field("national", "string", "NATIONAL format"),
                Field("international", "string", "INTERNATIONAL format"),
                Field("rfc3966", "string", "RFC 3966 URI"),
                Field("display", "string", "national when region is viewerRegion, else international"),
                Field("extension", "string or null", "the extension digits"),
                Field("possible", "boolean", "whether the length is possible"),
                Field(
                    "possibleReason", "string",
                    "IS_POSSIBLE, IS_POSSIBLE_LOCAL_ONLY, INVALID_COUNTRY_CODE, TOO_SHORT, ..."),
                Field("dialFrom", "string", "how to dial it from viewerRegion"),
                Field(
                    "spoken", "string",
                    "`display` read aloud digit by digit in `spokenLang` (ICU's spell-out words: zero … nine, nul … "
                        + "negen, null … neun), groups as `display` separates them joined by `, `, a leading + and an "
                        + "extension with the language's words (`plus three one, six, …, extension one two`)"),
                Field("spokenLang", "string", "the language of `spoken`: the served language `locale` resolves to"),
            ],
            errors:
                "invalid_number on number (with reason); invalid_field on number, viewerRegion, defaultRegion, locale.",
            example: #"{"op":"phone","number":"06 12345678","defaultRegion":"NL","viewerRegion":"BE"}"#),
        Op(
            name: "phoneMatch", summary: "Whether two numbers are the same, as libphonenumber's isNumberMatch.",
            request: [
                Field("a", "string, required", "a number as written"),
                Field("b", "string or array of strings, required", "the number to compare, or up to 10,000"),
                Field(
                    "defaultRegion", "string, optional", "both numbers are read in this region (any two letters)"),
            ],
            response: [
                Field("match", "string", "exact, nsn, shortNsn or none (b a string)"),
                Field("matches", "array of strings", "one per entry (b an array)"),
            ],
            errors:
                "invalid_number on a or b (with reason, and index for an entry); invalid_field on a, b, defaultRegion.",
            example: #"{"op":"phoneMatch","a":"+31 6 12345678","b":"06-12345678","defaultRegion":"NL"}"#),
        Op(
            name: "phoneExample", summary: "A region's example number of a type, in every form phone gives.",
            request: [
                Field("region", "string, required", "the region (any two letters)"),
                Field("type", "string, optional, default fixedLine", "mobile, tollFree, ..."),
                Field("viewerRegion", "string, optional, default region", "decides display; ZZ when unknown"),
                Field("locale", "string or array, optional, default en", "the language of `spoken`, as for phone"),
            ],
            response: [
                Field(
                    "valid", "boolean",
                    "and the other members of phone, in phone's order, `spoken` and `spokenLang` too")
            ],
            errors: "no_example on type or region; invalid_field on region, type, viewerRegion, locale.",
            example: #"{"op":"phoneExample","region":"NL","type":"mobile","viewerRegion":"NL"}"#),
        Op(
            name: "sort", summary: "Sorts names with the requested locale's collation.",
            request: [
                Field("names", "array of strings, required", "at most 10,000"),
                Field(
                    "locale", "string or array, optional, default en",
                    "the collation's tag, with -u- keywords; of a list, the first entry"),
            ],
            response: [
                Field("sorted", "array of strings", "the names as given, in collation order"),
                Field("order", "array of numbers", "for each sorted name, its index in names"),
            ], errors: "invalid_field on names or locale.",
            example: #"{"op":"sort","locale":"sv","names":["Åsa","Zoe"]}"#
        ),
        Op(
            name: "sortKey", summary: "ICU sort keys for a database column.",
            request: [
                Field("name", "string", "one name (answered with key)"),
                Field("names", "array of strings", "or many (answered with keys), at most 10,000"),
                Field("locale", "string or array, optional, default en", "as for sort"),
            ],
            response: [
                Field("key", "string", "lower-case hex, when name was sent"),
                Field("keys", "array of strings", "when names was sent"),
                Field("collationVersion", "string", "keys are valid for this version only"),
            ], errors: "invalid_field on name, names or locale.",
            example: #"{"op":"sortKey","locale":"nl","name":"de Vries"}"#
        ),
        Op(
            name: "searchForm", summary: "The form a database indexes for prefix search of names, in Latin letters.",
            request: [
                Field("names", "array of strings, required", "at most 10,000, each at most 1,024 bytes"),
                Field("locale", "string or array, optional, default en", "as for sort; the forms are the same in all"),
            ],
            response: [
                Field(
                    "forms", "array of strings",
                    "parallel to names: each word (a run of letters, marks, numbers) through ICU's transform "
                        + "Any-Latin; Latin-ASCII; [:Lm:] Remove; Lower, joined by single spaces; fixed for one ICU "
                        + "version (info: data.version, data.searchTransform)")
            ],
            errors:
                "invalid_field on names (more than 10,000, a name over 1,024 bytes, more than 16,384 units of "
                + "transliteration: a Han character 16, a word with one 48 more, other non-ASCII UTF-16 units 1) or "
                + "locale. The costliest line within the default --max-line (Han names up to the budget) takes about "
                + "12 ms of CPU in a release build (fmtbench --worst-lines).",
            example: #"{"op":"searchForm","locale":"de","names":["Müller","Иванов","Ελένη Παππά","山田太郎"]}"#
        ),
        Op(
            name: "nameSearch", summary: "The names a typed query finds, with the ranges it matched.",
            request: [
                Field("query", "string, required", "at most 256 bytes and 8 words; without words it matches nothing"),
                Field("names", "array of strings, required", "at most 10,000, each at most 1,024 bytes and 32 words"),
                Field("locale", "string or array, optional, default en", "the collation that decides equal letters"),
            ],
            response: [
                Field(
                    "matches", "array of objects",
                    "in input order, {index, ranges}: every query word is a prefix of a different word of the name, "
                        + "at primary strength in one script, by searchForm across scripts"),
                Field(
                    "ranges", "array of [start, length]",
                    "one per query word, by start, in UTF-16 code units; a match across scripts is the whole word"),
            ],
            errors:
                "invalid_field on query, names (the bounds, and transliteration as for searchForm) or locale. The "
                + "costliest line within the default --max-line (a Latin query over 32-word Cyrillic names, refused "
                + "at the transliteration budget) takes about 7.6 ms of CPU in a release build (fmtbench "
                + "--worst-lines).",
            example: #"{"op":"nameSearch","locale":"de","query":"mul","names":["Müller","Иванов","Schmul"]}"#
        ),
        Op(
            name: "language", summary: "The core's language resolution, or the supported languages.",
            request: [
                Field("tag", "string or array, optional", "a BCP 47 tag or a priority list to resolve, as locale")
            ],
            response: [
                Field("language", "string", "with tag: the interface language"),
                Field("match", "string", "with tag: exact, base or default"),
                Field(
                    "index", "number or null",
                    "with a priority list: the entry that won, null when none did (English)"),
                Field("locale", "string", "with tag: the language with the viewer's region"),
                Field("supported", "array of strings", "the daemon's languages"),
                Field("languages", "array", "without tag: `language`, `name`, `names` per language"),
            ], errors: "invalid_field on tag or tag[N].", example: #"{"op":"language","tag":"nl-BE"}"#),
        Op(
            name: "plural", summary: "The CLDR plural category of a count in a language.",
            request: [
                Field("count", "number or decimal string, required", "the count"),
                Field(
                    "locale", "string or array, optional, default en",
                    "the language whose rules apply; of a list, the first entry"),
            ],
            response: [Field("category", "string", "zero, one, two, few, many or other")],
            errors: "invalid_field on count or locale.", example: #"{"op":"plural","locale":"pl","count":5}"#),
        Op(
            name: "message", summary: "Renders a catalogue message in the recipient's language.",
            request: [
                Field("key", "string, required", "screen.element.variant"), locale,
                Field("args", "object, optional", "the message's named arguments"),
            ],
            response: [
                lang, Field("text", "string", "the rendered message"),
                Field(
                    "dir", "string",
                    "`rtl` when ICU writes the text's language right to left (uloc_isRightToLeft: ar, he), else `ltr`"),
            ],
            errors: "unknown_key on key; invalid_field on key, locale or args.<name>.",
            example:
                #"{"op":"message","key":"contacts.details_updated","locale":"nl","args":{"count":2,"name":"Anna"}}"#
        ),
    ]

    /// fmtd-protocol(7).
    public static func manualPage(date: String, source: String) -> ManualPage {
        var opBlocks: [ManualPage.Block] = []
        for op in ops {
            opBlocks.append(.subsection(op.name))
            opBlocks.append(.paragraph(op.summary))
            opBlocks.append(.example(op.example))
            if !op.request.isEmpty {
                opBlocks.append(.paragraph("Request fields:"))
                opBlocks.append(.list(op.request.map { ($0.name, "(\($0.type)) \($0.meaning)") }))
            }
            opBlocks.append(.paragraph("Response members, after id and ok, in this order:"))
            opBlocks.append(.list(op.response.map { ($0.name, "(\($0.type)) \($0.meaning)") }))
            if !op.errors.isEmpty { opBlocks.append(.paragraph("Errors: " + op.errors)) }
        }
        return ManualPage(
            name: "fmtd-protocol", section: "7", summary: "the wire protocol of fmtd, version \(self.version)",
            date: date, source: source,
            sections: [
                (
                    "DESCRIPTION",
                    [
                        .paragraph(
                            "Clients send fmtd(8) one line of JSON per request over a Unix socket and get one line "
                                + "back. fmtq(1) speaks it from the shell; `fmtq raw` sends lines as given.")
                    ]
                ),
                ("FRAMING", framing.map { .paragraph($0) }),
                (
                    "ENVELOPE",
                    [
                        .example(#"{"op":"date","id":7,"date":"--11-29","locale":"nl"}"#),
                        .example(
                            #"{"id":7,"ok":true,"lang":"nl","locale":"nl","text":"29 november","pattern":"d MMMM"}"#),
                        .example(
                            #"{"id":7,"ok":false,"error":{"code":"invalid_field","message":"...","field":"locale"}}"#),
                        .list(envelope.map { ($0.name, "(\($0.type)) \($0.meaning)") }),
                        .paragraph(
                            "Unknown request fields are ignored. Members come in a fixed order, so responses are "
                                + "byte-stable. Bad input is answered on the same connection, which stays usable, "
                                + "except where said below."),
                    ]
                ),
                ("ERROR CODES", [.list(errors.map { ($0.name, $0.meaning) })]),
                ("LOCALES", locales.map { .paragraph($0) }),
                ("OPS", opBlocks),
                ("SEE ALSO", [.paragraph("fmtd(8), fmtq(1)")]),
            ])
    }
}
