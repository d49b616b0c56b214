import FmtCore

/// An `address` answer: the address as lines by its country's convention, for one viewer.
public struct FormattedAddress: FmtResult {
    /// One shown field: its label in the viewer's language and its value as shown.
    public struct Field: Sendable, Equatable {
        /// The wire name: `street`, `postalCode`, `country`, …
        public let field: String
        /// Its label in `lang`.
        public let label: String
        /// The value as shown (a normalised postal code, the country's name).
        public let value: String
        /// The language of `value`: the address's `language`, `lang` for the country, else `und`.
        public let valueLang: String
        /// `rtl`, `ltr` or `auto`: the value's first strong character (nil from a daemon without it).
        public let valueDir: String?
    }

    /// Something the viewer should know about the address: a postal code that does not fit, a missing field.
    public struct Warning: Sendable, Equatable {
        /// `postal_code_format`, `missing_required`, `field_not_used` or `region_unknown`.
        public let code: String
        /// The address field it is about.
        public let field: String
        /// The explanation in the viewer's language.
        public let message: String
    }

    public static let op = "address"
    public let raw: JSONObject
    /// The language of the labels, messages and country line.
    public let lang: String
    /// The address's country, canonical (`UK` is `GB`).
    public let country: String
    /// The format used: the country code, or `default`.
    public let format: String
    /// The address lines, none empty.
    public let lines: [String]
    /// The language of each of `lines`.
    public let linesLang: [String]
    /// The address on one line, without name and organization.
    public let oneLine: String
    /// The given fields in display order, then those the format has no place for, the country last.
    public let fields: [Field]
    /// What the viewer should know about the address.
    public let warnings: [Warning]
    /// Parallel to `lines`: `rtl`, `ltr` or `auto` by each line's first strong character (empty from a daemon
    /// without it).
    public let linesDir: [String]
    /// The postal code read aloud in `lang`, for a code with letters or more than four digits.
    public let spokenPostalCode: String?

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        lang = try reader.string("lang")
        country = try reader.string("country")
        format = try reader.string("format")
        lines = try reader.strings("lines")
        linesLang = try reader.strings("linesLang")
        oneLine = try reader.string("oneLine")
        fields = try reader.objects("fields") { field throws(FmtDecodingError) in
            Field(
                field: try field.string("field"), label: try field.string("label"), value: try field.string("value"),
                valueLang: try field.string("valueLang"),
                valueDir: try field.optional("valueDir", "a string", \.stringValue))
        }
        warnings = try reader.objects("warnings") { warning throws(FmtDecodingError) in
            Warning(
                code: try warning.string("code"), field: try warning.string("field"),
                message: try warning.string("message"))
        }
        linesDir = response["linesDir"] == nil ? [] : try reader.strings("linesDir")
        spokenPostalCode = try reader.optional("spokenPostalCode", "a string", \.stringValue)
    }

    public var members: JSONObject {
        var object: JSONObject = [
            "lang": .string(lang), "country": .string(country), "format": .string(format),
            "lines": JSONValue(lines), "linesLang": JSONValue(linesLang), "oneLine": .string(oneLine),
            "fields": .array(
                fields.map {
                    var entry: JSONObject = [
                        "field": .string($0.field), "label": .string($0.label), "value": .string($0.value),
                        "valueLang": .string($0.valueLang),
                    ]
                    entry.appendPresent("valueDir", $0.valueDir.map(JSONValue.string))
                    return .object(entry)
                }),
            "warnings": .array(
                warnings.map { ["code": .string($0.code), "field": .string($0.field), "message": .string($0.message)] }
            ),
        ]
        if raw["linesDir"] != nil { object.append("linesDir", JSONValue(linesDir)) }
        object.appendPresent("spokenPostalCode", spokenPostalCode.map(JSONValue.string))
        return object
    }
}

/// An `addressFormat` answer: how a country's addresses are written, with an example.
public struct AddressFormatDescription: FmtResult {
    /// One field of the format, in display order.
    public struct Field: Sendable, Equatable {
        /// The wire name: `street`, `postalCode`, `country`, …
        public let field: String
        /// Its label in `lang`.
        public let label: String
        /// Whether the country's format requires it.
        public let required: Bool
    }

    /// The postal-code pattern the format checks.
    public struct PostalCode: Sendable, Equatable {
        /// The regular expression a postal code must match.
        public let pattern: String
        /// A postal code that matches.
        public let example: String
    }

    /// The example address and how `address` renders it for this viewer.
    public struct Example: Sendable, Equatable {
        /// The example's fields as an `address` request takes them (`country` last).
        public let address: JSONObject
        /// Its lines.
        public let lines: [String]
        /// Its one-line form.
        public let oneLine: String
    }

    /// One entry of `regions`: a region (or, with `region`, a city; with `city`, a district) as a form lists it.
    public struct Region: Sendable, Equatable {
        /// libaddressinput's key: what a form stores.
        public let key: String
        /// The name in the country's language.
        public let name: String
        /// The Latin name, where the data has one.
        public let latinName: String?
        /// The ISO 3166-2 code (`CA-ON`), where the data has one.
        public let isoCode: String?
        /// The name in the viewer's language (`Colombie-Britannique` for `fr-CA`), where the data has one.
        public let viewerName: String?
        /// The postal-code prefixes of the region, as a pattern (`K|L|M|N|P`).
        public let postalCodePrefixes: String?
    }

