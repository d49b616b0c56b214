import CopyRules
import FmtCore
import FuzzSupport
import NameServices

/// The copy-rule gate. The input is three parts separated by NUL bytes: `copy-rules.json`, a local
/// `copy-rules.d/fuzz.json` (either may be empty: no such file), and a small catalogue, one pattern a line: line
/// `3k + i` is key `k`'s message in English, Dutch and German (`i` = 0, 1, 2; a missing one is the English text).
/// The names plugin loads the catalogue and `copy-rules.json` from `DataStore(.embedded)`; `CopyRuleSet` (the
/// loader the plugin calls) merges both files; `CopyChecker` checks every message with them, twice.
///
/// A load succeeds or fails with a `DataError` naming its file (the plugin's error is the rules' own when the
/// catalogue loads); loaded rules keep within `CopyRuleSet.Limits`; every finding names a message of the
/// catalogue, its file and language, and a rule `data/README.md` documents; checking twice gives the same
/// findings, and the plugin's are the checker's. Every word `MessageText` reads is letters, digits and marks with
/// inner joiners only, so no `{`, `}`, `#` or space; and for a pattern ICU compiled, what ICU formats is one of the
/// texts the reader says can show, its placeholders filled (exactly when every argument takes a string).
enum CopyRulesTarget {
    static let environment = PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"]))
    static let keys = ["fuzz.copy.text", "fuzz.copy", "fuzz.copy.text.more"]
    static let languages = ["en", "nl", "de"]
    static let shippedPath = "copy-rules.json"
    static let localPath = "copy-rules.d/fuzz.json"
    /// A private-use character, which never makes a word: the value of every text and select argument.
    static let marker = "\u{E000}"
    /// The most texts a pattern's branches may render for the ICU comparison; more are not compared.
    static let maximumRenderings = 64

