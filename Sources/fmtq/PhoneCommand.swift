import FmtClient
import FmtCommandLine
import FmtCore

/// `fmtq phone`: one phone number as the viewer's region should see it, then every other form.
struct PhoneCommand: Subcommand {
    static let name = "phone"
    static let summary = "Format a phone number: fmtq phone '+32 2 555 12 34' --viewer-region NL"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq phone", summary: summary,
            usage: ["fmtq phone NUMBER --viewer-region REGION [--default-region REGION] [--locale TAG]"],
            description: """
                Parses, validates and formats a phone number with libphonenumber's rules and the daemon's numbering-plan
                metadata. The first line is the display form: national when the number belongs to the viewer's region,
                international otherwise. Then how a screen reader should read it (digit by digit, in the language of
                --locale), validity, type, region and the E.164, national, international and RFC 3966 forms (and the
                extension, when there is one), whether its length is possible (with libphonenumber's reason) and how
                to dial it from the viewer's region.
                """,
            arguments: [
                CommandArgument(
                    "NUMBER",
                    help: "the number as written: +32 2 555 12 34, 06 12345678, 1-800-FLOWERS, "
                        + "tel:+1-650-253-0000;ext=123 (several words are joined with spaces)")
            ],
            options: [
                .text(
                    "--viewer-region", "REGION",
                    help: "the viewer's ISO 3166-1 region, e.g. NL, or ZZ when unknown (required)", \.viewerRegion),
                .text(
                    "--default-region", "REGION",
                    help:
                        "the region of a number written without a country code, e.g. NL for 06 12345678 (ZZ for none)",
                    default: "--viewer-region: a person typing a local number means their own region",
                    \.defaultRegion),
                .locale("the viewer's language tag, the language the number is read aloud in, e.g. nl, de-AT"),
            ],
            epilogue: """
                Examples:
                  fmtq phone '+32 2 555 12 34' --viewer-region NL                   +32 2 555 12 34
                  fmtq phone '+32 2 555 12 34' --viewer-region BE                   02 555 12 34
                  fmtq phone '06 12345678' --viewer-region NL                       06 12345678
                  fmtq phone '0031 6 12345678' --viewer-region BE                   +31 6 12345678
                  fmtq phone '+31 6 12345678' --viewer-region NL --json             the raw response line

                A number that cannot be parsed is an error (exit status 1) with libphonenumber's reason, e.g.
                INVALID_COUNTRY_CODE for a national number with --default-region ZZ.
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        let number = positionals.joined(separator: " ")
        guard !number.isEmpty else { throw UsageError("the number is missing, e.g. '+32 2 555 12 34'") }
        guard let viewerRegion = options.viewerRegion else {
            throw UsageError("--viewer-region is required: the region of the person reading, e.g. NL")
        }
        var request: JSONObject = ["op": "phone", "number": .string(number)]
        request.append("defaultRegion", .string(options.defaultRegion ?? viewerRegion))
        request.append("viewerRegion", .string(viewerRegion))
        if let locale = options.locale { request.append("locale", .string(locale)) }
        return request
    }

    static func render(_ response: JSONObject) -> String {
        let phone = answer(response, as: PhoneDisplay.self)
        var rows: [(String, String)] = []
        if let spoken = phone.spoken, !spoken.isEmpty { rows.append(("spoken", spoken)) }
        rows += [
            ("valid", phone.valid ? "yes" : "no"), ("type", phone.type),
            ("region", phone.region ?? "none (no single region)"), ("e164", phone.e164), ("national", phone.national),
            ("international", phone.international), ("rfc3966", phone.rfc3966),
        ]
        if let phoneExtension = phone.extension { rows.append(("extension", phoneExtension)) }
        rows.append(("possible", (phone.possible ? "yes" : "no") + " (\(phone.possibleReason))"))
        rows.append(("dial", phone.dialFrom))
        let lines = rows.map { "  " + $0.0 + String(repeating: " ", count: 15 - $0.0.count) + $0.1 }
        return ([phone.display] + lines).joined(separator: "\n")
    }
}

/// `fmtq phone-match`: whether two numbers are the same (libphonenumber's isNumberMatch).
struct PhoneMatchCommand: Subcommand {
    static let name = "phone-match"
    static let summary = "Compare two phone numbers: fmtq phone-match '+31 6 12345678' 06-12345678 --default-region NL"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq phone-match", summary: summary,
            usage: ["fmtq phone-match A B [--default-region REGION]"],
            description: """
                Says whether two numbers are the same, as libphonenumber's isNumberMatch does: exact (same country
                calling code, number and extension), nsn (one has no country code, the national numbers agree),
                shortNsn (one national number ends the other, or only one has an extension) or none. With
                --default-region both are read in that region; without it a number without a country code is read
                in the other's region, or both are compared by their national numbers.
                """,
            arguments: [
                CommandArgument("A", help: "the first number as written, e.g. '+31 6 12345678'"),
                CommandArgument("B", help: "the second number as written, e.g. 06-12345678"),
            ],
            options: [
                .text(
                    "--default-region", "REGION",
                    help: "the region of numbers written without a country code, e.g. NL", \.defaultRegion)
            ],
            epilogue: """
                Examples:
                  fmtq phone-match '+31 6 12345678' 06-12345678 --default-region NL   exact
                  fmtq phone-match '+31 6 12345678' 06-12345678                       nsn
                  fmtq phone-match '+1 650 253 0000' '253 0000'                        shortNsn

                Exit status 0 for a match of any kind, 1 for none (and for an error, e.g. a text that is no number).
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        guard positionals.count >= 2 else {
            throw UsageError("two numbers are needed, e.g. fmtq phone-match '+31 6 12345678' 06-12345678")
        }
        try refuseExtra(positionals, after: 2)
        var request: JSONObject = ["op": "phoneMatch", "a": .string(positionals[0]), "b": .string(positionals[1])]
        if let defaultRegion = options.defaultRegion { request.append("defaultRegion", .string(defaultRegion)) }
        return request
    }

    static func render(_ response: JSONObject) -> String { answer(response, as: PhoneMatchResult.self).match ?? "" }

    static func exitStatus(_ response: JSONObject) -> Int32 {
        answer(response, as: PhoneMatchResult.self).match == "none" ? 1 : 0
    }
}