    public static let op = "addressFormat"
    public let raw: JSONObject
    /// The language of the labels and the country's name.
    public let lang: String
    /// The country, canonical.
    public let country: String
    /// The country's name in `lang`.
    public let countryName: String
    /// The format: the country code, or `default`.
    public let format: String
    /// The fields in display order, `country` last.
    public let fields: [Field]
    /// `local` or `latin` for a country with both layouts: the one described; nil for every other country.
    public let layoutScript: String?
    /// The line templates, such as `{street} {houseNumber}`.
    public let layout: [String]
    /// The one-line template.
    public let oneLine: String
    /// The postal-code pattern, nil when the format checks none.
    public let postalCode: PostalCode?
    /// The example address.
    public let example: Example
    /// The region whose cities (or districts, with `city`) `regions` lists, as the request named it.
    public let region: String?
    /// The city whose districts `regions` lists.
    public let city: String?
    /// The country's regions (or the region's cities, the city's districts), sorted for the viewer; nil for a
    /// country without sub-regions.
    public let regions: [Region]?

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        lang = try reader.string("lang")
        country = try reader.string("country")
        countryName = try reader.string("countryName")
        format = try reader.string("format")
        fields = try reader.objects("fields") { field throws(FmtDecodingError) in
            Field(
                field: try field.string("field"), label: try field.string("label"), required: try field.bool("required")
            )
        }
        layoutScript = try reader.optional("layoutScript", "a string", \.stringValue)
        layout = try reader.strings("layout")
        oneLine = try reader.string("oneLine")
        if try reader.value("postalCode", "an object or null") == .null {
            postalCode = nil
        } else {
            let postal = try reader.object("postalCode")
            postalCode = PostalCode(pattern: try postal.string("pattern"), example: try postal.string("example"))
        }
        let example = try reader.object("example")
        self.example = Example(
            address: try example.member("address", "an object", \.objectValue), lines: try example.strings("lines"),
            oneLine: try example.string("oneLine"))
        region = try reader.optional("region", "a string", \.stringValue)
        city = try reader.optional("city", "a string", \.stringValue)
        regions =
            response["regions"] == nil
            ? nil
            : try reader.objects("regions") { entry throws(FmtDecodingError) in
                Region(
                    key: try entry.string("key"), name: try entry.string("name"),
                    latinName: try entry.optional("latinName", "a string", \.stringValue),
                    isoCode: try entry.optional("isoCode", "a string", \.stringValue),
                    viewerName: try entry.optional("viewerName", "a string", \.stringValue),
                    postalCodePrefixes: try entry.optional("postalCodePrefixes", "a string", \.stringValue))
            }
    }

    public var members: JSONObject {
        var object: JSONObject = [
            "lang": .string(lang), "country": .string(country), "countryName": .string(countryName),
            "format": .string(format),
            "fields": .array(
                fields.map { ["field": .string($0.field), "label": .string($0.label), "required": .bool($0.required)] }
            ),
        ]
        object.appendPresent("layoutScript", layoutScript.map(JSONValue.string))
        object.append("layout", JSONValue(layout))
        object.append("oneLine", .string(oneLine))
        object.append(
            "postalCode", postalCode.map { ["pattern": .string($0.pattern), "example": .string($0.example)] } ?? .null)
        object.append(
            "example",
            [
                "address": .object(example.address), "lines": JSONValue(example.lines),
                "oneLine": .string(example.oneLine),
            ])
        object.appendPresent("region", region.map(JSONValue.string))
        object.appendPresent("city", city.map(JSONValue.string))
        if let regions {
            object.append(
                "regions",
                .array(
                    regions.map { region in
                        var entry: JSONObject = ["key": .string(region.key), "name": .string(region.name)]
                        entry.appendPresent("latinName", region.latinName.map(JSONValue.string))
                        entry.appendPresent("isoCode", region.isoCode.map(JSONValue.string))
                        entry.appendPresent("viewerName", region.viewerName.map(JSONValue.string))
                        entry.appendPresent("postalCodePrefixes", region.postalCodePrefixes.map(JSONValue.string))
                        return .object(entry)
                    }))
        }
        return object
    }
}

/// A `date` answer: a calendar date written for the viewer's locale.
public struct FormattedDate: FmtResult {
    public static let op = "date"
    public let raw: JSONObject
    /// The language of `text` after fallback.
    public let lang: String
    /// The language plus the viewer's kept region (`en-FR`).
    public let locale: String
    /// The date for people.
    public let text: String
    /// The ICU date pattern that produced `text`.
    public let pattern: String

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        lang = try reader.string("lang")
        locale = try reader.string("locale")
        text = try reader.string("text")
        pattern = try reader.string("pattern")
    }

    public var members: JSONObject {
        ["lang": .string(lang), "locale": .string(locale), "text": .string(text), "pattern": .string(pattern)]
    }
}
