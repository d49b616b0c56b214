import FmtCore
import Glibc

/// An address as the caller sent it: trimmed field values (empty ones dropped) and the canonical country. Lives
/// only while its request is answered: its values may point into the request's line.
struct AddressInput {
    var values: FieldMap<EnteredText>
    /// The request's text the values read from it lie in (`EnteredText.request`); nil when none does.
    var text: RequestText?
    var country: String
    /// `address.language`: the language the values are written in, when the caller says.
    var language: EnteredLanguage? = nil

    /// An address with no values, for `AddressPlugin` to read one into.
    init() {
        values = FieldMap()
        country = ""
    }

    init(
        values: consuming FieldMap<EnteredText>, text: RequestText? = nil, country: String,
        language: EnteredLanguage? = nil
    ) {
        self.values = values
        self.text = text
        self.country = country
        self.language = language
    }

    /// An address of values made in code as `String`s (the rendering tests').
    init(strings: FieldMap<String>, country: String, language: EnteredLanguage? = nil) {
        var values = FieldMap<EnteredText>()
        for field in AddressField.allCases {
            if let text = strings[field] { values[field] = .string(text) }
        }
        self.init(values: values, country: country, language: language)
    }

    /// The language of the entered text for `linesLang` and `valueLang`: `address.language`, else `und`.
    var textLanguage: String {
        language?.text ?? "und"
    }
}

/// An entered value as it is shown: the place of its trimmed text in the request (most values: a `TextRange`,
/// offsets and no pointer, read back through the address's `RequestText`), or a `String` (text trimmed through
/// `Character`s, a value the format rewrote, text made in code). A value read from the line is made into a
/// `String` only where a rule needs one.
enum EnteredText: Sendable {
    case request(TextRange)
    case string(String)

    /// Calls `body` with the value's UTF-8; `text` is the address's (`AddressInput.text`), which a value read from
    /// the request lies in.
    @inline(__always)
    func withUTF8<Result>(in text: RequestText?, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch self {
        case .request(let range): return body(text!.unsafeUTF8(range))
        case .string(var string): return string.withUTF8(body)
        }
    }

    /// The value as a `String`.
    func string(in text: RequestText?) -> String {
        switch self {
        case .request(let range): text!.string(range)
        case .string(let string): string
        }
    }
}

/// A language tag a request names for its text (`address.language`, `addressFormat`'s `language`), with what the
/// formats ask of it worked out once: a plugin remembers one per distinct text sent.
final class EnteredLanguage: Sendable {
    let tag: LanguageTag
    /// The tag as `linesLang` and `valueLang` write it (`ja-Latn`).
    let text: String
    /// Whether text in the language is Arabic script (`ArabicScript.writes`).
    let writesArabic: Bool

    init(_ tag: LanguageTag) {
        self.tag = tag
        text = tag.description
        writesArabic = ArabicScript.writes(tag)
    }
}

/// What `AddressRenderer.prepare` decided about an address: its layout, its script and its warnings.
struct PreparedAddress: Sendable {
    let layout: Layout
    /// Whether the text is Arabic script: the layout's commas are written `،`.
    let arabic: Bool
    /// The fields with a warning, by `AddressField.ordinal`: `missing_required` when the field has no value,
    /// else `postal_code_format` or `postal_code_region` (postal code), `region_unknown`, `city_unknown` or
    /// `district_unknown` (`AddressValidation`). A field has at most one.
    let warnings: UInt16
    /// The field left out of the lines and the one-line form because it equals another (`dropWhenEqual`), or
    /// nil; `fields` still lists it.
    let hidden: AddressField?
    /// Whether the postal code's warning is `postal_code_region` rather than `postal_code_format`.
    var postalCodeRegion = false
}

/// Formats an address with its country's format in the viewer's language, writing the response's members as
/// bytes. The labels and warnings every format can show are encoded as JSON once at load for each language with
/// a label table, so a request reads no label tables and builds no Strings for them.
final class AddressRenderer: Sendable {
    /// The languages with a label table, in `LabelTable.languages` order: the index of one picks its texts.
    private let languages: [String]
    /// Per language.
    private let languageTexts: [EncodedLanguage]
    /// Per language, then per format (`language * formatCount + format`, formats as `FormatCatalog.ordered`).
    private let formatTexts: [EncodedFormat]
    /// The bytes `EncodedLanguage` and `EncodedFormat` point into.
    private let encoded: [UInt8]
    private let formatCount: Int
    /// The index of English, the language of texts for a language without a table (as `LabelTable.text`).
    private let fallbackLanguage: Int
    /// Per language, the words `spokenPostalCode` reads digits with (ICU's spell-out rules); English's for a
    /// language ICU has none for.
    private let digitWords: [DigitWords]

    /// A run of `encoded`.
    struct Span: Sendable {
        var start: UInt32 = 0
        var count: UInt32 = 0
    }

    /// A span for each field, inline (a `FieldMap` of spans takes half as much again for its optionals).
    struct FieldSpans: Sendable {
        private var spans = (Span(), Span(), Span(), Span(), Span(), Span(), Span(), Span(), Span(), Span())

        subscript(field: AddressField) -> Span {
            get {
                withUnsafeBytes(of: spans) {
                    $0.load(fromByteOffset: field.ordinal * MemoryLayout<Span>.stride, as: Span.self)
                }
            }
            set {
                withUnsafeMutableBytes(of: &spans) {
                    $0.storeBytes(of: newValue, toByteOffset: field.ordinal * MemoryLayout<Span>.stride, as: Span.self)
                }
            }
        }
    }

    /// One language's encoded texts.
    private struct EncodedLanguage: Sendable {
        /// `,"lang":"nl"`.
        var langMember = Span()
        /// `"nl"`, for `linesLang` and the country's `valueLang`.
        var quoted = Span()
        /// `{"field":"country","label":"Land"`.
        var countryField = Span()
        /// `{"field":"country","label":"Land","value":"`: `fields`' last entry up to the country's name.
        var countryValueField = Span()
        /// `","valueLang":"nl"`: the rest of that entry up to its `valueDir`.
        var countryValueTail = Span()
        /// Whether the language is written in Arabic script: its country name joins Arabic text with `،`.
        var writesArabic = false
    }

