import FmtCore

/// A `phone` (or `phoneExample`) answer: one number in every standard form, and the one to show the viewer.
public struct PhoneDisplay: FmtResult {
    public static let op = "phone"
    public let raw: JSONObject
    /// Whether libphonenumber's metadata knows the number.
    public let valid: Bool
    /// `+`, calling code and national significant number, never an extension.
    public let e164: String
    /// The number's region (`GG`, `001` for non-geographic codes); nil when no single region fits.
    public let region: String?
    /// `fixedLine`, `mobile`, … or `unknown`.
    public let type: String
    /// The NATIONAL format, with the extension.
    public let national: String
    /// The INTERNATIONAL format, with the extension.
    public let international: String
    /// The RFC 3966 `tel:` URI.
    public let rfc3966: String
    /// `national` for a viewer in the number's region, `international` otherwise.
    public let display: String
    /// The extension digits, when there are some.
    public let `extension`: String?
    /// Whether the national number's length is possible.
    public let possible: Bool
    /// libphonenumber's reason: `IS_POSSIBLE`, `TOO_SHORT`, …
    public let possibleReason: String
    /// How to dial the number from the viewer's region.
    public let dialFrom: String
    /// `display` read aloud digit by digit in `spokenLang` (for a screen reader); nil from a daemon without it.
    public let spoken: String?
    /// The language of `spoken`.
    public let spokenLang: String?

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        valid = try reader.bool("valid")
        e164 = try reader.string("e164")
        region = try reader.nullable("region", "a string", \.stringValue)
        type = try reader.string("type")
        national = try reader.string("national")
        international = try reader.string("international")
        rfc3966 = try reader.string("rfc3966")
        display = try reader.string("display")
        `extension` = try reader.nullable("extension", "a string", \.stringValue)
        possible = try reader.bool("possible")
        possibleReason = try reader.string("possibleReason")
        dialFrom = try reader.string("dialFrom")
        spoken = try reader.optional("spoken", "a string", \.stringValue)
        spokenLang = try reader.optional("spokenLang", "a string", \.stringValue)
    }

    public var members: JSONObject {
        var object: JSONObject = [
            "valid": .bool(valid), "e164": .string(e164), "region": JSONValue(region), "type": .string(type),
            "national": .string(national), "international": .string(international), "rfc3966": .string(rfc3966),
            "display": .string(display), "extension": JSONValue(`extension`), "possible": .bool(possible),
            "possibleReason": .string(possibleReason), "dialFrom": .string(dialFrom),
        ]
        object.appendPresent("spoken", spoken.map(JSONValue.string))
        object.appendPresent("spokenLang", spokenLang.map(JSONValue.string))
        return object
    }
}

/// A `phoneMatch` answer: `match` for one number `b`, `matches` (one per entry, in order) for an array `b`.
public struct PhoneMatchResult: FmtResult {
    public static let op = "phoneMatch"
    public let raw: JSONObject
    /// `exact`, `nsn`, `shortNsn` or `none`, when `b` was one number.
    public let match: String?
    /// One of those per entry, when `b` was an array.
    public let matches: [String]?

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        match = try reader.optional("match", "a string", \.stringValue)
        matches = response["matches"] == nil ? nil : try reader.strings("matches")
        if match == nil && matches == nil {
            throw FmtDecodingError(code: .missingMember, op: Self.op, member: "match", expected: "a string")
        }
    }

    public var members: JSONObject {
        var object = JSONObject()
        object.appendPresent("match", match.map(JSONValue.string))
        object.appendPresent("matches", matches.map { JSONValue($0) })
        return object
    }
}
