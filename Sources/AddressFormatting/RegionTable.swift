import FmtCore

/// A country's sub-regions as `address-formats.json`'s `subRegions` lists them (libaddressinput's data): its
/// regions, and where the data has them the cities of a region and the districts of a city, each with its key, its
/// name in the country's language, its Latin name, its ISO 3166-2 code, its names in the country's other languages
/// and the postal-code prefixes of its codes. Loaded once into flat arrays (a list's entries are contiguous, the
/// texts in one byte array) and read by every request; an entered value is found among one list's entries by its
/// bytes with ASCII letters lowered, in one hash table of every name, without a `String` (text with other capitals
/// is lower-cased as a `String` once it is not found so).
final class RegionTable: Sendable {
    /// Bounds, so that no data file can make a load or a request costly: entries of one country (BR has 5,596 with
    /// its cities), entries of one list (BR's Minas Gerais has 853 cities), bytes of a name (the longest has 59),
    /// bytes of a postal-code prefix pattern (the longest has 151), capture groups in one, levels below the
    /// country, and languages of names.
    static let maximumEntries = 16_384
    static let maximumListCount = 4_096
    static let maximumNameBytes = 256
    static let maximumPrefixBytes = 512
    static let maximumPrefixGroups = 8
    static let maximumDepth = 3
    static let maximumLanguages = 8

    /// A run of `bytes`; `count` 0 is none.
    struct Text: Sendable {
        var start: UInt32 = 0
        var count: UInt32 = 0
    }

    struct Entry: Sendable {
        var key = Text()
        /// The name in the country's language (the key where the data gives none).
        var name = Text()
        var latinName = Text()
        /// The code after the country's (`ON` of `CA-ON`).
        var isoCode = Text()
        /// The index in `prefixes`, -1 for none.
        var prefix: Int32 = -1
        /// The entries of the level below: `children..<children + childCount`.
        var children: Int32 = 0
        var childCount: Int32 = 0
    }

    /// The names of one other language, by entry (`Text()` where the data has none).
    struct Translation: Sendable {
        let language: String
        let names: [Text]
    }

    /// The regions are `entries[0..<regionCount]`.
    let entries: [Entry]
    let regionCount: Int
    /// The country's language (its primary subtag), the language of `Entry.name`.
    let language: String
    let translations: [Translation]
    private let bytes: [UInt8]
    /// Each a prefix pattern followed by `[ -~]*`, matched against a whole postal code.
    private let prefixes: [BytePattern]
    /// Per prefix, the pattern as the data writes it.
    private let prefixTexts: [Text]
    private let index: NameIndex

    private static let members: Set<String> = [
        "language", "keys", "names", "latinNames", "fullLatinNames", "isoCodes", "postalCodePrefixes",
        "translations", "children",
    ]

    /// Reads the `subRegions` of the format of `country`.
    init(_ value: DataFields.Value, country: String) throws(DataError) {
        var builder = Builder(country: country)
        guard let root = try value.object(or: "must be an object of sub-region lists") else {
            throw value.invalid("must be an object of sub-region lists")
        }
        let language = try root.string("language", or: "must be the country's language subtag") ?? ""
        guard !language.isEmpty, language.utf8.count <= 8 else {
            throw root.member("language").invalid("must be the country's language subtag")
        }
        self.language = language
        // Breadth first: each list's entries are appended together, so the level below an entry is contiguous.
        var queue: [(list: DataFields, parent: Int, depth: Int)] = [(root, -1, 1)]
        var head = 0
        while head < queue.count {
            let (list, parent, depth) = queue[head]
            head += 1
            try builder.add(list, parent: parent, depth: depth, isRoot: depth == 1) { list, parent in
                queue.append((list, parent, depth + 1))
            }
            if parent < 0 { builder.regionCount = builder.entries.count }
        }
        entries = builder.entries
        regionCount = builder.regionCount
        bytes = builder.bytes
        prefixes = builder.prefixes
        prefixTexts = builder.prefixTexts
        translations = builder.translationLanguages.enumerated().map { index, language in
            Translation(language: language, names: builder.translationNames[index])
        }
        index = NameIndex(builder.names, bytes: builder.bytes)
    }

