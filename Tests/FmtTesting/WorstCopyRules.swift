import CopyRules
import Foundation

/// The largest copy rules and service catalogue the limits allow, shaped so that a checker which searches for every
/// rule at every word does the most work: issue 31 measured 23.8 s of `fmtd --check` on such files. As the files of
/// a configuration directory (`copy-rules.d/*.json`, `messages.d/svc.<language>.json`), or as messages.
///
/// In each of `en`, `nl` and `de`, every list filled to its limit beside the rules already there (the shipped
/// `copy-rules.json`), each in a file of its own (each under 256 KiB):
/// - endings up to 32, each making another word of the glossary's words (`abc`, `abcs`, `abcen`, …);
/// - proper nouns and forbidden phrases (half of them matched as spelled) of six words whose first five are the
///   catalogue's `Ab`, so a search goes five words deep at every word before it fails (`Ab Ab Ab Ab Ab Ab`, a name
///   too, keeps runs of `Ab` from being Title Case);
/// - in `nl` and `de`, glossary terms of six words each a form of the catalogue's word in that language, so every
///   term matches at every word, in the English text and in the translation.
///
/// The catalogue: `keys` keys of patterns just under 4,000 bytes in each language, sentences and plural branches of
/// `Ab` (even keys) or of the glossary's words and their forms (odd keys). Nothing in it is a finding.
public struct WorstCopyRules: Sendable {
    public static let languages = ["en", "nl", "de"]
    /// The catalogue's keys, as in issue 31.
    public static let keys = 20
    /// The longest pattern, under `MessageLimits.maximumPatternBytes`.
    public static let patternBytes = 4_000

    /// The rules files by path relative to the configuration directory, in the order they are read.
    public let ruleFiles: [(path: String, text: String)]
    /// Each language's endings once the files are read: those already there, then the files'.
    let endings: [String: [String]]

    /// The rules files that fill every list of `existing` (the rules read before them) to its limit.
    public init(beside existing: CopyRuleSet = CopyRuleSet()) {
        let limit = CopyRuleSet.Limits.maximumEntries
        let five = Array(repeating: "Ab", count: 5).joined(separator: " ")
        let candidates =
            ["s", "en", "ern", "ungs", "ungen", "heiten", "lichen", "ischsten"]
            + (0..<CopyRuleSet.Limits.maximumInflections).map { "z" + Self.letters($0) }
        var files: [(path: String, text: String)] = []
        var endings: [String: [String]] = [:]
        func add(_ language: String, _ member: String) {
            let name = "copy-rules.d/\(String(files.count + 10)).json"
            files.append((name, #"{"languages":{"\#(language)":{\#(member)}}}"#))
        }
        for language in Self.languages {
            let rules = existing.languages[language] ?? LanguageCopyRules()
            let added = candidates.filter { !rules.inflections.contains($0) }
                .prefix(CopyRuleSet.Limits.maximumInflections - rules.inflections.count)
            endings[language] = rules.inflections + added
            add(language, #""inflections":[\#(Self.quoted(Array(added)))]"#)
            let names = ["\(five) Ab"] + (1..<limit).map { "\(five) Pn\(Self.letters($0))" }
            add(language, #""properNouns":[\#(Self.quoted(Array(names.prefix(limit - rules.properNouns.count))))]"#)
            let forbidden = (0..<(limit - rules.forbidden.count)).map { number in
                number.isMultiple(of: 2)
                    ? #"{"word":"\#(five) Fb\#(Self.letters(number))","use":"x","matchCase":true}"#
                    : #"{"word":"\#(five.lowercased()) fb\#(Self.letters(number))","use":"x"}"#
            }
            add(language, #""forbidden":[\#(forbidden.joined(separator: ","))]"#)
        }
        for language in Self.languages where language != "en" {
            let room = limit - (existing.languages[language]?.glossary.count ?? 0)
            let glossary = (0..<room).map {
                let english = Self.term($0, of: Self.forms("en", endings["en"] ?? []))
                return #""\#(english)":"\#(Self.term($0, of: Self.forms(language, endings[language] ?? [])))""#
            }
            add(language, #""glossary":{\#(glossary.joined(separator: ","))}"#)
        }
        ruleFiles = files
        self.endings = endings
    }

    /// The files that fill every list of the shipped `copy-rules.json` (in `Paths.dataDirectory`) to its limit.
    public static func besideTheShippedRules() throws -> WorstCopyRules {
        let path = Paths.dataDirectory + "/copy-rules.json"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return WorstCopyRules(beside: try CopyRuleSet(shipped: (path, bytes), local: []))
    }

    /// `a`, `b`, … `z`, `ba`, …: a distinct suffix per number.
    public static func letters(_ number: Int) -> String {
        var number = number
        var text = ""
        repeat {
            text.append(Character(Unicode.Scalar(UInt8(97 + number % 26))))
            number /= 26
        } while number > 0
        return text
    }

    /// The glossary's word in each language and its forms: the word, then the word with each ending.
    static func forms(_ language: String, _ endings: [String]) -> [String] {
        let word = ["en": "abc", "nl": "abd", "de": "abe"][language] ?? "abx"
        return [word] + endings.map { word + $0 }
    }

    /// The `number`th term of six of `words`: `number` written in base `words.count`.
    static func term(_ number: Int, of words: [String]) -> String {
        var rest = number
        return (0..<CopyRuleSet.Limits.maximumWordsPerTerm).map { _ in
            defer { rest /= words.count }
            return words[rest % words.count]
        }.joined(separator: " ")
    }

    static func quoted(_ texts: [String]) -> String {
        texts.map { "\"\($0)\"" }.joined(separator: ",")
    }

    /// A pattern of sentences and plural branches of `words` in turn, just under `patternBytes`.
    static func pattern(_ words: [String]) -> String {
        var next = 0
        func sentence() -> String {
            var text = ""
            for _ in 0..<60 {
                text += words[next % words.count] + " "
                next += 1
            }
            return text.dropLast() + ". "
        }
        var pattern = ""
        while true {
            let piece = sentence() + "{count, plural, one {# \(sentence())} other {# \(sentence())}} "
            guard pattern.utf8.count + piece.utf8.count <= patternBytes else { break }
            pattern += piece
        }
        while true {
            let word = words[next % words.count] + " "
            guard pattern.utf8.count + word.utf8.count <= patternBytes else { break }
            pattern += word
            next += 1
        }
        return pattern
    }

    /// The catalogue's messages, by key then language.
    public func messages(keys: Int = keys) -> [(language: String, key: String, pattern: String)] {
        (0..<keys).flatMap { key in
            Self.languages.map { language in
                let words = key.isMultiple(of: 2) ? ["Ab"] : Self.forms(language, endings[language] ?? [])
                return (language, "svc.k\(Self.letters(key)).x", Self.pattern(words))
            }
        }
    }

    /// The catalogue's files by path relative to the configuration directory.
    public func catalogueFiles(keys: Int = keys) -> [String: String] {
        var files: [String: String] = [:]
        for language in Self.languages {
            let entries = messages(keys: keys).filter { $0.language == language }.map {
                #""\#($0.key)":"\#($0.pattern)""#
            }
            files["messages.d/svc.\(language).json"] = "{" + entries.joined(separator: ",") + "}"
        }
        return files
    }
}
