import FmtCommandLine
import Testing

/// One option table drives parsing, validation messages and help; these pin the rules every executable shares.
@Suite struct CommandSpecTests {
    struct Settings: Equatable {
        var socket = "/run/default.sock"
        var connections = 16
        var duration = 5.0
        var mode = "load"
        var json = false
        var help = false
        var mix: [String] = []
        var hidden: String?
    }

    static var command: CommandSpec<Settings> {
        CommandSpec(
            name: "tool", usage: ["tool [options]", "tool --other"], description: "Does one thing well.",
            arguments: [CommandArgument("NAME", help: "what to work on")],
            options: [
                .text(
                    "--socket", "PATH", help: "the socket", default: "/run/default.sock", environment: "TOOL_SOCKET",
                    \.socket),
                .integer("--connections", "N", minimum: 1, help: "connections to open", default: "16", \.connections),
                .seconds("--duration", "S", help: "seconds to run", default: "5") { $0.duration = $1 },
                .choice("--mode", "MODE", ["load", "idle"], help: "what to do") { $0.mode = $1 },
                .list("--mix", "LIST", help: "ops", group: "Load options") { $0.mix = $1 },
                .flag("--json", help: "print JSON", \.json),
                .flag("--help", aliases: ["-h"], help: "this text", endsParsing: true) { $0.help = true },
                .text("--hidden", "X", help: "for tools only", hidden: true, \.hidden),
            ])
    }

    private func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> (Settings, CommandSpec<Settings>.Parsed) {
        var settings = Settings()
        let parsed = try Self.command.parse(arguments, environment: environment, into: &settings)
        return (settings, parsed)
    }

    @Test func aValueMayFollowTheOptionOrBeJoinedWithAnEqualsSign() throws {
        let (separate, _) = try parse(["--connections", "4", "--socket", "/a"])
        let (joined, _) = try parse(["--connections=4", "--socket=/a"])
        #expect(separate == joined)
        #expect(joined.connections == 4 && joined.socket == "/a")
    }

    @Test func anEqualsSignInsideTheValueIsKept() throws {
        #expect(try parse(["--socket=/a=b"]).0.socket == "/a=b")
    }

    @Test func theLastOccurrenceWins() throws {
        #expect(try parse(["--connections", "2", "--connections=3"]).0.connections == 3)
    }

    @Test func optionsMayAppearAmongPositionals() throws {
        let (settings, parsed) = try parse(["one", "--json", "two"])
        #expect(settings.json)
        #expect(parsed.positionals == ["one", "two"])
    }

    @Test func anUnknownOptionIsAUsageError() {
        #expect(throws: UsageError("unknown option --bogus")) { try parse(["--bogus"]) }
        #expect(throws: UsageError("unknown option --bogus")) { try parse(["--bogus=1"]) }
    }

    @Test func aMissingValueIsAUsageError() {
        #expect(throws: UsageError("--socket needs a value")) { try parse(["--socket"]) }
    }

    @Test func aValueOfTheWrongKindNamesTheOptionWhatItNeedsAndWhatItGot() {
        #expect(throws: UsageError("--connections needs a whole number ≥ 1, got 0")) { try parse(["--connections=0"]) }
        #expect(throws: UsageError("--connections needs a whole number ≥ 1, got x")) {
            try parse(["--connections", "x"])
        }
        #expect(throws: UsageError("--duration needs a number of seconds, got -1")) { try parse(["--duration=-1"]) }
        #expect(throws: UsageError("--mode needs one of load, idle, got busy")) { try parse(["--mode", "busy"]) }
    }

    @Test func aFlagTakesNoValue() {
        #expect(throws: UsageError("--json takes no value")) { try parse(["--json=yes"]) }
    }

    @Test func anEnvironmentVariableCountsAsGivenBeforeTheArguments() throws {
        #expect(try parse([], environment: ["TOOL_SOCKET": "/env"]).0.socket == "/env")
        #expect(try parse(["--socket", "/arg"], environment: ["TOOL_SOCKET": "/env"]).0.socket == "/arg")
        #expect(try parse([], environment: ["TOOL_SOCKET": ""]).0.socket == "/run/default.sock")
    }

    @Test func everythingAfterADoubleDashIsPositional() throws {
        let (settings, parsed) = try parse(["a", "--", "--json", "b"])
        #expect(!settings.json)
        #expect(parsed.positionals == ["a", "--json", "b"])
    }

    @Test func aPassThroughCommandHandsOnWhatFollowsADoubleDash() throws {
        let command = CommandSpec<Settings>(
            name: "bench", usage: ["bench"], options: Self.command.options, passThroughAfterDoubleDash: true)
        var settings = Settings()
        let parsed = try command.parse(["--json", "--", "--socket", "/x"], into: &settings)
        #expect(parsed.passedThrough == ["--socket", "/x"])
        #expect(parsed.positionals.isEmpty)
        #expect(settings.socket == "/run/default.sock")
    }

    @Test func helpEndsParsingSoLaterMistakesDoNotHideIt() throws {
        let (settings, parsed) = try parse(["-h", "--bogus"])
        #expect(settings.help)
        #expect(parsed.endedAt == "--help")
    }

    @Test func aFirstPassKeepsUnknownOptionsInPlaceForTheCommandsTable() throws {
        var settings = Settings()
        let parsed = try Self.command.parse(
            ["--locale", "nl", "--json", "date", "--", "--x"], into: &settings, keepingUnknownOptions: true)
        #expect(settings.json)
        #expect(parsed.positionals == ["--locale", "nl", "date", "--", "--x"])
    }

    @Test func optionLikeWordsTheCommandClaimsArePositional() throws {
        let command = CommandSpec<Settings>(
            name: "date", usage: ["date"], options: Self.command.options, isPositional: { $0 == "--11-29" })
        var settings = Settings()
        #expect(try command.parse(["--11-29", "--json"], into: &settings).positionals == ["--11-29"])
    }

    @Test func helpListsUsageArgumentsGroupsDefaultsAndEnvironmentButNotHiddenOptions() {
        let help = Self.command.helpText
        #expect(help.hasPrefix("Usage: tool [options]\n       tool --other\n\nDoes one thing well.\n\n"))
        #expect(help.contains("  NAME "))
        #expect(help.contains("\nOptions:\n  --socket PATH "))
        #expect(help.contains("the socket (env TOOL_SOCKET; default /run/default.sock)"))
        #expect(help.contains("--help, -h"))
        #expect(help.contains("\nLoad options:\n  --mix LIST "))
        #expect(!help.contains("--hidden"))
    }

    @Test func longHelpIsWrappedUnderItsOwnColumn() {
        let words = Array(repeating: "word", count: 60).joined(separator: " ")
        let command = CommandSpec<Settings>(
            name: "t", usage: ["t"], options: [.flag("--long", help: words) { _ in }])
        let lines = command.helpText.split(separator: "\n").filter { $0.contains("word") }
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 116 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("          word") })
    }

    @Test func eachOptionKnowsItsKindPlaceholderAndDefaultForGeneratedDocumentation() {
        let socket = Self.command.options[0]
        #expect(socket.kind == .text && socket.placeholder == "PATH" && socket.defaultValue == "/run/default.sock")
        #expect(Self.command.options[1].kind == .integer(minimum: 1, maximum: .max))
        #expect(Self.command.options[5].kind == .flag && Self.command.options[5].synopsis == "--json")
    }
}
