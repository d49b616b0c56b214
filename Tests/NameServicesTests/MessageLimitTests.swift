import FmtCore
import FmtTesting
import Foundation
import NameServices
import Testing

/// The bounds a catalogue pattern must keep to load (`MessageLimits`), so that every pattern that loads
/// formats on an event loop's stack: refused at load naming file and key, never a crash at the first request.
@Suite struct MessageLimitTests {
    enum Kind: String, CaseIterable, Sendable {
        case select, plural, selectordinal

        func open(_ argument: String) -> String {
            switch self {
            case .select: "{\(argument), select, x {"
            case .plural: "{\(argument), plural, one {one} other {"
            case .selectordinal: "{\(argument), selectordinal, one {1st} other {"
            }
        }

        var close: String {
            self == .select ? "} other {o}}" : "}}"
        }

        /// The value that takes the nested branch at every level.
        var value: String {
            self == .select ? #""x""# : "7"
        }
    }

    /// `depth` levels of `kind`, all on argument `a`, around the text `leaf {name}`.
    static func nested(_ kind: Kind, depth: Int) -> String {
        String(repeating: kind.open("a"), count: depth) + "leaf {name}" + String(repeating: kind.close, count: depth)
    }

    /// Loads `messages/en.json` holding one key with `pattern`; the error, or the plugin.
    static func load(_ pattern: String) throws -> Result<NamesPlugin, DataError> {
        let text = JSONWriter.string(.object(["app.test.deep": .string(pattern)]))
        let directory = try TemporaryDirectory(["messages/en.json": text])
        do {
            return .success(try loadPlugin(NamesPlugin.self, dataDirectory: directory.path, configDirectory: nil))
        } catch let error as DataError {
            return .failure(error)
        }
    }

    @Test(arguments: Kind.allCases)
    func nestingUpToTheLimitLoadsAndFormatsAndOneMoreIsRefused(kind: Kind) throws {
        let atLimit = try Self.load(Self.nested(kind, depth: MessageLimits.maximumNesting)).get()
        let request = #"{"op":"message","key":"app.test.deep","args":{"a":\#(kind.value),"name":"Jo"}}"#
        #expect(try atLimit.answer(request)["text"] == "leaf Jo")

        for depth in [MessageLimits.maximumNesting + 1, 4000] {
            guard case .failure(let error) = try Self.load(Self.nested(kind, depth: depth)) else {
                Issue.record("\(kind) nested \(depth) deep loaded")
                continue
            }
            #expect(error.file == "messages/en.json")
            #expect(error.field == "app.test.deep")
            if depth <= 300 {
                #expect(error.problem.contains("nest \(depth) deep"), "\(error)")
                #expect(error.problem.contains("at most \(MessageLimits.maximumNesting)"), "\(error)")
            }
        }
    }

    @Test func aPatternLongerThanTheLimitIsRefusedBeforeICUParsesIt() throws {
        let longest = String(repeating: "x", count: MessageLimits.maximumPatternBytes - 6) + "{name}"
        #expect(throws: Never.self) { try Self.load(longest).get() }
        guard case .failure(let error) = try Self.load(longest + "x") else {
            Issue.record("a pattern over the limit loaded")
            return
        }
        #expect(error.field == "app.test.deep")
        #expect(error.problem.contains("\(MessageLimits.maximumPatternBytes + 1) bytes"), "\(error)")
    }

    @Test func moreArgumentOccurrencesThanTheLimitAreRefused() throws {
        let limit = MessageLimits.maximumArgumentOccurrences
        #expect(throws: Never.self) { try Self.load(String(repeating: "{a}", count: limit)).get() }
        guard case .failure(let error) = try Self.load(String(repeating: "{a}", count: limit + 1)) else {
            Issue.record("\(limit + 1) occurrences loaded")
            return
        }
        #expect(error.field == "app.test.deep")
        #expect(error.problem.contains("\(limit + 1) times"), "\(error)")
    }

    /// Found by the message-format fuzz target: `{n\u0000l}` next to `{n}` reached ICU as two arguments named `n`,
    /// and the request was answered `internal`.
    @Test func anArgumentNameWithAControlCharacterIsRefused() throws {
        for name in ["n\u{0}l", "a\u{1F}b", "x\u{7F}"] {
            guard case .failure(let error) = try Self.load("{n} and {\(name)}") else {
                Issue.record("\(name.debugDescription) loaded")
                continue
            }
            #expect(error.field == "app.test.deep")
            #expect(error.problem.contains("control character U+00"), "\(error)")
        }
    }

    /// Found by the message-format fuzz target: `{n, number, 6}` (a rounding increment of 6) loads, then ICU 72
    /// answers 1e300 with U_INTERNAL_PROGRAM_ERROR, and a valid request got `internal`.
    @Test func aNumberStyleWithARoundingIncrementIsRefusedAndPlainStylesLoad() throws {
        for style in ["6", "#,##0.05", "::precision-increment/6", " ::precision-increment/0.5"] {
            guard case .failure(let error) = try Self.load("{n, number, \(style)}") else {
                Issue.record("\(style) loaded")
                continue
            }
            #expect(error.problem.contains("rounds to an increment"), "\(error)")
        }
        for style in ["integer", "percent", "#,##0.00", "0.###E0", "'1'0", "::currency/EUR", "::compact-short"] {
            let plugin = try Self.load("{n, number, \(style)}").get()
            let text = try plugin.answer(#"{"op":"message","key":"app.test.deep","args":{"n":1e300}}"#)
            #expect(text["text"]?.stringValue?.isEmpty == false, "\(style)")
        }
    }
}
