import CICU

/// Which way a text runs, by its first strong character: `rtl` when that character's bidi class is R or AL
/// (Hebrew, Arabic, Syriac, Thaana, …), `ltr` when it is L (Latin, Cyrillic, Han, …), `auto` when the text has
/// no strong character (digits, punctuation, spaces only), so the reader's context decides. ICU's
/// `u_charDirection` gives the class; an ASCII letter is L without asking it.
public enum TextDirection: String, Sendable, CaseIterable {
    /// Left to right: the first strong character's bidi class is L.
    case ltr
    /// Right to left: the first strong character's bidi class is R or AL.
    case rtl
    /// No strong character: the reader's context decides (`dir="auto"`).
    case auto

    /// The direction as a JSON string, quotes included (`"rtl"`).
    public var quoted: StaticString {
        switch self {
        case .ltr: "\"ltr\""
        case .rtl: "\"rtl\""
        case .auto: "\"auto\""
        }
    }

    /// The direction of UTF-8 text by its first strong character. A text starting with an ASCII letter (most
    /// values) is answered inline.
    @inlinable
    public static func of(utf8 text: UnsafeBufferPointer<UInt8>) -> TextDirection {
        if let first = text.first, (first | 0x20) &- 0x61 < 26 { return .ltr }
        return scan(text)
    }

    /// The direction of the JSON string whose inside starts at `start` in `json`, read up to its closing quote or
    /// its first strong character, and where that reading stopped (the quote's index, or the strong character's).
    public static func ofJSONString(_ json: UnsafeBufferPointer<UInt8>, from start: Int) -> (TextDirection, Int) {
        var index = start
        let count = json.count
        while index < count {
            let byte = json[index]
            if byte < 0x80 {
                if byte == 0x22 { return (.auto, index) }
                if (byte | 0x20) &- 0x61 < 26 { return (.ltr, index) }
                index &+= 1
                if byte == 0x5C && index < count { index &+= json[index] == UInt8(ascii: "u") ? 5 : 1 }
                continue
            }
            let at = index
            let scalar = decodeScalar(json, at: &index)
            switch fmt_icu_strong_direction(scalar) {
            case 1: return (.ltr, at)
            case 2: return (.rtl, at)
            default: continue
            }
        }
        return (.auto, count)
    }

    /// The direction of the inside of a JSON string as written (no quotes): an escape stands for a control
    /// character, `"` or `\`, none of them strong, so it is skipped (`\u0041` is not read as the letters `u`, `A`).
    public static func of(jsonStringContent text: UnsafeBufferPointer<UInt8>) -> TextDirection {
        ofJSONString(text, from: 0).0
    }

    /// The direction of a `String` by its first strong character.
    public static func of(_ text: String) -> TextDirection {
        var text = text
        return text.withUTF8 { of(utf8: $0) }
    }

    @usableFromInline
    static func scan(_ text: UnsafeBufferPointer<UInt8>) -> TextDirection {
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            if byte < 0x80 {
                index &+= 1
                if (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A { return .ltr }
                continue
            }
            let scalar = decodeScalar(text, at: &index)
            switch fmt_icu_strong_direction(scalar) {
            case 1: return .ltr
            case 2: return .rtl
            default: continue
            }
        }
        return .auto
    }

