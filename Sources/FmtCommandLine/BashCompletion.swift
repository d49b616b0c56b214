/// A bash completion script for a program with subcommands, generated from their option tables: the command names,
/// each command's options (hidden ones left out), the words an option's value may be, and the words a command's
/// arguments may be.
public struct BashCompletion: Sendable {
    /// One option as completion sees it.
    public struct Option: Sendable, Equatable {
        /// Its spellings, e.g. `--help` and `-h`.
        public let names: [String]
        /// Whether the next word is its value.
        public let takesValue: Bool
        /// The words its value may be; empty for free text (completed as a file name when `files`).
        public let values: [String]
        /// Complete the value as a file name.
        public let files: Bool

        /// An option spelled `names`.
        public init(names: [String], takesValue: Bool, values: [String] = [], files: Bool = false) {
            self.names = names
            self.takesValue = takesValue
            self.values = values
            self.files = files
        }
    }

    /// One subcommand as completion sees it.
    public struct Command: Sendable, Equatable {
        /// The word that names it.
        public let name: String
        /// Its own options.
        public let options: [Option]
        /// Words its arguments may be (typed as the shell must quote them: completion escapes them).
        public let arguments: [String]

        /// A command named `name`.
        public init(name: String, options: [Option], arguments: [String] = []) {
            self.name = name
            self.options = options
            self.arguments = arguments
        }
    }

    /// The program's name, e.g. `fmtq`.
    public let program: String
    /// Options every command takes.
    public let globalOptions: [Option]
    /// The subcommands, in help order.
    public let commands: [Command]

    /// The completion for `program`.
    public init(program: String, globalOptions: [Option], commands: [Command]) {
        self.program = program
        self.globalOptions = globalOptions
        self.commands = commands
    }

    /// The script: one function `_<program>` registered with `complete -F`.
    public var script: String {
        let function = "_" + program.filter { $0.isLetter || $0.isNumber || $0 == "_" }
        let valued = (globalOptions + commands.flatMap(\.options)).filter(\.takesValue)
        let globalValued = globalOptions.filter(\.takesValue).flatMap(\.names)
        var lines = [
            "# bash completion for \(program); generated from its option tables by `\(program) --generate-completion bash`.",
            "",
            "\(function)() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=\"\"",
            "    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}",
            "    COMPREPLY=()",
            "    local i command=\"\"",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        case ${COMP_WORDS[i]} in",
        ]
        if !globalValued.isEmpty { lines.append("            \(globalValued.joined(separator: " | "))) ((i++)) ;;") }
        lines += [
            "            -*) ;;",
            "            *) command=${COMP_WORDS[i]}; break ;;",
            "        esac",
            "    done",
            "    case $prev in",
        ]
        var seen: Set<String> = []
        for option in valued {
            let names = option.names.filter { seen.insert($0).inserted }
            guard !names.isEmpty else { continue }
            let body: String
            if !option.values.isEmpty {
                body = "COMPREPLY=($(compgen -W \(Self.shellWords(option.values)) -- \"$cur\"))"
            } else if option.files {
                body = "COMPREPLY=($(compgen -f -- \"$cur\"))"
            } else {
                body = ":"
            }
            lines.append("        \(names.joined(separator: " | ")))")
            lines.append("            \(body)")
            lines.append("            return ;;")
        }
        let globalWords = globalOptions.flatMap(\.names)
        lines += [
            "    esac",
            "    case $command in",
            "        \"\")",
            "            COMPREPLY=($(compgen -W \(Self.shellWords(commands.map(\.name) + globalWords)) -- \"$cur\"))",
            "            ;;",
        ]
        for command in commands {
            let words = command.options.flatMap(\.names) + globalWords
            lines.append("        \(command.name))")
            if command.arguments.isEmpty {
                lines.append("            COMPREPLY=($(compgen -W \(Self.shellWords(words)) -- \"$cur\"))")
            } else {
                // Arguments such as JSON hold characters bash breaks words at (`:`, `"`): match what was typed
                // since the last blank, and answer with the part after what bash counts as the current word.
                lines += [
                    "            if [[ $cur == -* ]]; then",
                    "                COMPREPLY=($(compgen -W \(Self.shellWords(words)) -- \"$cur\"))",
                    "                return",
                    "            fi",
                    "            local typed=${COMP_LINE:0:COMP_POINT} candidate quoted",
                    "            typed=${typed##*[[:space:]]}",
                    "            local lead=${typed%\"$cur\"}",
                    "            for candidate in \(Self.shellWords(command.arguments, list: true)); do",
                    "                printf -v quoted %q \"$candidate\"",
                    "                if [[ $quoted == \"$typed\"* ]]; then COMPREPLY+=(\"${quoted#\"$lead\"}\"); fi",
                    "            done",
                ]
            }
            lines.append("            ;;")
        }
        lines += [
            "    esac",
            "}",
            "complete -F \(function) \(program)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Words in single quotes for the shell: one quoted string for `compgen -W`, or (with `list`) each word quoted
    /// on its own for a `for` loop.
    static func shellWords(_ words: [String], list: Bool = false) -> String {
        func quote(_ text: String) -> String { "'" + text.replacingEvery("'", with: "'\\''") + "'" }
        return list ? words.map(quote).joined(separator: " ") : quote(words.joined(separator: " "))
    }
}

extension CommandSpec {
    /// The table's options as completion sees them (hidden ones left out); `values` gives the words of options
    /// whose value is free text in the table (`--country` codes, `--locale` tags), and `.choice` options offer
    /// their words. Options with a `PATH` or `DIR` placeholder complete file names.
    public func completionOptions(values: [String: [String]] = [:]) -> [BashCompletion.Option] {
        options.filter { !$0.isHidden }.map { option in
            var words = values[option.name] ?? []
            if case .choice(let choices) = option.kind, words.isEmpty { words = choices }
            return BashCompletion.Option(
                names: [option.name] + option.aliases, takesValue: option.kind != .flag, values: words,
                files: option.placeholder.contains("PATH") || option.placeholder.contains("DIR"))
        }
    }
}
