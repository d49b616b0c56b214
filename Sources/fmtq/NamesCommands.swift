import FmtClient
import FmtCommandLine
import FmtCore

/// `{"op":…,"locale":…,"names":[…]}` from `NAME... [--locale TAG]`, shared by `sort` and `sortkey`.
private func namesRequest(
    op: String, command: String, _ options: QueryOptions, _ names: [String]
) throws(UsageError)
    -> JSONObject
{
    guard !names.isEmpty else { throw UsageError("fmtq \(command) needs at least one name") }
    var request: JSONObject = ["op": .string(op)]
    if let locale = options.locale { request.append("locale", .string(locale)) }
    request.append("names", JSONValue(names))
    return request
}

/// `fmtq sort`: names in the collation order of a locale.
struct SortCommand: Subcommand {
    static let name = "sort"
    static let summary = "Sort names for a locale: fmtq sort --locale sv Åsa Zoe Ölaf"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq sort", summary: summary, usage: ["fmtq sort NAME... [--locale TAG]"],
            description: """
                Sorts names with the ICU collator of the locale itself (not the interface language it resolves
                to), so a Swedish viewer gets Å after Z. Names are compared and printed exactly as given.
                """,
            arguments: [CommandArgument("NAME", help: "one or more names (quote names with spaces: \"de Vries\")")],
            options: [
                .locale(
                    "the viewer's language tag, with collation keywords if any: sv-SE, nl, de-u-co-phonebk "
                        + "(German phonebook order)")
            ],
            epilogue: """
                Examples:
                  fmtq sort --locale sv Åsa Zoe Ölaf                      Zoe, Åsa, Ölaf (one per line)
                  fmtq sort --locale de-u-co-phonebk Müller Muff Mueller  Mueller, Müller, Muff
                  fmtq sort --locale nl "van Dijk" "de Vries" --json      the raw response line
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try namesRequest(op: "sort", command: name, options, positionals)
    }

    static func render(_ response: JSONObject) -> String {
        answer(response, as: SortedNames.self).sorted.joined(separator: "\n")
    }
}

/// `fmtq sortkey`: hex ICU sort keys to store in a database sort column.
struct SortKeyCommand: Subcommand {
    static let name = "sortkey"
    static let summary = "Print ICU sort keys of names: fmtq sortkey --locale nl \"de Vries\""
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq sortkey", summary: summary, usage: ["fmtq sortkey NAME... [--locale TAG]"],
            description: """
                Prints the hex ICU sort key of each name, one per line in the order given, then the collation
                version. Ordering stored keys by plain byte (or string) comparison gives the collator's order; keys
                are valid for one collation version only, so rebuild stored keys when `fmtq info` shows a new one.
                """,
            arguments: [CommandArgument("NAME", help: "one or more names")],
            options: [.locale("the language tag whose collation the keys follow")],
            epilogue: """
                Examples:
                  fmtq sortkey --locale nl "de Vries"
                  fmtq sortkey --locale sv Åsa Zoe --json
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try namesRequest(op: "sortKey", command: name, options, positionals)
    }

    static func render(_ response: JSONObject) -> String {
        let keys = answer(response, as: SortKeys.self)
        return ((keys.keys ?? keys.key.map { [$0] } ?? []) + ["collation version \(keys.collationVersion)"])
            .joined(separator: "\n")
    }
}

