/// The on-disk form of `data/phone-metadata.json`: numbering plans converted from libphonenumber's
/// `PhoneNumberMetadata.xml`. Keys are short to keep the file compact; absent optionals are omitted.
public struct PhoneMetadataDocument: Codable, Sendable, Equatable {
    /// Upstream libphonenumber release the data was converted from, e.g. `9.0.35`.
    public var version: String
    /// Where the data comes from and under which licence.
    public var source: String
    /// Territories in upstream order; non-geographic entities use the id `001`.
    public var territories: [TerritoryRecord]

    /// A document from its parts.
    public init(version: String, source: String, territories: [TerritoryRecord]) {
        self.version = version
        self.source = source
        self.territories = territories
    }
}

/// One `<territory>` of the upstream XML, with defaults already resolved.
public struct TerritoryRecord: Codable, Sendable, Equatable {
    /// ISO 3166 region code, or `001` for a non-geographic entity.
    public var id: String
    /// Country calling code (`cc`).
    public var countryCode: Int
    /// `true` for the main region of a shared calling code (`main`).
    public var mainCountryForCode: Bool?
    /// Pattern on the national number that identifies this region among those sharing a calling code.
    public var leadingDigits: String?
    /// Pattern of the international dialling prefix (IDD) used in this region (`ip`).
    public var internationalPrefix: String?
    /// The IDD to write when dialling out of this region, where `internationalPrefix` is not a single prefix
    /// (`pip`; `8~10` for RU).
    public var preferredInternationalPrefix: String?
    /// National (trunk) prefix, e.g. `0` (`np`).
    public var nationalPrefix: String?
    /// Defaults to `nationalPrefix` when upstream gives none.
    public var nationalPrefixForParsing: String?
    /// Replacement using `$1`, `$2` for the groups of `nationalPrefixForParsing`.
    public var nationalPrefixTransformRule: String?
    /// Text placed before an extension instead of ` ext. ` (`ext`).
    public var preferredExtnPrefix: String?
    /// The general description; its lengths are the union of all types' lengths.
    public var general: NumberDescRecord
    /// Number types keyed by wire name (`fixedLine`, `mobile`, ...).
    public var types: [String: NumberDescRecord]
    /// Available formats in upstream order (`fmt`).
    public var formats: [NumberFormatRecord]?

    enum CodingKeys: String, CodingKey {
        case id, countryCode = "cc", mainCountryForCode = "main", leadingDigits = "ld", internationalPrefix = "ip"
        case preferredInternationalPrefix = "pip"
        case nationalPrefix = "np", nationalPrefixForParsing = "npp", nationalPrefixTransformRule = "npt"
        case preferredExtnPrefix = "ext", general = "gen", types, formats = "fmt"
    }

    /// A territory from its parts.
    public init(
        id: String, countryCode: Int, mainCountryForCode: Bool? = nil, leadingDigits: String? = nil,
        internationalPrefix: String? = nil, preferredInternationalPrefix: String? = nil,
        nationalPrefix: String? = nil, nationalPrefixForParsing: String? = nil,
        nationalPrefixTransformRule: String? = nil, preferredExtnPrefix: String? = nil,
        general: NumberDescRecord, types: [String: NumberDescRecord], formats: [NumberFormatRecord]? = nil
    ) {
        self.id = id
        self.countryCode = countryCode
        self.mainCountryForCode = mainCountryForCode
        self.leadingDigits = leadingDigits
        self.internationalPrefix = internationalPrefix
        self.preferredInternationalPrefix = preferredInternationalPrefix
        self.nationalPrefix = nationalPrefix
        self.nationalPrefixForParsing = nationalPrefixForParsing
        self.nationalPrefixTransformRule = nationalPrefixTransformRule
        self.preferredExtnPrefix = preferredExtnPrefix
        self.general = general
        self.types = types
        self.formats = formats
    }
}

/// A number description: pattern on the national significant number and its possible lengths.
public struct NumberDescRecord: Codable, Sendable, Equatable {
    /// Pattern on the national significant number (`p`); absent for a type upstream lists without one, which
    /// then never matches (its lengths still count towards the territory's).
    public var pattern: String?
    /// Possible lengths of the national significant number (`l`).
    public var lengths: [Int]
    /// Lengths only diallable locally (`lo`).
    public var localOnlyLengths: [Int]?
    /// Upstream's example number (`e`).
    public var example: String?

    enum CodingKeys: String, CodingKey {
        case pattern = "p", lengths = "l", localOnlyLengths = "lo", example = "e"
    }

    /// A description from its parts.
    public init(pattern: String?, lengths: [Int], localOnlyLengths: [Int]? = nil, example: String? = nil) {
        self.pattern = pattern
        self.lengths = lengths
        self.localOnlyLengths = localOnlyLengths
        self.example = example
    }
}

/// A `<numberFormat>`: only the last (most detailed) `leadingDigits` pattern is kept.
public struct NumberFormatRecord: Codable, Sendable, Equatable {
    /// Pattern with one group per block of digits (`p`).
    public var pattern: String
    /// Template using `$1`, `$2`, ... (`f`).
    public var format: String
    /// Pattern on the start of the national number selecting this format (`ld`).
    public var leadingDigits: String?
    /// National prefix formatting rule with `$NP` and `$FG` already substituted (`$FG` becomes `$1`).
    public var nationalPrefixRule: String?
    /// `nil`: international format equals `format`; `NA`: no international format; else the international format.
    public var intlFormat: String?

    enum CodingKeys: String, CodingKey {
        case pattern = "p", format = "f", leadingDigits = "ld", nationalPrefixRule = "npr", intlFormat = "i"
    }

    /// A format from its parts.
    public init(
        pattern: String, format: String, leadingDigits: String? = nil, nationalPrefixRule: String? = nil,
        intlFormat: String? = nil
    ) {
        self.pattern = pattern
        self.format = format
        self.leadingDigits = leadingDigits
        self.nationalPrefixRule = nationalPrefixRule
        self.intlFormat = intlFormat
    }
}
