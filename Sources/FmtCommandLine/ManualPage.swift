import Glibc

/// A manual page in man(7) markup, built from the same option tables as `--help` (and, for fmtd-protocol(7), from
/// the protocol description). Text is given plain; the page escapes it for roff: `\`, `-`, a leading `.` or `'`,
/// and non-ASCII characters (as `\[uXXXX]`); a span in backticks becomes bold.
public struct ManualPage: Sendable {
    /// One piece of a section's body.
    public enum Block: Sendable {
        /// A paragraph of running text.
        case paragraph(String)
        /// Terms with their descriptions (options, error codes, fields).
        case list([(term: String, text: String)])
        /// Text shown as written, in a fixed-width font (examples, request lines).
        case example(String)
        /// A subsection heading.
        case subsection(String)
    }

    /// The page's name, e.g. `fmtd`.
    public let name: String
    /// The section number, e.g. `8`.
    public let section: String
    /// The one line after the name in NAME.
    public let summary: String
    /// The page's date, `YYYY-MM-DD`.
    public let date: String
    /// The source shown in the footer, e.g. `fmtd 0.1.0`.
    public let source: String
    /// The sections after NAME, in order: a heading in capitals and its blocks.
    public var sections: [(heading: String, blocks: [Block])]

    /// A page with NAME from `name` and `summary`, then `sections`.
    public init(
        name: String, section: String, summary: String, date: String, source: String,
        sections: [(heading: String, blocks: [Block])] = []
    ) {
        self.name = name
        self.section = section
        self.summary = summary
        self.date = date
        self.source = source
        self.sections = sections
    }

    /// The manual's title in the header for a section (`System Administration` for 8).
    static func manual(for section: String) -> String {
        switch section {
        case "1": "User Commands"
        case "7": "Miscellanea"
        case "8": "System Administration"
        default: "fmtd"
        }
    }