    /// One format's encoded texts in one language.
    private struct EncodedFormat: Sendable {
        /// `,"format":"NL"`.
        var formatMember = Span()
        /// `{"field":"street","label":"Straat"` for each of the format's fields.
        var field = FieldSpans()
        /// `{"field":"street","label":"Straat","value":"`: a `fields` entry up to the value, for each field.
        var valueField = FieldSpans()
        /// The whole `missing_required` warning object for each of the format's fields.
        var missingRequired = FieldSpans()
        /// The whole `postal_code_format` warning object, with the example code.
        var postalCodeFormat = Span()
        /// The whole `postal_code_region` warning object.
        var postalCodeRegion = Span()
        /// The whole `region_unknown`, `city_unknown` or `district_unknown` warning object, for those fields.
        var unknown = FieldSpans()
        /// The whole `field_not_used` warning object for each field.
        var notUsed = FieldSpans()
    }

    /// The texts of `formats` (`FormatCatalog.ordered`) in every language with a label table.
    init(labels: LabelTable, formats: [AddressFormat]) {
        languages = labels.languages
        formatCount = formats.count
        fallbackLanguage = labels.languages.firstIndex(of: "en") ?? 0
        let english = DigitWords(language: "en")
        digitWords = labels.languages.map { DigitWords(language: $0) ?? english! }
        var encoded: [UInt8] = []
        /// Appends the pieces, strings quoted and escaped and literals as they are, as one span.
        func add(_ pieces: EncodedPiece...) -> Span {
            let start = UInt32(encoded.count)
            for piece in pieces {
                switch piece {
                case .literal(let text): encoded.append(contentsOf: text.utf8)
                case .string(let text): JSONWriter.appendString(text, to: &encoded)
                }
            }
            return Span(start: start, count: UInt32(encoded.count) - start)
        }
        func warning(_ code: String, _ field: AddressField, _ message: String) -> Span {
            add(
                .literal("{\"code\":"), .string(code), .literal(",\"field\":"), .string(field.rawValue),
                .literal(",\"message\":"), .string(message), .literal("}"))
        }
        let formatMembers = formats.map { add(.literal(",\"format\":"), .string($0.key)) }
        var languageTexts: [EncodedLanguage] = []
        var formatTexts: [EncodedFormat] = []
        formatTexts.reserveCapacity(labels.languages.count * formats.count)
        for language in labels.languages {
            var texts = EncodedLanguage()
            texts.langMember = add(.literal(",\"lang\":"), .string(language))
            texts.quoted = add(.string(language))
            let countryLabel = labels.text("address.field.country", language: language)
            texts.countryField = add(.literal("{\"field\":\"country\",\"label\":"), .string(countryLabel))
            texts.countryValueField = add(
                .literal("{\"field\":\"country\",\"label\":"), .string(countryLabel), .literal(",\"value\":\""))
            texts.countryValueTail = add(.literal("\",\"valueLang\":"), .string(language))
            texts.writesArabic = ArabicScript.writes(language: language)
            languageTexts.append(texts)
            let postalCodeRegion = warning(
                "postal_code_region", .postalCode,
                labels.text("address.warning.postal_code_region", language: language))
            var unknownTexts: [FieldLabelKey: Span] = [:]
            // Formats share label keys and example codes: each text is worded and encoded once per language.
            var fieldTexts: [FieldLabelKey: (field: Span, valueField: Span, missing: Span, notUsed: Span)] = [:]
            var postalCodeWarnings: [String: Span] = [:]
            for (index, format) in formats.enumerated() {
                var entry = EncodedFormat()
                entry.formatMember = formatMembers[index]
                // Every field, so that one the layout has no place for is listed in `fields` with its warning.
                for field in AddressField.allCases {
                    let key = FieldLabelKey(field: field, labelKey: format.labelKeys[field] ?? field.defaultLabelKey)
                    let texts: (field: Span, valueField: Span, missing: Span, notUsed: Span)
                    if let known = fieldTexts[key] {
                        texts = known
                    } else {
                        let label = labels.text(key.labelKey, language: language)
                        let missing = labels.text(
                            "address.warning.missing_required", language: language, ["field": label])
                        let notUsed = labels.text(
                            "address.warning.field_not_used", language: language, ["field": label])
                        texts = (
                            add(
                                .literal("{\"field\":"), .string(field.rawValue), .literal(",\"label\":"),
                                .string(label)),
                            add(
                                .literal("{\"field\":"), .string(field.rawValue), .literal(",\"label\":"),
                                .string(label), .literal(",\"value\":\"")),
                            warning("missing_required", field, missing),
                            warning("field_not_used", field, notUsed)
                        )
                        fieldTexts[key] = texts
                    }
                    entry.field[field] = texts.field
                    entry.valueField[field] = texts.valueField
                    entry.missingRequired[field] = texts.missing
                    entry.notUsed[field] = texts.notUsed
                }
                let example = format.examplePostalCode ?? ""
                if let known = postalCodeWarnings[example] {
                    entry.postalCodeFormat = known
                } else {
                    let message = labels.text(
                        "address.warning.postal_code_format", language: language, ["example": example])
                    entry.postalCodeFormat = warning("postal_code_format", .postalCode, message)
                    postalCodeWarnings[example] = entry.postalCodeFormat
                }
                entry.postalCodeRegion = postalCodeRegion
                for (field, code) in [
                    (AddressField.region, "region_unknown"), (.city, "city_unknown"),
                    (.district, "district_unknown"),
                ] {
                    let key = FieldLabelKey(field: field, labelKey: format.labelKeys[field] ?? field.defaultLabelKey)
                    if let known = unknownTexts[key] {
                        entry.unknown[field] = known
                    } else {
                        let label = labels.text(key.labelKey, language: language)
                        let message = labels.text("address.warning.\(code)", language: language, ["field": label])
                        entry.unknown[field] = warning(code, field, message)
                        unknownTexts[key] = entry.unknown[field]
                    }
                }
                formatTexts.append(entry)
            }
        }
        self.languageTexts = languageTexts
        self.formatTexts = formatTexts
        self.encoded = encoded
    }

    /// A piece of an encoded text: JSON as it is, or a string to quote.
    private enum EncodedPiece {
        case literal(String)
        case string(String)
    }

    /// A field with its format's label key: what its label and `missing_required` warning depend on.
    private struct FieldLabelKey: Hashable {
        let field: AddressField
        let labelKey: String
    }

    /// The texts of a viewer's language: a served language's own, or English's for one without a table (as
    /// `LabelTable.text` falls back).
    struct LanguageChoice {
        let index: Int
        /// Whether the language has its own table, so its `lang` member is encoded too.
        let hasTable: Bool

