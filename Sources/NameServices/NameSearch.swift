import CICU
import FmtCore

/// The ICU transform that makes a name's search form (`searchForm`, and `nameSearch` across scripts): one
/// transliterator opened at load and cloned once per thread that uses it (ICU's transliterators are not
/// thread-safe), each clone kept for that thread's next call.
final class SearchTransform: @unchecked Sendable {
    /// The compound ICU transform id: any script to Latin, Latin to ASCII (accents gone, `ß` as `ss`, `Ø` as `O`),
    /// modifier letters (the Arabic transliteration's `ʿ`) removed, lower case. Its output, and so every stored
    /// search form, is fixed for one ICU version: `info` reports both.
    static let id = "Any-Latin; Latin-ASCII; [:Lm:] Remove; Lower"

    /// The process's one transform, opened on first use and shared by every loaded generation: opening it builds
    /// each script's transliterator (about 20 ms, Han-Latin the most), which every load and reload would otherwise
    /// pay again for the same, immutable transform.
    static let shared = SearchTransform()

    private let handle: OpaquePointer

    /// Opens the transform `id`, or nil when ICU cannot.
    init?(id: String = SearchTransform.id) {
        guard let handle = fmt_transform_open(id) else { return nil }
        self.handle = handle
    }

    deinit {
        fmt_transform_close(handle)
    }

    /// The search form of one word (a run of letters, marks and numbers): an ASCII word lower-cased here, as the
    /// transform would, any other charged to `budget` first.
    func wordForm(
        _ word: UnsafeBufferPointer<UInt16>, budget: inout TransformBudget
    ) throws(CoreError) -> [UInt16] {
        if word.allSatisfy({ $0 < 0x80 }) {
            return word.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        }
        try budget.charge(Int(fmt_search_form_cost(word.baseAddress, Int32(word.count))))
        return form(word)
    }

    /// The search form of a name: its words' forms, each transformed on its own (so a long name is never
    /// transformed in one piece), separated by single spaces.
    func nameForm(
        _ text: UnsafeBufferPointer<UInt16>, budget: inout TransformBudget
    ) throws(CoreError) -> [UInt16] {
        var form: [UInt16] = []
        form.reserveCapacity(text.count)
        let limit = text.count / 2 + 1
        for word in NameSearch.words(text, limit: limit).words {
            let wordForm = try wordForm(UnsafeBufferPointer(rebasing: text[word.start..<word.end]), budget: &budget)
            guard !wordForm.isEmpty else { continue }
            if !form.isEmpty { form.append(0x20) }
            form.append(contentsOf: wordForm)
        }
        return form
    }

    /// How many clones of the transliterator have been made: about one per thread, however many calls.
    var clones: Int { Int(fmt_transform_clones(handle)) }

    /// The search form of UTF-16 text: transformed, every run of characters other than letters, marks and numbers
    /// as one space, none at either end. Empty when ICU fails.
    func form(_ text: UnsafeBufferPointer<UInt16>) -> [UInt16] {
        var capacity = max(16, text.count * 2)
        while true {
            var out = [UInt16](repeating: 0, count: capacity)
            let length = out.withUnsafeMutableBufferPointer { out in
                fmt_search_form(handle, text.baseAddress, Int32(text.count), out.baseAddress, Int32(capacity))
            }
            if length < 0 { return [] }
            if Int(length) <= capacity {
                out.removeSubrange(Int(length)...)
                return out
            }
            capacity = Int(length)
        }
    }
}

/// What one request may spend on ICU's transform: Han-Latin takes 8 to 14 µs a character in ICU 72 (after about
/// 50 µs a call), the other scripts' transforms about 1 µs a UTF-16 unit or less, so a line of Han names would
/// hold a loop for most of a second. Costs are `fmt_search_form_cost`'s units, about a microsecond each (16 a Han
/// character and 48 a word that has one, 1 a code unit of any other text that is not ASCII; ASCII words are
/// lower-cased without ICU).
struct TransformBudget {
    /// The units one request may spend.
    static let perRequest = 16_384

    private(set) var remaining = perRequest

    mutating func charge(_ cost: Int) throws(CoreError) {
        remaining -= cost
        guard remaining >= 0 else {
            throw CoreError.invalidField(
                "names",
                message: "The names need more transliteration than one request may do (\(Self.perRequest) units: "
                    + "a Han character counts 16 and a word with one 48 more, any other character outside ASCII 1 per "
                    + "UTF-16 unit); "
                    + "split the list.")
        }
    }
}

/// A word of a name or query: a maximal run of letters, marks and numbers, by UTF-16 offsets, with its script
/// (ICU's code of its first character that is not Common or Inherited; Common when none is).
struct SearchWord: Equatable {
    let start: Int
    let end: Int
    let script: Int32

    /// Whether the two words are compared by collation (same script, or one has none) or by search form.
    func sharesScript(with other: SearchWord) -> Bool {
        script == other.script || script == FMT_SCRIPT_COMMON || other.script == FMT_SCRIPT_COMMON
    }
}

