import CICU
import FmtCore

/// One layout of a country: its lines, its one-line form and the order of its fields, with the same templates as
/// Arabic-script text writes them (every comma `،`), made once at load. A class: a request takes its layout with
/// one retain.
final class Layout: Sendable {
    let lines: [LineTemplate]
    let oneLine: LineTemplate
    /// Fields in display order: the order they first appear in `lines`.
    let fields: [AddressField]
    /// `fields` as bits by `AddressField.ordinal`.
    let fieldBits: UInt16
    let arabicLines: [LineTemplate]
    let arabicOneLine: LineTemplate
    /// The fields whose first letter decides the script (`LocalScript.deciding`) that this layout shows, in order.
    let deciding: [AddressField]
    /// `lines` and `oneLine` compiled for rendering, and the same for Arabic script.
    let program: LayoutProgram
    let arabicProgram: LayoutProgram

    init(lines: [LineTemplate], oneLine: LineTemplate, fields: [AddressField]) {
        self.lines = lines
        self.oneLine = oneLine
        self.fields = fields
        fieldBits = fields.reduce(0) { $0 | 1 << $1.ordinal }
        deciding = LocalScript.deciding.filter(fields.contains)
        arabicLines = lines.map { $0.replacingCommas(with: ArabicScript.comma) }
        arabicOneLine = oneLine.replacingCommas(with: ArabicScript.comma)
        program = LayoutProgram(lines: lines, oneLine: oneLine)
        let sameInArabic = arabicLines == lines && arabicOneLine == oneLine
        arabicProgram = sameInArabic ? program : LayoutProgram(lines: arabicLines, oneLine: arabicOneLine)
    }

    /// The compiled templates for text in Arabic script or in another.
    func program(arabic: Bool) -> LayoutProgram {
        arabic ? arabicProgram : program
    }

    /// The lines for text in Arabic script or in another.
    func lines(arabic: Bool) -> [LineTemplate] {
        arabic ? arabicLines : lines
    }

    /// The one-line form for text in Arabic script or in another.
    func oneLine(arabic: Bool) -> LineTemplate {
        arabic ? arabicOneLine : oneLine
    }
}

/// Text in Arabic script (Arabic, Persian, Urdu, Pashto, Sorani…) writes its commas as the Arabic comma `،`, in
/// every country: the one-line form joins with `، ` and a layout's `{city}, {district}` reads `{city}، {district}`.
/// Whether text is Arabic is decided as the local layout is: by `address.language` when given, else by the first
/// letter of the values.
enum ArabicScript {
    /// U+060C ARABIC COMMA.
    static let comma: Character = "\u{060C}"
    private static let scripts = ScriptCodes(["Arab"])

    /// Whether text in `language` is Arabic script: its script subtag when it has one (`Arab`, or ISO 15924's
    /// Nastaliq variant `Aran`), else the likely script ICU gives its language and region (`fa`, `ur`, `pa-PK`).
    static func writes(_ language: LanguageTag) -> Bool {
        if let script = language.script { return script == "Arab" || script == "Aran" }
        // Only the language and region bear on the likely script; variants and extensions are left out.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 8) { script in
            let length = fmt_icu_address_likely_script(language.language, language.region, script.baseAddress, 8)
            return length == 4 && script[0] == 0x41 && script[1] == 0x72 && script[2] == 0x61 && script[3] == 0x62
        }
    }

    /// Whether text in `language` (a served language's tag, `en`) is Arabic script; false when it is no tag.
    static func writes(language: String) -> Bool {
        LanguageTag(parsing: language).map { writes($0) } ?? false
    }

    /// Whether the entered values are Arabic script: the first letter of the first of `deciding` (a layout's)
    /// with one decides, as it does for the local layout.
    static func writes(
        _ values: borrowing FieldMap<EnteredText>, in text: RequestText?, deciding: [AddressField]
    ) -> Bool {
        scripts.firstLetterIsIn(values, in: text, deciding: deciding)
    }
}

