import FmtCore

/// A `sort` answer: the names in the collation order of the requested locale.
public struct SortedNames: FmtResult {
    public static let op = "sort"
    public let raw: JSONObject
    /// The names exactly as given, in collation order.
    public let sorted: [String]
    /// For each position in `sorted`, the index of that name in the request's `names`.
    public let order: [Int]

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        sorted = try reader.strings("sorted")
        order = try reader.elements("order", "an integer", WireReader.int)
    }

    public var members: JSONObject { ["sorted": JSONValue(sorted), "order": JSONValue(order)] }
}

/// A `sortKey` answer: hex ICU sort keys and the collation version they are valid for.
public struct SortKeys: FmtResult {
    public static let op = "sortKey"
    public let raw: JSONObject
    /// The key of the request's `name`, when it sent one name.
    public let key: String?
    /// The key of each of the request's `names`, in order, when it sent a list.
    public let keys: [String]?
    /// The collator's version: store it with the keys, rebuild them when it changes.
    public let collationVersion: String

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        key = try reader.optional("key", "a string", \.stringValue)
        keys = response["keys"] == nil ? nil : try reader.strings("keys")
        if key == nil && keys == nil {
            throw FmtDecodingError(code: .missingMember, op: Self.op, member: "keys", expected: "an array")
        }
        collationVersion = try reader.string("collationVersion")
    }

    public var members: JSONObject {
        var object = JSONObject()
        object.appendPresent("key", key.map(JSONValue.string))
        object.appendPresent("keys", keys.map { JSONValue($0) })
        object.append("collationVersion", .string(collationVersion))
        return object
    }
}

/// A `searchForm` answer: each name as a database indexes it for prefix search.
public struct SearchForms: FmtResult {
    public static let op = "searchForm"
    public let raw: JSONObject
    /// Parallel to the request's `names`.
    public let forms: [String]

    public init(response: JSONObject) throws(FmtDecodingError) {
        raw = response
        forms = try WireReader(response, op: Self.op).strings("forms")
    }

    public var members: JSONObject { ["forms": JSONValue(forms)] }
}

/// A `nameSearch` answer: the names the query finds, with the ranges to highlight.
public struct NameMatches: FmtResult {
    /// `[start, length]` in UTF-16 code units, as `NSRange` counts.
    public struct Range: Sendable, Equatable {
        /// The first highlighted UTF-16 code unit.
        public let start: Int
        /// How many UTF-16 code units are highlighted.
        public let length: Int
    }

    /// One name the query finds.
    public struct Match: Sendable, Equatable {
        /// The name's index in the request's `names`.
        public let index: Int
        /// One range per query word, ordered by `start`.
        public let ranges: [Range]
    }

    public static let op = "nameSearch"
    public let raw: JSONObject
    /// The names found, in input order.
    public let matches: [Match]

    public init(response: JSONObject) throws(FmtDecodingError) {
        raw = response
        matches = try WireReader(response, op: Self.op).objects("matches") { match throws(FmtDecodingError) in
            Match(
                index: try match.int("index"),
                ranges: try match.elements("ranges", "a [start, length] pair of integers") {
                    WireReader.pair($0, WireReader.int, WireReader.int).map { Range(start: $0.0, length: $0.1) }
                })
        }
    }

    public var members: JSONObject {
        [
            "matches": .array(
                matches.map { match in
                    [
                        "index": JSONValue(match.index),
                        "ranges": .array(match.ranges.map { [JSONValue($0.start), JSONValue($0.length)] }),
                    ]
                })
        ]
    }
}

/// A `language` answer: how a tag resolves to an interface language, or (asked without a tag) the languages.
public struct LanguageResolution: FmtResult {
    /// A supported language with its own name and its name in every supported language.
    public struct Language: Sendable, Equatable {
        /// One name of the language: in `language`.
        public struct Name: Sendable, Equatable {
            /// The language the name is written in.
            public let language: String
            /// The name.
            public let name: String
        }

        /// The language's tag.
        public let language: String
        /// Its name in itself.
        public let name: String
        /// Its name in each supported language, in the order the daemon lists them.
        public let names: [Name]
    }

    public static let op = "language"
    public let raw: JSONObject
    /// The interface language the tag resolves to (asked with a tag).
    public let language: String?
    /// `exact`, `base` or `default` (asked with a tag).
    public let match: String?
    /// Asked with a priority list, the entry that won: `.some(nil)` when none did; nil for a single tag.
    public let index: Int??
    /// The language with the viewer's region kept (asked with a tag).
    public let locale: String?
    /// The daemon's languages.
    public let supported: [String]
    /// Each supported language's names (asked without a tag).
    public let languages: [Language]?

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        language = try reader.optional("language", "a string", \.stringValue)
        match = try reader.optional("match", "a string", \.stringValue)
        index = response["index"] == nil ? nil : .some(try reader.nullable("index", "an integer", WireReader.int))
        locale = try reader.optional("locale", "a string", \.stringValue)
        supported = try reader.strings("supported")
        languages =
            response["languages"] == nil
            ? nil
            : try reader.objects("languages") { entry throws(FmtDecodingError) in
                let names = try entry.object("names")
                var list: [Language.Name] = []
                for member in names.object {
                    let name = try names.convert(member.value, names.name(member.key), "a string", \.stringValue)
                    list.append(Language.Name(language: member.key, name: name))
                }
                return Language(language: try entry.string("language"), name: try entry.string("name"), names: list)
            }
        if language == nil && languages == nil {
            throw FmtDecodingError(code: .missingMember, op: Self.op, member: "language", expected: "a string")
        }
    }

    public var members: JSONObject {
        var object = JSONObject()
        object.appendPresent("language", language.map(JSONValue.string))
        object.appendPresent("match", match.map(JSONValue.string))
        object.appendPresent("index", index.map { JSONValue($0) })
        object.appendPresent("locale", locale.map(JSONValue.string))
        object.append("supported", JSONValue(supported))
        object.appendPresent(
            "languages",
            languages.map { languages in
                .array(
                    languages.map { language in
                        [
                            "language": .string(language.language), "name": .string(language.name),
                            "names": .object(
                                JSONObject(language.names.map { .init(key: $0.language, value: .string($0.name)) })),
                        ]
                    })
            })
        return object
    }
}

/// A `plural` answer: the CLDR plural category of a count.
public struct PluralCategory: FmtResult {
    public static let op = "plural"
    public let raw: JSONObject
    /// `zero`, `one`, `two`, `few`, `many` or `other`.
    public let category: String

    public init(response: JSONObject) throws(FmtDecodingError) {
        raw = response
        category = try WireReader(response, op: Self.op).string("category")
    }

    public var members: JSONObject { ["category": .string(category)] }
}

/// A `message` answer: a catalogue message rendered for the recipient.
public struct RenderedMessage: FmtResult {
    public static let op = "message"
    public let raw: JSONObject
    /// The language of `text`.
    public let lang: String
    /// The message for people.
    public let text: String
    /// `ltr` or `rtl`: the direction of `text`'s language (nil from a daemon without it).
    public let dir: String?

    public init(response: JSONObject) throws(FmtDecodingError) {
        let reader = WireReader(response, op: Self.op)
        raw = response
        lang = try reader.string("lang")
        text = try reader.string("text")
        dir = try reader.optional("dir", "a string", \.stringValue)
    }

    public var members: JSONObject {
        var object: JSONObject = ["lang": .string(lang), "text": .string(text)]
        object.appendPresent("dir", dir.map(JSONValue.string))
        return object
    }
}
