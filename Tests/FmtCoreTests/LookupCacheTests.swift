import FmtTesting
import Testing

@testable import FmtCore

/// The daemon's one cache: values by keys that are values or a client's bytes, bounded in entries and key length,
/// forgetting everything or remembering no more when full.
@Suite struct LookupCacheTests {
    final class Box: Sendable {}

    typealias Forgetting<Value: Sendable> = LookupCache<UTF8Keys, Value, ForgetAll>
    typealias Keeping<Value: Sendable> = LookupCache<UTF8Keys, Value, StopRemembering>

    static func value(_ cache: Forgetting<String>, _ key: String, made: inout Int) -> String? {
        var bytes = key
        return bytes.withUTF8 { bytes in
            cache.value(for: bytes) { () -> String? in
                made += 1
                return key.hasPrefix("nil") ? nil : "v:" + key
            }
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func remembersEachKeyByItsBytes() {
        let cache = Forgetting<String>(limit: 1000, longestKey: 40)
        var made = 0
        // Every length to 40, and keys differing from those in one byte only, first, middle or last.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789ABCD".utf8)
        let lengths = (1...40).map { String(decoding: alphabet[0..<$0], as: UTF8.self) }
        let variants = lengths.flatMap { key -> [String] in
            var bytes = Array(key.utf8)
            return Set([0, bytes.count / 2, bytes.count - 1]).sorted().map { at in
                bytes[at] ^= 0x01
                defer { bytes[at] ^= 0x01 }
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        let keys =
            (0..<400).map { String($0, radix: 7) } + ["", "e\u{301}", "\u{e9}", "exactly-16-bytes"] + lengths
            + variants
        for key in keys { #expect(Self.value(cache, key, made: &made) == "v:" + key) }
        #expect(made == keys.count && cache.count == keys.count)
        for key in keys.reversed() { #expect(Self.value(cache, key, made: &made) == "v:" + key) }
        #expect(made == keys.count)
    }

    @Test func forgetsEverythingAtItsLimitAndNeverKeepsLongKeysOrNil() {
        let cache = Forgetting<String>(limit: 3, longestKey: 4)
        var made = 0
        for key in ["a", "b", "c"] { _ = Self.value(cache, key, made: &made) }
        #expect(cache.count == 3)
        _ = Self.value(cache, "d", made: &made)
        #expect(cache.count == 1)
        #expect(Self.value(cache, "abcde", made: &made) == "v:abcde")
        #expect(Self.value(cache, "nil", made: &made) == nil)
        #expect(cache.count == 1 && made == 6)
        _ = Self.value(cache, "abcde", made: &made)
        _ = Self.value(cache, "nil", made: &made)
        #expect(made == 8)
    }

    /// Keys that are values are compared whole, and forgotten all together at the limit as byte keys are.
    @Test func keysThatAreValuesAreForgottenAllTogetherAtTheLimit() {
        let cache = LookupCache<HashableKeys<String>, String, ForgetAll>(limit: 2)
        var made = 0
        func value(_ key: String) -> String? {
            cache.value(for: key) { () -> String? in
                made += 1
                return key == "none" ? nil : key.uppercased()
            }
        }
        #expect(value("sv") == "SV" && value("sv") == "SV" && made == 1)
        #expect(value("SV") == "SV" && made == 2 && cache.count == 2)
        #expect(value("none") == nil && value("none") == nil && made == 4 && cache.count == 2)
        #expect(value("nl") == "NL" && cache.count == 1)
        #expect(value("sv") == "SV" && made == 6)
        #expect(cache.remember("other", for: "sv") == "SV")
    }

    /// A cache that stops remembering keeps each spelling once, the absent text once, answers a text past the
    /// longest remembered one, and at its limit keeps what it has.
    @Test func aFullCacheThatStopsRememberingKeepsWhatItHas() {
        let cache = Keeping<Box>(limit: 3, longestKey: 8)
        let first = Box()
        let second = Box()
        #expect(Self.bytes("sv").withUnsafeBufferPointer { cache.value(for: $0) } == nil)
        #expect(Self.bytes("sv").withUnsafeBufferPointer { cache.remember(first, for: $0) } === first)
        #expect(Self.bytes("sv").withUnsafeBufferPointer { cache.remember(second, for: $0) } === first)
        #expect(Self.bytes("sv").withUnsafeBufferPointer { cache.value(for: $0) } === first)
        #expect(Self.bytes("sv").withUnsafeBufferPointer { cache.withValue(for: $0) { $0 } } === first)
        #expect(Self.bytes("SV").withUnsafeBufferPointer { cache.value(for: $0) } == nil)
        #expect(Self.bytes("").withUnsafeBufferPointer { cache.value(for: $0) } == nil)
        #expect(cache.value(for: nil) == nil)
        #expect(cache.remember(second, for: nil) === second)
        #expect(cache.withValue(for: nil) { $0 } === second)
        let long = Self.bytes("123456789")
        #expect(long.withUnsafeBufferPointer { cache.remember(second, for: $0) } === second)
        #expect(long.withUnsafeBufferPointer { cache.value(for: $0) } == nil)
        #expect(cache.count == 2)
        for text in ["nl", "de", "fr"] {
            _ = Self.bytes(text).withUnsafeBufferPointer { cache.remember(second, for: $0) }
        }
        #expect(cache.count == 3)
        #expect(Self.bytes("sv").withUnsafeBufferPointer { cache.value(for: $0) } === first)
        #expect(Self.bytes("nl").withUnsafeBufferPointer { cache.value(for: $0) } === second)
        #expect(Self.bytes("de").withUnsafeBufferPointer { cache.remember(first, for: $0) } === first)
        #expect(Self.bytes("de").withUnsafeBufferPointer { cache.value(for: $0) } == nil)
        #expect(Keeping<Box>(limit: 100_000, longestKey: 8).count == 0)
    }

    /// A cache keeps what it remembers until it forgets it or goes itself, then lets go of every value.
    @Test func aCacheLetsGoOfItsValuesWhenItForgetsThemOrGoes() {
        weak var kept: Box?
        weak var refused: Box?
        weak var forgotten: Box?
        do {
            let keeping = Keeping<Box>(limit: 1, longestKey: 8)
            let forgetting = Forgetting<Box>(limit: 1, longestKey: 8)
            do {
                let first = Box()
                let second = Box()
                let third = Box()
                kept = first
                refused = second
                forgotten = third
                keeping.remember(first, for: nil)
                #expect(Self.bytes("sv").withUnsafeBufferPointer { keeping.remember(second, for: $0) } === second)
                forgetting.remember(third, for: nil)
            }
            #expect(kept != nil)
            #expect(refused == nil)
            #expect(forgotten != nil)
            #expect(keeping.value(for: nil) === kept)
            Self.bytes("nl").withUnsafeBufferPointer { _ = forgetting.remember(Box(), for: $0) }
            #expect(forgotten == nil)
        }
        #expect(kept == nil)
    }

    /// Random keys, of lengths on either side of the packed 16 bytes and past the longest remembered, from a small
    /// alphabet so spellings repeat: each kind of key and each policy answers as a dictionary with the same rule.
    @Test func randomKeysAnswerAsADictionaryWithTheSameRule() {
        var generator = SeededGenerator.forTest("randomKeysAnswerAsADictionaryWithTheSameRule", seed: 33)
        for limit in [1, 5, 60] {
            let forgetting = Forgetting<Int>(limit: limit, longestKey: 30)
            let keeping = Keeping<Box>(limit: limit, longestKey: 30)
            let byValue = LookupCache<HashableKeys<[UInt8]>, Int, ForgetAll>(limit: limit)
            var forgettingModel: [[UInt8]: Int] = [:]
            var keepingModel: [[UInt8]: Box] = [:]
            var byValueModel: [[UInt8]: Int] = [:]
            for step in 0..<4000 {
                let length = Int.random(in: 0...34, using: &generator)
                let key = (0..<length).map { _ in UInt8.random(in: 0x61...0x62, using: &generator) }
                let box = Box()
                let (found, kept) = key.withUnsafeBufferPointer { bytes in
                    (forgetting.remember(step, for: bytes), keeping.remember(box, for: bytes))
                }
                if length <= 30 {
                    if forgettingModel[key] == nil, forgettingModel.count >= limit { forgettingModel.removeAll() }
                    if keepingModel[key] == nil, keepingModel.count < limit { keepingModel[key] = box }
                    forgettingModel[key] = forgettingModel[key] ?? step
                }
                if byValueModel[key] == nil, byValueModel.count >= limit { byValueModel.removeAll() }
                byValueModel[key] = byValueModel[key] ?? step
                #expect(found == forgettingModel[key] ?? step, "\(key)")
                #expect(kept === keepingModel[key] ?? box, "\(key)")
                #expect(byValue.remember(step, for: key) == byValueModel[key], "\(key)")
                #expect(forgetting.count == forgettingModel.count && keeping.count == keepingModel.count)
                #expect(byValue.count == byValueModel.count)
            }
        }
    }

    /// Lookups of a cache that stops remembering take no lock: two threads look up every text while a third
    /// remembers them, and each sees a text either not yet or with its own value, never another's.
    @Test func lookupsWhileTextsAreRememberedSeeWholeEntries() async {
        let cache = Keeping<Box>(limit: 256, longestKey: 128)
        let texts = (0..<256).map { Self.bytes("text-\($0)-\(String(repeating: "x", count: $0 % 40))") }
        let boxes = texts.map { _ in Box() }
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for (text, box) in zip(texts, boxes) {
                    _ = text.withUnsafeBufferPointer { cache.remember(box, for: $0) }
                }
                return true
            }
            for _ in 0..<2 {
                group.addTask {
                    var whole = true
                    for _ in 0..<20 {
                        for (text, box) in zip(texts, boxes) {
                            let found = text.withUnsafeBufferPointer { cache.withValue(for: $0) { $0 } }
                            if let found, found !== box { whole = false }
                        }
                    }
                    return whole
                }
            }
            for await whole in group { #expect(whole) }
        }
        #expect(cache.count == 256)
    }

    /// A cache that forgets is read and emptied by several threads at once: each finds a text's own value or none.
    @Test func threadsForgettingAndRememberingAtOnceSeeOnlyTheirTextsValues() async {
        let cache = Forgetting<Int>(limit: 16, longestKey: 64)
        let texts = (0..<100).map { Self.bytes("locale-\($0)-\(String(repeating: "y", count: $0 % 30))") }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    var right = true
                    for _ in 0..<20 {
                        for (index, text) in texts.enumerated() {
                            let found = text.withUnsafeBufferPointer { cache.value(for: $0) { index } }
                            if found != index { right = false }
                        }
                    }
                    return right
                }
            }
            for await right in group { #expect(right) }
        }
        #expect(cache.count <= 16)
    }

    /// A text's first 16 bytes are packed in two words (overlapping ones below 16 bytes) and the rest kept aside: a
    /// change of any one byte, at any length on either side of the packing's edges, is another text.
    @Test func everyByteOfARememberedTextTellsItApart() {
        let cache = Keeping<Box>(limit: 256, longestKey: 128)
        let first = Box()
        let second = Box()
        var remembered: [[UInt8]: Box] = [:]
        var others: [[UInt8]] = []
        for length in 0...36 {
            let base = (0..<length).map { UInt8(truncatingIfNeeded: 0x61 + $0 % 26) }
            remembered[base] = base.withUnsafeBufferPointer { cache.remember(first, for: $0) }
            others.append(base + [0])
            for position in 0..<length {
                var variant = base
                variant[position] ^= 0x20
                if position.isMultiple(of: 4) {
                    remembered[variant] = variant.withUnsafeBufferPointer { cache.remember(second, for: $0) }
                } else {
                    others.append(variant)
                }
            }
        }
        for (text, box) in remembered {
            #expect(text.withUnsafeBufferPointer { cache.value(for: $0) } === box, "\(text)")
        }
        for text in others {
            #expect(text.withUnsafeBufferPointer { cache.value(for: $0) } == nil, "\(text)")
        }
        #expect(cache.count == remembered.count)
    }
}
