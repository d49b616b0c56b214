/// One message of one catalogue file, as loaded: what the checker reads.
public struct CatalogueMessage: Sendable, Equatable {
    /// The catalogue (`fmtd`, or a service's name from `messages.d/`): a key's languages are compared within it.
    public let catalogue: String
    public let file: String
    public let language: String
    public let key: String
    public let pattern: String

    public init(catalogue: String, file: String, language: String, key: String, pattern: String) {
        self.catalogue = catalogue
        self.file = file
        self.language = language
        self.key = key
        self.pattern = pattern
    }
}

/// A copy rule, by its stable name in logs, `stats` and `fmtd --check`.
public enum CopyRule: String, Sendable, CaseIterable, Comparable {
    /// An exclamation mark in the text.
    case exclamation = "exclamation_mark"
    /// A capitalized word inside a sentence where sentence case is the rule.
    case titleCase = "title_case"
    /// A word the language's copy never uses (`u`, formal `Sie`).
    case forbiddenWord = "forbidden_word"
    /// The English text uses a glossary term the translation does not.
    case glossary = "glossary_term"
    /// A key not shaped `screen.element.variant`.
    case keyShape = "key_shape"

    public static func < (lhs: CopyRule, rhs: CopyRule) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A warning about one message: which file, key and language, which rule, and what to change.
public struct CopyFinding: Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let key: String
    public let language: String
    public let rule: CopyRule
    public let message: String

    /// `messages/nl.json: contacts.shared.received (nl): forbidden_word: uses "u"; write "je"`.
    public var description: String {
        "\(file): \(key) (\(language)): \(rule.rawValue): \(message)"
    }
}

/// Checks catalogue messages against copy rules, on the text a user reads. Pure: it takes the loaded messages
/// and rules and returns the findings, in catalogue file and key order.
///
/// The rules of each language are compiled once per check into matchers over whole words: tries of the proper
/// nouns and forbidden phrases, and the glossary's terms matched bit-parallel with their words' forms found by stem.
/// Each word of the catalogue costs a bounded number of steps whatever the rule lists hold (at most six down each
/// trie, and one per machine word of the glossary's bits, 94 at the limits), so checking is linear in the
/// catalogue's size, and the largest rule lists the limits allow cost their compilation once, not once per message.
public enum CopyChecker {
    static func isExclamation(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "!" || scalar == "\u{FF01}" || scalar == "\u{A1}"
    }

    /// The rules of one message alone: exclamation marks, Title Case, forbidden words, the key's shape.
    static func check(
        _ message: CatalogueMessage, _ text: ReadText, matcher: LanguageMatcher, rules: CopyRuleSet,
        work: inout Int
    ) -> [CopyFinding] {
        var findings: [CopyFinding] = []
        func report(_ rule: CopyRule, _ detail: String) {
            findings.append(
                CopyFinding(
                    file: message.file, key: message.key, language: message.language, rule: rule, message: detail))
        }
        if let piece = text.pieces.texts.first(where: { $0.unicodeScalars.contains(where: isExclamation) }) {
            report(.exclamation, "\"\(piece.trimmed(40))\" has an exclamation mark; the copy uses none")
        }
        if let word = matcher.titleCased(in: text.runs, work: &work) {
            report(
                .titleCase,
                "\"\(word)\" is capitalized inside a sentence; write sentence case (or list the name in properNouns)")
        }
        for forbidden in matcher.forbidden(in: text, work: &work) {
            report(.forbiddenWord, "uses \"\(forbidden.text)\"; write \"\(forbidden.use)\"")
        }
        if message.language == "en" {
            let segments = message.key.utf8.count { $0 == UInt8(ascii: ".") } + 1
            if !rules.keySegments.contains(segments) {
                report(
                    .keyShape,
                    "the key has \(segments) segments; keys are screen.element.variant "
                        + "(\(rules.keySegments.lowerBound) to \(rules.keySegments.upperBound) segments)")
            }
        }
        return findings
    }

    /// The findings of `rules` about `messages`: warnings, listed by message in load order, each message's by
    /// rule. A key's languages are compared within its catalogue (the glossary rule).
    public static func check(_ messages: [CatalogueMessage], rules: CopyRuleSet) -> [CopyFinding] {
        var work = 0
        return check(messages, rules: rules, work: &work)
    }

