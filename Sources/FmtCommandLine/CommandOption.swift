/// How an option's value is written. Parsing checks it, and `--help` (and later the man pages) describe it.
public enum OptionValueKind: Sendable, Equatable {
    /// No value: the option's presence is what counts.
    case flag
    /// Any text.
    case text
    /// A whole number in `minimum...maximum`.
    case integer(minimum: Int, maximum: Int)
    /// A non-negative number of seconds; fractions allowed.
    case seconds
    /// An octal file mode of at most 0777, such as 0660.
    case octalMode
    /// One of the listed words.
    case choice([String])
    /// Comma-separated items.
    case list

    /// What a value of this kind is, completing "--x needs …".
    public var expectation: String {
        switch self {
        case .flag: "no value"
        case .text: "a value"
        case .integer(let minimum, let maximum) where maximum == .max: "a whole number ≥ \(minimum)"
        case .integer(let minimum, let maximum): "a whole number from \(minimum) to \(maximum)"
        case .seconds: "a number of seconds"
        case .octalMode: "an octal mode such as 0660"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .list: "a comma-separated list"
        }
    }
}

/// A usage mistake: the tool prints the message with its help and exits with status 2.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, without the program's name: `unknown option --x`.
    public let message: String

    /// A mistake described by `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// One command-line option, declared once: its spelling, value, default, environment variable and help text are
/// what parsing, validation messages and `--help` are derived from.
public struct CommandOption<Target> {
    /// The long name with its dashes, e.g. `--socket`.
    public let name: String
    /// Other spellings, e.g. `-h` for `--help`.
    public let aliases: [String]
    /// How the value is written and checked.
    public let kind: OptionValueKind
    /// The value's name in help text, e.g. `PATH`; empty for a flag.
    public let placeholder: String
    /// What the option does, as one paragraph (help output wraps it).
    public let help: String
    /// The default as shown in help, e.g. `16` or `one per core`; nil when there is none worth stating.
    public let defaultValue: String?
    /// An environment variable that supplies the value when the option is not given.
    public let environment: String?
    /// The heading the option is listed under.
    public let group: String
    /// Left out of `--help` (options one program passes to another).
    public let isHidden: Bool
    /// Parsing ends at this option and its program acts on it alone (`--help`, `--version`).
    public let endsParsing: Bool
    let apply: (inout Target, String) throws(UsageError) -> Void

    /// An option taking a value of `kind`, checked before `apply` sees it.
    public init(
        _ name: String, aliases: [String] = [], kind: OptionValueKind, placeholder: String, help: String,
        default defaultValue: String? = nil, environment: String? = nil, group: String = "Options",
        hidden: Bool = false, endsParsing: Bool = false,
        apply: @escaping (inout Target, String) throws(UsageError) -> Void
    ) {
        self.name = name
        self.aliases = aliases
        self.kind = kind
        self.placeholder = placeholder
        self.help = help
        self.defaultValue = defaultValue
        self.environment = environment
        self.group = group
        self.isHidden = hidden
        self.endsParsing = endsParsing
        self.apply = apply
    }

    /// The same option, left out of `--help`, the manual pages and completion.
    public var hidden: CommandOption {
        CommandOption(
            name, aliases: aliases, kind: kind, placeholder: placeholder, help: help, default: defaultValue,
            environment: environment, group: group, hidden: true, endsParsing: endsParsing, apply: apply)
    }

    /// The spelling in help text: `--socket PATH`, or `--json` for a flag.
    public var synopsis: String { placeholder.isEmpty ? name : name + " " + placeholder }

    /// Whether `argument` spells this option.
    func matches(_ argument: Substring) -> Bool {
        argument == name || aliases.contains { argument == $0 }
    }

    /// Checks `text` against the kind, then applies it.
    func take(_ text: String, into target: inout Target) throws(UsageError) {
        switch kind {
        case .integer(let minimum, let maximum):
            guard let number = Int(text), number >= minimum, number <= maximum else { throw invalid(text) }
        case .seconds:
            guard let number = Double(text), number >= 0, number.isFinite else { throw invalid(text) }
        case .octalMode:
            guard let mode = Int(text, radix: 8), mode >= 0, mode <= 0o777 else { throw invalid(text) }
        case .choice(let words):
            guard words.contains(text) else { throw invalid(text) }
        case .flag, .text, .list: break
        }
        try apply(&target, text)
    }

    private func invalid(_ text: String) -> UsageError {
        UsageError("\(name) needs \(kind.expectation), got \(text)")
    }
}

