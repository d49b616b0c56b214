/// A well-formed BCP 47 language tag, parsed without ICU so malformed input is refused before any
/// ICU call. `nl_BE` is accepted as `nl-BE`; `x`, `123` and `en--GB` are not tags.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// Lower-case language subtag (`nl`).
    public let language: String
    /// Title-case script subtag (`Latn`), if any.
    public let script: String?
    /// Upper-case region subtag (`BE`, `419`), if any.
    public let region: String?
    /// Variants, extensions and private use, lower-case, in their original order (`u-co-phonebk`).
    public let trailing: [String]

    public static let english = LanguageTag(language: "en", script: nil, region: nil, trailing: [])

    public init(language: String, script: String?, region: String?, trailing: [String]) {
        self.language = language
        self.script = script
        self.region = region
        self.trailing = trailing
    }

    /// Parses a tag, or returns nil when it is not well-formed. One pass over the UTF-8 bytes, ASCII case
    /// changes only (a tag is ASCII): a 32-entry `Accept-Language` value parses 32 of these per request.
    /// `ReferenceLanguageTag` in the tests is the plain implementation this one is held to.
    public init?(parsing text: String) {
        guard !text.isEmpty, text.utf8.count <= 128 else { return nil }
        var text = text
        guard let tag = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = tag
    }

    /// The subtags of a tag's bytes, one at a time: each 1 to 8 ASCII letters or digits, separated by `-` or `_`.
    private struct Subtags {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        /// The next subtag's range; nil at the end; `.some(nil)` when it is malformed (empty, longer than 8, or
        /// not alphanumeric).
        mutating func next() -> Range<Int>?? {
            guard position <= bytes.count else { return nil }
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "-"), bytes[position] != UInt8(ascii: "_") {
                guard LanguageTag.isAlphanumeric(bytes[position]) else { return .some(nil) }
                position += 1
            }
            let range = start..<position
            position += 1  // past the separator, or past the end
            return (1...8).contains(range.count) ? .some(range) : .some(nil)
        }

        /// Whether a subtag follows, and its length (0 when none).
        func nextLength() -> Int {
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "-"), bytes[end] != UInt8(ascii: "_") { end += 1 }
            return position <= bytes.count ? end - position : 0
        }
    }

    private enum Case { case lower, upper, title }

    /// The bytes of `range` as a `String` in `letterCase` (ASCII letters only; digits stay).
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ letterCase: Case) -> String {
        String(unsafeUninitializedCapacity: range.count) { out in
            for (offset, index) in range.enumerated() {
                let byte = bytes[index]
                let upper = letterCase == .upper || (letterCase == .title && offset == 0)
                out[offset] = isAlpha(byte) ? (upper ? byte & 0xDF : byte | 0x20) : byte
            }
            return range.count
        }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> LanguageTag? {
        var subtags = Subtags(bytes: bytes)
        guard case .some(.some(let first)) = subtags.next(),
            (2...3).contains(first.count) || (5...8).contains(first.count), bytes[first].allSatisfy(isAlpha)
        else { return nil }
        let language = string(bytes, first, .lower)
        var script: String?
        var region: String?
        var trailing: [String] = []
        var current = subtags.next()
        if case .some(.some(let range)) = current, range.count == 4, bytes[range].allSatisfy(isAlpha) {
            script = string(bytes, range, .title)
            current = subtags.next()
        }
        if case .some(.some(let range)) = current,
            (range.count == 2 && bytes[range].allSatisfy(isAlpha))
                || (range.count == 3 && bytes[range].allSatisfy(isDigit))
        {
            region = string(bytes, range, .upper)
            current = subtags.next()
        }
        var inExtension = false
        var inPrivateUse = false
        while case .some(let next) = current {
            guard let range = next else { return nil }
            if inPrivateUse {
                // After `x`, every subtag of 1 to 8 letters or digits is private use (`en-x-a-b`).
            } else if range.count == 1 {
                // A singleton opens an extension (whose subtags have 2 to 8 characters) or private use (1 to 8);
                // it needs at least one subtag after it.
                inPrivateUse = bytes[range.lowerBound] | 0x20 == UInt8(ascii: "x")
                guard subtags.nextLength() >= (inPrivateUse ? 1 : 2) else { return nil }
                inExtension = true
            } else if !inExtension {
                let isVariant = range.count >= 5 || (range.count == 4 && isDigit(bytes[range.lowerBound]))
                guard isVariant else { return nil }
            }
            trailing.append(string(bytes, range, .lower))
            current = subtags.next()
        }
        return LanguageTag(language: language, script: script, region: region, trailing: trailing)
    }

    /// The canonical spelling (`nl-BE`, `de-DE-u-co-phonebk`).
    public var description: String {
        ([language] + [script, region].compactMap { $0 } + trailing).joined(separator: "-")
    }

    fileprivate static func isAlpha(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    fileprivate static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    fileprivate static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte)
    }
}
