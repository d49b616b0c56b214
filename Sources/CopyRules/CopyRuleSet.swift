import FmtCore

/// How a language capitalizes running text, which decides what the Title Case rule looks for.
public enum Capitalization: String, Sendable, CaseIterable {
    /// Sentence case (English, Dutch): a capitalized word inside a sentence is a heading in Title Case unless it
    /// is a proper noun or a glossary term spelled so.
    case sentence
    /// German: every noun is capitalized, so only a capitalized `lowercaseWords` entry (an article, pronoun,
    /// preposition, verb form) inside a sentence is Title Case.
    case nouns
    /// No capitalization rule.
    case none
}

/// A word a language's copy never uses, and what to write instead. Hashable, so merging rules files dedups
/// entries with a set rather than by searching the list.
public struct ForbiddenWord: Sendable, Hashable {
    /// One or more words, matched whole.
    public let words: [String]
    /// The replacement, for the finding's message.
    public let use: String
    /// Matched only as spelled, not in any case (German formal `Sie`, where `sie` is "she"). At the start of a
    /// sentence capitals carry no meaning, so such a word is not reported there.
    public let matchCase: Bool

    public var text: String { words.joined(separator: " ") }
}

/// The copy rules of one language.
public struct LanguageCopyRules: Sendable, Equatable {
    public var capitalization: Capitalization = .sentence
    /// English glossary term → this language's term (`detail` → `gegeven`); in English itself, empty.
    public var glossary: [String: String] = [:]
    /// Glossary terms in the order they were defined, for deterministic findings.
    public var glossaryOrder: [String] = []
    public var forbidden: [ForbiddenWord] = []
    /// Names written with capitals inside a sentence (`Google`, `iCloud`), matched as spelled.
    public var properNouns: [String] = []
    /// Words never capitalized inside a sentence (for `nouns`).
    public var lowercaseWords: Set<String> = []
    /// Endings an inflected glossary term may add (`s`, `en`): `details` uses `detail`.
    public var inflections: [String] = []

    public init() {}
}

/// The copy rules every catalogue is checked against: `copy-rules.json` in the data, extended by the files of
/// `/etc/fmtd/copy-rules.d/` (a service adds its own terms, forbidden words and names). Loaded from bytes (no
/// I/O here), bounded in every dimension, and refused whole when any file is malformed.
public struct CopyRuleSet: Sendable, Equatable {
    /// The rules by language code.
    public private(set) var languages: [String: LanguageCopyRules] = [:]
    /// The fewest and most dot-separated segments of a key (`screen.element.variant`: 2 to 3).
    public private(set) var keySegments: ClosedRange<Int> = 2...3

    /// Bounds of a rules file, so a hostile or mistaken file costs little to load and check.
    public enum Limits {
        /// The largest rules file, in bytes.
        public static let maximumFileBytes = 256 << 10
        /// The most languages one file (and the merged rules) may have.
        public static let maximumLanguages = 64
        /// The most glossary terms, forbidden words, proper nouns of one language, all files together.
        public static let maximumEntries = 1000
        /// The most `lowercaseWords` of one language.
        public static let maximumLowercaseWords = 2000
        /// The most inflection endings of one language, and their longest, in characters.
        public static let maximumInflections = 32
        public static let maximumInflectionLength = 8
        /// The most words in one term, and the longest word, in characters.
        public static let maximumWordsPerTerm = 6
        public static let maximumWordLength = 64
    }

    public init() {}

    /// Reads the shipped file (`copy-rules.json`, may set `key`) then each local file in order, merged; throws
    /// the first problem, naming the file and member.
    public init(shipped: (path: String, bytes: [UInt8])?, local: [(path: String, bytes: [UInt8])]) throws(DataError) {
        if let shipped { try merge(shipped.path, shipped.bytes, mayShapeKeys: true) }
        for file in local { try merge(file.path, file.bytes, mayShapeKeys: false) }
    }

