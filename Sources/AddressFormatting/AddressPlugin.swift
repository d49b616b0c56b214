import FmtCore

/// The `address` plugin: formats postal addresses by the address country's convention and describes each
/// country's format, in the viewer's language. A value is one loaded snapshot of the formats and labels.
public struct AddressPlugin: FormatterPlugin {
    public static let name = "address"
    /// `address` formats an address; `addressFormat` describes a country's format.
    public enum Op: String, PluginOp {
        case address, addressFormat
    }

    /// The longest postal code a country's rule checks, in Unicode scalars after trimming and collapsing spaces;
    /// a longer one is shown as entered with the `postal_code_format` warning. The longest codes in use have
    /// 10 characters (`12345-6789`); the bound keeps any pattern's backtracking to a small input.
    public static let maximumPostalCodeLength = 32

    /// The longest `address.language` accepted, in bytes. BCP 47 asks implementations to take tags of at
    /// least 35 characters; every tag libaddressinput or CLDR writes is far shorter (`zh-Hant-HK`).
    public static let maximumLanguageLength = 64

    private let catalog: FormatCatalog
    private let labels: LabelTable
    private let renderer: AddressRenderer
    private let resolver: LocaleResolver
    private let territories: TerritoryCache
    /// The language tags requests name for their text, by the text's bytes as sent (a text longer than any tag
    /// with some blanks around it is read anew each time).
    private let enteredLanguages = LookupCache<UTF8Keys, EnteredLanguage, ForgetAll>(
        limit: 1024, longestKey: 2 * maximumLanguageLength)
    /// Per format (as `FormatCatalog.ordered`), its example as `addressFormat` shows it when no `language` is sent:
    /// the same for every such request, so it is prepared once, at load.
    private let examples: [PreparedExample]
    /// `addressFormat`'s `regions`, with the orders worked out for viewers so far.
    private let regionListing = RegionListing()
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
        for key in catalog.formats.keys where key != "default" && Region(alpha2: key)?.code != key {
            throw DataError(file: FormatCatalog.file, field: "formats.\(key)", "is not an ISO 3166-1 code ICU knows")
        }
        self.catalog = catalog
        self.labels = labels
        renderer = AddressRenderer(labels: labels, formats: catalog.ordered)
        territories = TerritoryCache(languageCount: labels.languages.count)
        let renderer = renderer
        examples = catalog.ordered.map { format in
            var input = Self.exampleInput(format, country: format.key, language: nil)
            let prepared = renderer.prepare(&input, format: format)
            return PreparedExample(input: input, prepared: prepared)
        }
        resolver = environment.resolver
        dataInfo = [
            "source": .string(data.sourceDescription),
            "version": .string(catalog.version),
            "checksum": .string(catalog.checksum),
            "countries": JSONValue(catalog.countries),
            "subRegions": .number(JSONNumber(catalog.ordered.reduce(0) { $0 + ($1.subRegions?.entries.count ?? 0) })),
            "localFiles": JSONValue(catalog.localFiles),
        ]
    }

    public func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws {
        switch op {
        case .address: try formatAddress(request.fields, into: &response)
        case .addressFormat: try describeFormat(request.fields, into: &response)
        }
    }

    /// `address`: the formatted lines, the one-line form, labelled fields and warnings.
    private func formatAddress(_ request: RequestFields, into response: inout ResponseWriter) throws(CoreError) {
        let locale = try request.locale(resolver)
        guard let object = try request.object("address") else {
            throw .invalidField(
                "address", message: "The field \"address\" is required: an object with at least \"country\".")
        }
        var input = AddressInput()
        try read(object, into: &input)
        let slot = FormatCatalog.slot(input.country)
        let index = catalog.index(slot: slot)
        let format = catalog.ordered[index]
        let viewer = try viewerRegion(request, locale: locale)
        let language = renderer.language(locale.language)
        let countryName = territories.name(input.country, slot: slot, language: language.tableIndex, locale: locale)
        let prepared = renderer.prepare(&input, format: format)
        renderer.writeAddress(
            input, prepared, format: format, formatIndex: index, language: language,
            lang: locale.language, countryName: countryName, showCountry: viewer?.code != input.country, into: &response
        )
    }

    /// `addressFormat`: a country's format with localised labels, its layout, one-line template, postal-code
    /// rule and example, the example rendered as `address` would for this viewer. `language` picks the layout
    /// described as `address.language` does (the local one when absent), and the example is rendered with it.
    private func describeFormat(_ request: RequestFields, into response: inout ResponseWriter) throws(CoreError) {
        let locale = try request.locale(resolver)
        let country = try country(request, "country").code
        let language = try language(request)
        let slot = FormatCatalog.slot(country)
        let index = catalog.index(slot: slot)
        let format = catalog.ordered[index]
        let (layout, isLatin, arabic) = format.layout(describing: language)
        let viewer = try viewerRegion(request, locale: locale)
        let viewerLanguage = renderer.language(locale.language)
        let countryName = territories.name(
            country, slot: slot, language: viewerLanguage.tableIndex, locale: locale)
        var exampleInput: AddressInput
        let example: PreparedAddress
        if language == nil {
            exampleInput = examples[index].input
            exampleInput.country = country
            example = examples[index].prepared
        } else {
            exampleInput = Self.exampleInput(format, country: country, language: language, isLatin: isLatin)
            example = renderer.prepare(&exampleInput, format: format)
        }
        let listed = try regionList(request, format: format, country: country)
        renderer.writeDescription(
            format, formatIndex: index, language: viewerLanguage,
            lang: locale.language, layout: layout,
            isLatin: isLatin, arabic: arabic, countryName: countryName, example: exampleInput, example,
            showCountry: viewer?.code != country, into: &response)
        if let table = format.subRegions, let listed {
            for (name, entry) in listed.path {
                table.withBytes(table.entries[entry].key) { response.member(name, utf8: $0) }
            }
            regionListing.write(
                table, formatIndex: index, parent: listed.parent, country: country, viewer: locale.requested,
                into: &response)
        }
    }

    /// Which list `addressFormat` gives: the regions, or with `region` that region's cities, or with `region` and
    /// `city` that city's districts (each found as `address` finds it); with the members naming the keys found
    /// (`region`, `city`). Nil for a country without sub-regions; a value that names none fails the request.
    private func regionList(
        _ request: RequestFields, format: AddressFormat, country: String
    ) throws(CoreError) -> (parent: Int, path: [(StaticString, Int)])? {
        let region = try listedValue(request, "region")
        let city = try listedValue(request, "city")
        if city != nil, region == nil {
            throw .invalidField(
                "city", message: "The field \"city\" lists a city's districts: send its \"region\" too.")
        }
        guard let table = format.subRegions else {
            guard region == nil else {
                throw .invalidField("region", message: "\(country) has no list of regions in the address data.")
            }
            return nil
        }
        var parent = -1
        var path: [(StaticString, Int)] = []
        for (name, value) in [("region" as StaticString, region), ("city", city)] {
            guard var value else { break }
            var found = value.withUTF8 { table.find($0, under: parent)?.entry }
            if found == nil, parent < 0, let code = format.regions?.code(for: value) {
                var code = code
                found = code.withUTF8 { table.find($0, under: -1)?.entry }
            }
            guard let found else {
                let shown = value.unicodeScalars.count > 64 ? String(value.unicodeScalars.prefix(64)) + "…" : value
                throw .invalidField(
                    "\(name)",
                    message:
                        "\"\(shown)\" is not one of the \(parent < 0 ? "regions of \(country)" : "cities of that region") "
                        + "(a key, name, Latin name or ISO code that addressFormat lists).")
            }
            parent = found
            path.append((name, found))
        }
        return (parent, path)
    }

    /// A trimmed `region` or `city` of `addressFormat`, nil when absent or blank.
    private func listedValue(_ request: RequestFields, _ name: String) throws(CoreError) -> String? {
        guard let text = try request.string(name) else { return nil }
        let trimmed = PlainText.trimmed(text)
        guard trimmed.utf8.count <= RegionTable.maximumNameBytes else {
            throw .invalidField(name, message: "The field \"\(name)\" is longer than any region's name.")
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A format's example address as entered, before `AddressRenderer.prepare` turns it into the shown one.
    private static func exampleInput(
        _ format: AddressFormat, country: String, language: EnteredLanguage?, isLatin: Bool = false
    ) -> AddressInput {
        var values = FieldMap<EnteredText>()
        for (field, value) in format.example(isLatin: isLatin) { values[field] = .string(value) }
        return AddressInput(values: consume values, country: country, language: language)
    }

    /// A format's example as prepared: the shown values and what `prepare` decided.
    private struct PreparedExample: Sendable {
        let input: AddressInput
        let prepared: PreparedAddress
    }

    /// The viewer's region: `viewerRegion` when sent, else the locale's region; nil shows the country line.
    /// Read with one lookup of the name (most requests have none); a text naming no region is read again by
    /// `region(_:noun:)` for its failure.
    private func viewerRegion(_ request: RequestFields, locale: ResolvedLocale) throws(CoreError) -> Region? {
        let sent = try request.withUTF8("viewerRegion") {
            $0.withUnsafeBufferPointer { Region(alpha2: String(decoding: $0, as: UTF8.self)) }
        }
        switch sent {
        case nil: return locale.viewerRegion
        case .some(let region?): return region
        case .some(nil): return try request.region("viewerRegion", noun: "country")
        }
    }

    /// Reads the entered address into `input` (empty), in place rather than returned, which saves copying it:
    /// each field's last value, checked in `AddressField.allCases` order, then the country,
    /// then `language`. A flat request's members are found in one pass over the object; each value is read where
    /// it lies in the request and trimmed over its bytes, so a `String` is made only of what is left of it.
    private func read(_ object: RequestFields, into input: inout AddressInput) throws(CoreError) {
        var slots = FieldMap<MemberSlot>()
        var countrySlot: MemberSlot?
        var hasLanguage = false
        let flat = object.forEachMember { name, slot in
            name.withUnsafeBufferPointer { name in
                if let field = AddressField.named(utf8: name) {
                    slots[field] = slot
                } else if name.hasSameBytes(as: "country") {
                    countrySlot = slot
                } else if name.hasSameBytes(as: "language") {
                    hasLanguage = true
                }
            }
        }
        guard flat else {
            input = try inputByName(object)
            return
        }
        for field in AddressField.allCases {
            guard let slot = slots[field] else { continue }
            switch object.withUTF8(at: slot, { span in span.withUnsafeBufferPointer { Self.enteredText($0) } }) {
            case .some(.success(.kept(let range))):
                input.values[field] = object.textRange(at: slot, trimmedTo: range).map(EnteredText.request)
            case .some(.success(.made(let value))): input.values[field] = .string(value)
            case .some(.success(.empty)): break
            case .some(.failure): throw Self.tooJoined(object, field)
            case nil:
                // No string: read again by name, for its failure (or as absent, when `null`).
                if let value = try object.withUTF8(field.rawValue, { $0.withUnsafeBufferPointer(Self.enteredString) }) {
                    guard case .success(let value) = value else { throw Self.tooJoined(object, field) }
                    if let value { input.values[field] = .string(value) }
                }
            }
        }
        // The country's failure, if any, is thrown once the fields are read, by reading it again.
        let country = countrySlot.flatMap {
            object.withUTF8(at: $0) { $0.withUnsafeBufferPointer { Region(alpha2: $0) } } ?? nil
        }
        let code: String
        if let country {
            code = country.code
        } else {
            code = try self.country(object, "country").code
        }
        input.country = code
        input.text = object.text
        if hasLanguage { input.language = try self.language(object) }
    }

    /// How an entered value is shown, trimmed: the range of its bytes to keep where they lie in the request, when
    /// the bytes decide the trimming, else a `String` made of what is left.
    enum Trimmed {
        case kept(Range<Int>)
        case made(String)
        case empty
    }

    /// An entered value as shown, trimmed; `.empty` when nothing is left.
    @inline(__always)
    private static func enteredText(_ utf8: UnsafeBufferPointer<UInt8>) -> Result<Trimmed, TooJoined> {
        guard let range = PlainText.trimmedRange(utf8) else {
            return enteredString(utf8).map { $0.map(Trimmed.made) ?? .empty }
        }
        guard utf8.count <= PlainText.maximumJoinedRun || PlainText.longestJoinedRun(utf8) <= PlainText.maximumJoinedRun
        else { return .failure(TooJoined()) }
        return .success(range.isEmpty ? .empty : .kept(range))
    }

    /// An entered value as shown, trimmed, as a `String`; nil when nothing is left. A value with more scalars
    /// joined in a row than `PlainText.maximumJoinedRun` fails before it is trimmed (trimming walks its clusters).
    private static func enteredString(_ utf8: UnsafeBufferPointer<UInt8>) -> Result<String?, TooJoined> {
        guard utf8.count <= PlainText.maximumJoinedRun || PlainText.longestJoinedRun(utf8) <= PlainText.maximumJoinedRun
        else { return .failure(TooJoined()) }
        let text = PlainText.trimmed(utf8: utf8)
        return .success(text.isEmpty ? nil : text)
    }

    /// A value with a longer run of joined scalars than a grapheme cluster of any language has.
    struct TooJoined: Error {}

    /// The failure of a value with more scalars joined in a row than `PlainText.maximumJoinedRun`.
    private static func tooJoined(_ object: RequestFields, _ field: AddressField) -> CoreError {
        .invalidField(
            object.path(field.rawValue),
            message:
                "\"\(object.path(field.rawValue))\" joins more than \(PlainText.maximumJoinedRun) characters into one "
                + "(a grapheme cluster longer than any language writes).")
    }

    /// `read(_:into:)` for an object tree (a request made in code), by name. Once the names found account for every
    /// member of the object, the names left are absent and not looked up.
    private func inputByName(_ object: RequestFields) throws(CoreError) -> AddressInput {
        let country = try? self.country(object, "country").code
        var unaccounted = object.count
        if country != nil { unaccounted -= 1 }
        var values = FieldMap<EnteredText>()
        for field in AddressField.allCases where unaccounted > 0 {
            guard let value = try object.withUTF8(field.rawValue, { $0.withUnsafeBufferPointer(Self.enteredString) })
            else { continue }
            unaccounted -= 1
            guard case .success(let value) = value else { throw Self.tooJoined(object, field) }
            if let value { values[field] = .string(value) }
        }
        let code: String
        if let country {
            code = country
        } else {
            code = try self.country(object, "country").code
        }
        let language = unaccounted > 0 ? try self.language(object) : nil
        return AddressInput(values: consume values, country: code, language: language)
    }

    /// `address.language`: a well-formed BCP 47 tag of at most `maximumLanguageLength` bytes; blank is absent. The
    /// tag and what the formats ask of it are remembered by the member's bytes, read where they lie in the request:
    /// a text met before makes no `String`.
    private func language(_ object: RequestFields) throws(CoreError) -> EnteredLanguage? {
        let found = try object.withUTF8("language") { span in
            span.withUnsafeBufferPointer { utf8 in
                Result { () throws(CoreError) -> EnteredLanguage? in
                    try enteredLanguages.value(for: utf8) { () throws(CoreError) -> EnteredLanguage? in
                        try Self.language(String(decoding: utf8, as: UTF8.self), in: object).map(EnteredLanguage.init)
                    }
                }
            }
        }
        return try found?.get()
    }

    /// `language(_:)` for the member's text.
    private static func language(_ text: String, in object: RequestFields) throws(CoreError) -> LanguageTag? {
        let trimmed = PlainText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.utf8.count <= maximumLanguageLength, let tag = LanguageTag(parsing: trimmed) else {
            let shown = trimmed.unicodeScalars.count > 64 ? String(trimmed.unicodeScalars.prefix(64)) + "…" : trimmed
            throw .invalidField(
                object.path("language"),
                message: "\"\(shown)\" is not a well-formed language tag of at most "
                    + "\(maximumLanguageLength) characters (e.g. ja, ja-Latn, zh-Hant).")
        }
        return tag
    }

    private func country(_ request: RequestFields, _ name: String) throws(CoreError) -> Region {
        guard let region = try request.region(name, noun: "country", example: "BE") else {
            throw .invalidField(
                request.path(name),
                message: "The field \"\(request.path(name))\" is required: an ISO 3166-1 alpha-2 code (e.g. BE).")
        }
        return region
    }
}
