import FmtClient
import FmtCommandLine
import FmtCore

/// `fmtq date`: one calendar date for a viewer, with the year only when it is shared.
struct DateCommand: Subcommand {
    static let name = "date"
    static let summary = "Format a date: fmtq date 1990-11-29 --locale nl [--year-shared] [--style short]"
    static var spec: CommandSpec<QueryOptions> {
        CommandSpec(
            name: "fmtq date", summary: summary,
            usage: ["fmtq date DATE [--locale TAG] [--year-shared] [--style long|medium|short]"],
            description: """
                Formats a calendar date the way the viewer's locale writes it: day and month always, the year only
                when it is shared. No age is ever computed.
                """,
            arguments: [CommandArgument("DATE", help: "YYYY-MM-DD, or --MM-DD for a date without a year (a birthday)")],
            options: [
                .locale("the viewer's language tag, e.g. nl-BE, en-GB, de-AT"),
                .flag(
                    "--year-shared", help: "show the year (when DATE has one); without it the year stays private",
                    \.yearShared),
                .choice(
                    "--style", "STYLE", ["long", "medium", "short"],
                    help: "long (29 november), medium (29 nov) or short (29-11)", default: "long"
                ) { $0.style = $1 },
            ],
            epilogue: """
                Examples:
                  fmtq date 1990-11-29 --locale nl                  29 november
                  fmtq date 1990-11-29 --locale nl --year-shared    29 november 1990
                  fmtq date --02-29 --locale nl-BE --style short    29/2
                  fmtq date 1990-11-29 --locale de-AT --json        the raw response line
                """,
            isPositional: isYearless)
    }

    static func request(_ options: QueryOptions, _ positionals: [String]) throws(UsageError) -> JSONObject {
        guard let date = positionals.first else { throw UsageError("fmtq date needs a date: YYYY-MM-DD or --MM-DD") }
        try refuseExtra(positionals, after: 1)
        var request: JSONObject = ["op": "date", "date": .string(date)]
        if options.yearShared { request.append("yearShared", true) }
        if let locale = options.locale { request.append("locale", .string(locale)) }
        if let style = options.style { request.append("style", .string(style)) }
        return request
    }

    static func render(_ response: JSONObject) -> String {
        answer(response, as: FormattedDate.self).text
    }

    /// A year-less date (`--11-29`) looks like an option but is the date.
    private static func isYearless(_ argument: String) -> Bool {
        let bytes = Array(argument.utf8)
        return bytes.count == 7 && bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-")
            && bytes[2...].allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
