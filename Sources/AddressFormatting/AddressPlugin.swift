import FmtCore

/// The `address` plugin: formats postal addresses by the address country's convention and describes each
/// country's format, in the viewer's language. A value is one loaded snapshot of the formats and labels.
public struct AddressPlugin: FormatterPlugin {
    public static let name = "address"
    public static let ops = ["address", "addressFormat"]
    /// The longest postal code a country's rule checks, in Unicode scalars after trimming and collapsing spaces;
    /// a longer one is shown as entered with the `postal_code_format` warning. The longest codes in use have
    /// 10 characters (`12345-6789`); the bound keeps any pattern's backtracking to a small input.
    public static let maximumPostalCodeLength = 32

    private let catalog: FormatCatalog
    private let labels: LabelTable
    private let renderer: AddressRenderer
    private let resolver: LocaleResolver
    private let territories = TerritoryCache()
    public let dataInfo: JSONObject

    public init(loading data: DataStore, environment: PluginEnvironment) throws {
        let catalog = try FormatCatalog(loading: data)
        let labels = try LabelTable(loading: data)
        // `lang` names the language of the labels: a served language without its table would be answered in another.
        for language in environment.resolver.supported where !labels.languages.contains(language) {
            throw DataError(
                file: "translations/\(language).json",
                "is missing: \(language) is a served language, and its addresses would get another language's labels")
        }
        for (key, format) in catalog.formats {
            for (field, labelKey) in format.labelKeys where !labels.keys.contains(labelKey) {
                let file = catalog.localFiles.isEmpty ? FormatCatalog.file : "\(FormatCatalog.file) or a local file"
                throw DataError(
                    file: file, field: "formats.\(key).labels.\(field.rawValue)",
                    "\"\(labelKey)\" is not a key of the label tables in translations/")
            }
        }
        for key in catalog.formats.keys where key != "default" && Territory.canonical(key) != key {
            throw DataError(file: FormatCatalog.file, field: "formats.\(key)", "is not an ISO 3166-1 code ICU knows")
        }
        self.catalog = catalog
        self.labels = labels
        renderer = AddressRenderer(labels: labels, formats: catalog.formats)
        resolver = environment.resolver
        dataInfo = [
            "source": .string(data.sourceDescription),
            "version": .string(catalog.version),
            "checksum": .string(catalog.checksum),
            "countries": JSONValue(catalog.countries),
            "localFiles": JSONValue(catalog.localFiles),
        ]
    }

    public func handle(_ request: Request) throws -> JSONObject {
        switch request.op {
        case "address": try formatAddress(request)
        case "addressFormat": try describeFormat(request)
        default: throw CoreError.unknownOp(request.op)
        }
    }

    /// `address`: the formatted lines, the one-line form, labelled fields and warnings.
    private func formatAddress(_ request: Request) throws(CoreError) -> JSONObject {
        let locale = try request.locale(resolver)
        guard let object = try request.object("address") else {
            throw .invalidField(
                "address", message: "The field \"address\" is required: an object with at least \"country\".")
        }
        let input = try input(object)
        let format = catalog.formats[input.country] ?? catalog.fallback
        let viewer = try viewerRegion(request, locale: locale)
        let countryName = territories.name(input.country, locale: locale)
        let rendered = renderer.render(
            input, format: format, language: locale.language, countryName: countryName,
            showCountry: viewer != input.country)
        // Members as arrays rather than dictionary literals: one allocation per object instead of two.
        return JSONObject([
            .init(key: "lang", value: .string(locale.language)),
            .init(key: "country", value: .string(input.country)),
            .init(key: "format", value: .string(format.key)),
            .init(key: "lines", value: JSONValue(rendered.lines)),
            .init(key: "oneLine", value: .string(rendered.oneLine)),
            .init(
                key: "fields",
                value: .array(
                    rendered.fields.map {
                        .object(
                            JSONObject([
                                .init(key: "field", value: .string($0.field)),
                                .init(key: "label", value: .string($0.label)),
                                .init(key: "value", value: .string($0.value)),
                            ]))
                    })),
            .init(key: "warnings", value: .array(rendered.warnings.map(\.json))),
        ])
    }

