import CopyRules
import FmtCore

/// Names and language services: locale-aware sorting and sort keys (ICU collation of the requested
/// locale), the core's language resolution, CLDR plural categories, and the product's message catalogues.
public struct NamesPlugin: FormatterPlugin, CopyRuleChecked {
    public static let name = "names"
    /// The ops, in the order `info` lists them.
    public enum Op: String, PluginOp {
        case sort, sortKey, searchForm, nameSearch, language, plural, message
    }

    /// The most names one `sort`, `sortKey`, `searchForm` or `nameSearch` request may carry.
    public static let maximumNames = 10_000
    /// The most UTF-8 bytes of one name in `searchForm` and `nameSearch`.
    public static let maximumNameBytes = 1_024
    /// The most words (runs of letters, marks and numbers) of one name in `nameSearch`.
    public static let maximumNameWords = 32
    /// The most UTF-8 bytes of a `nameSearch` query.
    public static let maximumQueryBytes = 256
    /// The most words of a `nameSearch` query.
    public static let maximumQueryWords = 8
    /// The ICU transform id `searchForm` applies (reported by `info` as `searchTransform`).
    public static var searchTransformID: String { SearchTransform.id }

    /// The longest `locale` text the tables by text remember, in bytes: longer than any tag or `Accept-Language`
    /// value a client sends in practice (a longer one is resolved each time).
    static let longestLocaleText = 128

    private let resolver: LocaleResolver
    private let collators = TagCache<Collator> { Collator(tag: $0) }
    /// The search forms' transform, opened once and cloned per thread.
    let searchTransform: SearchTransform
    /// Collators by the request's `locale` text (its bytes; nil when absent), so a request neither resolves the tag
    /// nor spells it again to find its collator. Bounded as `collators` is, since the text is the client's: at most
    /// twice that many collators stay open.
    private let collatorsByText = LookupCache<UTF8Keys, Collator, StopRemembering>(
        limit: 256, longestKey: longestLocaleText)
    private let pluralRules = TagCache<PluralRules> { PluralRules(tag: $0) }
    /// Plural rules by the request's `locale` text, as `collatorsByText` holds collators.
    private let pluralRulesByText = LookupCache<UTF8Keys, PluralRules, StopRemembering>(
        limit: 256, longestKey: longestLocaleText)
    /// The number formatters decimal `plural` counts are read with, one per count of fraction digits, shared by
    /// every language's rules and every thread.
    private let decimalFormatters = DecimalFormatters()
    /// How many number formatters decimal `plural` counts have opened so far (at most one per count of fraction
    /// digits).
    var decimalFormattersOpened: Int { decimalFormatters.opened }
    /// The language a `locale` text resolves to, for `message`.
    private let languagesByText = LookupCache<UTF8Keys, MessageLanguage, StopRemembering>(
        limit: 256, longestKey: longestLocaleText)
    private let catalogue: MessageCatalogue
    /// The longest key in bytes: a longer `key` names no message, and is refused before it is hashed.
    private let longestKey: Int
    /// The catalogues' languages that ICU writes right to left (`uloc_isRightToLeft`), for `message`'s `dir`:
    /// none of the shipped three; an `ar` or `he` catalogue would be.
    private let rightToLeft: Set<String>
    /// The `languages` member of `language` without a tag, written once at load.
    private let languages: JSONValue
    private let info: JSONObject
    /// What the copy rules found in the loaded catalogues: warnings, logged and counted, never a load failure.
    public let copyFindings: [CopyFinding]

