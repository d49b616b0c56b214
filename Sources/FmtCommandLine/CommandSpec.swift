import Glibc

/// A word on the command line that is not an option, as documented in help text.
public struct CommandArgument: Sendable {
    /// Its name in help text, e.g. `DATE` or `NAME...`.
    public let name: String
    /// What the argument is, as one paragraph.
    public let help: String

    /// An argument named `name` in help text.
    public init(_ name: String, help: String) {
        self.name = name
        self.help = help
    }
}

/// One command's command line, declared once: usage lines, description, arguments and one option table. Parsing,
/// the validation messages and `--help` are derived from it, with the same rules for every executable:
///
/// - options are `--name value` or `--name=value`, anywhere among the arguments; the last occurrence wins;
/// - an unknown option, a missing value or a value of the wrong kind is a `UsageError` (exit status 2);
/// - `--` ends the options: every later argument is positional (or passed through, see `passThroughAfterDoubleDash`);
/// - an option's environment variable, when set and not empty, counts as given before the arguments.
///
/// ```swift
/// struct Settings { var connections = 16; var json = false }
/// let command = CommandSpec<Settings>(
///     name: "tool", usage: ["tool [options]"], description: "Does one thing.",
///     options: [
///         .integer("--connections", "N", minimum: 1, help: "connections to open", default: "16", \.connections),
///         .flag("--json", help: "print JSON", \.json),
///     ])
/// var settings = Settings()
/// let parsed = try command.parse(["--connections=4"], environment: [:], into: &settings)
/// ```
public struct CommandSpec<Target> {
    /// The name as typed, e.g. `fmtd` or `fmtq date`; prefixes usage messages.
    public let name: String
    /// One line for an overview of commands.
    public let summary: String
    /// The usage lines, each without the leading `Usage: `.
    public let usage: [String]
    /// What the command does, in paragraphs separated by blank lines.
    public let description: String
    /// The positional arguments, for help text (parsing hands them back in `Parsed.positionals`).
    public let arguments: [CommandArgument]
    /// The option table, in help order.
    public let options: [CommandOption<Target>]
    /// Text after the option list (examples, exit status, signals), kept as written.
    public let epilogue: String
    /// Arguments after `--` are passed through (to a program the command starts) instead of being positional.
    public let passThroughAfterDoubleDash: Bool
    /// Option-like words that are really positional (such as a year-less date `--11-29`).
    public let isPositional: (String) -> Bool

    /// A command line; only `name`, `usage` and `options` are needed.
    public init(
        name: String, summary: String = "", usage: [String], description: String = "",
        arguments: [CommandArgument] = [], options: [CommandOption<Target>], epilogue: String = "",
        passThroughAfterDoubleDash: Bool = false, isPositional: @escaping (String) -> Bool = { _ in false }
    ) {
        self.name = name
        self.summary = summary
        self.usage = usage
        self.description = description
        self.arguments = arguments
        self.options = options
        self.epilogue = epilogue
        self.passThroughAfterDoubleDash = passThroughAfterDoubleDash
        self.isPositional = isPositional
    }

    /// What remains of the command line once the options are applied.
    public struct Parsed: Equatable, Sendable {
        /// The positional arguments, in order.
        public var positionals: [String] = []
        /// The arguments after `--`, when the command passes them through.
        public var passedThrough: [String] = []
        /// The option that ended parsing (one that `endsParsing`), if any.
        public var endedAt: String?
    }

