import FmtCore

/// An address as the caller sent it: trimmed field values (empty ones dropped) and the canonical country.
struct AddressInput: Sendable {
    var values: FieldMap<String>
    var country: String
    /// `address.language`: the language the values are written in, when the caller says.
    var language: LanguageTag? = nil

    /// The language of the entered text for `linesLang` and `valueLang`: `address.language`, else `und`.
    var textLanguage: String {
        language?.description ?? "und"
    }
}

/// A note about an address that is not an error: the address is still formatted.
struct AddressWarning: Sendable, Equatable {
    /// `postal_code_format`, `missing_required` or `region_unknown`.
    let code: String
    let field: String
    let message: String
}

/// The result of formatting: what `address` answers after `lang`, `country` and `format`.
struct RenderedAddress: Sendable {
    let lines: [String]
    /// Whether the last line is the country's name (in the viewer's language; the others are as entered).
    let endsWithCountry: Bool
    let oneLine: String
    /// The fields in display order (the layout's); the present ones are listed with their shown values, which
    /// `render` leaves in its input, and their labels, then the country.
    let fields: [AddressField]
    /// The format's texts in the viewer's language.
    let labels: AddressRenderer.FormatTexts
    let warnings: [AddressWarning]
}

/// Formats an address with its country's format in the viewer's language. The labels and warnings every
/// format can show are worded once at load for each language with a label table, so a request reads no
/// label tables.
struct AddressRenderer: Sendable {
    let labels: LabelTable
    private let texts: [LanguageTexts]

    /// One language's texts: the country field's label, the `region_unknown` warning and each format's texts.
    private struct LanguageTexts: Sendable {
        let language: String
        let countryLabel: String
        let regionUnknown: String
        /// Parallel to `FormatCatalog.ordered`.
        let formats: [FormatTexts]
    }

    /// One format's texts in one language; a class so that handing it to a request is one retain.
    final class FormatTexts: Sendable {
        /// The label of each of the format's fields.
        let fieldLabels: FieldMap<String>
        /// The `missing_required` warning for each of the format's fields.
        let missingRequired: FieldMap<String>
        /// The `postal_code_format` warning, with the example code.
        let postalCodeFormat: String

        init(_ format: AddressFormat, language: String, labels: LabelTable) {
            var fieldLabels = FieldMap<String>()
            var missingRequired = FieldMap<String>()
            for field in format.fields {
                let label = labels.text(format.labelKeys[field]!, language: language)
                fieldLabels[field] = label
                missingRequired[field] = labels.text(
                    "address.warning.missing_required", language: language, ["field": label])
            }
            self.fieldLabels = fieldLabels
            self.missingRequired = missingRequired
            postalCodeFormat = labels.text(
                "address.warning.postal_code_format", language: language,
                ["example": format.examplePostalCode ?? ""])
        }
    }

    /// The texts of `formats` (`FormatCatalog.ordered`) in every language with a label table.
    init(labels: LabelTable, formats: [AddressFormat]) {
        self.labels = labels
        texts = labels.languages.map { language in
            LanguageTexts(
                language: language,
                countryLabel: labels.text("address.field.country", language: language),
                regionUnknown: labels.text("address.warning.region_unknown", language: language),
                formats: formats.map { FormatTexts($0, language: language, labels: labels) })
        }
    }