    /// The entries of the list under `parent` (-1 for the regions).
    func list(under parent: Int) -> Range<Int> {
        guard parent >= 0 else { return 0..<regionCount }
        let entry = entries[parent]
        return Int(entry.children)..<Int(entry.children + entry.childCount)
    }

    /// Calls `body` with the bytes of `text`.
    @inline(__always)
    func withBytes<Result>(_ text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { bytes in
            body(UnsafeBufferPointer(rebasing: bytes[Int(text.start)..<Int(text.start + text.count)]))
        }
    }

    /// `text` as a `String`, nil for none.
    func string(_ text: Text) -> String? {
        text.count == 0 ? nil : withBytes(text) { String(decoding: $0, as: UTF8.self) }
    }

    /// The entry of the list under `parent` (-1 for the regions) that has `utf8` as its key, a name (in any of
    /// its languages), Latin name or ISO code (alone or after the country's code and `-`), compared without case
    /// (lower-cased, as libaddressinput compares); with the text as the data spells it. Nil when none has.
    func find(_ utf8: UnsafeBufferPointer<UInt8>, under parent: Int) -> (entry: Int, spelling: Text)? {
        guard utf8.count <= Self.maximumNameBytes * 3 else { return nil }
        let found = bytes.withUnsafeBufferPointer { index.find(utf8, parent: parent, bytes: $0) }
        if let found { return found }
        // Text with a capital outside ASCII (`ÁGUAS`, `Île`) is found lower-cased.
        guard utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        var lowered = String(decoding: utf8, as: UTF8.self).lowercased()
        guard !lowered.utf8.elementsEqual(utf8) else { return nil }
        return lowered.withUTF8 { lowered in
            bytes.withUnsafeBufferPointer { index.find(lowered, parent: parent, bytes: $0) }
        }
    }

