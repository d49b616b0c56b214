import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import NameServices

/// `nameSearch` against a plain definition of its rule: a query word is a prefix of a word in its script when some
/// prefix of the word (cut between characters, so a
/// decomposed `ü` is never cut from its mark) has the query word's primary sort key (the sort key's bytes before
/// its first level separator), highlighting the longest such prefix; of a word in another script when its search
/// form without spaces begins with the query word's; and a name matches when the query words can each take a
/// different word, the first such assignment in order (found by trying every one). Random names and queries come
/// from letters in Latin (with precomposed and combining accents), Cyrillic, Greek and Han, with astral characters
/// and punctuation between words; queries are often prefixes of the names' own words. The seed is printed;
/// `FMTD_TEST_SEED=<seed>` replays a run or draws another.
@Suite struct NameSearchDifferentialTests {
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    static let letters = [
        "a", "B", "m", "U", "ü", "u\u{308}", "Ö", "o", "é", "E", "n", "v", "1", "Я", "и", "в", "Λ", "ά", "η", "山",
        "田",
    ]
    static let separators = [" ", " ", " ", "-", " 👍 ", "’", " 𝒜 "]

    static func word(using generator: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...5, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
    }

    static func name(using generator: inout SeededGenerator) -> String {
        var name = word(using: &generator)
        for _ in 0..<Int.random(in: 0...3, using: &generator) {
            name += separators.randomElement(using: &generator)! + word(using: &generator)
        }
        return name
    }

    /// The primary part of a sort key: its bytes before the first level separator (01).
    static func primaryKey(_ text: String, _ collator: Collator) -> [UInt8] {
        Array(collator.sortKey(text).prefix { $0 != 1 })
    }

    /// The reference highlight length of `query` in `word`, or nil.
    static func referenceLength(
        _ query: (text: String, word: SearchWord), _ word: (text: String, word: SearchWord), collator: Collator,
        transform: SearchTransform
    ) -> Int? {
        if query.word.sharesScript(with: word.word) {
            let key = primaryKey(query.text, collator)
            guard !key.isEmpty else { return nil }
            var longest: Int?
            var prefix = ""
            for character in word.text {
                prefix.append(character)
                if primaryKey(prefix, collator) == key { longest = prefix.utf16.count }
            }
            return longest
        }
        let queryForm = Array(query.text.utf16).withUnsafeBufferPointer { transform.form($0) }.filter { $0 != 0x20 }
        let wordForm = Array(word.text.utf16).withUnsafeBufferPointer { transform.form($0) }.filter { $0 != 0x20 }
        guard !queryForm.isEmpty, wordForm.starts(with: queryForm) else { return nil }
        return word.text.utf16.count
    }

    static func words(_ text: String) -> [(text: String, word: SearchWord)] {
        let units = Array(text.utf16)
        return units.withUnsafeBufferPointer { buffer in
            NameSearch.words(buffer, limit: 64).words.map { word in
                (String(decoding: units[word.start..<word.end], as: UTF16.self), word)
            }
        }
    }

    /// The first assignment, in order, of a different word to each query word, by trying them all.
    static func firstAssignment(_ lengths: [[Int?]], words: Int) -> [Int]? {
        var chosen: [Int] = []
        func next(_ query: Int) -> Bool {
            if query == lengths.count { return true }
            for word in 0..<words where lengths[query][word] != nil && !chosen.contains(word) {
                chosen.append(word)
                if next(query + 1) { return true }
                chosen.removeLast()
            }
            return false
        }
        return next(0) ? chosen : nil
    }

    static func reference(
        _ query: String, _ names: [String], collator: Collator, transform: SearchTransform
    ) -> [Int: [[Int]]] {
        let queryWords = words(query)
        var found: [Int: [[Int]]] = [:]
        guard !queryWords.isEmpty else { return found }
        for (index, name) in names.enumerated() {
            let nameWords = words(name)
            let lengths = queryWords.map { queryWord in
                nameWords.map { referenceLength(queryWord, $0, collator: collator, transform: transform) }
            }
            guard let assigned = firstAssignment(lengths, words: nameWords.count) else { continue }
            found[index] = assigned.enumerated()
                .map { [nameWords[$0.element].word.start, lengths[$0.offset][$0.element]!] }
                .sorted { $0[0] < $1[0] }
        }
        return found
    }

    func search(_ query: String, _ names: [String], locale: String) throws -> [Int: [[Int]]] {
        let request: JSONValue = [
            "op": "nameSearch", "locale": .string(locale), "query": .string(query), "names": JSONValue(names),
        ]
        var found: [Int: [[Int]]] = [:]
        for match in try shipped.answer(JSONWriter.string(request))["matches"]?.arrayValue ?? [] {
            let object = match.objectValue!
            found[object["index"]!.numberValue!.intValue!] = object["ranges"]!.arrayValue!.map {
                $0.arrayValue!.map { $0.numberValue!.intValue! }
            }
        }
        return found
    }

    @Test func nameSearchAnswersWhatThePlainRuleAnswers() throws {
        let seed = ProcessInfo.processInfo.environment["FMTD_TEST_SEED"].flatMap { UInt64($0) } ?? 0x5EED_5EA2
        print("NameSearchDifferentialTests seed \(seed) (FMTD_TEST_SEED replays it)")
        var generator = SeededGenerator(state: seed)
        let transform = try #require(SearchTransform())
        var matched = 0
        for (locale, count) in [("de", 300), ("sv", 150), ("ru", 60)] {
            let collator = try #require(Collator(tag: locale))
            for number in 0..<count {
                let names = (0..<8).map { _ in Self.name(using: &generator) }
                // Three in four query words are the starts of words the names have, so most of them find something.
                var queryWords: [String] = []
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    if Int.random(in: 0..<4, using: &generator) > 0 {
                        let source = Self.words(names.randomElement(using: &generator)!).map(\.text)
                        let word = Array(source.randomElement(using: &generator)!.unicodeScalars)
                        let cut = Int.random(in: 1...word.count, using: &generator)
                        var text = ""
                        text.unicodeScalars.append(contentsOf: word[0..<cut])
                        queryWords.append(text)
                    } else {
                        queryWords.append(Self.word(using: &generator))
                    }
                }
                let query = queryWords.joined(separator: " ")
                let expected = Self.reference(query, names, collator: collator, transform: transform)
                let answered = try search(query, names, locale: locale)
                matched += answered.count
                #expect(
                    answered == expected,
                    "case \(number) in \(locale) of FMTD_TEST_SEED=\(seed): query \(query.debugDescription), names \(names)"
                )
            }
        }
        // The cases are not all misses.
        #expect(matched > 100)
    }
}