extension CommandOption {
    /// A flag: `set` runs when it is given.
    public static func flag(
        _ name: String, aliases: [String] = [], help: String, group: String = "Options", hidden: Bool = false,
        endsParsing: Bool = false, _ set: @escaping (inout Target) -> Void
    ) -> CommandOption {
        CommandOption(
            name, aliases: aliases, kind: .flag, placeholder: "", help: help, group: group, hidden: hidden,
            endsParsing: endsParsing
        ) { target, _ in set(&target) }
    }

    /// A flag stored as `true` in `property`.
    public static func flag(
        _ name: String, aliases: [String] = [], help: String, group: String = "Options",
        _ property: WritableKeyPath<Target, Bool>
    ) -> CommandOption {
        flag(name, aliases: aliases, help: help, group: group) { $0[keyPath: property] = true }
    }

    /// An option with free text; `set` may refuse it with a `UsageError`.
    public static func text(
        _ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil,
        environment: String? = nil, group: String = "Options", hidden: Bool = false,
        _ set: @escaping (inout Target, String) throws(UsageError) -> Void
    ) -> CommandOption {
        CommandOption(
            name, kind: .text, placeholder: placeholder, help: help, default: defaultValue, environment: environment,
            group: group, hidden: hidden, apply: set)
    }

    /// An option with free text stored in `property`.
    public static func text(
        _ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil,
        environment: String? = nil, group: String = "Options", hidden: Bool = false,
        _ property: WritableKeyPath<Target, String?>
    ) -> CommandOption {
        text(
            name, placeholder, help: help, default: defaultValue, environment: environment, group: group,
            hidden: hidden
        ) { target, value in target[keyPath: property] = value }
    }

    /// An option with free text stored in `property`, which holds the default until then.
    public static func text(
        _ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil,
        environment: String? = nil, group: String = "Options", _ property: WritableKeyPath<Target, String>
    ) -> CommandOption {
        text(name, placeholder, help: help, default: defaultValue, environment: environment, group: group) {
            target, value in target[keyPath: property] = value
        }
    }

    /// An option with a comma-separated list; `set` gets the items (empty ones dropped) and may refuse them.
    public static func list(
        _ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil,
        group: String = "Options", _ set: @escaping (inout Target, [String]) throws(UsageError) -> Void
    ) -> CommandOption {
        CommandOption(name, kind: .list, placeholder: placeholder, help: help, default: defaultValue, group: group) {
            target, text throws(UsageError) in
            try set(&target, text.split(separator: ",").map(String.init))
        }
    }

    /// An option with a whole number in `minimum...maximum`.
    public static func integer(
        _ name: String, _ placeholder: String, minimum: Int, maximum: Int = .max, help: String,
        default defaultValue: String? = nil, group: String = "Options",
        _ set: @escaping (inout Target, Int) throws(UsageError) -> Void
    ) -> CommandOption {
        CommandOption(
            name, kind: .integer(minimum: minimum, maximum: maximum), placeholder: placeholder, help: help,
            default: defaultValue, group: group
        ) { target, text throws(UsageError) in try set(&target, Int(text)!) }
    }

    /// An option with a whole number of at least `minimum` stored in `property`.
    public static func integer(
        _ name: String, _ placeholder: String, minimum: Int, help: String, default defaultValue: String? = nil,
        group: String = "Options", _ property: WritableKeyPath<Target, Int>
    ) -> CommandOption {
        integer(name, placeholder, minimum: minimum, help: help, default: defaultValue, group: group) {
            target, value in target[keyPath: property] = value
        }
    }

    /// An option with a non-negative number of seconds.
    public static func seconds(
        _ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil,
        group: String = "Options", _ set: @escaping (inout Target, Double) throws(UsageError) -> Void
    ) -> CommandOption {
        CommandOption(name, kind: .seconds, placeholder: placeholder, help: help, default: defaultValue, group: group) {
            target, text throws(UsageError) in try set(&target, Double(text)!)
        }
    }

    /// An option whose value is one of `words`.
    public static func choice(
        _ name: String, _ placeholder: String, _ words: [String], help: String, default defaultValue: String? = nil,
        group: String = "Options", _ set: @escaping (inout Target, String) -> Void
    ) -> CommandOption {
        CommandOption(
            name, kind: .choice(words), placeholder: placeholder, help: help, default: defaultValue, group: group
        ) { target, text in set(&target, text) }
    }

    /// An option with an octal file mode.
    public static func octalMode(
        _ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil,
        group: String = "Options", _ set: @escaping (inout Target, Int) -> Void
    ) -> CommandOption {
        CommandOption(
            name, kind: .octalMode, placeholder: placeholder, help: help, default: defaultValue, group: group
        ) { target, text in set(&target, Int(text, radix: 8)!) }
    }
}