    /// The page as man(7) source.
    public var roff: String {
        var lines = [
            ".TH \(Self.quoted(name.uppercased())) \(section) \"\(date)\" \(Self.quoted(source)) "
                + Self.quoted(Self.manual(for: section)),
            ".SH NAME",
            Self.escape(name) + " \\- " + Self.escape(summary),
        ]
        for (heading, blocks) in sections {
            lines.append(".SH " + Self.quoted(heading))
            // A paragraph or example after another block starts a new paragraph (and ends a list's indent).
            var afterBlock = false
            for block in blocks {
                switch block {
                case .paragraph(let text):
                    if afterBlock { lines.append(".PP") }
                    lines.append(Self.text(text))
                case .list(let items):
                    for item in items {
                        lines.append(".TP")
                        lines.append(Self.text(item.term, bold: true))
                        lines.append(Self.text(item.text.isEmpty ? " " : item.text))
                    }
                case .example(let text):
                    if afterBlock { lines.append(".PP") }
                    lines.append(".RS 4")
                    lines.append(".nf")
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        lines.append(Self.text(String(line), code: true))
                    }
                    lines.append(".fi")
                    lines.append(".RE")
                case .subsection(let title):
                    lines.append(".SS " + Self.quoted(title))
                    afterBlock = false
                    continue
                }
                afterBlock = true
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A macro argument in double quotes (a `"` inside becomes `\(dq`).
    static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacingEvery("\"", with: "\\(dq") + "\""
    }

    /// One text line: escaped, backtick spans in bold (or every span when `bold`), guarded against a leading
    /// control character; an empty line becomes `\&` (a blank line is not text in roff).
    static func text(_ text: String, bold: Bool = false, code: Bool = false) -> String {
        var out = ""
        var inCode = false
        for character in text {
            if character == "`" && !code {
                out += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
                continue
            }
            out += escape(String(character))
        }
        if inCode { out += "\\fR" }
        if bold { out = "\\fB" + out + "\\fR" }
        if code { return guarded(out) }
        // Lines of at most 80 bytes (mandoc's style), broken at blanks.
        var lines: [String] = []
        var line = ""
        for word in out.split(separator: " ") {
            if !line.isEmpty && line.utf8.count + 1 + word.utf8.count > 80 {
                lines.append(guarded(line))
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(guarded(line))
        return lines.joined(separator: "\n")
    }

    /// A text line that roff cannot take for a request or a blank line.
    private static func guarded(_ line: String) -> String {
        line.isEmpty || line.hasPrefix(".") || line.hasPrefix("'") || line.hasPrefix(" ") ? "\\&" + line : line
    }

    /// Escapes roff's special characters and writes non-ASCII characters as `\[uXXXX]`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where scalar.value >= 0x80:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    /// The string with every `target` replaced (FoundationEssentials-free).
    func replacingEvery(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension CommandSpec {
    /// The options of `--help` as a manual list: `--socket PATH, -s` and the help with its default and
    /// environment variable; hidden options are left out.
    public var manualOptionList: ManualPage.Block {
        .list(
            options.filter { !$0.isHidden }.map { option in
                var help = option.help
                var notes: [String] = []
                if let value = option.defaultValue { notes.append("Default: \(value).") }
                if let variable = option.environment { notes.append("Environment: `\(variable)`.") }
                // The help as `--help` writes it (its first word may be a value, such as `error`), ended with a period.
                help = ([help + "."] + notes).joined(separator: " ")
                return (([option.synopsis] + option.aliases).joined(separator: ", "), help)
            })
    }

    /// The usage lines as a SYNOPSIS example block.
    public var manualSynopsis: ManualPage.Block {
        .example(usage.joined(separator: "\n"))
    }

    /// The description's paragraphs (separated by blank lines in `description`), joined into one line each.
    public var manualDescription: [ManualPage.Block] {
        description.split(separator: "\n\n").map { .paragraph($0.split(separator: "\n").joined(separator: " ")) }
    }

    /// The positional arguments as a manual list.
    public var manualArguments: ManualPage.Block? {
        arguments.isEmpty ? nil : .list(arguments.map { ($0.name, $0.help) })
    }
}

extension ManualPage {
    /// The page date: `SOURCE_DATE_EPOCH` (reproducible builds) when set, else today, as `YYYY-MM-DD` in UTC.
    public static func date(environment: [String: String]) -> String {
        var seconds = time(nil)
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap({ Int($0) }) { seconds = time_t(epoch) }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }
}

extension ManualPage {
    /// The page as a DocC article: the same sections and blocks as `roff`, so the man page and the documentation
    /// catalog are written from one text. `title` is the article's title; its file name is the article's link
    /// (`<doc:Protocol>` for `Protocol.md`).
    public func markdown(title: String) -> String {
        var out = "# \(title)\n\n\(Self.sentence(summary))\n"
        for (heading, blocks) in sections {
            out += "\n## \(Self.headingCase(heading))\n"
            for block in blocks {
                switch block {
                case .paragraph(let text):
                    out += "\n\(Self.markdownText(text))\n"
                case .list(let items):
                    out += "\n"
                    for item in items {
                        let text = item.text.isEmpty ? "" : Self.markdownText(item.text)
                        out += "- term `\(item.term.replacingEvery("`", with: ""))`: \(text)\n"
                    }
                case .example(let text):
                    out += "\n```\n\(text)\n```\n"
                case .subsection(let title):
                    out += "\n### \(title)\n"
                }
            }
        }
        return out
    }

    /// `summary` as a sentence: its first letter in capitals, ended with a period.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let ended = text.hasSuffix(".") ? text : text + "."
        return first.uppercased() + ended.dropFirst()
    }

    /// A man page heading (`ERROR CODES`) as an article's section heading (`Error codes`).
    static func headingCase(_ heading: String) -> String {
        guard heading == heading.uppercased(), let first = heading.first else { return heading }
        return String(first) + heading.dropFirst().lowercased()
    }

    /// Running text for Markdown: backtick spans stay code; outside them, the characters Markdown would read as
    /// markup (`*`, `_`, `<`, `[`, `]`, `\`) are escaped so the text reads as in the man page.
    static func markdownText(_ text: String) -> String {
        var out = ""
        var inCode = false
        for character in text {
            if character == "`" {
                inCode.toggle()
            } else if !inCode && "*_<[]\\".contains(character) {
                out.append("\\")
            }
            out.append(character)
        }
        return out
    }
}