    /// `addressFormat`: a country's format with localised labels, its layout, one-line template, postal-code
    /// rule and example, the example rendered as `address` would for this viewer.
    private func describeFormat(_ request: Request) throws(CoreError) -> JSONObject {
        let locale = try request.locale(resolver)
        let country = try country(request.string("country"), field: "country")
        let format = catalog.formats[country] ?? catalog.fallback
        let viewer = try viewerRegion(request, locale: locale)
        let countryName = territories.name(country, locale: locale)
        let fieldLabels = renderer.formatTexts(format, locale.language).fieldLabels
        var fields: [JSONValue] = format.fields.map { field in
            .object([
                "field": .string(field.rawValue),
                "label": .string(fieldLabels[field]!),
                "required": .bool(format.required.contains(field)),
            ])
        }
        fields.append(
            .object([
                "field": "country", "label": .string(renderer.countryLabel(locale.language)),
                "required": true,
            ]))
        var exampleValues = FieldMap<String>()
        var exampleAddress = JSONObject()
        for (field, value) in format.example {
            exampleValues[field] = value
            exampleAddress.append(field.rawValue, .string(value))
        }
        exampleAddress.append("country", .string(country))
        let example = renderer.render(
            AddressInput(values: exampleValues, country: country), format: format, language: locale.language,
            countryName: countryName, showCountry: viewer != country)
        var postalCode = JSONValue.null
        if let rule = format.postalCode {
            postalCode = .object([
                "pattern": .string(rule.pattern),
                "example": JSONValue(format.examplePostalCode),
            ])
        }
        return [
            "lang": .string(locale.language),
            "country": .string(country),
            "countryName": .string(countryName),
            "format": .string(format.key),
            "fields": .array(fields),
            "layout": JSONValue(format.lines.map(\.source)),
            "oneLine": .string(format.oneLine.source),
            "postalCode": postalCode,
            "example": .object([
                "address": .object(exampleAddress),
                "lines": JSONValue(example.lines),
                "oneLine": .string(example.oneLine),
            ]),
        ]
    }

    /// The viewer's region: `viewerRegion` when sent, else the locale's region; nil shows the country line.
    private func viewerRegion(_ request: Request, locale: ResolvedLocale) throws(CoreError) -> String? {
        if let text = try request.string("viewerRegion") {
            guard let region = territories.canonical(text) else {
                throw .invalidField(
                    "viewerRegion",
                    message: "\"\(text.prefix(16))\" is not an ISO 3166-1 alpha-2 country code (e.g. NL).")
            }
            return region
        }
        return locale.region.map { territories.canonical($0) ?? $0 }
    }

    /// The entered address. One pass over the members keeps the last value of each key (as `JSONObject`'s
    /// subscript would); the values are then checked in `AddressField.allCases` order, then the country.
    private func input(_ object: JSONObject) throws(CoreError) -> AddressInput {
        var entered = FieldMap<JSONValue>()
        var countryValue: JSONValue?
        for member in object {
            if let field = AddressField.named(member.key) {
                entered[field] = member.value
            } else if member.key.hasSameBytes(as: "country") {
                countryValue = member.value
            }
        }
        var values = FieldMap<String>()
        for field in AddressField.allCases {
            switch entered[field] {
            case nil, .null?: continue
            case .string(let text)?:
                let value = PlainText.trimmed(text)
                if !value.isEmpty { values[field] = value }
            case let other?:
                throw .invalidField(
                    "address.\(field.rawValue)",
                    message: "The field \"address.\(field.rawValue)\" must be a string, got \(other.typeName).")
            }
        }
        let countryText: String?
        switch countryValue {
        case nil, .null?: countryText = nil
        case .string(let text)?: countryText = text
        case let other?:
            throw .invalidField(
                "address.country", message: "The field \"address.country\" must be a string, got \(other.typeName).")
        }
        return AddressInput(values: values, country: try country(countryText, field: "address.country"))
    }

    private func country(_ text: String?, field: String) throws(CoreError) -> String {
        guard let text else {
            throw .invalidField(
                field, message: "The field \"\(field)\" is required: an ISO 3166-1 alpha-2 code (e.g. BE).")
        }
        guard let code = territories.canonical(text) else {
            throw .invalidField(
                field, message: "\"\(text.prefix(16))\" is not an ISO 3166-1 alpha-2 country code (e.g. BE).")
        }
        return code
    }
}
