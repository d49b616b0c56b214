import FmtCore

/// How `phone` reads `display` aloud in each served language (`spoken`, `spokenLang`): the digits' words from
/// ICU's spell-out rules and the words for a leading `+` and for an extension from the language's
/// `translations/<lang>.json` (`phone.spoken.plus`, `phone.spoken.extension`), all made at load so that a request
/// only copies words. A served language without spell-out rules in ICU is read in English, and `spokenLang` says so.
struct PhoneSpeech: Sendable {
    /// The translation keys read, each required in every served language's table.
    static let plusKey = "phone.spoken.plus"
    static let extensionKey = "phone.spoken.extension"

    /// One language's words: a class, so that a request takes it with one reference count.
    final class Language: Sendable {
        let words: DigitWords
        /// The word for a leading `+`, UTF-8 needing no escape.
        let plus: [UInt8]
        /// `, ` and the word for an extension and a space, before the extension's digits.
        let extensionLead: [UInt8]
        /// `","spokenLang":"en"`: after `spoken`'s text, up to the end of the answer.
        let langTail: [UInt8]
        /// The language's tag (`nl`).
        let lang: String

        init(words: DigitWords, plus: [UInt8], extensionLead: [UInt8], langTail: [UInt8], lang: String) {
            self.words = words
            self.plus = plus
            self.extensionLead = extensionLead
            self.langTail = langTail
            self.lang = lang
        }
    }

    /// Per served language, in the resolver's order.
    private let languages: [Language]
    private let supported: [String]

    init(loading data: DataStore, languages supported: [String]) throws(DataError) {
        var languages: [Language] = []
        var english: Language?
        for language in supported {
            let file = "translations/\(language).json"
            guard case .object(let table) = try data.readJSON(file) else {
                throw DataError(file: file, "must be an object mapping keys to texts")
            }
            func word(_ key: String) throws(DataError) -> String {
                guard case .string(let text)? = table[key], !text.isEmpty else {
                    throw DataError(
                        file: file, field: key,
                        "is missing or not a non-empty string: phone reads numbers aloud with it")
                }
                guard SpokenText.isPlain(text) else {
                    throw DataError(file: file, field: key, "must hold no control character, quote or backslash")
                }
                return text
            }
            let plus = try word(Self.plusKey)
            let extensionWord = try word(Self.extensionKey)
            guard let words = DigitWords(language: language) else {
                // Read in English, whose words ICU always has; `spokenLang` then says `en`.
                languages.append(english ?? Self.english)
                continue
            }
            let entry = Language(
                words: words, plus: Array(plus.utf8), extensionLead: Array(", \(extensionWord) ".utf8),
                langTail: Array(#"","spokenLang":""#.utf8) + Array(language.utf8) + [0x22], lang: language)
            if language == "en" { english = entry }
            languages.append(entry)
        }
        self.languages = languages
        self.supported = supported
    }

    /// English as ICU spells it, for a served language ICU has no spell-out rules for and no `en` table came
    /// first (and for tests).
    static var english: Language {
        Language(
            words: DigitWords(language: "en")!, plus: Array("plus".utf8), extensionLead: Array(", extension ".utf8),
            langTail: Array(#"","spokenLang":"en""#.utf8), lang: "en")
    }

    /// The words of a resolved language (`ResolvedLocale.language`, always a served one); English's for any other.
    func language(_ language: String) -> Language {
        for index in supported.indices where supported[index] == language { return languages[index] }
        return languages[0]
    }

    /// The most bytes `spell` writes for a display and an extension.
    static func capacity(
        _ language: Language, display: UnsafeBufferPointer<UInt8>, phoneExtension: UnsafeBufferPointer<UInt8>?
    ) -> Int {
        var capacity = SpokenText.capacity(of: display, words: language.words, plusCount: language.plus.count)
        if let phoneExtension {
            capacity &+= language.extensionLead.count &+ SpokenText.capacity(of: phoneExtension, words: language.words)
        }
        return capacity
    }

    /// Writes `display` read aloud into `out` (at least `capacity` bytes: checked): its main part (what comes before the extension: the extension's
    /// digits and the metadata's prefix for them, ` ext. `, are taken off its end), then `, `, the extension word
    /// and the extension's digits. Returns the bytes written.
    static func spell(
        _ language: Language, display: UnsafeBufferPointer<UInt8>, phoneExtension: UnsafeBufferPointer<UInt8>?,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        precondition(
            out.count >= capacity(language, display: display, phoneExtension: phoneExtension),
            "PhoneSpeech.spell: the buffer is smaller than its capacity")
        var main = display
        if let phoneExtension, !phoneExtension.isEmpty, display.count >= phoneExtension.count,
            display.suffix(phoneExtension.count).elementsEqual(phoneExtension)
        {
            var end = display.count - phoneExtension.count
            // The prefix (` ext. `, ` доб. `, ` #`) holds no digit: everything after the main part's last digit goes.
            while end > 0 && !(display[end - 1] >= 0x30 && display[end - 1] <= 0x39) { end -= 1 }
            main = UnsafeBufferPointer(rebasing: display[0..<end])
        }
        var written = language.plus.withUnsafeBufferPointer {
            SpokenText.spell(main, words: language.words, plus: $0, into: out)
        }
        if let phoneExtension, !phoneExtension.isEmpty {
            language.extensionLead.withUnsafeBufferPointer { lead in
                var lead = lead
                if written == 0 { lead = UnsafeBufferPointer(rebasing: lead[2...]) }
                _ = UnsafeMutableBufferPointer(rebasing: out[written...]).update(fromContentsOf: lead)
                written &+= lead.count
            }
            written &+= SpokenText.spell(
                phoneExtension, words: language.words, plus: nil,
                into: UnsafeMutableBufferPointer(rebasing: out[written...]))
        }
        return written
    }
}
