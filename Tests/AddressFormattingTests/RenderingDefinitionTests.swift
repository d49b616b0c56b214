import FmtCore
import FmtTesting
import Testing

@testable import AddressFormatting

/// The renderer writes lines and the one-line form as bytes and takes the String path only for a line break or a
/// line end that needs grapheme clusters. Whatever it takes, `lines`, `oneLine` and `fields` must be what the
/// definition gives: each template rendered as a String (`LineTemplate.render`), split at `Character.isNewline`,
/// trimmed of `Character.isWhitespace` and empty lines dropped; in the one-line form each value trimmed and its
/// lines joined with the layout's comma. Checked on addresses made of pieces that end in marks, joiners, Hangul
/// jamo, Thai vowels, emoji, wide spaces, line breaks and JSON escapes, in formats of several scripts.
@Suite struct RenderingDefinitionTests {
    let catalog: FormatCatalog
    let labels: LabelTable
    let renderer: AddressRenderer

    init() throws {
        let store = DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
        catalog = try FormatCatalog(loading: store)
        labels = try LabelTable(loading: store)
        renderer = AddressRenderer(labels: labels, formats: catalog.ordered)
    }

    static let pieces = [
        "Gent", "Straße", "Herengracht", "573", "1017CD", "中央区", "東京都", "서울", "\u{1100}\u{1161}", "\u{1100}",
        "e\u{301}", "\u{301}", "a\u{200D}", "\u{200D}", "แขวงลุมพินี", "\u{0E33}", "👩‍👩‍👧", "🇧🇪", "A\u{0600}", "\u{0600}",
        "ع", "عمّان", "Ⅻ", "ｘ", "\u{3000}", "\u{A0}", "\u{2003}", "\u{85}", "\u{2028}", "\n", "\r\n", "\r", "\t",
        " ", "  ", "\"q\"", "back\\slash", "\u{1}", "\u{7F}", "Zoë", "Ά", "Ж", "Ա", "א", "ー", "ゔ", "\u{3099}",
    ]
    static let countries = ["NL", "BE", "US", "JP", "KR", "CN", "TH", "EG", "SA", "ES", "DE", "GB", "FR", "BR", "IN"]
    static let languages: [String?] = [nil, nil, "ja", "ar", "th", "ko", "zh-Latn", "en"]

    @Test func linesOneLineAndFieldsAreWhatTheDefinitionGives() throws {
        var random = SplitMix(seed: 15)
        for _ in 0..<4000 {
            var values = FieldMap<String>()
            for field in AddressField.allCases where random.next(4) > 0 {
                var value = ""
                for _ in 0...random.next(3) { value += Self.pieces[random.next(Self.pieces.count)] }
                values[field] = value
            }
            let country = Self.countries[random.next(Self.countries.count)]
            let language = Self.languages[random.next(Self.languages.count)].flatMap { LanguageTag(parsing: $0) }
                .map(EnteredLanguage.init)
            try check(
                values, country: country, language: language, viewerLanguage: random.next(labels.languages.count),
                random.next(2) == 0, asBytes: random.next(2) == 0)
        }
    }