/// `fmtq search`: the names a query finds, with what it matched marked.
struct SearchCommand: Subcommand {
    static let name = "search"
    static let summary = "Find names by what people type: fmtq search --locale de mul Müller Иванов"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq search", summary: summary, usage: ["fmtq search QUERY NAME... [--locale TAG]"],
            description: """
                Prints the names the query finds, in the order given, with the part each query word matched in
                [brackets]. A name is found when every word of the query begins a different word of the name:
                compared as the locale's collation compares letters, ignoring case and accents (mul finds Müller,
                strass finds Straße; in Swedish o does not find Örjan), or, for a word in another script than the
                query word, by its search form (ivan finds Иванов, and the whole word is marked). Exits 1 when no
                name is found, as grep does.
                """,
            arguments: [
                CommandArgument("QUERY", help: "what the user typed (quote several words: \"van di\")"),
                CommandArgument("NAME", help: "one or more names to search"),
            ],
            options: [.locale("the viewer's language tag, whose collation decides which letters are the same")],
            epilogue: """
                Examples:
                  fmtq search --locale de mul Müller Mueller Иванов    [Mül]ler
                  fmtq search ivan "Сергей Иванов" "Ivana Horvat"       Сергей [Иванов], [Ivan]a Horvat
                  fmtq search --locale sv o Örjan Olle                  [O]lle
                  fmtq search van "Anna van Dijk" Savannah --json       the raw response line
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        guard let query = positionals.first else { throw UsageError("fmtq search needs a query and names") }
        guard positionals.count > 1 else { throw UsageError("fmtq search needs at least one name after the query") }
        var request: JSONObject = ["op": "nameSearch"]
        if let locale = options.locale { request.append("locale", .string(locale)) }
        request.append("query", .string(query))
        request.append("names", JSONValue(Array(positionals.dropFirst())))
        return request
    }

    static func render(_ response: JSONObject) -> String {
        JSONWriter.string(response["matches"] ?? .array([]))
    }

    /// Each name found, on its own line, with its ranges (UTF-16 offsets) in brackets.
    static func render(_ response: JSONObject, request: JSONObject) -> String {
        let names = (request["names"]?.arrayValue ?? []).compactMap(\.stringValue)
        return answer(response, as: NameMatches.self).matches.filter { names.indices.contains($0.index) }.map {
            marked(names[$0.index], $0.ranges.map { (start: $0.start, end: $0.start + $0.length) })
        }.joined(separator: "\n")
    }

    /// `name` with `[` and `]` around each range of UTF-16 offsets.
    static func marked(_ name: String, _ ranges: [(start: Int, end: Int)]) -> String {
        var units: [UInt16] = []
        let utf16 = Array(name.utf16)
        for (offset, unit) in utf16.enumerated() {
            if ranges.contains(where: { $0.start == offset }) { units.append(0x5B) }
            units.append(unit)
            if ranges.contains(where: { $0.end == offset + 1 }) { units.append(0x5D) }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// 1 when no name was found.
    static func exitStatus(_ response: JSONObject) -> Int32 {
        answer(response, as: NameMatches.self).matches.isEmpty ? 1 : 0
    }
}

/// `fmtq search-form`: the form a database indexes for prefix search.
struct SearchFormCommand: Subcommand {
    static let name = "search-form"
    static let summary = "Print the search form of names to index: fmtq search-form Müller Иванов"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq search-form", summary: summary, usage: ["fmtq search-form NAME... [--locale TAG]"],
            description: """
                Prints each name's search form, one per line in the order given: written in Latin letters (ICU's
                transform Any-Latin; Latin-ASCII; [:Lm:] Remove; Lower), without accents or capitals, its words
                separated by single spaces. Store it beside the name and search it with a prefix (WHERE form LIKE
                'mul%'). The form is fixed for one ICU version, which `fmtq info` shows with the transform:
                rebuild stored forms when either changes.
                """,
            arguments: [CommandArgument("NAME", help: "one or more names, in any script")],
            options: [.locale("accepted as for sort; the form is the same in every language")],
            epilogue: """
                Examples:
                  fmtq search-form Müller Иванов "Ελένη Παππά" 山田太郎   muller, ivanov, elene pappa, shan tian tai lang
                  fmtq search-form "O’Brien-Smith" --json                 the raw response line
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try namesRequest(op: "searchForm", command: name, options, positionals)
    }

    static func render(_ response: JSONObject) -> String {
        answer(response, as: SearchForms.self).forms.joined(separator: "\n")
    }
}

