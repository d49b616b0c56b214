/// One line of a layout, or the one-line form: fields in braces with the separators between them
/// (`{city}, {region} {postalCode}`). Missing values never leave a blank, a doubled space or a stray comma:
/// between two present fields goes the strongest separator written between them (one with punctuation
/// beats plain spaces; of equals, the later), so `{street} {houseNumber}, {postalCode} {city}` without a
/// house number or postcode still reads `Botermarkt, 9000 Gent` and `Botermarkt 1, Gent`.
struct LineTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case field(AddressField)
        /// Literal text between fields; `punctuated` when it carries more than spaces (`, `), decided at load.
        case separator(String, punctuated: Bool)
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
            guard case .separator(let text, let punctuated) = part else { return part }
            return .separator(String(text.map { $0 == "," ? comma : $0 }), punctuated: punctuated)
        }
        return LineTemplate(source: String(source.map { $0 == "," ? comma : $0 }), parts: replaced)
    }

    /// Renders the line from present values (absent or empty values are left out with their separator).
    func render(_ value: (AddressField) -> String?) -> String {
        var output = ""
        var separator: (text: String, punctuated: Bool)?
        for part in parts {
            switch part {
            case .separator(let text, let punctuated):
                if let current = separator, current.punctuated, !punctuated { continue }
                separator = (text, punctuated)
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
    /// A separator part, marked punctuated when it carries more than whitespace (`, ` rather than ` `).
    fileprivate static func separator(_ text: String) -> Part {
        .separator(text, punctuated: text.contains { !$0.isWhitespace })
    }
}

/// Why a template could not be parsed.
struct TemplateError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