    /// `check(_:rules:)`, adding to `work` each step the matchers take (a word looked up in a trie, a candidate form
    /// confirmed, a machine word of the glossary's bits), so a test can hold the cost to the catalogue's size
    /// whatever the rules hold. The English text of a key is matched once per translation, against that language's
    /// glossary.
    static func check(_ messages: [CatalogueMessage], rules: CopyRuleSet, work: inout Int) -> [CopyFinding] {
        // A glossary's English terms are found with the English rules' inflections.
        let englishInflections = rules.languages["en"]?.inflections ?? []
        let matchers = rules.languages.mapValues { LanguageMatcher($0, englishInflections: englishInflections) }
        // A language the rules do not name gets only the rules of every language (no capitalization rule: its
        // conventions are unknown).
        var unnamed = LanguageCopyRules()
        unnamed.capitalization = .none
        let empty = LanguageMatcher(unnamed, englishInflections: englishInflections)
        // With the index of the message each is about, to list them in load order.
        var findings: [(message: Int, finding: CopyFinding)] = []
        // One key's messages at a time (its languages, within its catalogue), so only one key's words are held.
        var groups: [String: [Int]] = [:]
        var groupOrder: [String] = []
        for (index, message) in messages.enumerated() {
            let name = message.catalogue + "\u{0}" + message.key
            if groups[name] == nil { groupOrder.append(name) }
            groups[name, default: []].append(index)
        }
        for name in groupOrder {
            let members = groups[name] ?? []
            let texts = members.map { ReadText(MessagePiece.parse(messages[$0].pattern)) }
            for (member, index) in members.enumerated() {
                let message = messages[index]
                let matcher = matchers[message.language] ?? empty
                findings += check(message, texts[member], matcher: matcher, rules: rules, work: &work)
                    .map { (index, $0) }
            }
            // Glossary: the English text's terms against each translation.
            guard let source = members.firstIndex(where: { messages[$0].language == "en" }) else { continue }
            for (member, index) in members.enumerated() where messages[index].language != "en" {
                let message = messages[index]
                guard let matcher = matchers[message.language] else { continue }
                let missing = matcher.missingTerms(
                    english: texts[source].lowered, translation: texts[member].lowered, work: &work)
                for entry in missing {
                    let (term, translation) = matcher.glossary[entry]
                    let finding = CopyFinding(
                        file: message.file, key: message.key, language: message.language, rule: .glossary,
                        message: "the English text says \"\(term)\"; the glossary's term here is \"\(translation)\"")
                    findings.append((index, finding))
                }
            }
        }
        return findings.enumerated().sorted {
            $0.element.message != $1.element.message ? $0.element.message < $1.element.message : $0.offset < $1.offset
        }.map(\.element.finding)
    }
}

/// A pattern as the rules read it: its pieces, its word runs, and the runs' words in lower case.
struct ReadText {
    let pieces: [MessagePiece]
    let runs: [[MessageWord]]
    let lowered: [[String]]

    init(_ pieces: [MessagePiece]) {
        self.pieces = pieces
        runs = pieces.wordRuns
        lowered = runs.map { $0.map { $0.text.lowercased() } }
    }
}

/// One language's rules, compiled for matching words: each rule list a trie over whole words or a `TermMatcher`,
/// so a text is matched in one pass of a bounded number of steps per word.
struct LanguageMatcher {
    let rules: LanguageCopyRules
    /// Proper nouns and glossary terms (English and this language's) as spelled: capitals inside them are allowed.
    let allowed: WordTrie
    /// The forbidden words in definition order, the order findings name them in.
    let forbiddenWords: [ForbiddenWord]
    /// The `matchCase` forbidden words by their words as spelled, ending at their index in `forbiddenWords`.
    let forbiddenAsSpelled: WordTrie
    /// The other forbidden words by their words in lower case, ending at their index in `forbiddenWords`.
    let forbiddenInAnyCase: WordTrie
    /// The glossary in definition order: the English term and this language's.
    let glossary: [(term: String, translation: String)]
    /// The glossary's English terms, with the English rules' inflections, ending at their index in `glossary`.
    let englishTerms: TermMatcher
    /// This language's terms of the glossary, with its inflections, ending at their index in `glossary`.
    let translatedTerms: TermMatcher