        /// `index` when the language has its own table (`LabelTable.languages`), else nil: an index that names
        /// this language alone.
        var tableIndex: Int? { hasTable ? index : nil }
    }

    /// The texts of `language` (a served language's).
    func language(_ language: String) -> LanguageChoice {
        guard let index = languages.firstIndex(of: language) else {
            return LanguageChoice(index: fallbackLanguage, hasTable: false)
        }
        return LanguageChoice(index: index, hasTable: true)
    }

    /// `,"lang":"nl"`: encoded at load for a language with a table, else written from `lang`.
    private func writeLang(
        _ lang: String, _ choice: LanguageChoice, encoded: UnsafeBufferPointer<UInt8>, into sink: inout ByteWriter
    ) {
        if choice.hasTable {
            sink.append(encoded.span(languageTexts[choice.index].langMember))
        } else {
            sink.append(",\"lang\":")
            sink.appendString(lang)
        }
    }

    // MARK: - Shown values and warnings

    /// Checks `input` against `format` and turns its values into the shown ones (postal code normalised,
    /// region code), so no copy of them is made; with the layout and script they are written in.
    func prepare(_ input: inout AddressInput, format: AddressFormat) -> PreparedAddress {
        let (layout, arabic) = format.layout(values: input.values, text: input.text, language: input.language)
        var warnings: UInt16 = 0
        for field in format.fields where !input.values.has(field) {
            warnings |= format.requiredBits & 1 << field.ordinal
        }
        // A format's rule and region codes are for fields its lines show (checked at load).
        if let rule = format.postalCode, let value = input.values[.postalCode] {
            let shown = value.withUTF8(in: input.text) { entered in
                rule.withNormalized(utf8: entered) { code -> ShownCode in
                    guard let code else { return .unconfirmed }
                    guard code.count == entered.count, code.hasSameBytes(as: entered) else {
                        return .other(String(decoding: code, as: UTF8.self))
                    }
                    return .entered
                }
            }
            switch shown {
            case .entered: break
            case .other(let code): input.values[.postalCode] = .string(code)
            case .unconfirmed: warnings |= 1 << AddressField.postalCode.ordinal
            }
        }
        let postalCodeRegion = AddressValidation.check(&input, format: format, warnings: &warnings)
        var hidden: AddressField?
        for (dropped, kept) in format.dropWhenEqual {
            if let value = input.values[dropped], let other = input.values[kept],
                Self.sameText(value, other, in: input.text)
            {
                hidden = dropped
            }
        }
        return PreparedAddress(
            layout: layout, arabic: arabic, warnings: warnings, hidden: hidden, postalCodeRegion: postalCodeRegion)
    }

    /// What a postal-code rule makes of an entered code: the code as entered (most are), another text, or none (a
    /// warning, the code shown as entered).
    private enum ShownCode {
        case entered
        case other(String)
        case unconfirmed
    }

    /// Whether two shown values are the same text, ignoring case (`Madrid`, `MADRID`): ASCII, Latin-1 and caseless
    /// text (`foldedScalar`) over its bytes, other text lower-cased.
    static func sameText(_ first: EnteredText, _ second: EnteredText, in text: RequestText?) -> Bool {
        let folded = first.withUTF8(in: text) { left in
            second.withUTF8(in: text) { right -> Bool? in
                if left.count == right.count, left.hasSameBytes(as: right) { return true }
                return Self.foldedEqual(left, right)
            }
        }
        if let folded { return folded }
        let (first, second) = (first.string(in: text), second.string(in: text))
        return first == second || first.lowercased() == second.lowercased()
    }

    /// Whether two texts of scalars `foldedScalar` covers are equal lower-cased, as `lowercased()` and `==` compare
    /// them; nil when either text has anything else (a mark after a letter can make unequal scalars equal text, so
    /// a difference counts only once both texts are known to be covered).
    private static func foldedEqual(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    ) -> Bool? {
        var leftIndex = 0
        var rightIndex = 0
        var equal = true
        while leftIndex < left.count, rightIndex < right.count {
            guard let one = foldedScalar(left, &leftIndex), let other = foldedScalar(right, &rightIndex) else {
                return nil
            }
            equal = equal && one == other
        }
        var rest = leftIndex < left.count ? left : right
        var index = leftIndex < left.count ? leftIndex : rightIndex
        if leftIndex >= left.count && rightIndex >= right.count {
            rest = left
            index = left.count
        }
        let longer = index < rest.count
        while index < rest.count {
            guard foldedScalar(rest, &index) != nil else { return nil }
        }
        return equal && !longer
    }

