/// One line of a layout, or the one-line form: fields in braces with the separators between them
/// (`{city}, {region} {postalCode}`). Missing values never leave a blank, a doubled space or a stray comma:
/// between two present fields goes the strongest separator written between them (of a strong and a weak one, the
/// strong; of equals, the later), so `{street} {houseNumber}, {postalCode} {city}` without a house number or
/// postcode still reads `Botermarkt, 9000 Gent` and `Botermarkt 1, Gent`. Which separators are strong is the
/// format's `separatorRule`: by default those with punctuation (`strongest`); under `beforeNext`
/// (libaddressinput's rule) none within a line, so the one just before the next shown field stays
/// (`Los Angeles 90291` from `{city}, {region} {postalCode}`), and in the one-line form those that join two lines.
struct LineTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case field(AddressField)
        /// Literal text between fields; `strong` when it is kept over a weak one written after it before the next
        /// present field, decided at load by the format's separator rule.
        case separator(String, strong: Bool)
    }

    /// The template as written in the data, returned by `addressFormat`.
    let source: String
    let parts: [Part]

    /// The fields in the order they appear.
    var fields: [AddressField] {
        parts.compactMap { if case .field(let field) = $0 { field } else { nil } }
    }

    /// Parses a template; a template starts and ends with a field and names only known fields.
    init(parsing source: String) throws(TemplateError) {
        self.source = source
        var parts: [Part] = []
        var literal = ""
        var index = source.startIndex
        while index < source.endIndex {
            let character = source[index]
            if character == "{" {
                guard let close = source[index...].firstIndex(of: "}") else {
                    throw TemplateError("an opening brace has no closing brace")
                }
                let name = String(source[source.index(after: index)..<close])
                guard let field = AddressField(rawValue: name) else {
                    throw TemplateError("\"{\(name)}\" is not an address field")
                }
                if !literal.isEmpty {
                    parts.append(Self.separator(literal))
                    literal = ""
                }
                parts.append(.field(field))
                index = source.index(after: close)
            } else if character == "}" {
                throw TemplateError("a closing brace has no opening brace")
            } else {
                literal.append(character)
                index = source.index(after: index)
            }
        }
        if !literal.isEmpty { parts.append(Self.separator(literal)) }
        guard case .field? = parts.first, case .field? = parts.last else {
            throw TemplateError("a template starts and ends with a field")
        }
        let fields = parts.compactMap { if case .field(let field) = $0 { field } else { nil } }
        guard Set(fields).count == fields.count else {
            throw TemplateError("a field appears twice")
        }
        self.parts = parts
    }

    private init(source: String, parts: [Part]) {
        self.source = source
        self.parts = parts
    }

    /// The same template with every comma of its separators written as `comma` (Arabic script's `،`); the
    /// template itself when it has none. Field names hold no comma, so the source is replaced as a whole.
    func replacingCommas(with comma: Character) -> LineTemplate {
        guard source.contains(",") else { return self }
        let replaced = parts.map { part -> Part in
            guard case .separator(let text, let strong) = part else { return part }
            return .separator(String(text.map { $0 == "," ? comma : $0 }), strong: strong)
        }
        return LineTemplate(source: String(source.map { $0 == "," ? comma : $0 }), parts: replaced)
    }

    /// The same template with each separator strong exactly when `isStrong` says so of the fields on either
    /// side of it (a separator lies between two fields: templates start and end with one).
    func withStrength(_ isStrong: (_ before: AddressField, _ after: AddressField) -> Bool) -> LineTemplate {
        var changed = parts
        for index in parts.indices {
            guard case .separator(let text, _) = parts[index], case .field(let before) = parts[index - 1],
                case .field(let after) = parts[index + 1]
            else { continue }
            changed[index] = .separator(text, strong: isStrong(before, after))
        }
        return LineTemplate(source: source, parts: changed)
    }

    /// Renders the line from present values (absent or empty values are left out with their separator).
    func render(_ value: (AddressField) -> String?) -> String {
        var output = ""
        var separator: (text: String, strong: Bool)?
        for part in parts {
            switch part {
            case .separator(let text, let strong):
                if let current = separator, current.strong, !strong { continue }
                separator = (text, strong)
            case .field(let field):
                guard let text = value(field), !text.isEmpty else { continue }
                if !output.isEmpty, let separator { output += separator.text }
                output += text
                separator = nil
            }
        }
        return output
    }
}

extension LineTemplate {
    /// A separator part, strong when it carries more than whitespace (`, ` rather than ` `): the `strongest`
    /// rule, which a format's `separatorRule` may change (`withStrength(_:)`).
    fileprivate static func separator(_ text: String) -> Part {
        .separator(text, strong: text.contains { !$0.isWhitespace })
    }
}

/// Why a template could not be parsed.
struct TemplateError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