    /// Applies `environment` and then `arguments` to `target`. With `keepingUnknownOptions`, an unknown option
    /// and everything from `--` on are returned among the positionals, unchanged and in order, for a second table
    /// to parse; otherwise an unknown option is a `UsageError`. Parsing stops at an option that `endsParsing`, and
    /// `endedAt` names it.
    public func parse(
        _ arguments: [String], environment: [String: String] = [:], into target: inout Target,
        keepingUnknownOptions: Bool = false
    ) throws(UsageError) -> Parsed {
        for option in options {
            guard let variable = option.environment, let value = environment[variable], !value.isEmpty else {
                continue
            }
            try option.take(value, into: &target)
        }
        var parsed = Parsed()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                let rest = Array(arguments[index...])
                if keepingUnknownOptions {
                    parsed.positionals += [argument] + rest
                } else if passThroughAfterDoubleDash {
                    parsed.passedThrough = rest
                } else {
                    parsed.positionals += rest
                }
                return parsed
            }
            let optionLike = argument.hasPrefix("--") || options.contains { $0.aliases.contains(argument) }
            guard optionLike, !isPositional(argument) else {
                parsed.positionals.append(argument)
                continue
            }
            let equals = argument.firstIndex(of: "=")
            let spelled = equals.map { argument[..<$0] } ?? argument[...]
            guard let option = options.first(where: { $0.matches(spelled) }) else {
                if keepingUnknownOptions {
                    parsed.positionals.append(argument)
                    continue
                }
                throw UsageError("unknown option \(spelled)")
            }
            if option.kind == .flag {
                guard equals == nil else { throw UsageError("\(option.name) takes no value") }
                try option.take("", into: &target)
            } else if let equals {
                try option.take(String(argument[argument.index(after: equals)...]), into: &target)
            } else {
                guard index < arguments.count else { throw UsageError("\(option.name) needs a value") }
                try option.take(arguments[index], into: &target)
                index += 1
            }
            if option.endsParsing {
                parsed.endedAt = option.name
                return parsed
            }
        }
        return parsed
    }

    /// The `--help` text: usage, description, arguments and options by group (each with its default and
    /// environment variable), then the epilogue.
    public var helpText: String {
        var sections: [String] = []
        sections.append(
            usage.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + $0.element }.joined(separator: "\n"))
        if !description.isEmpty { sections.append(description) }
        let rows = arguments.map { (left: $0.name, help: $0.help) }
        var groups: [(heading: String, rows: [(left: String, help: String)])] = []
        for option in options where !option.isHidden {
            var help = option.help
            var notes: [String] = []
            if let variable = option.environment { notes.append("env \(variable)") }
            if let value = option.defaultValue { notes.append("default \(value)") }
            if !notes.isEmpty { help += " (" + notes.joined(separator: "; ") + ")" }
            let left = ([option.synopsis] + option.aliases).joined(separator: ", ")
            if let index = groups.firstIndex(where: { $0.heading == option.group }) {
                groups[index].rows.append((left, help))
            } else {
                groups.append((option.group, [(left, help)]))
            }
        }
        let width = min(26, ((rows + groups.flatMap(\.rows)).map(\.left.count).max() ?? 0) + 2)
        if !rows.isEmpty { sections.append(Self.table(rows, width: width)) }
        for group in groups {
            sections.append(group.heading + ":\n" + Self.table(group.rows, width: width))
        }
        if !epilogue.isEmpty { sections.append(epilogue) }
        return sections.joined(separator: "\n\n")
    }

    /// Rows of `  LEFT  help`, the help wrapped at 116 columns and indented under itself.
    private static func table(_ rows: [(left: String, help: String)], width: Int) -> String {
        let indent = String(repeating: " ", count: 2 + width)
        var lines: [String] = []
        for row in rows {
            var first = "  " + row.left
            if first.count + 1 > indent.count {
                lines.append(first)
                first = indent
            } else {
                first += String(repeating: " ", count: indent.count - first.count)
            }
            let wrapped = wrap(row.help, width: 116 - indent.count)
            lines.append(first + (wrapped.first ?? ""))
            lines += wrapped.dropFirst().map { indent + $0 }
        }
        return lines.joined(separator: "\n")
    }

    private static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}

/// How the executables end on a command-line outcome, the same way for each.
public enum CommandLineExit {
    /// Prints `text` to standard output and exits 0 (`--help`, `--version`).
    public static func succeed(printing text: String) -> Never {
        write(text + "\n", to: 1)
        exit(0)
    }

    /// Prints `command: message` and where the help is (`see 'fmtq phone --help'`) to standard error and exits 2:
    /// one mistake, one line, not the whole help after it.
    public static func usage(_ error: UsageError, command: String) -> Never {
        write("\(command): \(error.message)\nsee '\(command) --help'\n", to: 2)
        exit(2)
    }

    /// Writes `text` whole to standard error, without Foundation.
    public static func writeError(_ text: String) {
        write(text, to: 2)
    }

    /// Writes `text` whole to standard output, without Foundation.
    public static func writeOutput(_ text: String) {
        write(text, to: 1)
    }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