    /// The scalar at `index` of UTF-8 text lower-cased, moving `index` past it, when it is one whose text compares
    /// as its bytes do: ASCII and Latin-1 letters (U+00C0–U+00FF, precomposed, so each text is its own NFC), which
    /// `lowercased()` maps `A`–`Z` and U+00C0–U+00DE but U+00D7 to the letter 0x20 above; and caseless letters with no
    /// combining class that no canonical decomposition ends with (Arabic U+0620–U+064A, Thai U+0E01–U+0E5B, kana
    /// U+3041–U+3096 and U+30A1–U+30FA, CJK ideographs U+3400–U+4DBF and U+4E00–U+9FFF, Hangul syllables), kept as
    /// they are, Thai's marks with a combining class among them only when the next scalar is not one too (no Thai
    /// scalar decomposes or composes). Texts of these scalars alone are canonically equivalent only when their
    /// scalars are equal. Nil for anything else.
    @inline(__always)
    private static func foldedScalar(_ text: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> UInt32? {
        let byte = text[index]
        if byte < 0x80 {
            index += 1
            return (0x41...0x5A).contains(byte) ? UInt32(byte) + 0x20 : UInt32(byte)
        }
        if byte < 0xE0 {
            guard byte >= 0xC2, index + 1 < text.count, text[index + 1] & 0xC0 == 0x80 else { return nil }
            let scalar = UInt32(byte & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F)
            switch scalar {
            case 0xC0...0xFF:
                index += 2
                return (0xC0...0xDE).contains(scalar) && scalar != 0xD7 ? scalar + 0x20 : scalar
            case 0x620...0x64A:
                index += 2
                return scalar
            default:
                return nil
            }
        }
        guard byte < 0xF0, index + 2 < text.count, text[index + 1] & 0xC0 == 0x80, text[index + 2] & 0xC0 == 0x80
        else { return nil }
        let scalar = UInt32(byte & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
        switch scalar {
        case 0xE01...0xE37, 0xE3F...0xE47, 0xE4C...0xE5B, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xAC00...0xD7A3:
            index += 3
            return scalar
        case 0xE38...0xE3A, 0xE48...0xE4B:
            // A Thai mark with a combining class: alone after its letter it is in canonical order.
            guard !isThaiMark(text, at: index + 3) else { return nil }
            index += 3
            return scalar
        default:
            return nil
        }
    }

    /// Whether the scalar at `index` (when there is one) is one of the Thai marks with a combining class (U+0E38–
    /// U+0E3A, U+0E48–U+0E4B): two in a row may be reordered by canonical equivalence.
    @inline(__always)
    private static func isThaiMark(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 2 < text.count, text[index] == 0xE0 else { return false }
        switch (text[index + 1], text[index + 2]) {
        case (0xB8, 0xB8...0xBA), (0xB9, 0x88...0x8B): return true
        default: return false
        }
    }

    // MARK: - Writing

    /// The members of an `address` answer after the envelope: `lang`, `country`, `format`, `lines`, `linesLang`,
    /// `oneLine`, `fields` (each entry ending with `valueDir`), `warnings`, `linesDir` and, for a postal code with a
    /// letter or more than four digits, `spokenPostalCode`: the members added last, so the others keep their place.
    func writeAddress(
        _ input: borrowing AddressInput, _ prepared: PreparedAddress, format: AddressFormat, formatIndex: Int,
        language choice: LanguageChoice, lang: String,
        countryName: String, showCountry: Bool, into response: inout ResponseWriter
    ) {
        let language = choice.index
        let undetermined = input.language == nil
        withValues(input, prepared, countryName: countryName, textLanguage: input.textLanguage) { values in
            response.writeMembers { sink in
                encoded.withUnsafeBufferPointer { encoded in
                    let languageTexts = languageTexts[language]
                    let formatTexts = formatTexts[language * formatCount + formatIndex]
                    writeLang(lang, choice, encoded: encoded, into: &sink)
                    sink.append(",\"country\":")
                    sink.appendString(values.country)
                    sink.append(encoded.span(formatTexts.formatMember))
                    let program = prepared.layout.program(arabic: prepared.arabic)
                    var directions = LineDirections()
                    program.withBuffers { buffers in
                        let linesStart = sink.count
                        let lineCount = writeLines(
                            values, program, buffers, countryLine: showCountry, into: &sink)
                        sink.withBytes(linesStart..<sink.count) { directions.read(linesMember: $0) }
                        sink.append(",\"linesLang\":[")
                        let entered = showCountry ? lineCount - 1 : lineCount
                        for line in 0..<entered {
                            if line > 0 { sink.append(0x2C) }
                            sink.append(values.textLanguage)
                        }
                        if showCountry {
                            if entered > 0 { sink.append(0x2C) }
                            sink.append(encoded.span(languageTexts.quoted))
                        }
                        sink.append(0x5D)
                        writeOneLine(
                            values, prepared, program, buffers, countryJoiner: showCountry,
                            viewerWritesArabic: languageTexts.writesArabic, into: &sink)
                    }
                    // The fields with a value that the layout has no place for: `fields` lists them after the shown
                    // ones, each with a `field_not_used` warning. None in a generated format, which shows every
                    // field; a seed format or an operator's may leave some out.
                    let unused = values.enteredFields & ~prepared.layout.fieldBits
                    sink.append(",\"fields\":[")
                    for field in prepared.layout.fields {
                        guard let value = values.value(field.ordinal) else { continue }
                        sink.append(encoded.span(formatTexts.valueField[field]))
                        sink.appendEscaped(value, escape: values.entries[field.ordinal].needsEscape)
                        Self.writeValueLang(undetermined, values.textLanguage, direction: value, into: &sink)
                    }
                    // Then the fields the layout has no place for (never left out in silence).
                    if unused != 0 {
                        for field in AddressField.allCases where unused & 1 << field.ordinal != 0 {
                            guard let value = values.value(field.ordinal) else { continue }
                            sink.append(encoded.span(formatTexts.valueField[field]))
                            sink.appendEscaped(value, escape: values.entries[field.ordinal].needsEscape)
                            Self.writeValueLang(undetermined, values.textLanguage, direction: value, into: &sink)
                        }
                    }
                    sink.append(encoded.span(languageTexts.countryValueField))
                    sink.appendEscaped(values.countryName, escape: values.countryNeedsEscape)
                    sink.append(encoded.span(languageTexts.countryValueTail))
                    sink.append(",\"valueDir\":")
                    sink.append(TextDirection.of(utf8: values.countryName).quoted)
                    sink.append("}],\"warnings\":[")
                    // Most addresses have no warning: the format's fields are gone through only for one that has.
                    var first = true
                    if prepared.warnings != 0 {
                        for field in format.fields where prepared.warnings & (1 << field.ordinal) != 0 {
                            if !first { sink.append(0x2C) }
                            first = false
                            let span: Span
                            if values.value(field.ordinal) == nil {
                                span = formatTexts.missingRequired[field]
                            } else {
                                span =
                                    field != .postalCode
                                    ? formatTexts.unknown[field]
                                    : prepared.postalCodeRegion
                                        ? formatTexts.postalCodeRegion : formatTexts.postalCodeFormat
                            }
                            sink.append(encoded.span(span))
                        }
                    }
                    if unused != 0 {
                        for field in AddressField.allCases where unused & 1 << field.ordinal != 0 {
                            if !first { sink.append(0x2C) }
                            first = false
                            sink.append(encoded.span(formatTexts.notUsed[field]))
                        }
                    }
                    sink.append(0x5D)
                    sink.append(",\"linesDir\":[")
                    directions.write(into: &sink)
                    sink.append(0x5D)
                    if let postalCode = values.value(AddressField.postalCode.ordinal),
                        SpokenText.readsPostalCode(postalCode)
                    {
                        Self.writeSpoken(postalCode, words: digitWords[language], into: &sink)
                    }
                }
            }
        }
    }

    /// The end of a `fields` entry after its value: `","valueLang":` with the text's language (`"und"` when it is
    /// undetermined), `,"valueDir":` with the direction of `value`'s first strong character, and `},`: each tail
    /// one literal.
    @inline(__always)
    private static func writeValueLang(
        _ undetermined: Bool, _ textLanguage: UnsafeBufferPointer<UInt8>, direction value: UnsafeBufferPointer<UInt8>,
        into sink: inout ByteWriter
    ) {
        let direction = TextDirection.of(utf8: value)
        if undetermined {
            switch direction {
            case .ltr: sink.append("\",\"valueLang\":\"und\",\"valueDir\":\"ltr\"},")
            case .rtl: sink.append("\",\"valueLang\":\"und\",\"valueDir\":\"rtl\"},")
            case .auto: sink.append("\",\"valueLang\":\"und\",\"valueDir\":\"auto\"},")
            }
        } else {
            sink.append("\",\"valueLang\":")
            sink.append(textLanguage)
            switch direction {
            case .ltr: sink.append(",\"valueDir\":\"ltr\"},")
            case .rtl: sink.append(",\"valueDir\":\"rtl\"},")
            case .auto: sink.append(",\"valueDir\":\"auto\"},")
            }
        }
    }

    /// `,"spokenPostalCode":"…"`: the shown postal code read aloud with `words` (`SpokenText`), which needs no
    /// escape (digit words are checked plain at load, letters and marks never need one).
    private static func writeSpoken(
        _ postalCode: UnsafeBufferPointer<UInt8>, words: DigitWords, into sink: inout ByteWriter
    ) {
        let capacity = SpokenText.capacity(of: postalCode, words: words)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let count = SpokenText.spell(postalCode, words: words, plus: nil, into: buffer)
            sink.append(",\"spokenPostalCode\":\"")
            sink.append(UnsafeBufferPointer(start: buffer.baseAddress, count: count))
            sink.append(0x22)
        }
    }

    /// The members of an `addressFormat` answer after the envelope: `lang`, `country`, `countryName`, `format`,
    /// `fields` (of `layout`, with the country), `layoutScript` (where the format has a Latin layout), `layout`
    /// and `oneLine` (`layout`'s, as Arabic script writes them when `arabic`), `postalCode` and `example` (the
    /// example address as the data has it, and its lines and one-line form rendered as `address` would).
    func writeDescription(
        _ format: AddressFormat, formatIndex: Int, language choice: LanguageChoice, lang: String, layout: Layout,
        isLatin: Bool,
        arabic: Bool,
        countryName: String, example input: borrowing AddressInput, _ prepared: PreparedAddress, showCountry: Bool,
        into response: inout ResponseWriter
    ) {
        let language = choice.index
        let enteredLanguage = input.language
        // The shown values are made first, so that no closure holds a copy of the input.
        withValues(input, prepared, countryName: countryName, textLanguage: "") { values in
            response.writeMembers { sink in
                encoded.withUnsafeBufferPointer { encoded in
                    let languageTexts = languageTexts[language]
                    let formatTexts = formatTexts[language * formatCount + formatIndex]
                    writeLang(lang, choice, encoded: encoded, into: &sink)
                    sink.append(",\"country\":")
                    sink.appendString(values.country)
                    sink.append(",\"countryName\":")
                    sink.appendString(countryName)
                    sink.append(encoded.span(formatTexts.formatMember))
                    sink.append(",\"fields\":[")
                    for field in layout.fields {
                        sink.append(encoded.span(formatTexts.field[field]))
                        sink.append(
                            format.requiredBits & 1 << field.ordinal != 0
                                ? ",\"required\":true}," : ",\"required\":false},"
                        )
                    }
                    sink.append(encoded.span(languageTexts.countryField))
                    sink.append(",\"required\":true}]")
                    if format.latin != nil {
                        sink.append(isLatin ? ",\"layoutScript\":\"latin\"" : ",\"layoutScript\":\"local\"")
                    }
                    layout.program(arabic: arabic).encodedDescription.withUnsafeBufferPointer { sink.append($0) }
                    format.encodedRuleAndExample(isLatin: isLatin).withUnsafeBufferPointer { sink.append($0) }
                    if let language = enteredLanguage {
                        sink.append(",\"language\":")
                        sink.appendString(language.text)
                    }
                    sink.append(",\"country\":")
                    sink.appendString(values.country)
                    sink.append(0x7D)
                }
                let program = prepared.layout.program(arabic: prepared.arabic)
                program.withBuffers { buffers in
                    _ = writeLines(values, program, buffers, countryLine: showCountry, into: &sink)
                    writeOneLine(
                        values, prepared, program, buffers, countryJoiner: showCountry,
                        viewerWritesArabic: languageTexts[language].writesArabic, into: &sink)
                }
                sink.append(0x7D)
            }
        }
    }

    /// `,"lines":[…]`: each template with its present values, trimmed, a line for each line of a value that has
    /// several, empty lines left out; then the country's name when `countryLine` is set. Returns how many.
    private func writeLines(
        _ values: borrowing ShownValues, _ program: LayoutProgram, _ buffers: LayoutProgram.Buffers,
        countryLine: Bool, into sink: inout ByteWriter
    ) -> Int {
        var lineCount = 0
        sink.append(",\"lines\":[")
        let (steps, literals) = (buffers.steps, buffers.literals)
        for line in buffers.lines where line.fields & values.visibleFields != 0 {
            // Where a value or separator may need care, the line is looked at before it is written.
            if values.needsCare || line.separatorBreaks,
                let lineBreak = Self.carefulLineBreak(steps, from: Int(line.start), values: values)
            {
                lineCount = Self.writeCarefully(
                    steps, from: Int(line.start), literals: literals, values: values, lineBreak: lineBreak,
                    lineCount: lineCount, into: &sink)
                continue
            }
            if lineCount > 0 { sink.append(0x2C) }
            Self.writeCleanLine(steps, from: Int(line.start), literals: literals, values: values, into: &sink)
            lineCount += 1
        }
        if countryLine {
            if lineCount > 0 { sink.append(0x2C) }
            sink.append(0x22)
            sink.appendEscaped(values.countryName, escape: values.countryNeedsEscape)
            sink.append(0x22)
            lineCount += 1
        }
        sink.append(0x5D)
        return lineCount
    }

    /// The one rule every walk over a layout line follows, as `LineTemplate.render` joins values: the steps from
    /// `start` to the line's `end`, each value shown (`visible`, bits by `AddressField.ordinal`) given to `value`
    /// with the index of the separator step to write before it (-1 for none), the strongest one noted since the value before (a strong separator is
    /// not replaced by a weak one), and none before the first. `value` returns whether it wrote anything; when it
    /// did not, the separator stays pending for the next value. Writing, measuring and looking a line over are
    /// each one `value`. Returns whether any value wrote anything.
    @inline(__always) @discardableResult
    private static func forEachValue(
        _ steps: UnsafeBufferPointer<LayoutProgram.Step>, from start: Int, visible: UInt16,
        _ value: (_ ordinal: Int, _ separator: Int) -> Bool
    ) -> Bool {
        var index = start
        var separator = -1
        var wrote = false
        while true {
            let step = steps[index]
            if step.kind == .end { return wrote }
            index &+= 1
            if step.kind == .separator {
                if separator < 0 || !steps[separator].strong || step.strong { separator = index &- 1 }
                continue
            }
            let ordinal = Int(step.field)
            guard visible & 1 << ordinal != 0 else { continue }
            if value(ordinal, wrote ? separator : -1) {
                wrote = true
                separator = -1
            }
        }
    }

    /// Writes a line with a value shown where nothing needs care (no value has a line break or an end trimming
    /// could change, no separator between two values a line break) as a JSON string.
    @inline(__always)
    private static func writeCleanLine(
        _ steps: UnsafeBufferPointer<LayoutProgram.Step>, from start: Int, literals: UnsafeBufferPointer<UInt8>,
        values: borrowing ShownValues, into sink: inout ByteWriter
    ) {
        let entries = values.entries
        sink.append(0x22)
        forEachValue(steps, from: start, visible: values.visibleFields) { ordinal, separator in
            if separator >= 0 { sink.appendLiteral(steps[separator], in: literals) }
            let entry = entries[ordinal]
            sink.appendEscaped(
                UnsafeBufferPointer(start: entry.start, count: Int(entry.count)), escape: entry.needsEscape)
            return true
        }
        sink.append(0x22)
    }

    /// Whether the line from `start` needs `writeCarefully`, and then whether it has a line break: a value or a
    /// separator between two values holds one, or the line would be trimmed (its first value's start or last
    /// value's end is not clean, `ShownValues.Entry`). Nil when `writeCleanLine` writes it as it is.
    private static func carefulLineBreak(
        _ steps: UnsafeBufferPointer<LayoutProgram.Step>, from start: Int, values: borrowing ShownValues
    ) -> Bool? {
        let entries = values.entries
        var first = -1
        var last = -1
        var lineBreak = false
        forEachValue(steps, from: start, visible: values.visibleFields) { ordinal, separator in
            lineBreak = lineBreak || (separator >= 0 && steps[separator].lineBreak) || entries[ordinal].lineBreak
            if first < 0 { first = ordinal }
            last = ordinal
            return true
        }
        guard first >= 0 else { return nil }
        return lineBreak || !entries[first].cleanStart || !entries[last].cleanEnd ? lineBreak : nil
    }

    /// A line `carefulLineBreak` flags, as `LineTemplate.render` and `PlainText` define it, over UTF-8 rather than
    /// a `String`: the line from `start` measured, rendered into a buffer on the stack of that size, split at line
    /// breaks when `lineBreak`, each part trimmed, empty parts left out. Returns the new line count.
    private static func writeCarefully(
        _ steps: UnsafeBufferPointer<LayoutProgram.Step>, from start: Int, literals: UnsafeBufferPointer<UInt8>,
        values: borrowing ShownValues, lineBreak: Bool, lineCount: Int, into sink: inout ByteWriter
    ) -> Int {
        let entries = values.entries
        let visible = values.visibleFields
        var capacity = 0
        forEachValue(steps, from: start, visible: visible) { ordinal, separator in
            capacity += (separator >= 0 ? Int(steps[separator].count) : 0) + Int(entries[ordinal].count)
            return true
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var line = ByteCursor(buffer)
            forEachValue(steps, from: start, visible: visible) { ordinal, separator in
                if separator >= 0 { line.write(steps[separator].text(in: literals)) }
                let entry = entries[ordinal]
                line.write(UnsafeBufferPointer(start: entry.start, count: Int(entry.count)))
                return true
            }
            var lineCount = lineCount
            let written = UnsafeBufferPointer(rebasing: buffer[0..<line.written])
            PlainText.forEachTrimmedPart(written, splitting: lineBreak) {
                if lineCount > 0 { sink.append(0x2C) }
                sink.appendString($0)
                lineCount += 1
            }
            return lineCount
        }
    }

    /// `,"oneLine":"…"`: the one-line template over the values, a value of several lines joined with commas
    /// (`، ` in Arabic script); then the country's name when `countryJoiner` is set, after `, ` (or `، ` when both
    /// the text and the viewer's language are Arabic script).
    private func writeOneLine(
        _ values: borrowing ShownValues, _ prepared: PreparedAddress, _ program: LayoutProgram,
        _ buffers: LayoutProgram.Buffers, countryJoiner: Bool, viewerWritesArabic: Bool, into sink: inout ByteWriter
    ) {
        sink.append(",\"oneLine\":\"")
        let (steps, literals) = (buffers.steps, buffers.literals)
        let entries = values.entries
        let wroteAny = Self.forEachValue(steps, from: program.oneLineStart, visible: values.visibleFields) {
            ordinal, separator in
            let entry = entries[ordinal]
            let value = UnsafeBufferPointer(start: entry.start, count: Int(entry.count))
            guard entry.lineBreak || !entry.cleanStart || !entry.cleanEnd else {
                if separator >= 0 { sink.appendLiteral(steps[separator], in: literals) }
                sink.appendEscaped(value, escape: entry.needsEscape)
                return true
            }
            // A value of several lines, or one `PlainText.trimmed` would change: as the definition says, its
            // trimmed lines joined with commas; taken back, separator and all, when nothing of it is left.
            let before = sink.count
            if separator >= 0 { sink.appendLiteral(steps[separator], in: literals) }
            var wrote = false
            PlainText.forEachTrimmedPart(value, splitting: entry.lineBreak) {
                if wrote { sink.append(prepared.arabic ? "\u{060C} " : ", ") }
                sink.appendEscaped($0)
                wrote = true
            }
            if !wrote { sink.removeAll(from: before) }
            return wrote
        }
        if countryJoiner {
            if wroteAny {
                sink.append(prepared.arabic && viewerWritesArabic ? "\u{060C} " : ", ")
            }
            sink.appendEscaped(values.countryName, escape: values.countryNeedsEscape)
        }
        sink.append(0x22)
    }

    /// The shown values for `body`: those read from the request where they lie, the others (`String`s), the
    /// country's name and the text's language copied into one buffer on the stack, of a size that holds them for
    /// nearly every address (one of the size they need past it: the stack's safe size, then the heap).
    @inline(__always)
    private func withValues<Result>(
        _ input: borrowing AddressInput, _ prepared: PreparedAddress, countryName: String, textLanguage: String,
        _ body: (borrowing ShownValues) -> Result
    ) -> Result {
        withUnsafeTemporaryAllocation(of: ShownValues.Entry.self, capacity: ShownValues.fieldCount) { entries in
            let fitted = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShownValues.textCapacity) {
                buffer -> Result? in
                guard
                    let values = ShownValues(
                        input.values, text: input.text, hidden: prepared.hidden, country: input.country,
                        countryName: countryName,
                        textLanguage: textLanguage, buffer: buffer, entries: entries)
                else { return nil }
                return body(values)
            }
            if let fitted { return fitted }
            var total = countryName.utf8.count + textLanguage.utf8.count + 2 + input.country.utf8.count
            for field in AddressField.allCases {
                if case .string(let text)? = input.values[field] { total += text.utf8.count }
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer in
                body(
                    ShownValues(
                        input.values, text: input.text, hidden: prepared.hidden, country: input.country,
                        countryName: countryName,
                        textLanguage: textLanguage, buffer: buffer, entries: entries)!)
            }
        }
    }
}

