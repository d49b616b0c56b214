/// A caller's languages in priority order: a JSON array of tags (`null` and empty entries skipped) or an HTTP
/// `Accept-Language` value (`nl-BE,nl;q=0.9,en;q=0.8`, ordered by q-value as RFC 9110 says: higher first, equal
/// values in the order sent, `q=0` meaning "not this one"). Every entry is checked, so a malformed one is refused
/// by its index (`locale[2]`) rather than skipped.
public struct LocalePriorityList: Sendable, Hashable {
    /// One acceptable language and where the caller put it.
    public struct Entry: Sendable, Hashable {
        /// The position in the array, or of the comma-separated element in the `Accept-Language` value, from 0.
        public let index: Int
        /// The tag; nil for `*` (any language).
        public let tag: LanguageTag?
    }

    /// The most entries one list may hold (array elements, or non-empty `Accept-Language` elements): a browser
    /// sends a handful, and every entry is parsed and matched per request.
    public static let maximumEntries = 32
    /// The longest `Accept-Language` value, in UTF-8 bytes: 32 entries of a tag with a q-value fit well within it.
    public static let maximumAcceptLanguageBytes = 1024

    /// The acceptable entries, most preferred first; `q=0` entries are not among them.
    public let entries: [Entry]
    /// Languages refused with `q=0` as a bare language (`en;q=0`): `*` never picks them.
    public let refused: Set<String>

    init(entries: [Entry], refused: Set<String>) {
        self.entries = entries
        self.refused = refused
    }