/// The matching rule of `nameSearch`, on UTF-16 text: a name matches a query when every word of the query is a
/// prefix of a different word of the name, at the collator's primary strength where both words are in one
/// script, else by search form.
enum NameSearch {
    /// The words of `text`, at most `limit` of them; the count is the number of words there are, which may be more.
    static func words(_ text: UnsafeBufferPointer<UInt16>, limit: Int) -> (words: [SearchWord], count: Int) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(3, 3 * limit)) { buffer in
            let count = Int(fmt_search_words(text.baseAddress, Int32(text.count), buffer.baseAddress, Int32(limit)))
            var words: [SearchWord] = []
            words.reserveCapacity(min(count, limit))
            for index in 0..<min(count, limit) {
                words.append(
                    SearchWord(
                        start: Int(buffer[3 * index]), end: Int(buffer[3 * index + 1]), script: buffer[3 * index + 2]))
            }
            return (words, count)
        }
    }

    /// The primary weights of `text` in `collator`, with where each one's characters end (combining marks after
    /// them included), relative to the start of `text`.
    static func primaries(
        _ text: UnsafeBufferPointer<UInt16>, collator: Collator
    ) -> (weights: [UInt32], ends: [Int32]) {
        var capacity = max(8, text.count + 4)
        while true {
            var weights = [UInt32](repeating: 0, count: capacity)
            var ends = [Int32](repeating: 0, count: capacity)
            var starts = [Int32](repeating: 0, count: capacity)
            let count = collator.primaries(text, into: &weights, starts: &starts, ends: &ends)
            if count < 0 { return ([], []) }
            if count <= capacity {
                weights.removeSubrange(count...)
                ends.removeSubrange(count...)
                return (weights, ends)
            }
            capacity = count
        }
    }

    /// A query word ready to be compared: its primary weights and its search form without spaces.
    struct QueryWord {
        let word: SearchWord
        let weights: [UInt32]
        let form: [UInt16]
    }

    /// The length (UTF-16 code units from the name word's start) a query word highlights in a name word, or nil
    /// when it is not a prefix of it: in one script, the query word's primary weights begin the name word's, and
    /// the highlight ends after the characters that gave the last of them (with their combining marks); across
    /// scripts the query word's compact search form begins the name word's, and the highlight is the whole word.
    static func prefixLength(
        _ query: QueryWord, of word: SearchWord, weights: () -> (weights: [UInt32], ends: [Int32]),
        form: () throws(CoreError) -> [UInt16]
    ) throws(CoreError) -> Int? {
        if query.word.sharesScript(with: word) {
            guard !query.weights.isEmpty else { return nil }
            let name = weights()
            guard name.weights.count >= query.weights.count,
                name.weights[0..<query.weights.count].elementsEqual(query.weights)
            else { return nil }
            return Int(name.ends[query.weights.count - 1])
        }
        guard !query.form.isEmpty else { return nil }
        let name = try form()
        guard name.count >= query.form.count, name[0..<query.form.count].elementsEqual(query.form) else {
            return nil
        }
        return word.end - word.start
    }

    /// The word each query word takes (an index into the name's words), or nil when there is no way to give every
    /// query word a different word it is a prefix of: `candidates[q][w]` says whether query word `q` is a prefix of
    /// word `w`. Of all ways, the first in order: the first query word takes the earliest word that still leaves
    /// every later one a word, and so on.
    static func assign(_ candidates: [[Bool]], words: Int) -> [Int]? {
        for row in candidates where !row.contains(true) { return nil }
        var taken = [Bool](repeating: false, count: words)
        var chosen: [Int] = []
        chosen.reserveCapacity(candidates.count)
        for query in candidates.indices {
            var found = false
            for word in 0..<words where candidates[query][word] && !taken[word] {
                taken[word] = true
                if canAssign(candidates, from: query + 1, taken: taken) {
                    chosen.append(word)
                    found = true
                    break
                }
                taken[word] = false
            }
            if !found { return nil }
        }
        return chosen
    }

    /// Whether query words `from...` can each take a different word not `taken`: augmenting paths (Kuhn).
    private static func canAssign(_ candidates: [[Bool]], from first: Int, taken: [Bool]) -> Bool {
        guard first < candidates.count else { return true }
        var owner = [Int](repeating: -1, count: taken.count)
        for query in first..<candidates.count {
            var visited = taken
            if !augment(query, candidates, &owner, &visited) { return false }
        }
        return true
    }

    private static func augment(
        _ query: Int, _ candidates: [[Bool]], _ owner: inout [Int], _ visited: inout [Bool]
    )
        -> Bool
    {
        for word in 0..<owner.count where candidates[query][word] && !visited[word] {
            visited[word] = true
            if owner[word] < 0 || augment(owner[word], candidates, &owner, &visited) {
                owner[word] = query
                return true
            }
        }
        return false
    }
}

/// Reads UTF-8 into a reused UTF-16 buffer.
struct UTF16Scratch {
    private(set) var units: [UInt16] = []

    /// Replaces the buffer's contents with `bytes` as UTF-16 (malformed sequences as U+FFFD).
    mutating func load(_ bytes: UnsafeBufferPointer<UInt8>) {
        units.removeAll(keepingCapacity: true)
        _ = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF16.self, stoppingOnError: false) {
            units.append($0)
        }
    }
}
