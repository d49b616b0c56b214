import FmtCore

@testable import CopyRules

/// The copy-rule checker as it was before issue 31 (plain loops over every rule at every word), kept as the
/// reference the compiled `CopyChecker` is held to: same findings, same order, same text. Slow by design; only
/// the tests run it.
enum ReferenceCopyChecker {
    static func isExclamation(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "!" || scalar == "\u{FF01}" || scalar == "\u{A1}"
    }

    /// The rules of one message alone: exclamation marks, Title Case, forbidden words, the key's shape.
    static func check(
        _ message: CatalogueMessage, _ text: ReadText, matcher: ReferenceMatcher, rules: CopyRuleSet
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
        if let word = matcher.titleCased(in: text.runs) {
            report(
                .titleCase,
                "\"\(word)\" is capitalized inside a sentence; write sentence case (or list the name in properNouns)")
        }
        for forbidden in matcher.forbidden(in: text) {
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

    static func check(_ messages: [CatalogueMessage], rules: CopyRuleSet) -> [CopyFinding] {
        let matchers = rules.languages.mapValues(ReferenceMatcher.init)
        // A language the rules do not name gets only the rules of every language (no capitalization rule: its
        // conventions are unknown).
        var unnamed = LanguageCopyRules()
        unnamed.capitalization = .none
        let empty = ReferenceMatcher(unnamed)
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
        let english = matchers["en"] ?? empty
        for name in groupOrder {
            let members = groups[name] ?? []
            let texts = members.map { ReadText(MessagePiece.parse(messages[$0].pattern)) }
            for (member, index) in members.enumerated() {
                let message = messages[index]
                findings += check(message, texts[member], matcher: matchers[message.language] ?? empty, rules: rules)
                    .map { (index, $0) }
            }
            // Glossary: the English text's terms against each translation.
            guard let source = members.firstIndex(where: { messages[$0].language == "en" }) else { continue }
            for (member, index) in members.enumerated() where messages[index].language != "en" {
                let message = messages[index]
                guard let matcher = matchers[message.language] else { continue }
                for (term, englishWords, translation, translatedWords) in matcher.glossary {
                    guard english.contains(englishWords, in: texts[source].lowered),
                        !matcher.contains(translatedWords, in: texts[member].lowered)
                    else { continue }
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

/// One language's rules, as the reference checker matches them: lists of words searched at every position.
struct ReferenceMatcher {
    let rules: LanguageCopyRules
    /// Proper nouns and glossary terms as spelled, split into words: capitals inside them are allowed.
    let allowed: [[String]]
    /// The forbidden words, each with its words in lower case.
    let forbiddenWords: [(word: ForbiddenWord, lowered: [String])]
    /// The glossary in definition order: the English term and this language's, each with its words in lower case.
    let glossary: [(term: String, englishWords: [String], translation: String, translatedWords: [String])]

    init(_ rules: LanguageCopyRules) {
        self.rules = rules
        let terms = rules.properNouns + rules.glossaryOrder + rules.glossaryOrder.compactMap { rules.glossary[$0] }
        allowed = terms.map(Self.words).filter { !$0.isEmpty }
        forbiddenWords = rules.forbidden.map { ($0, $0.words.map { $0.lowercased() }) }
        glossary = rules.glossaryOrder.compactMap { term in
            guard let translation = rules.glossary[term] else { return nil }
            return (
                term, Self.words(term).map { $0.lowercased() }, translation,
                Self.words(translation).map { $0.lowercased() }
            )
        }
    }

    static func words(_ term: String) -> [String] {
        [MessagePiece.text(term)].wordRuns.flatMap { $0.map(\.text) }
    }

    /// The first word capitalized inside a sentence that the language's capitalization does not allow.
    func titleCased(in runs: [[MessageWord]]) -> String? {
        guard rules.capitalization != .none else { return nil }
        for run in runs {
            var covered = [Bool](repeating: false, count: run.count)
            for term in allowed {
                for start in Self.occurrences(of: term, in: run, caseSensitive: true) {
                    for offset in 0..<term.count { covered[start + offset] = true }
                }
            }
            for (index, word) in run.enumerated() where !word.opensSentence && !covered[index] {
                guard Self.isCapitalized(word.text) else { continue }
                switch rules.capitalization {
                case .sentence: return word.text
                case .nouns where rules.lowercaseWords.contains(word.text.lowercased()): return word.text
                default: continue
                }
            }
        }
        return nil
    }

    /// The forbidden words the text uses, each once.
    func forbidden(in text: ReadText) -> [ForbiddenWord] {
        forbiddenWords.filter { forbidden, lowered in
            text.runs.indices.contains { run in
                let words = text.runs[run]
                guard words.count >= lowered.count else { return false }
                return (0...(words.count - lowered.count)).contains { start in
                    let matches = lowered.indices.allSatisfy { offset in
                        forbidden.matchCase
                            ? words[start + offset].text == forbidden.words[offset]
                            : text.lowered[run][start + offset] == lowered[offset]
                    }
                    // Capitals carry no meaning at the start of a sentence: `Sie` there may be "she".
                    return matches && !(forbidden.matchCase && words[start].opensSentence)
                }
            }
        }.map(\.word)
    }

    /// Whether the term's words (lower case) occur in any run, each word whole or with one of the language's
    /// inflections added (after dropping one the term ends with: `verbundener` → `verbundene`, `verbundenen`).
    func contains(_ words: [String], in runs: [[String]]) -> Bool {
        guard !words.isEmpty else { return false }
        return runs.contains { run in
            guard run.count >= words.count else { return false }
            return (0...(run.count - words.count)).contains { start in
                words.indices.allSatisfy { Self.inflected(run[start + $0], of: words[$0], rules.inflections) }
            }
        }
    }

    static func inflected(_ text: String, of word: String, _ inflections: [String]) -> Bool {
        if text == word { return true }
        var stems = [word]
        for ending in inflections where word.hasSuffix(ending) && word.count - ending.count >= 3 {
            stems.append(String(word.dropLast(ending.count)))
        }
        return stems.contains { stem in
            text == stem || (text.hasPrefix(stem) && inflections.contains(String(text.dropFirst(stem.count))))
        }
    }

    /// The start indices where `term`'s words occur in `run`, whole words, as spelled or in any case.
    static func occurrences(of term: [String], in run: [MessageWord], caseSensitive: Bool) -> [Int] {
        guard !term.isEmpty, run.count >= term.count else { return [] }
        return (0...(run.count - term.count)).filter { start in
            term.indices.allSatisfy { offset in
                let text = run[start + offset].text
                return caseSensitive ? text == term[offset] : text.lowercased() == term[offset].lowercased()
            }
        }
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

extension String {
    fileprivate func trimmed(_ length: Int) -> String {
        count <= length ? self : prefix(length) + "…"
    }
}