    func check(
        _ values: FieldMap<String>, country: String, language: EnteredLanguage?, viewerLanguage: Int,
        _ showCountry: Bool, asBytes: Bool = false
    ) throws {
        let index = catalog.index(of: country)
        let format = catalog.ordered[index]
        // Values read from a request are kept where they lie in it; values made in code are Strings: both ways.
        var input = AddressInput(strings: values, country: country, language: language)
        if asBytes {
            var object: JSONObject = ["op": "address"]
            for field in AddressField.allCases {
                if let value = values[field] { object[field.rawValue] = .string(value) }
            }
            let request = try JSONWriter.encode(.object(object)).withUnsafeBufferPointer { try Request(line: $0) }
            #expect(
                request.fields.forEachMember { name, slot in
                    guard let field = name.withUnsafeBufferPointer({ AddressField.named(utf8: $0) }) else { return }
                    input.values[field] = request.fields.textRange(at: slot).map(EnteredText.request)
                })
            input.text = request.fields.text
        }
        let prepared = renderer.prepare(&input, format: format)
        var writer = ResponseWriter(bytes: [UInt8(ascii: "{")])
        let countryName = "Land \u{301}\(country)"
        renderer.writeAddress(
            input, prepared, format: format, formatIndex: index,
            language: renderer.language(labels.languages[viewerLanguage]), lang: labels.languages[viewerLanguage],
            countryName: countryName, showCountry: showCountry, into: &writer)
        guard case .object(let answer) = try JSONReader.parse(writer.bytes + [UInt8(ascii: "}")]) else {
            Issue.record("not an object")
            return
        }
        var shown = FieldMap<String>()
        for field in AddressField.allCases where field != prepared.hidden {
            shown[field] = input.values[field]?.string(in: input.text)
        }
        var lines: [String] = []
        for template in prepared.layout.lines(arabic: prepared.arabic) {
            let rendered = template.render { shown[$0] }
            lines += rendered.split(whereSeparator: \.isNewline).map(Self.trimmed).filter { !$0.isEmpty }
        }
        let comma = prepared.arabic ? "\u{060C} " : ", "
        var oneLine = prepared.layout.oneLine(arabic: prepared.arabic).render { field in
            shown[field].map { value in
                value.split(whereSeparator: \.isNewline).map(Self.trimmed).filter { !$0.isEmpty }
                    .joined(separator: comma)
            }
        }
        if showCountry {
            lines.append(countryName)
            let viewerArabic = ArabicScript.writes(language: labels.languages[viewerLanguage])
            let joiner = prepared.arabic && viewerArabic ? "\u{060C} " : ", "
            oneLine = oneLine.isEmpty ? countryName : oneLine + joiner + countryName
        }
        let context = "\(country) \(language?.text ?? "-") \(values)"
        #expect(answer["lines"] == JSONValue(lines), "\(context)")
        #expect(answer["oneLine"] == .string(oneLine), "\(context)")
        // The layout's fields in display order, then those it has no place for that have a value, then the country.
        let unplaced = AddressField.allCases.filter { field in
            !prepared.layout.fields.contains(field)
                && input.values[field].map { !$0.string(in: input.text).isEmpty } == true
        }
        let fields =
            (prepared.layout.fields + unplaced).compactMap { input.values[$0]?.string(in: input.text) }.map(
                JSONValue.string)
            + [.string(countryName)]
        #expect(answer["fields"]?.arrayValue?.map { $0.objectValue?["value"] ?? .null } == fields, "\(context)")
        #expect(answer["linesLang"]?.arrayValue?.count == lines.count, "\(context)")
    }

    /// `dropWhenEqual` compares shown values ignoring case; over bytes for ASCII, Latin-1 letters and caseless
    /// scripts, which must agree with comparing `lowercased()` text (canonically equivalent spellings included).
    @Test func equalTextIgnoringCaseIsWhatLowercasingGives() {
        let pieces = [
            "a", "A", "z", "Z", "@", "[", "`", "{", "É", "é", "À", "à", "Þ", "þ", "ß", "ÿ", "Ÿ", "×", "÷", "Ø", "ø",
            "e\u{301}", "E\u{301}", "\u{301}", "İ", "i", "Σ", "σ", "ς", "ｘ", "Ｘ", " ", "-", "1",
            "東", "京", "都", "\u{3400}", "\u{9FFF}", "\u{F900}", "\u{8C48}", "が", "か\u{3099}", "か", "\u{3099}", "ヴ",
            "ウ\u{3099}", "가", "\u{1100}\u{1161}", "각", "\u{11A8}", "آ", "ا\u{653}", "ا", "\u{640}", "\u{64B}", "ก",
            "ข", "\u{E38}", "\u{E48}", "\u{E3A}", "\u{E31}", "\u{E33}", "ก\u{E38}\u{E48}", "ก\u{E48}\u{E38}",
            "ก\u{E4D}\u{E32}",
        ]
        var random = SplitMix(seed: 7)
        for _ in 0..<20000 {
            var first = ""
            var second = ""
            for _ in 0...random.next(3) {
                let piece = pieces[random.next(pieces.count)]
                first += piece
                // Mostly the same letter in another case, so equal texts are common.
                second += random.next(3) == 0 ? pieces[random.next(pieces.count)] : piece.uppercased()
            }
            let reference = first == second || first.lowercased() == second.lowercased()
            #expect(
                AddressRenderer.sameText(.string(first), .string(second), in: nil) == reference,
                "\(first.debugDescription) \(second.debugDescription)")
        }
    }

    /// The caseless scripts `sameText` compares over bytes: no scalar of theirs has a lower-case mapping or a
    /// combining class, so text of them alone is equal exactly when its scalars are.
    @Test func caselessScalarsCompareAsScalars() {
        let ranges: [ClosedRange<UInt32>] = [
            0x620...0x64A, 0xE01...0xE37, 0xE3F...0xE47, 0xE4C...0xE5B, 0x3041...0x3096, 0x30A1...0x30FA,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
        ]
        for range in ranges {
            for value in range {
                let scalar = Unicode.Scalar(value)!
                #expect(scalar.properties.lowercaseMapping == String(scalar), "\(value)")
                #expect(scalar.properties.canonicalCombiningClass == .notReordered, "\(value)")
                #expect(AddressRenderer.sameText(.string(String(scalar)), .string(String(scalar)), in: nil), "\(value)")
            }
        }
    }

    /// Thai's marks with a combining class: caseless, and compared over bytes only one at a time, as two in a row
    /// may be spelled in either order.
    @Test func thaiMarksCompareAsScalarsOneAtATime() {
        for value: UInt32 in [0xE38, 0xE39, 0xE3A, 0xE48, 0xE49, 0xE4A, 0xE4B] {
            let scalar = Unicode.Scalar(value)!
            #expect(scalar.properties.lowercaseMapping == String(scalar), "\(value)")
            #expect(scalar.properties.canonicalCombiningClass != .notReordered, "\(value)")
        }
        #expect(AddressRenderer.sameText(.string("ก\u{E38}\u{E48}"), .string("ก\u{E48}\u{E38}"), in: nil))
        #expect(!AddressRenderer.sameText(.string("ก\u{E38}"), .string("ก\u{E48}"), in: nil))
        #expect(AddressRenderer.sameText(.string("กรุงเทพมหานคร"), .string("กรุงเทพมหานคร"), in: nil))
        #expect(!AddressRenderer.sameText(.string("กรุงเทพมหานคร"), .string("เขตปทุมวัน"), in: nil))
    }

    /// `Character.isWhitespace` trimmed off both ends: the definition `PlainText.trimmed` stands in for.
    static func trimmed(_ text: Substring) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }
}

/// A small seeded generator, so a failure repeats.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