/// The direction of each line of an answer's `lines` (`TextDirection`, by its first strong character), read back
/// from the written member: two bits a line for the first 32 lines, the rest (a value of many lines) in an array.
struct LineDirections {
    private var packed: UInt64 = 0
    private var count = 0
    private var more: [TextDirection] = []

    private mutating func append(_ direction: TextDirection) {
        if count < 32 {
            let bits: UInt64 =
                switch direction {
                case .ltr: 1
                case .rtl: 2
                case .auto: 0
                }
            packed |= bits << (2 * UInt64(count))
        } else {
            more.append(direction)
        }
        count += 1
    }

    /// Reads `,"lines":["…","…"]` as `writeLines` writes it: each string's inside, escapes and all, up to its first
    /// strong character (`TextDirection.ofJSONString(_:from:)`), then on to its closing quote with
    /// `memchr`, a quote after an odd run of backslashes being inside the string.
    mutating func read(linesMember json: UnsafeBufferPointer<UInt8>) {
        guard let base = json.baseAddress else { return }
        let count = json.count
        var index = 0
        while index < count && json[index] != 0x5B { index &+= 1 }
        index &+= 1
        while index < count && json[index] == 0x22 {
            index &+= 1
            let (direction, stop) = TextDirection.ofJSONString(json, from: index)
            append(direction)
            index = stop
            // `stop` is the closing quote, or the strong character: find the quote that ends the string.
            while index < count && json[index] != 0x22 {
                guard let quote = memchr(base + index, 0x22, count &- index) else {
                    index = count
                    break
                }
                index = UnsafeRawPointer(quote).assumingMemoryBound(to: UInt8.self) - base
                var backslashes = 0
                while index &- backslashes > stop && json[index &- backslashes &- 1] == 0x5C { backslashes &+= 1 }
                if backslashes & 1 == 1 { index &+= 1 }
            }
            index &+= 1
            if index < count && json[index] == 0x2C { index &+= 1 }
        }
    }

