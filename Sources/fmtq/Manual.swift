import FmtCommandLine
import FmtCore
import FmtProtocol

/// fmtq(1) and the bash completion, both from the option tables that drive parsing and `--help`.
@MainActor enum Manual {
    /// Every command's table, `raw` and `reload` included, in `fmtq --help` order.
    static var specs: [CommandSpec<QueryOptions>] {
        commands.map { $0.spec } + [rawSpec, ReloadCommand.spec]
    }

    /// fmtq(1).
    static func fmtqPage(date: String) -> ManualPage {
        var commandBlocks: [ManualPage.Block] = []
        for spec in specs {
            commandBlocks.append(.subsection(spec.name))
            commandBlocks.append(spec.manualSynopsis)
            commandBlocks += spec.manualDescription
            if let arguments = spec.manualArguments { commandBlocks.append(arguments) }
            if !spec.options.filter({ !$0.isHidden }).isEmpty { commandBlocks.append(spec.manualOptionList) }
            if !spec.epilogue.isEmpty { commandBlocks.append(.example(spec.epilogue)) }
        }
        return ManualPage(
            name: "fmtq", section: "1", summary: "ask the fmtd locale formatting daemon", date: date, source: "fmtd",
            sections: [
                ("SYNOPSIS", [global.manualSynopsis]),
                (
                    "DESCRIPTION",
                    [
                        .paragraph(
                            "fmtq sends one request to fmtd(8) over its Unix socket and prints the answer as text, or "
                                + "the raw response line with --json. Every command takes the options below; "
                                + "`fmtq <command> --help` prints a command's own.")
                    ]
                ),
                ("OPTIONS", [global.manualOptionList]),
                ("COMMANDS", commandBlocks),
                (
                    "ENVIRONMENT",
                    [.list([("FMTD_SOCKET", "the daemon's socket when --socket is not given")])]
                ),
                (
                    "EXIT STATUS",
                    [
                        .list([
                            ("0", "ok"), ("1", "the daemon answered with an error"), ("2", "usage error"),
                            ("3", "the daemon is unreachable"),
                        ])
                    ]
                ),
                ("SEE ALSO", [.paragraph("fmtd(8), fmtd-protocol(7)")]),
            ])
    }

    /// The bash completion: commands, options, the values of every option with a fixed set (their own tables'
    /// choices, the territories the daemon takes, the locales ICU has for `languages`), and the ops for `raw`.
    static func completion(languages: [String]) -> BashCompletion {
        var locales: [String] = []
        for id in ICUInfo.availableLocales {
            let parts = id.split(separator: "_")
            let plain =
                parts.count == 1 || (parts.count == 2 && (parts[1].count == 2 || parts[1].allSatisfy(\.isNumber)))
            if plain, let language = parts.first, languages.contains(String(language)) {
                let tag = parts.joined(separator: "-")
                if !locales.contains(tag) { locales.append(tag) }
            }
        }
        for language in languages.reversed() where !locales.contains(language) { locales.insert(language, at: 0) }
        // Every territory the region reader takes, as the daemon reads it (not only those ICU has a locale for).
        let countryCodes = Region.territories
        let values: [String: [String]] = [
            "--country": countryCodes, "--viewer-region": countryCodes + ["ZZ"], "--default-region": countryCodes,
            "--locale": locales.sorted(),
        ]
        let completionCommands = specs.map { spec in
            let name = String(spec.name.split(separator: " ").last ?? "")
            let arguments =
                name == "raw" ? ProtocolDescription.ops.map { #"{"op":"\#($0.name)"}"# } : []
            return BashCompletion.Command(
                name: name, options: spec.completionOptions(values: values), arguments: arguments)
        }
        return BashCompletion(
            program: "fmtq", globalOptions: global.completionOptions(values: values), commands: completionCommands)
    }
}