    init(_ rules: LanguageCopyRules, englishInflections: [String]) {
        self.rules = rules
        // Each term split into words once, for the trie of allowed capitals and for the glossary's matchers.
        let english = rules.glossaryOrder.map { (term: $0, words: Self.words($0)) }
        let entries = english.compactMap { english in
            rules.glossary[english.term].map { (english: english, translation: $0, words: Self.words($0)) }
        }
        allowed = WordTrie(rules.properNouns.map(Self.words) + english.map(\.words) + entries.map(\.words))
        forbiddenWords = rules.forbidden
        forbiddenAsSpelled = WordTrie(rules.forbidden.map { $0.matchCase ? $0.words : [] })
        forbiddenInAnyCase = WordTrie(rules.forbidden.map { $0.matchCase ? [] : $0.words.map { $0.lowercased() } })
        glossary = entries.map { ($0.english.term, $0.translation) }
        englishTerms = TermMatcher(
            entries.map { $0.english.words.map { $0.lowercased() } }, inflections: englishInflections)
        translatedTerms = TermMatcher(entries.map { $0.words.map { $0.lowercased() } }, inflections: rules.inflections)
    }

    static func words(_ term: String) -> [String] {
        [MessagePiece.text(term)].wordRuns.flatMap { $0.map(\.text) }
    }

    /// The first word capitalized inside a sentence that the language's capitalization does not allow; a word
    /// is allowed when a proper noun or glossary term, as spelled, covers it.
    func titleCased(in runs: [[MessageWord]], work: inout Int) -> String? {
        guard rules.capitalization != .none else { return nil }
        for run in runs {
            // The words before `covered` are inside a term that starts at or before the word at hand.
            var covered = 0
            for index in run.indices {
                allowed.walk(from: index, upTo: run.count, work: &work, word: { run[$0].text }) { end, _ in
                    covered = max(covered, end)
                }
                let word = run[index]
                guard !word.opensSentence, covered <= index, Self.isCapitalized(word.text) else { continue }
                switch rules.capitalization {
                case .sentence: return word.text
                case .nouns where rules.lowercaseWords.contains(word.text.lowercased()): return word.text
                default: continue
                }
            }
        }
        return nil
    }

    /// The forbidden words the text uses, each once, in definition order.
    func forbidden(in text: ReadText, work: inout Int) -> [ForbiddenWord] {
        guard !forbiddenWords.isEmpty else { return [] }
        var found = Set<Int>()
        // The nodes whose words were taken already: a phrase repeated throughout the text is collected once.
        var spelledNodes = Set<Int>()
        var anyCaseNodes = Set<Int>()
        for (number, run) in text.runs.enumerated() {
            let lowered = text.lowered[number]
            for start in run.indices {
                // Capitals carry no meaning at the start of a sentence: `Sie` there may be "she".
                if !run[start].opensSentence {
                    forbiddenAsSpelled.walk(from: start, upTo: run.count, work: &work, word: { run[$0].text }) {
                        _, node in
                        if spelledNodes.insert(node).inserted { found.formUnion(forbiddenAsSpelled.ends[node]) }
                    }
                }
                forbiddenInAnyCase.walk(from: start, upTo: run.count, work: &work, word: { lowered[$0] }) { _, node in
                    if anyCaseNodes.insert(node).inserted { found.formUnion(forbiddenInAnyCase.ends[node]) }
                }
            }
        }
        return found.sorted().map { forbiddenWords[$0] }
    }

    /// The glossary entries (indices into `glossary`, in order) whose English term the English text uses while
    /// the translation lacks this language's term.
    func missingTerms(english: [[String]], translation: [[String]], work: inout Int) -> [Int] {
        let used = englishTerms.entries(in: english, work: &work)
        guard !used.isEmpty else { return [] }
        return used.subtracting(translatedTerms.entries(in: translation, work: &work)).sorted()
    }

    /// A capital followed by a small letter: `Contacts`, not `PDF`, `I` or `iCloud`.
    static func isCapitalized(_ word: String) -> Bool {
        var scalars = word.unicodeScalars.makeIterator()
        guard let first = scalars.next(),
            first.properties.isUppercase || first.properties.generalCategory == .titlecaseLetter
        else { return false }
        while let next = scalars.next() {
            if case .mark = WordScalar(next) { continue }
            return next.properties.isLowercase
        }
        return false
    }
}

/// Terms of whole words in a trie keyed by word, compared as `String`s compare (canonical equivalence): the
/// terms that start at a word are found in one lookup per word of the longest of them, whatever their number.
struct WordTrie {
    /// Each node's children by the next word; node 0 is the root.
    private var children: [[String: Int]] = [[:]]
    /// The entries (indices into the list the trie was built from) whose words end at each node.
    private(set) var ends: [[Int]] = [[]]

