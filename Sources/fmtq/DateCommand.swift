import FmtCore

/// `fmtq date`: one calendar date for a viewer, with the year only when it is shared.
struct DateCommand: Subcommand {
    static let name = "date"
    static let summary = "Format a date: fmtq date 1990-11-29 --locale nl [--year-shared] [--style short]"
    static let help = """
        Usage: fmtq date DATE [--locale TAG] [--year-shared] [--style long|medium|short]

        Formats a calendar date the way the viewer's locale writes it: day and month always, the year only
        when it is shared. No age is ever computed.

          DATE             YYYY-MM-DD, or --MM-DD for a date without a year (a birthday)
          --locale TAG     the viewer's language tag, e.g. nl-BE, en-GB, de-AT (default: en)
          --year-shared    show the year (when DATE has one); without it the year stays private
          --style STYLE    long (29 november, the default), medium (29 nov) or short (29-11)

        Examples:
          fmtq date 1990-11-29 --locale nl                  29 november
          fmtq date 1990-11-29 --locale nl --year-shared    29 november 1990
          fmtq date --02-29 --locale nl-BE --style short    29/2
          fmtq date 1990-11-29 --locale de-AT --json        the raw response line
        """

    static func request(_ arguments: inout Arguments) throws(UsageError) -> JSONObject {
        let locale = arguments.option("--locale")
        let style = arguments.option("--style")
        let yearShared = arguments.flag("--year-shared")
        var date = arguments.positional()
        // A year-less date (--11-29) looks like an option; once every real option is consumed, it is the date.
        if date == nil, let yearless = arguments.leftovers.first(where: isYearless) {
            _ = arguments.flag(yearless)
            date = yearless
        }
        guard let date else { throw UsageError("fmtq date needs a date: YYYY-MM-DD or --MM-DD") }
        var request: JSONObject = ["op": "date", "date": .string(date)]
        if yearShared { request.append("yearShared", true) }
        if let locale { request.append("locale", .string(locale)) }
        if let style { request.append("style", .string(style)) }
        return request
    }

    static func render(_ response: JSONObject) -> String {
        response.text("text")
    }

    private static func isYearless(_ argument: String) -> Bool {
        let bytes = Array(argument.utf8)
        return bytes.count == 7 && bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-")
            && bytes[2...].allSatisfy { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
    }
}