    private mutating func merge(_ path: String, _ bytes: [UInt8], mayShapeKeys: Bool) throws(DataError) {
        guard bytes.count <= Limits.maximumFileBytes else {
            throw DataError(
                file: path, "is \(bytes.count) bytes; a copy rules file is at most \(Limits.maximumFileBytes)")
        }
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes, maxDepth: 6)
        } catch {
            throw DataError(file: path, "not valid JSON: \(error)")
        }
        guard case .object(let object) = value else {
            throw DataError(file: path, "copy rules are a JSON object with \"languages\"")
        }
        let root = DataFields(object, file: path)
        for (name, member) in root.members {
            switch name {
            case "version":
                guard member.value?.numberValue?.intValue == 1 else { throw member.invalid("the version is 1") }
            case "key":
                guard mayShapeKeys else {
                    throw member.invalid("only the shipped copy-rules.json sets the key shape; keys are shared")
                }
                let key = try member.object(or: "must be an object with minSegments and maxSegments")!
                try Self.refuseUnknown(key, ["minSegments", "maxSegments"])
                let low = try Self.count(key.member("minSegments"), in: 1...16) ?? keySegments.lowerBound
                let high = try Self.count(key.member("maxSegments"), in: 1...16) ?? keySegments.upperBound
                guard low <= high else { throw member.invalid("minSegments is more than maxSegments") }
                keySegments = low...high
            case "languages":
                let languages = try member.object(or: "must be an object of language code to rules")!
                for (code, rules) in languages.members {
                    guard (2...3).contains(code.utf8.count), code.utf8.allSatisfy({ (0x61...0x7A).contains($0) })
                    else { throw rules.invalid("a language is a lower-case ISO 639 code (en, nl, de)") }
                    if self.languages[code] == nil && self.languages.count >= Limits.maximumLanguages {
                        throw rules.invalid("more than \(Limits.maximumLanguages) languages")
                    }
                    let reader = try rules.object(or: "must be an object")!
                    var merged = self.languages[code] ?? LanguageCopyRules()
                    try Self.merge(reader, into: &merged)
                    self.languages[code] = merged
                }
            default:
                throw member.invalid("unknown member; use version, key or languages")
            }
        }
    }

    /// Adds one file's rules of a language to what earlier files gave it. Lists are deduplicated through sets in
    /// the order entries are first seen, and each bound is checked as entries are added, so a file far over a
    /// limit is refused after reading just past it, at a cost linear in what was read.
    private static func merge(_ rules: DataFields, into merged: inout LanguageCopyRules) throws(DataError) {
        try refuseUnknown(
            rules, ["capitalization", "glossary", "forbidden", "properNouns", "lowercaseWords", "inflections"])
        if let capitalization = try rules.enum("capitalization", as: Capitalization.self, noun: "a capitalization") {
            merged.capitalization = capitalization
        }
        if let glossary = try rules.object("glossary", or: "must be an object of English term to this language's term")
        {
            for (english, translation) in glossary.members {
                let problem = "must be this language's term, a string"
                guard let term = try translation.string(or: problem) else { throw translation.invalid(problem) }
                _ = try words(english, at: translation)
                _ = try words(term, at: translation)
                if let existing = merged.glossary[english] {
                    guard existing == term else {
                        throw translation.invalid("the term is already \"\(existing)\" in another copy rules file")
                    }
                    continue
                }
                merged.glossary[english] = term
                merged.glossaryOrder.append(english)
                try bound(merged.glossary.count, rules.member("glossary"), "glossary terms")
            }
        }
        if let forbidden = try rules.member("forbidden").array(or: "must be an array of {word, use}") {
            var seen = Set(merged.forbidden)
            for entry in forbidden {
                let object = try entry.object(or: "must be an object with word and use")!
                try refuseUnknown(object, ["word", "use", "matchCase"])
                let word = try object.required("word")
                let use = try object.required("use")
                let parsed = ForbiddenWord(
                    words: try words(word, at: object.member("word")), use: use,
                    matchCase: try object.bool("matchCase") ?? false)
                _ = try words(use, at: object.member("use"))
                guard seen.insert(parsed).inserted else { continue }
                merged.forbidden.append(parsed)
                try bound(merged.forbidden.count, rules.member("forbidden"), "forbidden words")
            }
        }
        if let names = try rules.strings("properNouns") {
            var seen = Set(merged.properNouns)
            for name in names {
                _ = try words(name, at: rules.member("properNouns"))
                guard seen.insert(name).inserted else { continue }
                merged.properNouns.append(name)
                try bound(merged.properNouns.count, rules.member("properNouns"), "proper nouns")
            }
        }
        if let lowercase = try rules.strings("lowercaseWords") {
            for word in lowercase {
                guard try words(word, at: rules.member("lowercaseWords")).count == 1, word == word.lowercased() else {
                    throw rules.member("lowercaseWords").invalid("\"\(word.prefix(64))\" is not one lower-case word")
                }
                merged.lowercaseWords.insert(word)
                guard merged.lowercaseWords.count <= Limits.maximumLowercaseWords else {
                    throw rules.member("lowercaseWords").invalid("more than \(Limits.maximumLowercaseWords) words")
                }
            }
        }
        if let inflections = try rules.strings("inflections") {
            var seen = Set(merged.inflections)
            for ending in inflections {
                guard (1...Limits.maximumInflectionLength).contains(ending.count), ending.allSatisfy(\.isLetter),
                    ending == ending.lowercased()
                else {
                    throw rules.member("inflections").invalid(
                        "\"\(ending.prefix(16))\" is not an ending of 1 to \(Limits.maximumInflectionLength) "
                            + "lower-case letters")
                }
                guard seen.insert(ending).inserted else { continue }
                merged.inflections.append(ending)
                guard merged.inflections.count <= Limits.maximumInflections else {
                    throw rules.member("inflections").invalid("more than \(Limits.maximumInflections) endings")
                }
            }
        }
    }

    /// The words of a term as the checker will match them; refuses an empty or oversized term, or one with
    /// characters that never make a word (`!`, `{`).
    static func words(_ term: String, at member: DataFields.Value) throws(DataError) -> [String] {
        let runs = [MessagePiece.text(term)].wordRuns
        let words = runs.flatMap { $0.map(\.text) }
        guard !words.isEmpty, runs.count == 1 else { throw member.invalid("\"\(term.prefix(64))\" is not a word") }
        guard words.count <= Limits.maximumWordsPerTerm else {
            throw member.invalid("\"\(term.prefix(64))\" has more than \(Limits.maximumWordsPerTerm) words")
        }
        if let long = words.first(where: { $0.count > Limits.maximumWordLength }) {
            throw member.invalid("\"\(long.prefix(64))…\" is longer than \(Limits.maximumWordLength) characters")
        }
        // The words must be the whole term: nothing but spaces between them.
        guard words.joined(separator: " ") == term.split(whereSeparator: \.isWhitespace).joined(separator: " ") else {
            throw member.invalid("\"\(term.prefix(64))\" holds characters that are not part of words")
        }
        return words
    }

    private static func bound(_ count: Int, _ member: DataFields.Value, _ noun: String) throws(DataError) {
        guard count <= Limits.maximumEntries else {
            throw member.invalid("more than \(Limits.maximumEntries) \(noun) for one language, all files together")
        }
    }

    private static func count(_ member: DataFields.Value, in range: ClosedRange<Int>) throws(DataError) -> Int? {
        guard let number = try member.number(or: "must be a whole number") else { return nil }
        guard let value = number.intValue, range.contains(value) else {
            throw member.invalid("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func refuseUnknown(_ object: DataFields, _ known: [String]) throws(DataError) {
        for (name, member) in object.members where !known.contains(name) {
            throw member.invalid("unknown member; use \(known.joined(separator: ", "))")
        }
    }
}