    /// The trie of `terms`; a term without words is never found.
    init(_ terms: [[String]]) {
        for (entry, words) in terms.enumerated() where !words.isEmpty {
            var node = 0
            for word in words {
                if let child = children[node][word] {
                    node = child
                } else {
                    children.append([:])
                    ends.append([])
                    children[node][word] = children.count - 1
                    node = children.count - 1
                }
            }
            ends[node].append(entry)
        }
    }

    /// Follows the words `word(start)`, `word(start + 1)`, … (before `end`) down the trie, calling `found` with
    /// the position after the last word and the node of each term that ends there.
    func walk(
        from start: Int, upTo end: Int, work: inout Int, word: (Int) -> String, _ found: (Int, Int) -> Void
    ) {
        var node = 0
        var position = start
        while position < end {
            work += 1
            guard let child = children[node][word(position)] else { return }
            node = child
            position += 1
            if !ends[node].isEmpty { found(position, node) }
        }
    }
}

/// Glossary terms (words in lower case) compiled for finding them in a text, each word whole or inflected as
/// `LanguageMatcher` allows.
///
/// A text's word may be a form of several of the terms' words (`abcs` of `abc`, `abcs` and `abcsen`), so a trie
/// walked with every word it may be would visit many branches at once. Instead the terms are laid end to end, one bit
/// per word (at most 6 words of at most 1,000 terms: 94 machine words), and matched bit-parallel (shift-and): the bits
/// of the terms' words that end a match at the text's word are those of the previous word shifted by one, plus each
/// term's first word, kept where the text's word is a form of the word at that bit. A text's word costs one step per
/// machine word its forms or the previous matches touch, whatever the terms hold.
struct TermMatcher {
    /// The endings as a set, for confirming a candidate.
    private let endings: Set<String>
    /// How many characters an ending may take off a text's word to leave a stem: 0, then each ending's length.
    private let cuts: [Int]
    /// Each numbered word's stems: the word, and the word without each ending it has that leaves 3 characters or
    /// more, each with its length in characters.
    private let stems: [[(text: String, count: Int)]]
    /// The numbers of the words that have a stem, by that stem.
    private let byStem: [String: [Int]]
    /// Each numbered word's bits (where it stands in the terms laid end to end), as the machine words that hold
    /// any: the word's index among the machine words and its bits there.
    private let bits: [[(index: Int, bits: UInt64)]]
    /// The bits of the words that start a term, and of those that end one.
    private let starts: [UInt64]
    private let finals: [UInt64]
    /// The entry (index into the list of terms) each term's last word's bit ends.
    private let entryEnding: [Int: Int]

    /// The matcher of `terms`, whose words may take `inflections`; a term without words is never found.
    init(_ terms: [[String]], inflections: [String]) {
        endings = Set(inflections)
        cuts = [0] + Set(inflections.map(\.count)).subtracting([0]).sorted()
        var numbers: [String: Int] = [:]
        var stems: [[(text: String, count: Int)]] = []
        var byStem: [String: [Int]] = [:]
        var positions: [[Int]] = []
        var entryEnding: [Int: Int] = [:]
        var firstPositions: [Int] = []
        var position = 0
        for (entry, words) in terms.enumerated() where !words.isEmpty {
            firstPositions.append(position)
            for word in words {
                let number: Int
                if let known = numbers[word] {
                    number = known
                } else {
                    number = stems.count
                    numbers[word] = number
                    var forms = [(text: word, count: word.count)]
                    for ending in inflections where word.hasSuffix(ending) && word.count - ending.count >= 3 {
                        let stem = String(word.dropLast(ending.count))
                        forms.append((stem, stem.count))
                    }
                    for form in forms where byStem[form.text]?.last != number {
                        byStem[form.text, default: []].append(number)
                    }
                    stems.append(forms)
                    positions.append([])
                }
                positions[number].append(position)
                position += 1
            }
            entryEnding[position - 1] = entry
        }
        let width = (position + 63) / 64
        var starts = [UInt64](repeating: 0, count: width)
        for first in firstPositions { starts[first >> 6] |= 1 << UInt64(first & 63) }
        var finals = [UInt64](repeating: 0, count: width)
        for last in entryEnding.keys { finals[last >> 6] |= 1 << UInt64(last & 63) }
        self.stems = stems
        self.byStem = byStem
        self.bits = positions.map { positions in
            var words: [(index: Int, bits: UInt64)] = []
            for position in positions {
                let bit = UInt64(1) << UInt64(position & 63)
                if words.last?.index == position >> 6 {
                    words[words.count - 1].bits |= bit
                } else {
                    words.append((position >> 6, bit))
                }
            }
            return words
        }
        self.starts = starts
        self.finals = finals
        self.entryEnding = entryEnding
    }