    /// The directions, quoted and separated by commas.
    func write(into sink: inout ByteWriter) {
        for line in 0..<count {
            if line > 0 { sink.append(0x2C) }
            if line < 32 {
                switch packed >> (2 * UInt64(line)) & 3 {
                case 1: sink.append(TextDirection.ltr.quoted)
                case 2: sink.append(TextDirection.rtl.quoted)
                default: sink.append(TextDirection.auto.quoted)
                }
            } else {
                sink.append(more[line - 32].quoted)
            }
        }
    }
}

/// The shown values of one request as UTF-8 (where they lie in the request's text, which the address holds while
/// they are lent, or in one buffer), with what the fast paths need to know of each.
struct ShownValues: ~Copyable {
    static let fieldCount = AddressField.allCases.count
    /// The bytes of text not in the request (rewritten values, the country's code and name, the text's language)
    /// that `AddressRenderer.withValues` first makes room for on the stack.
    static let textCapacity = 512

    struct Entry {
        /// Where the value's bytes lie: in the request's text, or in the shown values' buffer.
        var start: UnsafePointer<UInt8>?
        /// -1 when the field has no value.
        var count: Int32
        /// Whether the value holds a line break (`PlainText.hasLineBreak`).
        var lineBreak: Bool
        /// Whether the value holds a byte JSON escapes (a control character, `"` or `\`).
        var needsEscape: Bool
        /// Whether its first scalar is no whitespace: a line starting with it is not trimmed at the start.
        var cleanStart: Bool
        /// Whether its last scalar starts a grapheme cluster of its own and is no whitespace: a line ending with
        /// it is not trimmed at the end (`PlainText.hasCleanEnd`).
        var cleanEnd: Bool
    }