    /// Whether a postal code that fits its country's pattern fits the prefixes of `entry` (true where it has
    /// none, and where the code is not ASCII or the match takes too many steps: nothing is claimed then).
    func postalCodeFits(_ code: UnsafeBufferPointer<UInt8>, entry: Int) -> Bool {
        let prefix = Int(entries[entry].prefix)
        guard prefix >= 0, !code.contains(where: { $0 >= 0x80 }) else { return true }
        // Read in place rather than copied, which would retain and release the pattern's matcher.
        let slotCount = 2 * (prefixes[prefix].groupCount + 1)
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * (Self.maximumPrefixGroups + 1)) { slots in
            let slots = UnsafeMutableBufferPointer(rebasing: slots[0..<slotCount])
            return prefixes[prefix].wholeMatch(ascii: code, slots: slots) ?? true
        }
    }

    /// The postal-code prefixes of `entry` as the data writes them (a regular expression matched at the start of
    /// the code), or nil.
    func prefixPattern(_ entry: Int) -> String? {
        let prefix = Int(entries[entry].prefix)
        return prefix >= 0 ? string(prefixTexts[prefix]) : nil
    }

    /// The name of `entry` in `language` (a primary subtag), where the data has one other than the country's.
    func translatedName(_ entry: Int, language: String) -> Text? {
        guard let translation = translations.first(where: { $0.language == language }) else { return nil }
        let name = translation.names[entry]
        return name.count == 0 ? nil : name
    }

    // MARK: - Loading

    /// A name as the index holds it: where its text lies, the entry it names and the list it is in.
    fileprivate struct Name {
        var text: Text
        /// The text to show for it: the same, or the original of a lower-cased copy.
        var spelling: Text
        var entry: Int32
        var parent: Int32
    }

    private struct Builder {
        let country: String
        var entries: [Entry] = []
        var regionCount = 0
        var bytes: [UInt8] = []
        var prefixes: [BytePattern] = []
        var prefixTexts: [Text] = []
        var prefixByPattern: [String: Int32] = [:]
        var names: [Name] = []
        var translationLanguages: [String] = []
        /// Per language, a name per entry; filled as entries are added.
        var translationNames: [[Text]] = []
        private var texts: [String: Text] = [:]

        init(country: String) {
            self.country = country
        }

        mutating func text(_ string: String) -> Text {
            guard !string.isEmpty else { return Text() }
            if let known = texts[string] { return known }
            let text = Text(start: UInt32(bytes.count), count: UInt32(string.utf8.count))
            bytes.append(contentsOf: string.utf8)
            texts[string] = text
            return text
        }

        /// Indexes `string` as a name of `entry` under `parent`, with its lower-cased form where that is not its
        /// ASCII letters lowered (`Île` → `île`). A value found by it is shown as `shownAs` (an ISO code is shown
        /// as the region's Latin name: `JP-13` as `Tokyo`), else as `string` is spelled.
        mutating func name(_ string: String, entry: Int, parent: Int, shownAs: String? = nil) {
            guard !string.isEmpty else { return }
            let spelling = text(shownAs ?? string)
            names.append(Name(text: text(string), spelling: spelling, entry: Int32(entry), parent: Int32(parent)))
            let lowered = string.lowercased()
            let asciiLowered = String(
                decoding: string.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
            if !lowered.utf8.elementsEqual(asciiLowered.utf8) {
                names.append(Name(text: text(lowered), spelling: spelling, entry: Int32(entry), parent: Int32(parent)))
            }
        }

        mutating func add(
            _ list: DataFields, parent: Int, depth: Int, isRoot: Bool,
            below: (DataFields, Int) -> Void
        ) throws(DataError) {
            if let unknown = list.members.first(where: { !RegionTable.members.contains($0.name) }) {
                throw unknown.value.invalid("is not a member of a sub-region list (typo?)")
            }
            if !isRoot, list["language"] != nil {
                throw list.member("language").invalid("is the country's language: only the top list says it")
            }
            func split(_ member: String) throws(DataError) -> [String]? {
                guard list[member] != nil else { return nil }
                guard let text = try list.string(member, or: "must be a ~-separated list") else { return nil }
                return text.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
            }
            let keysProblem = "must be a non-empty ~-separated list of keys"
            guard let keys = try split("keys"), !keys.contains(""), Set(keys).count == keys.count else {
                throw list.member("keys").invalid(keysProblem + ", each once")
            }
            guard keys.count <= RegionTable.maximumListCount else {
                throw list.member("keys").invalid("has \(keys.count) keys, more than \(RegionTable.maximumListCount)")
            }
            guard entries.count + keys.count <= RegionTable.maximumEntries else {
                throw list.member("keys").invalid(
                    "makes the country's sub-regions more than \(RegionTable.maximumEntries)")
            }
            func aligned(_ member: String) throws(DataError) -> [String] {
                guard let values = try split(member) else { return keys.map { _ in "" } }
                guard values.count == keys.count else {
                    throw list.member(member).invalid("has \(values.count) elements for \(keys.count) keys")
                }
                return values
            }
            let names = try aligned("names")
            let latinNames = try aligned("latinNames")
            let fullLatinNames = try aligned("fullLatinNames")
            let isoCodes = try aligned("isoCodes")
            let prefixes = try aligned("postalCodePrefixes")
            for (member, values) in [
                ("keys", keys), ("names", names), ("latinNames", latinNames), ("fullLatinNames", fullLatinNames),
                ("isoCodes", isoCodes),
            ] {
                if let long = values.first(where: { $0.utf8.count > RegionTable.maximumNameBytes }) {
                    throw list.member(member).invalid(
                        "\"\(long.prefix(40))…\" is longer than \(RegionTable.maximumNameBytes) bytes")
                }
            }
            var translated: [(language: String, names: [String])] = []
            if list["translations"] != nil {
                let problem = "must be an object of language → ~-separated names"
                guard let object = try list.object("translations", or: problem) else {
                    throw list.member("translations").invalid(problem)
                }
                for (language, value) in object.members {
                    guard let text = try value.string(or: problem) else { throw value.invalid(problem) }
                    let values = text.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
                    guard values.count == keys.count else {
                        throw value.invalid("has \(values.count) elements for \(keys.count) keys")
                    }
                    if let long = values.first(where: { $0.utf8.count > RegionTable.maximumNameBytes }) {
                        throw value.invalid(
                            "\"\(long.prefix(40))…\" is longer than \(RegionTable.maximumNameBytes) bytes")
                    }
                    let isTag =
                        !language.isEmpty && language.utf8.count <= 16
                        && language.utf8.allSatisfy { (0x61...0x7A).contains($0) || $0 == 0x2D }
                    guard isTag else { throw value.invalid("must be keyed by a lower-case language subtag") }
                    translated.append((language, values))
                }
            }
            let first = entries.count
            if parent >= 0 {
                entries[parent].children = Int32(first)
                entries[parent].childCount = Int32(keys.count)
            }
            for (offset, key) in keys.enumerated() {
                let index = first + offset
                var entry = Entry()
                entry.key = text(key)
                entry.name = names[offset].isEmpty ? entry.key : text(names[offset])
                entry.latinName = text(latinNames[offset])
                entry.isoCode = text(isoCodes[offset])
                if !prefixes[offset].isEmpty {
                    entry.prefix = try prefix(prefixes[offset], list.member("postalCodePrefixes"))
                }
                entries.append(entry)
                for language in translationLanguages.indices { translationNames[language].append(Text()) }
                name(key, entry: index, parent: parent)
                name(names[offset], entry: index, parent: parent)
                name(latinNames[offset], entry: index, parent: parent)
                name(fullLatinNames[offset], entry: index, parent: parent)
                // A code is typed in Latin letters: the region it finds is shown by its Latin name, else its name.
                let named = [latinNames[offset], names[offset], key].first { !$0.isEmpty } ?? key
                name(isoCodes[offset], entry: index, parent: parent, shownAs: named)
                if isRoot, !isoCodes[offset].isEmpty {
                    name("\(country)-\(isoCodes[offset])", entry: index, parent: parent, shownAs: named)
                }
            }
            for (language, values) in translated {
                var slot = translationLanguages.firstIndex(of: language)
                if slot == nil {
                    guard translationLanguages.count < RegionTable.maximumLanguages else {
                        throw list.member("translations").invalid(
                            "names more than \(RegionTable.maximumLanguages) languages")
                    }
                    translationLanguages.append(language)
                    translationNames.append([Text](repeating: Text(), count: entries.count))
                    slot = translationLanguages.count - 1
                }
                for (offset, value) in values.enumerated() where !value.isEmpty {
                    translationNames[slot!][first + offset] = text(value)
                    name(value, entry: first + offset, parent: parent)
                }
            }
            if list["children"] != nil {
                let problem = "must be an object of key → the sub-region list below it"
                guard let children = try list.object("children", or: problem) else {
                    throw list.member("children").invalid(problem)
                }
                guard depth < RegionTable.maximumDepth else {
                    throw list.member("children").invalid("goes deeper than \(RegionTable.maximumDepth) levels")
                }
                for (key, value) in children.members {
                    guard let offset = keys.firstIndex(of: key) else { throw value.invalid("is not one of keys") }
                    guard let child = try value.object(or: problem) else { throw value.invalid(problem) }
                    below(child, first + offset)
                }
            }
        }

        /// The index of a prefix pattern, compiled once per distinct pattern.
        mutating func prefix(_ pattern: String, _ member: DataFields.Value) throws(DataError) -> Int32 {
            if let known = prefixByPattern[pattern] { return known }
            guard pattern.utf8.count <= RegionTable.maximumPrefixBytes else {
                throw member.invalid("a prefix pattern is longer than \(RegionTable.maximumPrefixBytes) bytes")
            }
            guard let compiled = BytePattern("(?:\(pattern))[ -~]*"),
                compiled.groupCount <= RegionTable.maximumPrefixGroups
            else {
                throw member.invalid(
                    "\"\(pattern)\" is not a prefix pattern of literals, \\d, classes, groups, alternatives and counts")
            }
            prefixes.append(compiled)
            prefixTexts.append(text(pattern))
            prefixByPattern[pattern] = Int32(prefixes.count - 1)
            return Int32(prefixes.count - 1)
        }
    }
}

