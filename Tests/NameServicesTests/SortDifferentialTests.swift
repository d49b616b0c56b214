import FmtCore
import FmtTesting
import Testing

@testable import NameServices

/// `sort` compares and writes the names where they lie in the request's line. Its answer must be, byte for byte,
/// the simple definition's: the names as `String`s, sorted by the same ICU collator with ties in input order, and
/// written back as JSON strings with their indices. Random lists hold the names that take the other paths:
/// escapes (quotes, backslashes, control characters), duplicates, empty names, NFC and NFD spellings, other
/// scripts, and names of every length class the byte copy distinguishes.
@Suite struct SortDifferentialTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    static let pieces = [
        "a", "B", "z", "Å", "ä", "Ö", "é", "e\u{301}", "É", "ß", "ss", "ł", "ñ", "ij", "Σ", "Я", "李", "あ", "👍🏽",
        " ", "-", "'", "de ", "van ", "1", "\"", "\\", "\n", "\t", "\u{1}", "\u{1F}", "\u{7F}", "/", "\u{2028}",
        "Jansen", "Bakker", "Öztürk", "abcdefghijklmnop",
    ]

    /// A random list of `count` names, some of them repeated or empty.
    static func randomNames(_ count: Int, using generator: inout SeededGenerator) -> [String] {
        var names: [String] = []
        for _ in 0..<count {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: names.append("")
            case 1 where !names.isEmpty: names.append(names.randomElement(using: &generator)!)
            default:
                names.append(
                    (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                        pieces.randomElement(using: &generator)!
                    }.joined())
            }
        }
        return names
    }

    /// The members `sort` writes, as the definition gives them: Strings ordered by the collator, ties by index.
    static func expectedMembers(_ names: [String], collator: Collator) -> [UInt8] {
        let order = names.indices.sorted { a, b in
            let result = collator.compare(Array(names[a].utf8), Array(names[b].utf8))
            return result != 0 ? result < 0 : a < b
        }
        var bytes = Array(#"{"sorted":"#.utf8)
        bytes += JSONWriter.encode(.array(order.map { .string(names[$0]) }))
        bytes += Array(#","order":"#.utf8)
        bytes += JSONWriter.encode(.array(order.map { JSONValue($0) }))
        return bytes
    }

    /// The members the plugin writes for `line`, read flat as the daemon reads it (or as a tree, as tools do).
    func members(_ line: String, flat: Bool) throws -> [UInt8] {
        let request =
            try flat
            ? Array(line.utf8).withUnsafeBufferPointer { try Request(line: $0) }
            : Request(
                JSONReader.parse(line))
        var writer = ResponseWriter(bytes: [UInt8(ascii: "{")])
        try shipped.handle(request, into: &writer)
        return writer.bytes
    }

    static func line(_ names: [String], locale: JSONValue?) -> String {
        var request: JSONObject = ["op": "sort"]
        if let locale { request.append("locale", locale) }
        request.append("names", JSONValue(names))
        return JSONWriter.string(.object(request))
    }

    @Test(arguments: ["nl", "sv-SE", "de-u-co-phonebk", "ja", "en-US", "fr"])
    func sortedBytesMatchSortingStringsWithTheSameCollator(locale: String) throws {
        let collator = try #require(Collator(tag: locale))
        var generator = SeededGenerator(state: UInt64(locale.utf8.reduce(7) { $0 &* 131 &+ Int($1) }.magnitude))
        // Up to 16 names are sorted by insertion alone; longer lists are merged too.
        for count in [0, 1, 2, 3, 5, 8, 13, 16, 17, 31, 33, 64, 100, 257] {
            for _ in 0..<3 {
                let names = Self.randomNames(count, using: &generator)
                let line = Self.line(names, locale: .string(locale))
                let expected = Self.expectedMembers(names, collator: collator)
                #expect(try members(line, flat: true) == expected, "\(names)")
                #expect(try members(line, flat: false) == expected, "\(names)")
            }
        }
    }

    @Test func namesSpelledWithEscapesInTheLineSortAndComeBackAsTheirText() throws {
        // `\u00e9` and `é` are one name; `\"` and `\\` stay escaped on the way out.
        let line = #"{"op":"sort","locale":"fr","names":["\u00e9a","\"q\"","e\u0301b","a\\b","\n","\u00c9a"]}"#
        let names = ["\u{E9}a", "\"q\"", "e\u{301}b", "a\\b", "\n", "\u{C9}a"]
        let expected = Self.expectedMembers(names, collator: try #require(Collator(tag: "fr")))
        #expect(try members(line, flat: true) == expected)
        #expect(try members(line, flat: false) == expected)
    }

    @Test func anAbsentLocaleAndAPriorityListSortAsTheTreeDoes() throws {
        var generator = SeededGenerator(state: 15)
        for _ in 0..<20 {
            let names = Self.randomNames(12, using: &generator)
            let absent = Self.line(names, locale: nil)
            #expect(
                try members(absent, flat: true)
                    == Self.expectedMembers(names, collator: try #require(Collator(tag: "en"))))
            #expect(try members(absent, flat: true) == members(absent, flat: false))
            let list = Self.line(names, locale: ["sv-SE", "en"])
            #expect(try members(list, flat: true) == members(list, flat: false))
        }
    }

    @Test func theIndexSortOrdersEveryPermutationOfSmallListsAndLongRandomOnes() {
        func check(_ keys: [Int]) {
            let sorted = withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, 2 * keys.count)) { storage in
                let order = UnsafeMutableBufferPointer(rebasing: storage[0..<keys.count])
                for index in order.indices { order[index] = Int32(index) }
                IndexSort.sort(order, scratch: UnsafeMutableBufferPointer(rebasing: storage[keys.count...])) { a, b in
                    keys[Int(a)] != keys[Int(b)] ? keys[Int(a)] < keys[Int(b)] : a < b
                }
                return order.map(Int.init)
            }
            #expect(sorted == keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }, "\(keys)")
        }
        func permutations(_ items: [Int]) -> [[Int]] {
            guard items.count > 1 else { return [items] }
            return items.indices.flatMap { index in
                var rest = items
                let head = rest.remove(at: index)
                return permutations(rest).map { [head] + $0 }
            }
        }
        for count in 0...6 { permutations(Array(0..<count)).forEach(check) }
        permutations([1, 1, 2, 2, 3]).forEach(check)
        var generator = SeededGenerator(state: 99)
        for count in [15, 16, 17, 32, 33, 100, 1000, 4097] {
            check((0..<count).map { _ in Int.random(in: 0..<(count / 3 + 1), using: &generator) })
        }
    }

    /// `sortKey` writes keys made on the stack; they are the bytes of `Collator.sortKey(_:)`, also for an empty
    /// name and for names whose keys outgrow the stack buffer (ICU is asked again with the size it needs).
    @Test func keysMadeOnTheStackAreTheSortKeys() throws {
        let collator = try #require(Collator(tag: "de"))
        var generator = SeededGenerator(state: 41)
        var names = Self.randomNames(200, using: &generator) + ["", String(repeating: "Öztürk ", count: 200)]
        names.append(String(repeating: "\u{1F44D}\u{1F3FD}e\u{301}", count: 100))
        for name in names {
            let key = Array(name.utf8).withUnsafeBufferPointer { collator.withSortKey($0) { Array($0) } }
            #expect(key == collator.sortKey(name), "\(name)")
        }
        #expect(collator.sortKey(names[names.count - 2]).count > 512)
    }

    /// The escape check and the short copy the answer is written with are FmtCore's, tested there.
    @Test func writeDecimalAgreesWithItsDefinition() {
        for value: UInt32 in [0, 1, 9, 10, 99, 100, 9_999, 10_000, 65_535, UInt32.max] {
            let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { digits in
                var out = ByteCursor(digits)
                DecimalDigits.write(value, to: &out)
                return String(
                    decoding: UnsafeBufferPointer(rebasing: digits[0..<out.written]),
                    as: UTF8.self)
            }
            #expect(written == String(value))
        }
    }

    /// A number longer than what is left of the buffer traps: the digits are checked like every other write.
    @Test func aNumberPastTheBufferTraps() async {
        await #expect(processExitsWith: .failure) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4) { digits in
                var out = ByteCursor(digits)
                DecimalDigits.write(12_345, to: &out)
            }
        }
    }
}