    /// The scalar of the multi-byte UTF-8 sequence at `index`, moving past it; a malformed byte is read as a
    /// scalar of no direction (U+FFFD) and skipped alone.
    private static func decodeScalar(_ text: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Int32 {
        let lead = text[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard length > 1, index &+ length <= text.count else {
            index &+= 1
            return 0xFFFD
        }
        var scalar = Int32(lead) & (0x7F >> Int32(length))
        for offset in 1..<length {
            let byte = text[index &+ offset]
            guard byte & 0xC0 == 0x80 else {
                index &+= 1
                return 0xFFFD
            }
            scalar = scalar << 6 | Int32(byte & 0x3F)
        }
        index &+= length
        return scalar
    }
}

/// Whether ICU writes a language's script right to left (`uloc_isRightToLeft`: `ar`, `he`, `fa`, `ur`, …).
public func languageIsRightToLeft(_ language: String) -> Bool {
    fmt_icu_is_right_to_left(language) == 1
}

/// How one language reads digits aloud: the words ICU's spell-out rules give 0 to 9 (`zero` … `nine`, `nul` …
/// `negen`, `null` … `neun`), made once when a plugin loads, so that reading a number costs only copying words.
/// No word needs a JSON escape (one that would is refused), so what `SpokenText.spell` writes goes into a JSON
/// string as it is. A class, so that handing a language's table to a request costs one reference count.
public final class DigitWords: Sendable {
    /// The language the words are in (`nl`).
    public let language: String
    /// The ten words one after another, UTF-8.
    public let bytes: [UInt8]
    /// Where each word starts in `bytes`; `starts[10]` is its end.
    public let starts: [Int]
    /// The longest word's length in bytes, for sizing a buffer.
    public let longest: Int
    /// Each word after a space (0 to 9), then each word alone (10 to 19), zero-padded to 16 bytes with the length
    /// written in the last byte: what `SpokenText.spell` stores with one vector write.
    let spaced: [SIMD16<UInt8>]

    /// The words of `language` by ICU's spell-out rules; nil when ICU has none for it.
    public convenience init?(language: String) {
        var lengths = [Int32](repeating: 0, count: 10)
        var buffer = [UInt8](repeating: 0, count: 512)
        let total = buffer.withUnsafeMutableBufferPointer { out in
            out.withMemoryRebound(to: CChar.self) {
                fmt_icu_spellout_digits(language, $0.baseAddress, Int32($0.count), &lengths)
            }
        }
        guard total > 0, total <= buffer.count else { return nil }
        var words: [String] = []
        var start = 0
        for length in lengths {
            words.append(String(decoding: buffer[start..<start + Int(length)], as: UTF8.self))
            start += Int(length)
        }
        self.init(language: language, words: words)
    }

    /// A table of given words, 0 to 9; nil unless there are ten, none empty or in need of a JSON escape.
    public init?(language: String, words: [String]) {
        guard words.count == 10 else { return nil }
        self.language = language
        var bytes: [UInt8] = []
        var starts: [Int] = []
        for word in words {
            // A word is stored after a space in 16 bytes, its length in the last: at most 14 bytes.
            guard !word.isEmpty, word.utf8.count <= 14, SpokenText.isPlain(word) else { return nil }
            starts.append(bytes.count)
            bytes.append(contentsOf: word.utf8)
        }
        starts.append(bytes.count)
        self.bytes = bytes
        self.starts = starts
        let longest = (0..<10).map { starts[$0 + 1] - starts[$0] }.max() ?? 0
        self.longest = longest
        spaced = [1, 0].flatMap { lead in
            (0..<10).map { digit in
                var vector = SIMD16<UInt8>()
                vector[0] = 0x20
                for (offset, byte) in bytes[starts[digit]..<starts[digit + 1]].enumerated() {
                    vector[offset + lead] = byte
                }
                vector[15] = UInt8(starts[digit + 1] - starts[digit] + lead)
                return vector
            }
        }
    }

    /// The word of `digit` (0 to 9).
    public func word(_ digit: Int) -> String {
        String(decoding: bytes[starts[digit]..<starts[digit + 1]], as: UTF8.self)
    }
}

/// Reads a shown number aloud, character by character: each digit as its word, each letter as the capital letter,
/// the characters of one group separated by a space and the groups (what spaces, hyphens, dots, slashes and
/// brackets separate) by `, `; a `+` opening the text as the `plus` word. `06 12345678` reads in English
/// `zero six, one two three four five six seven eight`, `1017 CD` `one zero one seven, C D`, `+31 6`
/// `plus three one, six`. A digit of another script (`٣`) is read by its value.
public enum SpokenText {
    /// The most bytes `spell` writes for `text` with `words` and a `plus` word of `plusCount` bytes.
    @inlinable
    public static func capacity(of text: UnsafeBufferPointer<UInt8>, words: DigitWords, plusCount: Int = 0) -> Int {
        // A byte becomes at most a word (a digit) or four bytes (a letter's capital: a scalar of up to four bytes
        // may uppercase to three scalars), plus the separator before it; a word is stored as 16 bytes.
        text.count &* (max(words.longest, 12) &+ 2) &+ plusCount &+ 18
    }

    /// Reads `text` aloud with `words` into `buffer` (at least `capacity(of:words:plusCount:)` bytes: checked); returns the bytes
    /// written, which need no JSON escape when `plus` needs none. `plus` is the word for a leading `+` (nil: `+`
    /// separates groups). ASCII is read from a table, a byte at a time: a digit is one 16-byte store of its word
    /// with the space before it; other scripts go through `Writer.putScalar`. `reference(_:words:plus:)` is the
    /// plain reading it is held to.
    public static func spell(
        _ text: UnsafeBufferPointer<UInt8>, words: DigitWords, plus: UnsafeBufferPointer<UInt8>?,
        into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        // One check proves every write below in bounds: `capacity` counts the most a byte of text can become.
        precondition(
            buffer.count >= capacity(of: text, words: words, plusCount: plus?.count ?? 0),
            "SpokenText.spell: the buffer is smaller than its capacity")
        let out = buffer.baseAddress!
        return words.spaced.withUnsafeBufferPointer { spaced in
            var writer = Writer(out: out)
            var index = 0
            let count = text.count
            while index < count {
                let byte = text[index]
                if byte < 0x80 {
                    index &+= 1
                    let digit = byte &- 0x30
                    if digit < 10 {
                        writer.putDigit(Int(digit), spaced)
                    } else if (byte | 0x20) &- 0x61 < 26 {
                        writer.put(byte & 0xDF)
                    } else if byte == 0x2B, writer.written == 0, let plus, let base = plus.baseAddress, plus.count > 0 {
                        writer.put(base, plus.count)
                    } else {
                        writer.separate()
                    }
                    continue
                }
                let start = index
                index &+= 1
                while index < count && text[index] & 0xC0 == 0x80 { index &+= 1 }
                writer.putScalar(UnsafeBufferPointer(rebasing: text[start..<index]), spaced)
            }
            return writer.written
        }
    }

    /// The plain reading `spell` is held to: a `String` built scalar by scalar with the same rule.
    package static func reference(_ text: String, words: DigitWords, plus: String?) -> String {
        var tokens: [String] = []
        var separated = false
        func add(_ token: String) {
            if !tokens.isEmpty { tokens.append(separated ? ", " : " ") }
            separated = false
            tokens.append(token)
        }
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            if scalar == "+" && tokens.isEmpty, let plus, !plus.isEmpty {
                add(plus)
            } else if properties.numericType == .decimal, let value = properties.numericValue, value >= 0,
                value <= 9
            {
                add(words.word(Int(value)))
            } else if properties.isAlphabetic {
                add(properties.uppercaseMapping.isEmpty ? String(scalar) : properties.uppercaseMapping)
            } else if properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark {
                if !tokens.isEmpty && !separated { tokens[tokens.count - 1] += String(scalar) }
            } else if !tokens.isEmpty {
                separated = true
            }
        }
        return tokens.joined()
    }

    /// Where `spell` writes: a word or letter goes after a space within a group, after `, ` when a separator came
    /// since the last one, and after nothing at the start.
    private struct Writer {
        let out: UnsafeMutablePointer<UInt8>
        var written = 0
        var separated = false

        init(out: UnsafeMutablePointer<UInt8>) {
            self.out = out
        }

        @inline(__always)
        mutating func separate() {
            if written > 0 { separated = true }
        }

        @inline(__always)
        private mutating func lead() {
            guard written > 0 else { return }
            if separated {
                out[written] = 0x2C
                out[written &+ 1] = 0x20
                written &+= 2
                separated = false
            } else {
                out[written] = 0x20
                written &+= 1
            }
        }

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            lead()
            out[written] = byte
            written &+= 1
        }

        /// A digit's word as `DigitWords.spaced` holds it: a space, the word, and its length with the space in the
        /// last byte. One 16-byte store (the capacity leaves room past the end); the space is kept unless the word
        /// is the first, and a separator before it adds only its comma.
        @inline(__always)
        mutating func putDigit(_ digit: Int, _ table: UnsafeBufferPointer<SIMD16<UInt8>>) {
            // The first word has no space before it: the table's second half.
            let spaced = table[written == 0 ? digit &+ 10 : digit]
            let length = Int(spaced[15])
            if separated {
                out[written] = 0x2C
                written &+= 1
                separated = false
            }
            UnsafeMutableRawPointer(out + written).storeBytes(of: spaced, as: SIMD16<UInt8>.self)
            written &+= length
        }

        @inline(__always)
        mutating func put(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
            lead()
            (out + written).update(from: bytes, count: count)
            written &+= count
        }

        /// A scalar outside ASCII (its UTF-8 bytes): a decimal digit of any script as its word, a letter as its
        /// capital, a mark straight after the letter before it, anything else a separator.
        mutating func putScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ spaced: UnsafeBufferPointer<SIMD16<UInt8>>) {
            guard let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first else { return }
            let properties = scalar.properties
            if properties.numericType == .decimal, let value = properties.numericValue, value >= 0, value <= 9 {
                putDigit(Int(value), spaced)
            } else if properties.isAlphabetic {
                var upper = properties.uppercaseMapping
                if upper.isEmpty { upper = String(scalar) }
                upper.withUTF8 { put($0.baseAddress!, $0.count) }
            } else if properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark {
                if written > 0 && !separated {
                    (out + written).update(from: bytes.baseAddress!, count: bytes.count)
                    written &+= bytes.count
                }
            } else {
                separate()
            }
        }
    }

    /// `spell` as a `String` (tests, tools): `text` read aloud with `words`, `plus` the word for a leading `+`.
    public static func spoken(_ text: String, words: DigitWords, plus: String? = nil) -> String {
        var text = text
        var plusBytes = Array((plus ?? "").utf8)
        let bytes = text.withUTF8 { utf8 in
            plusBytes.withUnsafeMutableBufferPointer { plusBuffer in
                let capacity = capacity(of: utf8, words: words, plusCount: plusBuffer.count)
                return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                    count = spell(
                        utf8, words: words, plus: plus == nil ? nil : UnsafeBufferPointer(plusBuffer), into: buffer)
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a word goes into a JSON string as it is: no control character, `"` or `\`.
    public static func isPlain(_ word: String) -> Bool {
        !word.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    }

    /// Whether a shown postal code is read aloud: when it has a letter or more than four digits (`1017 CD`,
    /// `12345`, `SW1A 1AA`, `1000-205`: every digit of the code counts), not when it has at most four digits and
    /// no letter (`1000`, `8010`).
    public static func readsPostalCode(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte < 0x80 {
                index &+= 1
                if byte >= 0x30 && byte <= 0x39 {
                    digits &+= 1
                    if digits > 4 { return true }
                } else if (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A {
                    return true
                }
                continue
            }
            let start = index
            index &+= 1
            while index < text.count && text[index] & 0xC0 == 0x80 { index &+= 1 }
            let scalarText = String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)
            guard let scalar = scalarText.unicodeScalars.first else { continue }
            if scalar.properties.numericType == .decimal {
                digits &+= 1
                if digits > 4 { return true }
            } else if scalar.properties.isAlphabetic {
                return true
            }
        }
        return false
    }
}