/// Every name of a table, found by its list and its bytes with ASCII letters lowered: open addressing over a
/// power-of-two array of name indexes.
private struct NameIndex: Sendable {
    private struct Slot: Sendable {
        var hash: UInt32
        var entry: Int32
        var parent: Int32
        var text: RegionTable.Text
        var spelling: RegionTable.Text
    }

    /// Name index + 1 per bucket, 0 for an empty one.
    private let buckets: [Int32]
    private let slots: [Slot]

    init(_ names: [RegionTable.Name], bytes: [UInt8]) {
        var size = 16
        while size < 2 * names.count { size *= 2 }
        var buckets = [Int32](repeating: 0, count: size)
        var slots: [Slot] = []
        slots.reserveCapacity(names.count)
        bytes.withUnsafeBufferPointer { bytes in
            for name in names {
                let text = UnsafeBufferPointer(
                    rebasing: bytes[Int(name.text.start)..<Int(name.text.start + name.text.count)])
                let hash = Self.hash(text, parent: Int(name.parent))
                // A name already held for the list (a key equal to a name, two regions of one name) keeps the first.
                if Self.find(text, hash: hash, parent: Int(name.parent), buckets: buckets, slots: slots, bytes: bytes)
                    != nil
                {
                    continue
                }
                var bucket = Int(hash) & (size - 1)
                while buckets[bucket] != 0 { bucket = (bucket + 1) & (size - 1) }
                slots.append(
                    Slot(hash: hash, entry: name.entry, parent: name.parent, text: name.text, spelling: name.spelling))
                buckets[bucket] = Int32(slots.count)
            }
        }
        self.buckets = buckets
        self.slots = slots
    }