/// `fmtq phone-example`: a region's example number of a type, in every form.
struct PhoneExampleCommand: Subcommand {
    /// The number types `phoneExample` takes (its `type`), as `--type` offers and completes them.
    static let numberTypes = [
        "fixedLine", "mobile", "tollFree", "premiumRate", "sharedCost", "voip", "personalNumber", "pager", "uan",
        "voicemail",
    ]

    static let name = "phone-example"
    static let summary = "Show a region's example number: fmtq phone-example NL --type mobile"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq phone-example", summary: summary,
            usage: ["fmtq phone-example REGION [--type TYPE] [--viewer-region REGION] [--locale TAG]"],
            description: """
                Shows libphonenumber's example number of a type for a region (a placeholder for a phone field), as
                fmtq phone shows a number: the display form for the viewer's region first (the region itself unless
                --viewer-region says otherwise), then every other form.
                """,
            arguments: [CommandArgument("REGION", help: "an ISO 3166-1 region, e.g. NL")],
            options: [
                .choice(
                    "--type", "TYPE", numberTypes,
                    help: "fixedLine (the default), mobile, tollFree, premiumRate, sharedCost, voip, personalNumber, "
                        + "pager, uan or voicemail"
                ) { $0.numberType = $1 },
                .text(
                    "--viewer-region", "REGION", help: "the viewer's ISO 3166-1 region (default: REGION)",
                    \.viewerRegion),
                .locale("the viewer's language tag, the language the number is read aloud in, e.g. nl, de-AT"),
            ],
            epilogue: """
                Examples:
                  fmtq phone-example NL --type mobile                     06 12345678
                  fmtq phone-example NL --type mobile --viewer-region BE  +31 6 12345678

                A region or type without an example number is an error (exit status 1, code no_example).
                """)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        guard let region = positionals.first else { throw UsageError("the region is missing, e.g. NL") }
        try refuseExtra(positionals, after: 1)
        var request: JSONObject = ["op": "phoneExample", "region": .string(region)]
        if let type = options.numberType { request.append("type", .string(type)) }
        if let viewerRegion = options.viewerRegion { request.append("viewerRegion", .string(viewerRegion)) }
        if let locale = options.locale { request.append("locale", .string(locale)) }
        return request
    }

    static func render(_ response: JSONObject) -> String { PhoneCommand.render(response) }
}