    public init(loading data: DataStore, environment: PluginEnvironment) throws {
        resolver = environment.resolver
        guard let transform = SearchTransform.shared else {
            throw DataError(
                file: "ICU", field: "searchTransform", "ICU cannot open the transform \(SearchTransform.id)")
        }
        searchTransform = transform
        var messages: [CatalogueMessage] = []
        catalogue = try MessageCatalogue(loading: data, messages: &messages)
        copyFindings = CopyChecker.check(messages, rules: try Self.copyRules(data))
        longestKey = catalogue.entries.keys.map(\.utf8.count).max() ?? 0
        var catalogueLanguages = Set<String>()
        for entry in catalogue.entries.values { catalogueLanguages.formUnion(entry.languages.keys) }
        rightToLeft = catalogueLanguages.filter(languageIsRightToLeft)
        let supported = resolver.supported
        languages = .array(
            supported.map { language in
                var names = JSONObject()
                for viewer in supported {
                    names.append(viewer, JSONValue(ICUInfo.languageName(language, locale: viewer)))
                }
                return [
                    "language": .string(language),
                    "name": JSONValue(ICUInfo.languageName(language, locale: language)),
                    "names": .object(names),
                ]
            })
        info = [
            "source": .string(data.sourceDescription),
            "version": .string(ICUInfo.version),
            "checksum": .string(catalogue.checksum),
            "collationVersion": .string(ICUInfo.collationVersion),
            "unicodeVersion": .string(ICUInfo.unicodeVersion),
            "searchTransform": .string(SearchTransform.id),
            "messages": JSONValue(catalogue.entries.count),
            "catalogues": JSONValue(catalogue.files),
        ]
    }

    public var dataInfo: JSONObject { info }

    /// The shipped `copy-rules.json` (none in a data set without it, such as a test's) and `copy-rules.d/`.
    static func copyRules(_ data: DataStore) throws(DataError) -> CopyRuleSet {
        let path = "copy-rules.json"
        return try CopyRuleSet(
            shipped: try data.readIfPresent(path).map { (path, $0) }, local: try data.localFiles("copy-rules.d"))
    }

    public func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws {
        let fields = request.fields
        switch op {
        case .sort: try sort(fields, into: &response)
        case .sortKey: try sortKey(fields, into: &response)
        case .searchForm: try searchForm(fields, into: &response)
        case .nameSearch: try nameSearch(fields, into: &response)
        case .language: try language(fields, into: &response)
        case .plural: try plural(fields, into: &response)
        case .message: try message(fields, into: &response)
        }
    }

    // MARK: - sort, sortKey

    /// Sorts with the requested locale's own collator; equal names (NFC and NFD spellings) keep input order. The
    /// names are compared and written back where they lie in the request's line, and only their indices move.
    private func sort(_ request: RequestFields, into response: inout ResponseWriter) throws {
        try withCollator(for: request) { collator in
            // The collator is kept by its table (or by `withCollator`) while this runs.
            let comparer = collator.comparer
            let sorted: Void? = try request.withUTF8Strings("names") { (names) throws(CoreError) -> Void in
                try Self.checkCount(names.count)
                Self.sort(names, by: comparer, into: &response)
            }
            guard sorted != nil else {
                throw CoreError.invalidField("names", message: "The field \"names\" is required.")
            }
        }
    }