    let entries: UnsafeMutableBufferPointer<Entry>
    /// Whether a value has a line break or an end that needs grapheme clusters: its lines are looked at before
    /// they are written.
    private(set) var needsCare = false
    /// The fields `visible(_:)` gives a value for, as bits by `AddressField.ordinal`.
    private(set) var visibleFields: UInt16 = 0
    /// The fields with a non-empty value (the hidden one too), as bits by `AddressField.ordinal`.
    private(set) var enteredFields: UInt16 = 0
    private let hidden: Int
    /// The address's country code.
    let country: UnsafeBufferPointer<UInt8>
    /// The country's name, as entered values are.
    let countryName: UnsafeBufferPointer<UInt8>
    let countryNeedsEscape: Bool
    /// The text's language quoted (`"und"`), for `linesLang` and `valueLang`.
    let textLanguage: UnsafeBufferPointer<UInt8>

    /// The shown values, the text not in the request copied into `buffer`; nil when it does not fit.
    @inline(__always)
    init?(
        _ values: borrowing FieldMap<EnteredText>, text: RequestText?, hidden: AddressField?, country: String,
        countryName: String,
        textLanguage: String,
        buffer: UnsafeMutableBufferPointer<UInt8>, entries: UnsafeMutableBufferPointer<Entry>
    ) {
        self.entries = entries
        self.hidden = hidden?.ordinal ?? -1
        var used = 0
        for (ordinal, field) in AddressField.allCases.enumerated() {
            let value: UnsafeBufferPointer<UInt8>
            switch values[field] {
            case nil:
                entries[ordinal] = Entry(
                    start: nil, count: -1, lineBreak: false, needsEscape: false, cleanStart: false, cleanEnd: false)
                continue
            case .request(let range)?:
                // Valid while `text` is held: the caller lends `values` and `text` for as long as these are used.
                value = text!.unsafeUTF8(range)
            case .string(let text)?:
                guard used &+ text.utf8.count <= buffer.count else { return nil }
                value = UnsafeBufferPointer(rebasing: buffer[Self.copy(text, to: buffer, at: &used)])
            }
            guard !value.isEmpty else {
                entries[ordinal] = Entry(
                    start: nil, count: 0, lineBreak: false, needsEscape: false, cleanStart: false, cleanEnd: false)
                continue
            }
            let entry = Self.entry(value)
            entries[ordinal] = entry
            enteredFields |= 1 << ordinal
            if ordinal != self.hidden { visibleFields |= 1 << ordinal }
            if entry.lineBreak || !entry.cleanStart || !entry.cleanEnd { needsCare = true }
        }
        guard used &+ country.utf8.count &+ countryName.utf8.count &+ textLanguage.utf8.count &+ 2 <= buffer.count
        else { return nil }
        self.country = UnsafeBufferPointer(rebasing: buffer[Self.copy(country, to: buffer, at: &used)])
        self.countryName = UnsafeBufferPointer(rebasing: buffer[Self.copy(countryName, to: buffer, at: &used)])
        countryNeedsEscape = !ByteScan.needsNoEscape(self.countryName)
        let quoteStart = used
        buffer[used] = 0x22
        used &+= 1
        _ = Self.copy(textLanguage, to: buffer, at: &used)
        buffer[used] = 0x22
        used &+= 1
        self.textLanguage = UnsafeBufferPointer(rebasing: buffer[quoteStart..<used])
    }

