import FmtCore
import FuzzSupport
import NameServices

/// Message formatting, not only loading: the input's first line is one catalogue pattern (English, and the same
/// text as its Dutch translation), the rest a JSON object of arguments. A pattern that loads is formatted on
/// this thread (the daemon formats on a loop thread) with the input's arguments, then with every argument the
/// pattern needs (up to 16) given as each JSON type in turn: zero, a huge and a negative fractional number, a
/// decimal string, `other`, a long string, and a string with NUL. Every answer must be a text or a caller error, never
/// `internal` and never a crash (a stack overflow from deep nesting aborts under ASan); a text stays within
/// what the pattern's size and the arguments allow.
enum MessageFormatTarget {
    static let environment = PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"]))
    static let values: [JSONValue] = [
        .number(JSONNumber(0)), .number(JSONNumber(-1.5)), .number(JSONNumber(1e300)), .string("1.50"),
        .string("other"), .string(String(repeating: "ab", count: 512)), .string("one\u{0}two"),
    ]

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
        let pattern = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<split]), as: UTF8.self)
        let rest =
            split < bytes.count ? UnsafeBufferPointer(rebasing: bytes[(split + 1)...]) : .init(start: nil, count: 0)
        let catalogue = JSONWriter.string(.object(["fuzz.message.text": .string(pattern)]))
        let store = DataStore(
            source: .embedded(["messages/en.json": catalogue, "messages/nl.json": catalogue]), localDirectory: nil)
        guard let plugin = try? NamesPlugin(loading: store, environment: environment) else { return }
        if pattern.utf8.count > MessageLimits.maximumPatternBytes {
            Fuzz.fail("a pattern of \(pattern.utf8.count) bytes loaded")
        }
        if case .object(let arguments)? = try? JSONReader.parse(rest, maxDepth: 4) {
            _ = format(plugin, arguments, pattern: pattern)
        }
        for (index, value) in values.enumerated() {
            var arguments: JSONObject = [:]
            for _ in 0..<16 {
                guard let missing = format(plugin, arguments, pattern: pattern, locale: index % 2 == 0 ? "en" : "nl")
                else { break }
                // The first value for every argument, then numbers where a number is asked for.
                arguments[missing] = arguments[missing] == nil ? value : .number(JSONNumber(3))
            }
        }
    }

    /// Formats and checks the answer; the argument the plugin says is missing or mistyped, if any.
    static func format(
        _ plugin: NamesPlugin, _ arguments: JSONObject, pattern: String, locale: String = "en"
    )
        -> String?
    {
        let fields: JSONObject = ["key": "fuzz.message.text", "locale": .string(locale), "args": .object(arguments)]
        do {
            let response = try plugin.handle(Request(op: "message", fields: fields))
            guard case .string(let text)? = response["text"] else {
                Fuzz.fail("a message answer without text: \(response)")
            }
            let argumentBytes = arguments.reduce(0) { $0 + JSONWriter.string($1.value).utf8.count }
            let bound = 4 * pattern.utf8.count + MessageLimits.maximumArgumentOccurrences * (argumentBytes + 1024)
            if text.utf8.count > bound {
                Fuzz.fail("a \(pattern.utf8.count)-byte pattern formatted to \(text.utf8.count) bytes")
            }
            return nil
        } catch CoreError.invalidField(let field, _) where field.hasPrefix("args.") {
            return String(field.dropFirst("args.".count))
        } catch CoreError.internal(let reason) {
            Fuzz.fail("a loaded pattern answered internal (\(reason)): \(pattern.debugDescription) \(arguments)")
        } catch is any WireError {
            return nil
        } catch {
            Fuzz.fail("a non-wire error: \(error)")
        }
    }
}

Fuzz.run { data, size in Fuzz.timed(data, size, MessageFormatTarget.run) }
