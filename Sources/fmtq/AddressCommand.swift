import FmtClient
import FmtCommandLine
import FmtCore

/// `fmtq address`: a country's address format, or an address formatted by its country's convention.
struct AddressCommand: Subcommand {
    static let name = "address"
    static let summary = "Show a country's address format, or format an address: fmtq address --country BE"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq address", summary: summary,
            usage: [
                "fmtq address --country CC [--locale TAG] [--viewer-region CC] [FIELD OPTIONS]",
                "fmtq address --country CC --regions [--region REGION [--city CITY]] [--locale TAG]",
            ],
            description: """
                Without field options, shows the address format of country CC: its fields with their labels in the
                viewer's language, the line layout, the one-line template, the postal-code pattern and the example
                address rendered; with --language, the layout for text in that language (ja-Latn: Japan's Latin
                one). With field options, formats that address by the convention of country CC, then says how a
                screen reader should read its postal code (one with letters or more than four digits, in the
                viewer's language) and which lines run right to left (an address entered in Arabic or Hebrew). With
                --regions, lists the country's regions (with --region, that region's cities or districts; with --city
                too, that city's districts) as a form offers them, sorted for the viewer.
                """,
            options: [
                .text(
                    "--country", "CC", help: "the address country, ISO 3166-1 alpha-2 in any case (required)", \.country
                ),
                .locale("the viewer's language tag, e.g. nl-BE, en-GB, de"),
                .text(
                    "--viewer-region", "CC",
                    help: "where the viewer is; the country line is added when the address is in another country, "
                        + "or when no region is known",
                    default: "the locale's region", \.viewerRegion),
                .text(
                    "--language", "TAG",
                    help: "the language the address is written in (`address.language`, BCP 47: ja, ja-Latn, "
                        + "zh-Hant); decides between a country's local and Latin layouts, and Arabic script's "
                        + "comma; without field options, the layout shown",
                    default: "by the script of the values", group: "Field options"
                ) { $0.fields["language"] = $1 },
                .flag(
                    "--regions",
                    help: "list the country's regions, or with --region a region's cities or districts, for a form",
                    \.regions),
            ]
                + fieldOptions.map { option, field in
                    .text(option, "TEXT", help: "the address field `\(field)`", group: "Field options") {
                        $0.fields[field] = $1
                    }
                },
            epilogue: """
                Examples:
                  fmtq address --country BE --locale nl
                  fmtq address --country CA --regions --locale fr-CA
                  fmtq address --country NL --street Herengracht --house-number 573 --postal-code 1017cd \\
                      --city Amsterdam --locale nl-NL
                  fmtq address --country GB --house-number 10 --street "Downing Street" --city London \\
                      --postal-code sw1a2aa --locale de-DE
                  fmtq address --country US --locale en-US --json --street "Hamilton Avenue" --house-number 301 \\
                      --city "Palo Alto" --region CA --postal-code 94303
                """)
    }

    private static let fieldOptions: [(option: String, field: String)] = [
        ("--name", "name"), ("--organization", "organization"), ("--street", "street"),
        ("--house-number", "houseNumber"), ("--extra", "extra"), ("--postal-code", "postalCode"),
        ("--city", "city"), ("--region", "region"), ("--district", "district"), ("--sorting-code", "sortingCode"),
    ]

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        try refuseExtra(positionals, after: 0)
        guard let country = options.country else { throw UsageError("--country is required, e.g. --country BE") }
        var address = JSONObject()
        for (_, field) in fieldOptions {
            if let value = options.fields[field] { address.append(field, .string(value)) }
        }
        var request: JSONObject
        let language = options.fields["language"]
        if options.regions {
            request = ["op": "addressFormat", "country": .string(country)]
            for field in ["region", "city"] {
                if let value = options.fields[field] { request.append(field, .string(value)) }
            }
        } else if address.count == 0 {
            request = ["op": "addressFormat", "country": .string(country)]
            if let language { request.append("language", .string(language)) }
        } else {
            if let language { address.append("language", .string(language)) }
            address.append("country", .string(country))
            request = ["op": "address", "address": .object(address)]
        }
        if let locale = options.locale { request.append("locale", .string(locale)) }
        if let viewerRegion = options.viewerRegion { request.append("viewerRegion", .string(viewerRegion)) }
        return request
    }

    static func render(_ response: JSONObject) -> String {
        response["layout"] == nil ? renderAddress(response) : renderFormat(response)
    }

    /// `regions`, one a line: key, name, the viewer's or Latin name, ISO code and postal-code prefixes where given.
    private static func renderRegions(_ response: JSONObject) -> [String] {
        let regions = (response["regions"]?.arrayValue ?? []).compactMap(\.objectValue)
        let width = regions.map { $0.text("key").count }.max() ?? 0
        return regions.map { region in
            let key = region.text("key")
            var line =
                "  " + key + String(repeating: " ", count: max(0, width - key.count)) + "  " + region.text("name")
            for member in ["viewerName", "latinName"] {
                if let other = region[member]?.stringValue { line += " (\(other))" }
            }
            if let code = region["isoCode"]?.stringValue { line += "  \(code)" }
            if let prefixes = region["postalCodePrefixes"]?.stringValue { line += "  postal codes \(prefixes)…" }
            return line
        }
    }

    /// The lines, then what a screen reader or a right-to-left layout needs (the postal code read aloud, which
    /// lines run right to left: `linesDir`), then the warnings.
    private static func renderAddress(_ response: JSONObject) -> String {
        let address = answer(response, as: FormattedAddress.self)
        var lines = address.lines
        if let spoken = address.spokenPostalCode {
            lines.append("postal code read aloud: " + spoken)
        }
        let rightToLeft = address.linesDir.enumerated().filter { $0.element == "rtl" }.map { $0.offset + 1 }
        if !rightToLeft.isEmpty {
            lines.append(
                (rightToLeft.count == 1 ? "right to left: line " : "right to left: lines ")
                    + rightToLeft.map(String.init).joined(separator: ", "))
        }
        return (lines + address.warnings.map { "warning: " + $0.message }).joined(separator: "\n")
    }

    private static func renderFormat(_ response: JSONObject) -> String {
        let format = answer(response, as: AddressFormatDescription.self)
        var labels: [String: String] = [:]
        for field in format.fields { labels[field.field] = field.label }
        func labelled(_ template: String) -> String {
            var output = ""
            var rest = Substring(template)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                output += rest[..<open]
                let name = String(rest[rest.index(after: open)..<close])
                output += "<" + (labels[name] ?? name) + ">"
                rest = rest[rest.index(after: close)...]
            }
            return output + rest
        }
        let variant = format.layoutScript.map { ", \($0 == "latin" ? "Latin" : $0) layout" } ?? ""
        var lines = [
            "\(format.countryName) (\(format.country)): "
                + (format.format == "default" ? "the default international format" : "format \(format.format)")
                + variant,
            "",
            "Fields:",
        ]
        let width = format.fields.map(\.label.count).max() ?? 0
        for field in format.fields {
            let padded = field.label + String(repeating: " ", count: max(0, width - field.label.count))
            lines.append("  \(padded)  \(field.field)\(field.required ? " (required)" : "")")
        }
        lines.append("")
        lines.append("Layout:")
        lines += format.layout.map { "  " + labelled($0) }
        lines.append("")
        lines.append("One line: " + labelled(format.oneLine))
        if let postalCode = format.postalCode {
            lines.append("Postal code: like \(postalCode.example) (pattern \(postalCode.pattern))")
        } else {
            lines.append("Postal code: shown as entered")
        }
        lines.append("")
        lines.append("Example:")
        lines += format.example.lines.map { "  " + $0 }
        lines.append("  (one line: \(format.example.oneLine))")
        if response["regions"] != nil {
            let within = [response["city"], response["region"]].compactMap { $0?.stringValue }.first
            lines.append("")
            lines.append(within.map { "Within \($0):" } ?? "Regions:")
            lines += renderRegions(response)
        }
        return lines.joined(separator: "\n")
    }
}