    /// Sorts `names` by `collator` (ties by index) and appends `"sorted"` and `"order"`.
    private static func sort(
        _ names: UTF8Strings, by collator: Collator.Comparer, into response: inout ResponseWriter
    ) {
        let count = names.count
        // Each name's bytes found once, so a comparison reads two of them straight from here; the escape check and
        // the answer's length are taken on the way.
        withUnsafeTemporaryAllocation(of: Collator.Text.self, capacity: max(1, count)) { texts in
            var escapes: UInt64 = 0
            var bytes = 0
            for index in 0..<count {
                let name = names.unsafeUTF8(at: index)
                texts.initializeElement(at: index, to: Collator.Text(name))
                escapes |= ByteScan.escapeFlags(of: name)
                bytes &+= name.count
            }
            let texts = UnsafePointer(texts.baseAddress!)
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, 2 * count)) { storage in
                let order = UnsafeMutableBufferPointer(rebasing: storage[0..<count])
                for index in 0..<count { order[index] = Int32(truncatingIfNeeded: index) }
                let scratch = UnsafeMutableBufferPointer(rebasing: storage[count...])
                IndexSort.sort(order, scratch: scratch) { a, b in
                    let result = collator.compare(texts[Int(a)], texts[Int(b)])
                    return result != 0 ? result < 0 : a < b
                }
                appendSorted(
                    UnsafeBufferPointer(start: texts, count: count), in: UnsafeBufferPointer(order), bytes: bytes,
                    escaped: escapes != 0, to: &response)
            }
        }
    }

    /// `"sorted":[…],"order":[…]`: the names in `order`, as the request spelled them, and the indices, put together
    /// in one checked buffer and appended at once (`ResponseWriter.writeMembers`). When a name needs escaping (only
    /// one with `escaped` can), the names go through the writer's array instead, escaped as any string.
    /// `bytes` is the names' total length.
    @inline(__always)
    private static func appendSorted(
        _ names: UnsafeBufferPointer<Collator.Text>, in order: UnsafeBufferPointer<Int32>, bytes nameBytes: Int,
        escaped: Bool, to response: inout ResponseWriter
    ) {
        if escaped {
            response.array("sorted") { sorted in
                for position in 0..<order.count { sorted.element(utf8: names[Int(order[position])].bytes) }
            }
        }
        // Quotes and a comma per name, up to ten digits and a comma per index.
        let capacity = 32 + (escaped ? 0 : nameBytes + 3 * order.count) + 11 * order.count
        response.writeMembers(reserving: capacity) { out, afterMembers in
            // After the escaped names' array, `afterMembers` is true.
            if afterMembers { out.write(",") }
            if !escaped {
                out.write(#""sorted":["#)
                // Each element is followed by a comma; the last one's becomes the closing bracket.
                for position in 0..<order.count {
                    out.write(UInt8(ascii: "\""))
                    out.write(names[Int(order[position])].bytes)
                    out.write(UInt8(ascii: "\""))
                    out.write(UInt8(ascii: ","))
                }
                if order.isEmpty { out.write(UInt8(ascii: "]")) } else { out.replaceLast(with: UInt8(ascii: "]")) }
                out.write(UInt8(ascii: ","))
            }
            out.write(#""order":["#)
            // Below ten names every index is one digit.
            let oneDigit = order.count <= 10
            for position in 0..<order.count {
                if oneDigit {
                    out.write(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: order[position]))
                } else {
                    DecimalDigits.write(UInt32(order[position]), to: &out)
                }
                out.write(UInt8(ascii: ","))
            }
            if order.isEmpty { out.write(UInt8(ascii: "]")) } else { out.replaceLast(with: UInt8(ascii: "]")) }
        }
    }

    /// Hex sort keys: byte (or hex string) comparison orders them as the collator orders the names.
    private func sortKey(_ request: RequestFields, into response: inout ResponseWriter) throws {
        try withCollator(for: request) { collator in
            // `name` is checked first (its type), `names` next, and only then is a key made.
            let single = try request.withUTF8("name") { _ in true } ?? false
            let many = try names(request)
            switch (single, many) {
            case (true, nil):
                _ = try request.withUTF8("name") { name in
                    name.withUnsafeBufferPointer { name in
                        collator.withSortKey(name) { key in Self.withHex(key) { response.member("key", utf8: $0) } }
                    }
                }
                response.member("collationVersion", collator.version)
            case (false, let names?):
                response.array("keys") { keys in
                    for var name in names {
                        name.withUTF8 { name in
                            collator.withSortKey(name) { key in Self.withHex(key) { keys.element(utf8: $0) } }
                        }
                    }
                }
                response.member("collationVersion", collator.version)
            case (false, nil):
                throw CoreError.invalidField(
                    "name", message: "Send \"name\" (one string) or \"names\" (an array of strings).")
            case (true, _?):
                throw CoreError.invalidField("names", message: "Send either \"name\" or \"names\", not both.")
            }
        }
    }

    // MARK: - searchForm, nameSearch

    /// Each name's search form, parallel to `names`. The locale is read and checked as `sort` reads it, though the
    /// form depends on no language (so an index serves every viewer).
    private func searchForm(_ request: RequestFields, into response: inout ResponseWriter) throws {
        try withCollator(for: request) { _ in
            var scratch = UTF16Scratch()
            let done: Void? = try request.withUTF8Strings("names") { (names) throws(CoreError) -> Void in
                try Self.checkCount(names.count)
                for index in 0..<names.count { try Self.checkName(names.unsafeUTF8(at: index), at: index) }
                var budget = TransformBudget()
                var forms: [String] = []
                forms.reserveCapacity(names.count)
                for index in 0..<names.count {
                    scratch.load(names.unsafeUTF8(at: index))
                    let form = try scratch.units.withUnsafeBufferPointer { (text) throws(CoreError) in
                        try searchTransform.nameForm(text, budget: &budget)
                    }
                    forms.append(String(decoding: form, as: UTF16.self))
                }
                response.member("forms", forms)
            }
            guard done != nil else {
                throw CoreError.invalidField("names", message: "The field \"names\" is required.")
            }
        }
    }

    /// The names that `query` finds, in input order, with the ranges (UTF-16 offset and length) each query word
    /// matched.
    private func nameSearch(_ request: RequestFields, into response: inout ResponseWriter) throws {
        try withCollator(for: request) { collator in try nameSearch(request, collator: collator, into: &response) }
    }

    private func nameSearch(
        _ request: RequestFields, collator: Collator, into response: inout ResponseWriter
    ) throws {
        guard let query = try request.withUTF8("query", { $0.withUnsafeBufferPointer { Array($0) } }) else {
            throw CoreError.invalidField("query", message: "The field \"query\" is required.")
        }
        guard query.count <= Self.maximumQueryBytes else {
            throw CoreError.invalidField(
                "query",
                message: "The query has \(query.count) bytes; at most \(Self.maximumQueryBytes) bytes.")
        }
        var scratch = UTF16Scratch()
        query.withUnsafeBufferPointer { scratch.load($0) }
        let queryText = scratch.units
        let (words, wordCount) = queryText.withUnsafeBufferPointer {
            NameSearch.words($0, limit: Self.maximumQueryWords)
        }
        guard wordCount <= Self.maximumQueryWords else {
            throw CoreError.invalidField(
                "query", message: "The query has \(wordCount) words; at most \(Self.maximumQueryWords) words.")
        }
        // A query of at most 256 bytes costs at most about 1,400 of the budget's units.
        var budget = TransformBudget()
        var queryWords: [NameSearch.QueryWord] = []
        for word in words {
            let weights = queryText.withUnsafeBufferPointer { text in
                NameSearch.primaries(UnsafeBufferPointer(rebasing: text[word.start..<word.end]), collator: collator)
                    .weights
            }
            let slice = Array(queryText[word.start..<word.end])
            let form = try slice.withUnsafeBufferPointer { (slice) throws(CoreError) -> [UInt16] in
                try searchTransform.wordForm(slice, budget: &budget).filter { $0 != 0x20 }
            }
            queryWords.append(NameSearch.QueryWord(word: word, weights: weights, form: form))
        }
        let done: Void? = try request.withUTF8Strings("names") { (names) throws(CoreError) -> Void in
            try Self.checkCount(names.count)
            for index in 0..<names.count { try Self.checkName(names.unsafeUTF8(at: index), at: index) }
            // Checked before any answer is written, so a name with too many words refuses the whole request.
            var found: [(index: Int, ranges: [(start: Int, length: Int)])] = []
            for index in 0..<names.count {
                scratch.load(names.unsafeUTF8(at: index))
                let ranges = try scratch.units.withUnsafeBufferPointer { (text) throws(CoreError) in
                    try Self.match(
                        queryWords, in: text, index: index, collator: collator, transform: searchTransform,
                        budget: &budget)
                }
                if let ranges { found.append((index, ranges)) }
            }
            response.array("matches") { matches in
                for match in found {
                    matches.objectElement { object in
                        object.member("index", match.index)
                        object.member(
                            "ranges",
                            .array(match.ranges.map { .array([JSONValue($0.start), JSONValue($0.length)]) }))
                    }
                }
            }
        }
        guard done != nil else {
            throw CoreError.invalidField("names", message: "The field \"names\" is required.")
        }
    }

    /// The ranges `query` matched in the name `text` (the `index`th), ordered by where they start, or nil when it
    /// does not match; an empty query matches no name.
    static func match(
        _ query: [NameSearch.QueryWord], in text: UnsafeBufferPointer<UInt16>, index: Int, collator: Collator,
        transform: SearchTransform, budget: inout TransformBudget
    ) throws(CoreError) -> [(start: Int, length: Int)]? {
        guard !query.isEmpty else { return nil }
        let (words, wordCount) = NameSearch.words(text, limit: maximumNameWords)
        guard wordCount <= maximumNameWords else {
            throw CoreError.invalidField(
                "names",
                message: "The name at index \(index) has \(wordCount) words; at most \(maximumNameWords) words.")
        }
        guard query.count <= words.count else { return nil }
        var weights: [(weights: [UInt32], ends: [Int32])?] = Array(repeating: nil, count: words.count)
        var forms: [[UInt16]?] = Array(repeating: nil, count: words.count)
        var lengths = [[Int?]](repeating: Array(repeating: nil, count: words.count), count: query.count)
        for (wordIndex, word) in words.enumerated() {
            let slice = UnsafeBufferPointer(rebasing: text[word.start..<word.end])
            for (queryIndex, queryWord) in query.enumerated() {
                lengths[queryIndex][wordIndex] = try NameSearch.prefixLength(
                    queryWord, of: word,
                    weights: {
                        if let known = weights[wordIndex] { return known }
                        let made = NameSearch.primaries(slice, collator: collator)
                        weights[wordIndex] = made
                        return made
                    },
                    form: { () throws(CoreError) in
                        if let known = forms[wordIndex] { return known }
                        let made = try transform.wordForm(slice, budget: &budget).filter { $0 != 0x20 }
                        forms[wordIndex] = made
                        return made
                    })
            }
        }
        guard let assigned = NameSearch.assign(lengths.map { $0.map { $0 != nil } }, words: words.count) else {
            return nil
        }
        return assigned.enumerated()
            .map { queryIndex, wordIndex in (words[wordIndex].start, lengths[queryIndex][wordIndex]!) }
            .sorted { $0.start < $1.start }
    }

    /// Refuses a name longer than `maximumNameBytes`.
    private static func checkName(_ name: UnsafeBufferPointer<UInt8>, at index: Int) throws(CoreError) {
        guard name.count <= maximumNameBytes else {
            throw CoreError.invalidField(
                "names",
                message: "The name at index \(index) has \(name.count) bytes; at most \(maximumNameBytes) bytes.")
        }
    }

    /// Calls `body` with the collator of the request's `locale`, found by the text's bytes where it lies in the line.
    private func withCollator<Result>(
        for request: RequestFields, _ body: (Collator) throws -> Result
    ) throws -> Result {
        try Self.withValue(in: collatorsByText, for: request, body) {
            let tag = try request.locale(resolver).requested.description
            guard let collator = collators.value(for: tag) else {
                throw CoreError.invalidField("locale", message: "ICU has no collator for \"\(tag)\".")
            }
            return collator
        }
    }

    /// Calls `body` with the value `table` remembers for the request's `locale` text (lent without a retain: the
    /// table keeps it), or with what `open` gives for it (remembered); a `locale` of another type (a priority list)
    /// is opened every time. `open` resolves the locale and is shared by every text that resolves to the same tag.
    private static func withValue<Value: AnyObject & Sendable, Result>(
        in table: LookupCache<UTF8Keys, Value, StopRemembering>, for request: RequestFields,
        _ body: (Value) throws -> Result,
        open: () throws -> Value
    ) throws -> Result {
        // An error of `body` is told apart from a `locale` of another type, which `withUTF8` throws.
        var failure: (any Error)?
        let answered: Result??
        do {
            answered = try request.withUTF8("locale") { text in
                text.withUnsafeBufferPointer { key in
                    do { return try table.withValue(for: key, body) } catch {
                        failure = error
                        return nil
                    }
                }
            }
        } catch {
            return try body(open())
        }
        if let failure { throw failure }
        switch answered {
        case .some(.some(let result)): return result
        case .some(.none): break
        case .none: if let result = try table.withValue(for: nil, body) { return result }
        }
        let value = try open()
        let remembered =
            try request.withUTF8("locale") { $0.withUnsafeBufferPointer { table.remember(value, for: $0) } }
            ?? table.remember(value, for: nil)
        return try body(remembered)
    }

    /// The `names` field within the limit, or nil when absent.
    private func names(_ request: RequestFields) throws -> [String]? {
        guard let names = try request.strings("names") else { return nil }
        try Self.checkCount(names.count)
        return names
    }

    /// Refuses more than `maximumNames` names.
    private static func checkCount(_ count: Int) throws(CoreError) {
        guard count <= maximumNames else {
            throw CoreError.invalidField(
                "names", message: "At most \(maximumNames) names per request, got \(count); split the list.")
        }
    }

    /// Calls `body` with `bytes` in lower-case hex, spelled on the stack.
    private static func withHex<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, 2 * bytes.count)) { text in
            let digits: StaticString = "0123456789abcdef"
            let digit = digits.utf8Start
            var out = ByteCursor(text)
            for byte in bytes {
                out.write(digit[Int(byte &>> 4)])
                out.write(digit[Int(byte & 0x0F)])
            }
            return body(UnsafeBufferPointer(rebasing: text[0..<out.written]))
        }
    }

    // MARK: - language

    /// The core's resolution of a tag or priority list (with `index`, the entry that won), or the supported
    /// languages with their names in each of them.
    private func language(_ request: RequestFields, into response: inout ResponseWriter) throws {
        guard request["tag"] != nil else {
            response.member("supported", resolver.supported)
            response.member("languages", languages)
            return
        }
        let resolved = try request.locale(resolver, field: "tag")
        response.member("language", resolved.language)
        response.member("match", resolved.match.rawValue)
        if resolved.isList { response.member("index", resolved.index.map { JSONValue($0) } ?? .null) }
        response.member("locale", resolved.tag)
        response.member("supported", resolver.supported)
    }

    // MARK: - plural

    /// The CLDR plural category of `count` in the requested language's own rules.
    private func plural(_ request: RequestFields, into response: inout ResponseWriter) throws {
        let rules = try Self.withValue(in: pluralRulesByText, for: request, { $0 }) {
            let tag = try request.locale(resolver).requested.description
            guard let rules = pluralRules.value(for: tag) else {
                throw CoreError.invalidField("locale", message: "ICU has no plural rules for \"\(tag)\".")
            }
            return rules
        }
        let category: String?
        switch request["count"] {
        case .number(let number)?:
            guard let value = number.doubleValue else {
                throw CoreError.invalidField("count", message: "The count \(number.text.prefix(32)) is out of range.")
            }
            category = rules.category(of: value)
        case .string(let text)?:
            guard let found = rules.category(ofDecimal: text, formatters: decimalFormatters) else {
                throw CoreError.invalidField("count", message: DecimalText.pluralRefusal(text))
            }
            category = found
        case nil:
            throw CoreError.invalidField("count", message: "The field \"count\" is required.")
        case let other?:
            throw request.wrongType("count", expected: "a number or a decimal string", got: other)
        }
        guard let category else { throw CoreError.internal("ICU returned no plural category") }
        response.member("category", category)
    }

    // MARK: - message

    /// Formats a catalogue message in the viewer's language, or in English when that language lacks the key.
    private func message(_ request: RequestFields, into response: inout ResponseWriter) throws {
        let key = try request.required("key")
        let requested = try Self.withValue(in: languagesByText, for: request, \.language) {
            MessageLanguage(try request.locale(resolver).language)
        }
        let arguments = try request.object("args") ?? RequestFields([:], path: "args")
        guard key.utf8.count <= longestKey, let entry = catalogue.entries[key] else { throw NamesError.unknownKey(key) }
        let language: String
        let message: CompiledMessage
        if let found = entry.languages[requested] {
            (language, message) = (requested, found)
        } else if let english = entry.languages["en"] {
            (language, message) = ("en", english)
        } else {
            throw NamesError.unknownKey(key)
        }
        var values: [(name: String, value: String, isNumber: Bool)] = []
        values.reserveCapacity(message.arguments.count)
        for (name, kind) in message.arguments {
            values.append(try Self.argument(name, kind: kind, in: arguments))
        }
        let text = try message.format(values)
        response.member("lang", language)
        response.member("text", text)
        response.member("dir", rightToLeft.contains(language) ? "rtl" : "ltr")
    }

    private static func argument(
        _ name: String, kind: ArgumentKind, in arguments: RequestFields
    ) throws(CoreError) -> (name: String, value: String, isNumber: Bool) {
        var field: String { arguments.path(name) }
        switch (arguments[name], kind) {
        case (nil, _):
            throw .invalidField(field, message: "The message needs the argument \"\(name)\".")
        case (.number(let number)?, .text), (.number(let number)?, .number):
            guard let decimal = number.decimalText else {
                throw .invalidField(field, message: "The argument \"\(name)\" is out of range.")
            }
            return (name, decimal, true)
        case (.string(let text)?, .number):
            guard let decimal = DecimalText(text) else {
                throw .invalidField(
                    field, message: "The argument \"\(name)\" must be a number, got \"\(text.prefix(32))\".")
            }
            guard decimal.count <= DecimalText.characterLimit else {
                throw .invalidField(
                    field,
                    message: "The argument \"\(name)\" has \(decimal.count) characters; a decimal string has at most "
                        + "\(DecimalText.characterLimit) characters.")
            }
            // Zero has no sign in a count: `-0.00` is formatted as `0.00` is.
            return (
                name, decimal.isZero && text.utf8.first == UInt8(ascii: "-") ? String(text.dropFirst()) : text, true
            )
        case (.string(let text)?, .text), (.string(let text)?, .select):
            return (name, text, false)
        case (.number(let number)?, .select):
            return (name, number.text, false)
        case (let other?, _):
            throw arguments.wrongType(name, expected: "a string or a number", got: other)
        }
    }
}

/// The language a request's `locale` resolves to, remembered by its text.
final class MessageLanguage: Sendable {
    let language: String

    init(_ language: String) {
        self.language = language
    }
}

/// The names plugin's own error codes.
public enum NamesError: WireError, Equatable {
    /// No catalogue has the key in any language (fmtd never renders the raw key).
    case unknownKey(String)

    public var code: String {
        switch self {
        case .unknownKey: "unknown_key"
        }
    }

    public var message: String {
        switch self {
        case .unknownKey(let key): "No message catalogue has the key \"\(key.prefix(128))\"."
        }
    }

    public var field: String? {
        switch self {
        case .unknownKey: "key"
        }
    }
}