    /// Whether a `locale` string is an `Accept-Language` value rather than one tag: a tag never holds a comma,
    /// semicolon, `*` or white space.
    public static func isAcceptLanguage(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x2C || $0 == 0x3B || $0 == 0x2A || $0 == 0x20 || $0 == 0x09 }
    }

    /// Reads an array of tags; `field` names the array in errors (`locale`, then `locale[2]` for an entry).
    public init(array values: [JSONValue], field: String) throws(CoreError) {
        guard values.count <= Self.maximumEntries else {
            throw .invalidField(
                field,
                message: "At most \(Self.maximumEntries) languages in a priority list, got \(values.count).")
        }
        var entries: [Entry] = []
        for (index, value) in values.enumerated() {
            switch value {
            case .null:
                continue
            case .string(let text):
                if text.isEmpty { continue }
                guard let tag = LanguageTag(parsing: text) else {
                    throw .invalidField(
                        "\(field)[\(index)]",
                        message: "\"\(text.prefix(64))\" is not a well-formed language tag (e.g. nl-BE).")
                }
                entries.append(Entry(index: index, tag: tag))
            default:
                throw .invalidField(
                    "\(field)[\(index)]",
                    message: "The field \"\(field)[\(index)]\" must be a string or null, got \(value.typeName).")
            }
        }
        self.init(entries: entries, refused: [])
    }

    /// Reads an `Accept-Language` value (RFC 9110 §12.5.4): comma-separated language ranges, each with an
    /// optional `;q=` weight of at most three decimals; empty elements are skipped, but a value with no element
    /// at all (only commas and white space) names no language and is refused.
    public init(acceptLanguage text: String, field: String) throws(CoreError) {
        let bytes = text.utf8.count
        guard bytes <= Self.maximumAcceptLanguageBytes else {
            throw .invalidField(
                field,
                message:
                    "An Accept-Language value is at most \(Self.maximumAcceptLanguageBytes) bytes, got \(bytes).")
        }
        // A value without a comma is one entry: its errors name the field itself, as for a single tag.
        let single = !text.utf8.contains(0x2C)
        var weighted: [(entry: Entry, weight: Int)] = []
        var refused = Set<String>()
        var count = 0
        // An ASCII value is split by its bytes (the same elements, without grapheme breaking); any other by
        // characters, so a comma that a combining mark joins stays inside its element.
        let elements =
            text.utf8.allSatisfy { $0 < 0x80 }
            ? text.utf8.split(separator: 0x2C, omittingEmptySubsequences: false).map { Substring($0) }
            : text.split(separator: ",", omittingEmptySubsequences: false)
        for (index, element) in elements.enumerated() {
            let trimmed = Self.trimmed(element)
            if trimmed.isEmpty { continue }
            count += 1
            guard count <= Self.maximumEntries else {
                throw .invalidField(
                    field, message: "At most \(Self.maximumEntries) languages in a priority list, got more.")
            }
            guard let (range, weight) = Self.range(trimmed) else {
                throw .invalidField(
                    single ? field : "\(field)[\(index)]",
                    message:
                        "\"\(trimmed.prefix(64))\" is not a language range with an optional q-value (e.g. nl;q=0.8).")
            }
            if weight == 0 {
                if let range, range.script == nil, range.region == nil, range.trailing.isEmpty {
                    refused.insert(range.language)
                }
                continue
            }
            weighted.append((Entry(index: index, tag: range), weight))
        }
        // Blank is not a locale: a value of only commas and white space is refused, as `""` is.
        guard count > 0 else {
            throw .invalidField(
                field,
                message:
                    "\"\(text.prefix(64))\" names no language: send a tag (e.g. nl-BE) or an Accept-Language "
                    + "value, or leave the field out."
            )
        }
        // Higher weight first; equal weights keep the order sent (the enumeration order breaks ties).
        let ordered = weighted.enumerated().sorted {
            $0.element.weight != $1.element.weight ? $0.element.weight > $1.element.weight : $0.offset < $1.offset
        }
        self.init(entries: ordered.map(\.element.entry), refused: refused)
    }

    /// The first tag in priority order, for collation and plural rules; `*` is not a tag.
    public var firstTag: LanguageTag? {
        entries.lazy.compactMap(\.tag).first
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = text.firstIndex(where: { !isSpace($0) }) else { return text[text.endIndex...] }
        let end = text.lastIndex(where: { !isSpace($0) })!
        return text[start...end]
    }

    /// A range and its weight in thousandths (`nl;q=0.8` → nl, 800); nil when either is malformed. The tag of `*`
    /// is nil.
    private static func range(_ element: Substring) -> (LanguageTag?, Int)? {
        // Split at the bytes of `;`: a part holding anything but ASCII is refused below whichever way it is cut.
        let parts = element.utf8.split(separator: 0x3B, omittingEmptySubsequences: false).map { Substring($0) }
        let name = trimmed(parts[0])
        let tag: LanguageTag?
        if name == "*" {
            tag = nil
        } else {
            guard let parsed = LanguageTag(parsing: String(name)) else { return nil }
            tag = parsed
        }
        switch parts.count {
        case 1: return (tag, 1000)
        case 2:
            guard let weight = qValue(trimmed(parts[1])) else { return nil }
            return (tag, weight)
        default: return nil
        }
    }

    /// `q=` (or `Q=`) and a qvalue: `0`, `0.` to `0.999`, `1`, `1.` to `1.000`; in thousandths.
    private static func qValue(_ text: Substring) -> Int? {
        var bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes[0] | 0x20 == UInt8(ascii: "q"), bytes[1] == UInt8(ascii: "=") else { return nil }
        bytes.removeFirst(2)
        guard let whole = bytes.first, whole == UInt8(ascii: "0") || whole == UInt8(ascii: "1") else { return nil }
        var fraction = Array(bytes.dropFirst())
        if fraction.isEmpty { return whole == UInt8(ascii: "1") ? 1000 : 0 }
        guard fraction.removeFirst() == UInt8(ascii: "."), fraction.count <= 3,
            fraction.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        let digits = fraction + Array(repeating: UInt8(ascii: "0"), count: 3 - fraction.count)
        let thousandths = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        if whole == UInt8(ascii: "1") { return thousandths == 0 ? 1000 : nil }
        return thousandths
    }
}