/// A set of ICU script codes, and whether entered text is written in one of them.
struct ScriptCodes: Sendable {
    private let codes: [Int32]

    /// `names` are ICU Script property values known to exist (checked at load by the caller, or constants).
    init(_ names: [String]) {
        codes = names.map { fmt_icu_address_script_code($0) }
    }

    /// Whether the first letter of the first value among `deciding` (a layout's) that has a letter is in one of
    /// the scripts; false when no value has a letter.
    func firstLetterIsIn(
        _ values: borrowing FieldMap<EnteredText>, in text: RequestText?, deciding: [AddressField]
    ) -> Bool {
        // The first field mostly decides (a city is rarely absent or without a letter): asked before the loop, it
        // does not pay for what the loop sets up.
        guard let first = deciding.first else { return false }
        if let value = values[first], let answer = value.withUTF8(in: text, { firstLetterIsIn($0) }) {
            return answer
        }
        for field in deciding.dropFirst() {
            guard let value = values[field] else { continue }
            if let answer = value.withUTF8(in: text, { firstLetterIsIn($0) }) { return answer }
        }
        return false
    }

    /// Whether the value's first letter is in one of the scripts; nil when it has no letter. Text that reaches
    /// an ASCII letter before any other byte is Latin without asking ICU.
    private func firstLetterIsIn(_ value: UnsafeBufferPointer<UInt8>) -> Bool? {
        for byte in value {
            if byte >= 0x80 { break }
            if (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) { return false }
        }
        guard value.contains(where: { $0 >= 0x80 }) else { return nil }
        let answer = value.withMemoryRebound(to: CChar.self) { characters in
            codes.withUnsafeBufferPointer { codes in
                fmt_icu_address_first_letter_in(
                    characters.baseAddress, Int32(characters.count), codes.baseAddress, Int32(codes.count))
            }
        }
        return answer < 0 ? nil : answer == 1
    }
}

/// What makes an address local to a country with a Latin layout: the languages written in the local script
/// (`ja`) and the scripts of the local layout (`Hani`, `Hira`, `Kana`), with their ICU script codes.
struct LocalScript: Sendable {
    /// Lower-case primary language subtags.
    let languages: [String]
    /// ISO 15924 names as ICU's Script property spells them.
    let scripts: [String]
    private let codes: ScriptCodes
    /// Whether one of `scripts` is Arabic: local text then writes the Arabic comma.
    let writesArabic: Bool

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
        let scriptsProblem = "must be a non-empty array of ISO 15924 script names ICU knows (Hani)"
        for element in try object.member("scripts").array(or: scriptsProblem) ?? [] {
            guard case .string(let script)? = element.value, script.utf8.count == 4 else {
                throw element.invalid(scriptsProblem)
            }
            let code = fmt_icu_address_script_code(script)
            guard code >= 0 else { throw element.invalid("\"\(script)\" is not a script ICU knows") }
            scripts.append(script)
        }
        guard !scripts.isEmpty else { throw object.member("scripts").invalid(scriptsProblem) }
        self.languages = languages
        self.scripts = scripts
        codes = ScriptCodes(scripts)
        writesArabic = scripts.contains("Arab")
    }

    /// Whether text in `language` is written in the local script: its script subtag when it has one
    /// (`ja-Latn` is not), else its language (`ja` is).
    func isLocal(_ language: LanguageTag) -> Bool {
        guard let script = language.script else { return languages.contains(language.language) }
        if scripts.contains(script) { return true }
        return Self.combinations[script]?.contains(where: scripts.contains) ?? false
    }

    /// Whether the entered values are in the local script: the first letter of the first of `deciding` (a
    /// layout's: the fields of `LocalScript.deciding` it shows) with one decides, so a Latin building name in
    /// `extra` does not turn a Japanese address Latin.
    func isLocal(_ values: borrowing FieldMap<EnteredText>, in text: RequestText?, deciding: [AddressField]) -> Bool {
        codes.firstLetterIsIn(values, in: text, deciding: deciding)
    }
}