    @inline(__always)
    private static func lowered(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    @inline(__always)
    private static func hash(_ text: UnsafeBufferPointer<UInt8>, parent: Int) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5 ^ UInt32(truncatingIfNeeded: parent &+ 1) &* 0x0100_0193
        for byte in text { hash = (hash ^ UInt32(lowered(byte))) &* 0x0100_0193 }
        return hash ^ hash >> 15
    }

    func find(
        _ text: UnsafeBufferPointer<UInt8>, parent: Int, bytes: UnsafeBufferPointer<UInt8>
    ) -> (entry: Int, spelling: RegionTable.Text)? {
        let hash = Self.hash(text, parent: parent)
        return Self.find(text, hash: hash, parent: parent, buckets: buckets, slots: slots, bytes: bytes)
    }

    private static func find(
        _ text: UnsafeBufferPointer<UInt8>, hash: UInt32, parent: Int, buckets: [Int32], slots: [Slot],
        bytes: UnsafeBufferPointer<UInt8>
    ) -> (entry: Int, spelling: RegionTable.Text)? {
        buckets.withUnsafeBufferPointer { buckets in
            slots.withUnsafeBufferPointer { slots in
                let mask = buckets.count - 1
                var bucket = Int(hash) & mask
                while true {
                    let index = Int(buckets[bucket])
                    guard index > 0 else { return nil }
                    let slot = slots[index - 1]
                    if slot.hash == hash, Int(slot.parent) == parent, Int(slot.text.count) == text.count {
                        var equal = true
                        let start = Int(slot.text.start)
                        for offset in 0..<text.count where lowered(text[offset]) != lowered(bytes[start + offset]) {
                            equal = false
                            break
                        }
                        if equal { return (Int(slot.entry), slot.spelling) }
                    }
                    bucket = (bucket + 1) & mask
                }
            }
        }
    }
}