    /// Copies `utf8` into `buffer` at `used`; returns where it went.
    private static func copy(
        _ utf8: UnsafeBufferPointer<UInt8>, to buffer: UnsafeMutableBufferPointer<UInt8>, at used: inout Int
    ) -> Range<Int> {
        let start = used
        if let source = utf8.baseAddress {
            (buffer.baseAddress.unsafelyUnwrapped + start).copyShort(from: source, count: utf8.count)
        }
        used &+= utf8.count
        return start..<used
    }

    /// Copies `text`'s UTF-8 into `buffer` at `used`; returns where it went.
    private static func copy(
        _ text: String, to buffer: UnsafeMutableBufferPointer<UInt8>, at used: inout Int
    ) -> Range<Int> {
        let start = used
        used += UnsafeMutableBufferPointer(rebasing: buffer[start...]).initialize(from: text.utf8).1
        return start..<used
    }

    /// The field's value (the hidden one and an empty one included: `fields` lists them), or nil.
    func value(_ ordinal: Int) -> UnsafeBufferPointer<UInt8>? {
        let entry = entries[ordinal]
        guard entry.count >= 0 else { return nil }
        return UnsafeBufferPointer(start: entry.start, count: Int(entry.count))
    }

    /// The field's value as the lines and the one-line form show it: nil for the hidden field and an empty value.
    func visible(_ ordinal: Int) -> UnsafeBufferPointer<UInt8>? {
        let entry = entries[ordinal]
        guard entry.count > 0, ordinal != hidden else { return nil }
        return UnsafeBufferPointer(start: entry.start, count: Int(entry.count))
    }

    /// A value's entry. Printable ASCII (most values) is told apart in one pass; other text is looked at for
    /// each property.
    @inline(__always)
    private static func entry(_ utf8: UnsafeBufferPointer<UInt8>) -> Entry {
        if ByteScan.isPrintableASCII(utf8) {
            return Entry(
                start: utf8.baseAddress, count: Int32(utf8.count), lineBreak: false, needsEscape: false,
                cleanStart: utf8[0] != 0x20, cleanEnd: utf8[utf8.count - 1] != 0x20)
        }
        let (lineBreak, needsEscape) = scan(utf8)
        return Entry(
            start: utf8.baseAddress, count: Int32(utf8.count), lineBreak: lineBreak, needsEscape: needsEscape,
            cleanStart: PlainText.hasCleanStart(utf8), cleanEnd: PlainText.hasCleanEnd(utf8))
    }

    /// In one pass: `PlainText.hasLineBreak` over UTF-8 (U+000A–U+000D, U+0085 as `C2 85`, U+2028 and U+2029 as
    /// `E2 80 A8/A9`), and whether JSON escapes a byte (`ByteScan.escapeFlags`).
    private static func scan(_ utf8: UnsafeBufferPointer<UInt8>) -> (lineBreak: Bool, needsEscape: Bool) {
        var lineBreak = false
        var needsEscape = false
        // Words with no byte below 0x20, `"`, `\\`, 0xC2 or 0xE2 (most of them, in text of other scripts) hold no
        // escape and start no line break; the bytes are looked at one by one from the first other word.
        var first = 0
        if let base = utf8.baseAddress {
            let raw = UnsafeRawPointer(base)
            while first &+ 8 <= utf8.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: first, as: UInt64.self))
                let found = ByteScan.equalFlags(word, 0xC2) | ByteScan.equalFlags(word, 0xE2)
                if ByteScan.escapeFlags(word) | found != 0 { break }
                first &+= 8
            }
        }
        for index in first..<utf8.count {
            let byte = utf8[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C && byte != 0xC2 && byte != 0xE2 { continue }
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { needsEscape = true }
            if (0x0A...0x0D).contains(byte) { lineBreak = true }
            if byte == 0xC2, index + 1 < utf8.count, utf8[index + 1] == 0x85 { lineBreak = true }
            if byte == 0xE2, index + 2 < utf8.count, utf8[index + 1] == 0x80, utf8[index + 2] & 0xFE == 0xA8 {
                lineBreak = true
            }
        }
        return (lineBreak, needsEscape)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes of a span of `AddressRenderer`'s encoded texts.
    /// Spans are made at load inside the bytes, so they are not checked again.
    @inline(__always)
    fileprivate func span(_ span: AddressRenderer.Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: baseAddress.unsafelyUnwrapped + Int(span.start), count: Int(span.count))
    }
}