    /// Renders `input` with `format` in `language`; `countryName` ends the lines when `showCountry` is set
    /// (the viewer is elsewhere, or nobody knows where). `input`'s values become the shown ones (postal code
    /// normalised, region code), so no copy of them is made.
    func render(
        _ input: inout AddressInput, format: AddressFormat, texts formatTexts: FormatTexts, language: String,
        countryName: String, showCountry: Bool
    ) -> RenderedAddress {
        let (layout, arabic) = format.layout(for: input)
        var warnings: [AddressWarning] = []
        for field in format.fields {
            guard let value = input.values[field] else {
                if format.required.contains(field) {
                    warnings.append(
                        AddressWarning(
                            code: "missing_required", field: field.rawValue,
                            message: formatTexts.missingRequired[field]!))
                }
                continue
            }
            if field == .postalCode, let rule = format.postalCode {
                if let normalized = rule.normalize(value) {
                    input.values[field] = normalized
                } else {
                    warnings.append(
                        AddressWarning(
                            code: "postal_code_format", field: field.rawValue,
                            message: formatTexts.postalCodeFormat))
                }
            }
            if field == .region, let regions = format.regions {
                if let code = regions.code(for: value) {
                    input.values[field] = code
                } else {
                    warnings.append(
                        AddressWarning(
                            code: "region_unknown", field: field.rawValue,
                            message: regionUnknown(language)))
                }
            }
        }

        // The values now are the shown ones; one left out of the lines is put back for `fields`.
        var hidden: (field: AddressField, value: String)?
        for (dropped, kept) in format.dropWhenEqual {
            if let value = input.values[dropped], let other = input.values[kept], Self.sameText(value, other) {
                hidden = (dropped, value)
            }
        }
        if let hidden { input.values[hidden.field] = nil }
        let templates = layout.lines(arabic: arabic)
        var lines: [String] = []
        lines.reserveCapacity(templates.count + 1)
        for template in templates {
            let rendered = template.render { input.values[$0] }
            if !PlainText.hasLineBreak(rendered) {
                let text = PlainText.trimmed(rendered)
                if !text.isEmpty { lines.append(text) }
                continue
            }
            for line in rendered.split(whereSeparator: \.isNewline) {
                let text = PlainText.trimmed(line)
                if !text.isEmpty { lines.append(text) }
            }
        }
        let comma = arabic ? Self.arabicComma : ", "
        var oneLine = layout.oneLine(arabic: arabic).render { field in
            input.values[field].map { value in
                guard PlainText.hasLineBreak(value) else { return PlainText.trimmed(value) }
                return value.split(whereSeparator: \.isNewline).map(PlainText.trimmed).filter { !$0.isEmpty }
                    .joined(separator: comma)
            }
        }
        if showCountry {
            lines.append(countryName)
            // The country's name is in the viewer's language: the Arabic comma joins it only to Arabic text.
            let joiner = arabic && ArabicScript.writes(language: language) ? Self.arabicComma : ", "
            oneLine = oneLine.isEmpty ? countryName : oneLine + joiner + countryName
        }
        if let hidden { input.values[hidden.field] = hidden.value }
        return RenderedAddress(
            lines: lines, endsWithCountry: showCountry, oneLine: oneLine, fields: layout.fields,
            labels: formatTexts, warnings: warnings)
    }

    private static let arabicComma = "\(ArabicScript.comma) "

    /// Whether two shown values are the same text, ignoring case (`Madrid`, `MADRID`): ASCII text byte by
    /// byte, other text lower-cased.
    private static func sameText(_ first: String, _ second: String) -> Bool {
        if first == second { return true }
        guard first.utf8.allSatisfy({ $0 < 0x80 }), second.utf8.allSatisfy({ $0 < 0x80 }) else {
            return first.lowercased() == second.lowercased()
        }
        guard first.utf8.count == second.utf8.count else { return false }
        return zip(first.utf8, second.utf8).allSatisfy { left, right in
            left == right || (left | 0x20 == right | 0x20 && (0x61...0x7A).contains(left | 0x20))
        }
    }

    /// The texts in `language` of `format`, at `index` in `FormatCatalog.ordered`.
    func formatTexts(_ format: AddressFormat, at index: Int, _ language: String) -> FormatTexts {
        if let texts = texts.first(where: { $0.language == language }), index < texts.formats.count {
            return texts.formats[index]
        }
        return FormatTexts(format, language: language, labels: labels)
    }

    /// The label of the country field in `language`.
    func countryLabel(_ language: String) -> String {
        texts.first(where: { $0.language == language })?.countryLabel
            ?? labels.text("address.field.country", language: language)
    }

    private func regionUnknown(_ language: String) -> String {
        texts.first(where: { $0.language == language })?.regionUnknown
            ?? labels.text("address.warning.region_unknown", language: language)
    }
}