/// `fmtq language`: how fmtd resolves a language tag, or the supported languages.
struct LanguageCommand: Subcommand {
    static let name = "language"
    static let summary = "Show how a tag resolves: fmtq language nl-BE (no tag: list languages)"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq language", summary: summary, usage: ["fmtq language [TAG]"],
            description: """
                Shows the interface language fmtd uses for a viewer's tag: the exact language, its base language
                (nl for nl-BE), or English by default, with the region kept for regional conventions. Without a
                tag, lists the supported languages with their names in each of them.
                """,
            arguments: [
                CommandArgument(
                    "TAG",
                    help: "a BCP 47 language tag (nl-BE), a comma-separated list or an Accept-Language value "
                        + "(\"fr-CH, fr;q=0.9, de;q=0.7\")")
            ],
            options: [],
            epilogue: """
                Examples:
                  fmtq language nl-BE        nl (base match), locale nl-BE
                  fmtq language "fr-CH, fr;q=0.9, de;q=0.7"
                                             de (exact match, entry 2), locale de-CH
                  fmtq language              en English, nl Nederlands, de Deutsch with their names
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try refuseExtra(positionals, after: 1)
        var request: JSONObject = ["op": "language"]
        if let tag = positionals.first { request.append("tag", .string(tag)) }
        return request
    }

    static func render(_ response: JSONObject) -> String {
        let resolution = answer(response, as: LanguageResolution.self)
        guard let languages = resolution.languages else {
            // Entries are numbered from 1 for people; the first entry of a list, or a single tag, needs no number.
            let entry = (resolution.index ?? nil).flatMap { $0 > 0 ? " (entry \($0 + 1))" : nil } ?? ""
            let how: String
            switch resolution.match ?? "" {
            case "exact": how = "an exact match\(entry)"
            case "base": how = "its base language\(entry)"
            case "default": how = "no supported language matched, so the default"
            case let other: how = "\(other) match\(entry)"
            }
            return "\(resolution.language ?? ""): \(how); regional conventions of \(resolution.locale ?? "")\n"
                + "supported: \(resolution.supported.joined(separator: ", "))"
        }
        return languages.map { language in
            let names = language.names.map { "\($0.language): \($0.name)" }.joined(separator: ", ")
            return "\(language.language)  \(language.name)  (\(names))"
        }.joined(separator: "\n")
    }
}

/// `fmtq plural`: the CLDR plural category of a count.
struct PluralCommand: Subcommand {
    static let name = "plural"
    static let summary = "Show the plural category of a count: fmtq plural 5 --locale pl"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq plural", summary: summary, usage: ["fmtq plural COUNT [--locale TAG]"],
            description: """
                Prints the CLDR plural category (zero, one, two, few, many, other) of a count in the language of
                the tag itself. A count written with a decimal point keeps its visible fraction digits, which
                matter: 1 is "one" in English, 1.0 is "other".
                """,
            arguments: [CommandArgument("COUNT", help: "an integer or a decimal such as 1.0 or -2.50")],
            options: [.locale("the language whose rules apply")],
            epilogue: """
                Examples:
                  fmtq plural 5 --locale pl       many
                  fmtq plural 1.0 --locale en     other
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        guard let count = positionals.first else { throw UsageError("fmtq plural needs a count") }
        try refuseExtra(positionals, after: 1)
        var request: JSONObject = ["op": "plural"]
        if let locale = options.locale { request.append("locale", .string(locale)) }
        // An integer goes as a JSON number; anything else as a string, so "1.0" keeps its fraction digit.
        request.append("count", Int(count).map { JSONValue($0) } ?? .string(count))
        return request
    }

    static func render(_ response: JSONObject) -> String {
        answer(response, as: PluralCategory.self).category
    }
}

/// `fmtq message`: a catalogue message rendered for a viewer.
struct MessageCommand: Subcommand {
    static let name = "message"
    static let summary =
        "Render a catalogue message: fmtq message contacts.details_updated --locale nl count=2 name=Anna"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq message", summary: summary, usage: ["fmtq message KEY [NAME=VALUE...] [--locale TAG]"],
            description: """
                Renders a message from fmtd's catalogues (data/messages and /etc/fmtd/messages.d) in the viewer's
                language, with its plural and select forms, falling back to English when that language lacks it.
                """,
            arguments: [
                CommandArgument("KEY", help: "the message key, screen.element.variant (contacts.details_updated)"),
                CommandArgument(
                    "NAME=VALUE", help: "an argument; a value written as a number (2, 1.5) is sent as a number"),
            ],
            options: [.locale("the viewer's language tag")],
            epilogue: """
                Examples:
                  fmtq message contacts.details_updated --locale nl count=2 name=Anna
                      Anna heeft 2 gegevens bijgewerkt
                  fmtq message sync.status.failed --locale de service=google
                      Synchronisierung mit Google fehlgeschlagen
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        guard let key = positionals.first else { throw UsageError("fmtq message needs a message key") }
        var args = JSONObject()
        for argument in positionals.dropFirst() {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
                throw UsageError("arguments are NAME=VALUE, got \"\(argument)\"")
            }
            let value = String(argument[argument.index(after: equals)...])
            args.append(
                String(argument[..<equals]), isNumber(value) ? .number(JSONNumber(literal: value)) : .string(value))
        }
        var request: JSONObject = ["op": "message", "key": .string(key)]
        if let locale = options.locale { request.append("locale", .string(locale)) }
        request.append("args", .object(args))
        return request
    }

    static func render(_ response: JSONObject) -> String {
        answer(response, as: RenderedMessage.self).text
    }

    /// `-?(0|[1-9][0-9]*)(.[0-9]+)?`: a JSON number literal without exponent (so 007 stays text).
    private static func isNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard let integer = parts.first, !integer.isEmpty, integer.allSatisfy({ (0x30...0x39).contains($0) }),
            integer.count == 1 || integer.first != UInt8(ascii: "0")
        else { return false }
        return parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy { (0x30...0x39).contains($0) })
    }
}
