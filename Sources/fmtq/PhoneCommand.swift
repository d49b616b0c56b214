import FmtCommandLine
import FmtCore

/// `fmtq phone`: one phone number as the viewer's region should see it, then every other form.
struct PhoneCommand: Subcommand {
    static let name = "phone"
    static let summary = "Format a phone number: fmtq phone '+32 2 555 12 34' --viewer-region NL"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq phone", summary: summary,
            usage: ["fmtq phone NUMBER --viewer-region REGION [--default-region REGION]"],
            description: """
                Parses, validates and formats a phone number with libphonenumber's rules and the daemon's numbering-plan
                metadata. The first line is the display form: national when the number belongs to the viewer's region,
                international otherwise. Then validity, type, region and the E.164, national, international and
                RFC 3966 forms (and the extension, when there is one).
                """,
            arguments: [
                CommandArgument(
                    "NUMBER",
                    help: "the number as written: +32 2 555 12 34, 06 12345678, 1-800-FLOWERS, "
                        + "tel:+1-650-253-0000;ext=123 (several words are joined with spaces)")
            ],
            options: [
                .text(
                    "--viewer-region", "REGION", help: "the viewer's ISO 3166-1 region, e.g. NL (required)",
                    \.viewerRegion),
                .text(
                    "--default-region", "REGION",
                    help: "the region of a number written without a country code, e.g. NL for 06 12345678",
                    \.defaultRegion),
            ],
            epilogue: """
                Examples:
                  fmtq phone '+32 2 555 12 34' --viewer-region NL                   +32 2 555 12 34
                  fmtq phone '+32 2 555 12 34' --viewer-region BE                   02 555 12 34
                  fmtq phone '06 12345678' --default-region NL --viewer-region NL   06 12345678
                  fmtq phone '+31 6 12345678' --viewer-region NL --json             the raw response line

                A number that cannot be parsed is an error (exit status 1) with libphonenumber's reason, e.g.
                INVALID_COUNTRY_CODE for a national number without --default-region.
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        let number = positionals.joined(separator: " ")
        guard !number.isEmpty else { throw UsageError("the number is missing, e.g. '+32 2 555 12 34'") }
        guard let viewerRegion = options.viewerRegion else {
            throw UsageError("--viewer-region is required: the region of the person reading, e.g. NL")
        }
        var request: JSONObject = ["op": "phone", "number": .string(number)]
        if let defaultRegion = options.defaultRegion { request.append("defaultRegion", .string(defaultRegion)) }
        request.append("viewerRegion", .string(viewerRegion))
        return request
    }

    static func render(_ response: JSONObject) -> String {
        var rows: [(String, String)] = [
            ("valid", response["valid"] == .bool(true) ? "yes" : "no"),
            ("type", response.text("type")),
            ("region", response["region"]?.stringValue ?? "none (no single region)"),
            ("e164", response.text("e164")),
            ("national", response.text("national")),
            ("international", response.text("international")),
            ("rfc3966", response.text("rfc3966")),
        ]
        if let phoneExtension = response["extension"]?.stringValue { rows.append(("extension", phoneExtension)) }
        let lines = rows.map { "  " + $0.0 + String(repeating: " ", count: 15 - $0.0.count) + $0.1 }
        return ([response.text("display")] + lines).joined(separator: "\n")
    }
}