    /// The entries whose words occur in a run one after another, each word whole or inflected.
    func entries(in runs: [[String]], work: inout Int) -> Set<Int> {
        var found = Set<Int>()
        guard !starts.isEmpty else { return found }
        let width = starts.count
        // Each distinct word of the text: the bits of the terms' words it is a form of, as the machine words that
        // hold any.
        var masks: [String: [(index: Int, bits: UInt64)]] = [:]
        var scratch = [UInt64](repeating: 0, count: width)
        // The bits of the terms' words that end a match at the previous word, and the machine words that hold any;
        // `next` is all zero between words.
        var state = [UInt64](repeating: 0, count: width)
        var live: [Int] = []
        var next = [UInt64](repeating: 0, count: width)
        var nextLive: [Int] = []
        // The final bits already reported: a term found again costs nothing more.
        var taken = [UInt64](repeating: 0, count: width)
        for run in runs {
            for index in live { state[index] = 0 }
            live.removeAll(keepingCapacity: true)
            for text in run {
                let mask: [(index: Int, bits: UInt64)]
                if let known = masks[text] {
                    mask = known
                } else {
                    mask = self.mask(of: text, scratch: &scratch, work: &work)
                    masks[text] = mask
                }
                work += mask.count + live.count
                for (index, bits) in mask {
                    var shifted = state[index] << 1 | starts[index]
                    if index > 0 { shifted |= state[index - 1] >> 63 }
                    let matched = shifted & bits
                    guard matched != 0 else { continue }
                    next[index] = matched
                    nextLive.append(index)
                    var ended = matched & finals[index] & ~taken[index]
                    guard ended != 0 else { continue }
                    taken[index] |= ended
                    while ended != 0 {
                        if let entry = entryEnding[index << 6 | ended.trailingZeroBitCount] { found.insert(entry) }
                        ended &= ended - 1
                    }
                }
                for index in live { state[index] = 0 }
                swap(&state, &next)
                swap(&live, &nextLive)
                nextLive.removeAll(keepingCapacity: true)
            }
        }
        return found
    }

    /// The bits of the terms' words `text` is a form of, as the machine words that hold any, in no order.
    private func mask(
        of text: String, scratch: inout [UInt64], work: inout Int
    ) -> [(index: Int, bits: UInt64)] {
        var touched: [Int] = []
        for number in forms(of: text, work: &work) {
            work += bits[number].count
            for (index, bits) in bits[number] {
                if scratch[index] == 0 { touched.append(index) }
                scratch[index] |= bits
            }
        }
        defer { for index in touched { scratch[index] = 0 } }
        return touched.map { ($0, scratch[$0]) }
    }

    /// The numbers of the words `text` is a form of: the word itself, one of its stems, or a stem followed by an
    /// ending (`details` of `detail`; `verbundenen` of `verbundener` through `verbunden`). The candidates are the
    /// words with a stem spelled as `text` less 0 or an ending's length of characters; each is confirmed by the
    /// rule as the reference states it.
    private func forms(of text: String, work: inout Int) -> Set<Int> {
        var forms = Set<Int>()
        let length = text.count
        for cut in cuts where cut < length {
            work += 1
            guard let words = byStem[cut == 0 ? text : String(text.dropLast(cut))] else { continue }
            for number in words where !forms.contains(number) {
                work += 1
                let confirmed = stems[number].contains { stem in
                    text == stem.text
                        || (text.hasPrefix(stem.text) && endings.contains(String(text.dropFirst(stem.count))))
                }
                if confirmed { forms.insert(number) }
            }
        }
        return forms
    }
}

extension String {
    fileprivate func trimmed(_ length: Int) -> String {
        count <= length ? self : prefix(length) + "…"
    }
}

/// A plugin whose loaded data the copy rules were checked on: the host reports its findings (log, `stats`,
/// `fmtd --check`) without knowing which plugin it is.
public protocol CopyRuleChecked {
    /// The findings of the copy rules on the plugin's catalogues, in the order the checker found them.
    var copyFindings: [CopyFinding] { get }
}