    /// The rule names of data/README.md's table of rules (`| rule | finds |`): every `CopyRule`, and no other.
    static let documentedRules: Set<String> = {
        var rules: Set<String> = []
        var inTable = false
        for line in Fuzz.dataFile("README.md").split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| rule | finds |") {
                inTable = true
            } else if inTable, line.hasPrefix("| `") {
                rules.insert(String(line.dropFirst(3).prefix { $0 != "`" }))
            } else if inTable, !line.hasPrefix("|---") {
                break
            }
        }
        guard rules == Set(CopyRule.allCases.map(\.rawValue)) else {
            Fuzz.fail("data/README.md documents the copy rules \(rules.sorted()), CopyRule has \(CopyRule.allCases)")
        }
        return rules
    }()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let parts = bytes.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map {
            String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self)
        }
        let shippedText = parts[0]
        let localText = parts.count > 1 ? parts[1] : ""
        let lines =
            parts.count > 2
            ? parts[2].split(separator: "\n", omittingEmptySubsequences: false).prefix(keys.count * 3).map(String.init)
            : []

        let shipped = shippedText.isEmpty ? nil : (path: shippedPath, bytes: Array(shippedText.utf8))
        let local = localText.isEmpty ? [] : [(path: localPath, bytes: Array(localText.utf8))]
        let shippedRules = load(shipped: shipped, local: [])
        let rules = load(shipped: shipped, local: local)
        if case .failure(let shippedError) = shippedRules {
            guard case .failure(let error) = rules, error.description == shippedError.description else {
                Fuzz.fail("copy-rules.json failed alone (\(shippedError)) but not with the local file: \(rules)")
            }
        }

        // The catalogue: each language present in file order (the store lists messages/ sorted), keys in order.
        var patterns: [String: JSONObject] = [:]
        for (index, key) in keys.prefix((lines.count + 2) / 3).enumerated() {
            for (offset, language) in languages.prefix(lines.count).enumerated() {
                let line = 3 * index + offset < lines.count ? lines[3 * index + offset] : lines[3 * index]
                patterns[language, default: JSONObject()].append(key, .string(line))
            }
        }
        var files: [String: String] = [:]
        var messages: [CatalogueMessage] = []
        for language in patterns.keys.sorted() {
            let path = "messages/\(language).json"
            files[path] = JSONWriter.string(.object(patterns[language]!))
            for member in patterns[language]! {
                guard case .string(let text) = member.value else { continue }
                messages.append(
                    CatalogueMessage(catalogue: "fmtd", file: path, language: language, key: member.key, pattern: text))
            }
        }
        for message in messages { checkWords(message.pattern) }
        if case .success(let rules) = rules { check(messages, rules) }

        var withRules = files
        if shipped != nil { withRules[shippedPath] = shippedText }
        let plugin: NamesPlugin
        do {
            plugin = try NamesPlugin(
                loading: DataStore(source: .embedded(withRules), localDirectory: nil), environment: environment)
        } catch let error as DataError {
            guard files.keys.contains(error.file) || error.file == shippedPath || error.file == "messages" else {
                Fuzz.fail("the names plugin failed naming \(error.file.debugDescription): \(error)")
            }
            if error.file == shippedPath {
                guard case .failure(let rulesError) = shippedRules, rulesError.description == error.description else {
                    Fuzz.fail("the plugin refused copy-rules.json (\(error)); CopyRuleSet says \(shippedRules)")
                }
                // The catalogue loaded: compare what ICU formats without the rules.
                if let bare = try? NamesPlugin(
                    loading: DataStore(source: .embedded(files), localDirectory: nil), environment: environment)
                {
                    compareWithICU(bare, messages)
                }
            }
            return
        } catch {
            Fuzz.fail("the names plugin threw a non-data error: \(error)")
        }
        guard case .success(let loadedRules) = shippedRules else {
            Fuzz.fail("the plugin loaded copy-rules.json that CopyRuleSet refuses: \(shippedRules)")
        }
        let expected = CopyChecker.check(messages, rules: loadedRules)
        guard plugin.copyFindings == expected else {
            Fuzz.fail("the plugin found \(plugin.copyFindings); the checker finds \(expected)")
        }
        compareWithICU(plugin, messages)
    }

    static func load(
        shipped: (path: String, bytes: [UInt8])?, local: [(path: String, bytes: [UInt8])]
    ) -> Result<CopyRuleSet, DataError> {
        do {
            let rules = try CopyRuleSet(shipped: shipped, local: local)
            let limits = CopyRuleSet.Limits.self
            guard rules.languages.count <= limits.maximumLanguages, (1...16).contains(rules.keySegments.lowerBound),
                (1...16).contains(rules.keySegments.upperBound),
                rules.languages.values.allSatisfy({
                    $0.glossary.count <= limits.maximumEntries && $0.glossaryOrder.count == $0.glossary.count
                        && $0.forbidden.count <= limits.maximumEntries && $0.properNouns.count <= limits.maximumEntries
                        && $0.lowercaseWords.count <= limits.maximumLowercaseWords
                        && $0.inflections.count <= limits.maximumInflections
                })
            else { Fuzz.fail("loaded copy rules beyond CopyRuleSet.Limits") }
            return .success(rules)
        } catch {
            let paths = [shipped?.path].compactMap { $0 } + local.map(\.path)
            guard paths.contains(error.file), !error.problem.isEmpty else {
                Fuzz.fail("a copy rules error names \(error.file.debugDescription), not one of \(paths): \(error)")
            }
            return .failure(error)
        }
    }

    static func check(_ messages: [CatalogueMessage], _ rules: CopyRuleSet) {
        let findings = CopyChecker.check(messages, rules: rules)
        for finding in findings {
            guard
                messages.contains(where: {
                    $0.key == finding.key && $0.language == finding.language && $0.file == finding.file
                }), documentedRules.contains(finding.rule.rawValue), !finding.message.isEmpty
            else { Fuzz.fail("a finding about no message of the catalogue, or of an undocumented rule: \(finding)") }
            if finding.rule == .keyShape && finding.language != "en"
                || finding.rule == .glossary && finding.language == "en"
            {
                Fuzz.fail("\(finding.rule.rawValue) reported on the wrong language: \(finding)")
            }
        }
        let again = CopyChecker.check(messages, rules: rules)
        guard again == findings else { Fuzz.fail("checking twice found \(findings), then \(again)") }
    }

    /// Every word is a letter or digit, then letters, digits and marks, with `'`, `’` or `-` only between them.
    static func checkWords(_ pattern: String) {
        let pieces = MessagePiece.parse(pattern)
        for word in pieces.wordRuns.joined() {
            let scalars = Array(word.text.unicodeScalars)
            guard let first = scalars.first, let last = scalars.last, case .letter = kind(first),
                kind(last) != .joiner,
                scalars.allSatisfy({ kind($0) != .other }),
                !zip(scalars, scalars.dropFirst()).contains(where: { kind($0) == .joiner && kind($1) != .letter })
            else { Fuzz.fail("the word \(word.text.debugDescription) read from \(pattern.debugDescription)") }
        }
    }

    enum ScalarKind { case letter, mark, joiner, other }

    /// What may make up a word: the classes `MessageText` documents (letters and numbers, combining marks, joiners).
    static func kind(_ scalar: Unicode.Scalar) -> ScalarKind {
        switch scalar {
        case "'", "\u{2019}", "-": return .joiner
        case "{", "}", "#", "!", ".", "?", ":", "\u{2026}": return .other
        default: break
        }
        if scalar.properties.isPatternWhitespace { return .other }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber:
            return .letter
        case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
        default: return .other
        }
    }

    /// Formats each message the plugin loaded and holds ICU's text to one of the reader's renderings.
    static func compareWithICU(_ plugin: NamesPlugin, _ messages: [CatalogueMessage]) {
        for message in messages {
            let pieces = MessagePiece.parse(message.pattern)
            guard count(pieces) <= maximumRenderings else { continue }
            var arguments: JSONObject = [:]
            var exact = true
            for _ in 0..<16 {
                let fields: JSONObject = [
                    "key": .string(message.key), "locale": .string(message.language), "args": .object(arguments),
                ]
                do {
                    let response = try plugin.handle(Request(op: "message", fields: fields))
                    guard case .string(let text)? = response["text"] else {
                        Fuzz.fail("a message answer without text: \(response)")
                    }
                    let renderings = render(pieces, exact: exact)
                    guard renderings.contains(where: { matches(Array(text.utf8), $0) }) else {
                        Fuzz.fail(
                            "ICU formats \(message.pattern.debugDescription) as \(text.debugDescription); the reader "
                                + "reads \(pieces)")
                    }
                    break
                } catch CoreError.invalidField(let field, _) where field.hasPrefix("args.") {
                    let name = String(field.dropFirst("args.".count))
                    if arguments[name] == nil {
                        arguments[name] = .string(marker)
                    } else {
                        arguments[name] = .number(JSONNumber(3))
                        exact = false
                    }
                } catch {
                    Fuzz.fail("a loaded message \(message.pattern.debugDescription) answered \(error)")
                }
            }
        }
    }

    /// How many texts the pieces can render, up to one more than `maximumRenderings`.
    static func count(_ pieces: [MessagePiece]) -> Int {
        var total = 1
        for case .branches(let branches) in pieces {
            total = min(
                total * branches.reduce(0) { min($0 + count($1), maximumRenderings + 1) }, maximumRenderings + 1)
        }
        return total
    }

    /// Every rendering as its literal runs (UTF-8), a placeholder between each two; with `exact`, a placeholder is
    /// the marker, inside one run.
    static func render(_ pieces: [MessagePiece], exact: Bool) -> [[[UInt8]]] {
        var results: [[[UInt8]]] = [[[]]]
        func append(_ options: [[[UInt8]]]) {
            results = results.flatMap { prefix in
                options.map { option in
                    var joined = prefix
                    joined[joined.count - 1] += option[0]
                    joined += option.dropFirst()
                    return joined
                }
            }
        }
        for piece in pieces {
            switch piece {
            case .text(let text): append([[Array(text.utf8)]])
            case .placeholder: append(exact ? [[Array(marker.utf8)]] : [[[], []]])
            case .branches(let branches): append(branches.flatMap { render($0, exact: exact) })
            }
        }
        return results
    }

    /// Whether `text` is the runs with anything in each gap between two: the first run its start, the last its end,
    /// the others in order between them (the leftmost fit of each is as good as any).
    static func matches(_ text: [UInt8], _ runs: [[UInt8]]) -> Bool {
        guard runs.count > 1 else { return text == runs[0] }
        let head = runs[0]
        let tail = runs[runs.count - 1]
        guard text.count >= head.count + tail.count, text.starts(with: head),
            text.suffix(tail.count).elementsEqual(tail)
        else { return false }
        var position = head.count
        let end = text.count - tail.count
        for run in runs.dropFirst().dropLast() where !run.isEmpty {
            guard let found = find(run, in: text, from: position, to: end) else { return false }
            position = found + run.count
        }
        return true
    }

    static func find(_ run: [UInt8], in text: [UInt8], from start: Int, to end: Int) -> Int? {
        guard end - start >= run.count else { return nil }
        return (start...(end - run.count)).first { text[$0..<($0 + run.count)].elementsEqual(run) }
    }
}

Fuzz.run { data, size in Fuzz.timed(data, size, CopyRulesTarget.run) }
