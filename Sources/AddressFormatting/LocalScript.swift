import CICU
import FmtCore

/// The layout a country writes in another script: libaddressinput's Latin `lfmt` beside its local `fmt`
/// (JP, CN, KR, TW, HK, MO, TH), or the same lines joined by `, ` instead of the local language's joiner (EG).
struct LatinLayout: Sendable {
    let lines: [LineTemplate]
    let oneLine: LineTemplate
    /// Fields in display order: the order they first appear in `lines`.
    let fields: [AddressField]
}

/// What makes an address local to a country with a Latin layout: the languages written in the local script
/// (`ja`) and the scripts of the local layout (`Hani`, `Hira`, `Kana`), with their ICU script codes.
struct LocalScript: Sendable {
    /// Lower-case primary language subtags.
    let languages: [String]
    /// ISO 15924 names as ICU's Script property spells them.
    let scripts: [String]
    private let codes: [Int32]

    /// ISO 15924 codes for script combinations, which are no Script property value of their own: the tag
    /// `ja-Jpan` is local where the format lists `Hani`, `Hira` or `Kana`.
    private static let combinations: [String: [String]] = [
        "Jpan": ["Hani", "Hira", "Kana"], "Kore": ["Hang", "Hani"], "Hans": ["Hani"], "Hant": ["Hani"],
        "Hanb": ["Hani", "Bopo"],
    ]

    /// The fields whose script decides, in this order: the first letter among them is read.
    static let deciding: [AddressField] = [
        .city, .region, .district, .street, .extra, .organization, .name, .sortingCode, .houseNumber, .postalCode,
    ]

    init(_ value: DataFields.Value) throws(DataError) {
        let problem = "must be an object with \"languages\" and \"scripts\""
        guard let object = try value.object(or: problem) else { throw value.invalid(problem) }
        if let unknown = object.members.first(where: { $0.name != "languages" && $0.name != "scripts" }) {
            throw unknown.value.invalid("is not a member of local (languages, scripts)")
        }
        var languages: [String] = []
        let languagesProblem = "must be a non-empty array of lower-case language subtags (ja)"
        for element in try object.member("languages").array(or: languagesProblem) ?? [] {
            guard case .string(let language)? = element.value, (2...8).contains(language.utf8.count),
                language.utf8.allSatisfy({ (0x61...0x7A).contains($0) })
            else { throw element.invalid(languagesProblem) }
            languages.append(language)
        }
        guard !languages.isEmpty else { throw object.member("languages").invalid(languagesProblem) }
        var scripts: [String] = []
        var codes: [Int32] = []
        let scriptsProblem = "must be a non-empty array of ISO 15924 script names ICU knows (Hani)"
        for element in try object.member("scripts").array(or: scriptsProblem) ?? [] {
            guard case .string(let script)? = element.value, script.utf8.count == 4 else {
                throw element.invalid(scriptsProblem)
            }
            let code = fmt_icu_address_script_code(script)
            guard code >= 0 else { throw element.invalid("\"\(script)\" is not a script ICU knows") }
            scripts.append(script)
            codes.append(code)
        }
        guard !scripts.isEmpty else { throw object.member("scripts").invalid(scriptsProblem) }
        self.languages = languages
        self.scripts = scripts
        self.codes = codes
    }

    /// Whether text in `language` is written in the local script: its script subtag when it has one
    /// (`ja-Latn` is not), else its language (`ja` is).
    func isLocal(_ language: LanguageTag) -> Bool {
        guard let script = language.script else { return languages.contains(language.language) }
        if scripts.contains(script) { return true }
        return Self.combinations[script]?.contains(where: scripts.contains) ?? false
    }

    /// Whether the entered values are in the local script: the first letter of the first of `deciding` the
    /// format shows with one decides, so a Latin building name in `extra` does not turn a Japanese address Latin.
    func isLocal(_ values: FieldMap<String>, shown: [AddressField]) -> Bool {
        for field in Self.deciding {
            guard let value = values[field], shown.contains(field) else { continue }
            switch firstLetterIsLocal(value) {
            case true?: return true
            case false?: return false
            case nil: continue
            }
        }
        return false
    }

    /// Whether the value's first letter is in a local script; nil when it has no letter. Text that reaches
    /// an ASCII letter before any other byte is Latin without asking ICU.
    private func firstLetterIsLocal(_ value: String) -> Bool? {
        for byte in value.utf8 {
            if byte >= 0x80 { break }
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) { return false }
        }
        guard value.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
        var text = value
        let answer = text.withUTF8 { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                codes.withUnsafeBufferPointer { codes in
                    fmt_icu_address_first_letter_in(
                        characters.baseAddress, Int32(characters.count), codes.baseAddress, Int32(codes.count))
                }
            }
        }
        return answer < 0 ? nil : answer == 1
    }
}
