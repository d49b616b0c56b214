import FmtCommandLine
import Testing

/// What roff would misread in option tables' plain text is escaped, and long lines are broken for mandoc.
@Suite struct ManualPageRenderingTests {
    static func roff(_ blocks: [ManualPage.Block]) -> String {
        ManualPage(
            name: "tool", section: "1", summary: "does one thing", date: "2025-12-01", source: "tool 1.0",
            sections: [("DESCRIPTION", blocks)]
        ).roff
    }

    @Test func theHeaderNamesThePageSectionDateAndSource() {
        let lines = Self.roff([]).split(separator: "\n")
        #expect(lines.first == #".TH "TOOL" 1 "2025-12-01" "tool 1.0" "User Commands""#)
        #expect(lines.dropFirst().prefix(2) == [".SH NAME", #"tool \- does one thing"#])
    }

    @Test func hyphensBackslashesAndNonASCIIAreEscapedAndBackticksBecomeBold() {
        let text = Self.roff([.paragraph(#"use `--max-line` ≥ 64 in C:\dir, Åsa"#)])
        #expect(text.contains(#"use \fB\-\-max\-line\fR \[u2265] 64 in C:\edir, \[u00C5]sa"#))
        #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
    }

    @Test func aLineThatWouldStartWithAControlCharacterIsGuarded() {
        let text = Self.roff([.paragraph(".hidden request"), .example("'quoted\n\n.dot")])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains(#"\&.hidden request"#))
        #expect(lines.contains(#"\&'quoted"#))
        #expect(lines.contains(#"\&"#), "an empty example line must not be a blank roff line")
        #expect(lines.contains(#"\&.dot"#))
        #expect(!lines.dropLast().contains(""), "a blank line in roff source")
    }

    @Test func textLinesAreBrokenAtBlanksWithinEightyBytes() {
        let words = Array(repeating: "formatting", count: 40).joined(separator: " ")
        let lines = Self.roff([.paragraph(words), .list([("--x", words)])]).split(separator: "\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 80 })
        #expect(lines.filter { $0.hasPrefix("formatting") }.count >= 8)
    }

    @Test func theOptionListHasEveryVisibleOptionWithItsDefaultAndEnvironment() {
        struct Settings {
            var socket = ""
            var secret = ""
        }
        let spec = CommandSpec<Settings>(
            name: "tool", usage: ["tool [options]"],
            options: [
                .text("--socket", "PATH", help: "the socket", default: "/run/x.sock", environment: "TOOL_SOCKET") {
                    $0.socket = $1
                },
                .text("--secret", "X", help: "internal", hidden: true) { $0.secret = $1 },
            ])
        guard case .list(let items) = spec.manualOptionList else {
            Issue.record("not a list")
            return
        }
        #expect(items.map(\.term) == ["--socket PATH"])
        // The help as --help writes it: its first word may be a value (`error, warning, …`), so it is not capitalised.
        #expect(items.first?.text == "the socket. Default: /run/x.sock. Environment: `TOOL_SOCKET`.")
    }

    /// The DocC article is written from the same blocks: a title, the summary as a sentence, sections in sentence
    /// case, DocC term lists, code blocks, and Markdown's markup characters escaped outside code spans.
    @Test func theMarkdownArticleHasTheSameBlocksAsThePage() {
        let page = ManualPage(
            name: "tool", section: "1", summary: "does one thing", date: "2025-12-01", source: "tool 1.0",
            sections: [
                ("ERROR CODES", [.list([("bad_json", "not *JSON* <yet>, see `a_b*`")])]),
                ("EXAMPLES", [.subsection("ping"), .example(#"{"op":"ping"}"#), .paragraph("snake_case [x]")]),
            ])
        let lines = page.markdown(title: "The tool").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.prefix(3) == ["# The tool", "", "Does one thing."])
        #expect(lines.contains("## Error codes"))
        #expect(lines.contains(#"- term `bad_json`: not \*JSON\* \<yet>, see `a_b*`"#))
        #expect(lines.contains("### ping"))
        #expect(lines.contains(#"{"op":"ping"}"#))
        #expect(lines.contains(#"snake\_case \[x\]"#))
    }
}
