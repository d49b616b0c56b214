import FmtCore

/// An address as the caller sent it: trimmed field values (empty ones dropped) and the canonical country.
struct AddressInput: Sendable {
    var values: [AddressField: String]
    var country: String
}

/// A note about an address that is not an error: the address is still formatted.
struct AddressWarning: Sendable, Equatable {
    /// `postal_code_format`, `missing_required` or `region_unknown`.
    let code: String
    let field: String
    let message: String

    var json: JSONValue {
        .object(["code": .string(code), "field": .string(field), "message": .string(message)])
    }
}

/// The result of formatting: what `address` answers after `lang`, `country` and `format`.
struct RenderedAddress: Sendable {
    let lines: [String]
    let oneLine: String
    /// Present fields in display order with their localised labels and shown values.
    let fields: [(field: String, label: String, value: String)]
    let warnings: [AddressWarning]
}

/// Formats an address with its country's format in the viewer's language.
struct AddressRenderer: Sendable {
    let labels: LabelTable

    /// Renders `input` with `format` in `language`; `countryName` ends the lines when `showCountry` is set
    /// (the viewer is elsewhere, or nobody knows where).
    func render(
        _ input: AddressInput, format: AddressFormat, language: String, countryName: String, showCountry: Bool
    ) -> RenderedAddress {
        var shown = input.values
        var warnings: [AddressWarning] = []
        for field in format.fields {
            guard let value = input.values[field] else {
                if format.required.contains(field) {
                    warnings.append(
                        AddressWarning(
                            code: "missing_required", field: field.rawValue,
                            message: labels.text(
                                "address.warning.missing_required", language: language,
                                ["field": label(field, format, language)])))
                }
                continue
            }
            if field == .postalCode, let rule = format.postalCode {
                if let normalized = rule.normalize(value) {
                    shown[field] = normalized
                } else {
                    warnings.append(
                        AddressWarning(
                            code: "postal_code_format", field: field.rawValue,
                            message: labels.text(
                                "address.warning.postal_code_format", language: language,
                                ["example": format.examplePostalCode ?? ""])))
                }
            }
            if field == .region, let regions = format.regions {
                if let code = regions.code(for: value) {
                    shown[field] = code
                } else {
                    warnings.append(
                        AddressWarning(
                            code: "region_unknown", field: field.rawValue,
                            message: labels.text("address.warning.region_unknown", language: language)))
                }
            }
        }

        var lines: [String] = []
        for template in format.lines {
            let rendered = template.render { shown[$0] }
            for line in rendered.split(whereSeparator: \.isNewline) {
                let text = Self.trimmed(line)
                if !text.isEmpty { lines.append(text) }
            }
        }
        var oneLine = format.oneLine.render { field in
            shown[field].map { value in
                value.split(whereSeparator: \.isNewline).map(Self.trimmed).filter { !$0.isEmpty }
                    .joined(separator: ", ")
            }
        }
        if showCountry {
            lines.append(countryName)
            oneLine = oneLine.isEmpty ? countryName : oneLine + ", " + countryName
        }
        var fields: [(field: String, label: String, value: String)] = format.fields.compactMap { field in
            shown[field].map { (field.rawValue, label(field, format, language), $0) }
        }
        fields.append(("country", labels.text("address.field.country", language: language), countryName))
        return RenderedAddress(lines: lines, oneLine: oneLine, fields: fields, warnings: warnings)
    }

    func label(_ field: AddressField, _ format: AddressFormat, _ language: String) -> String {
        labels.text(format.labelKeys[field]!, language: language)
    }

    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }
}
