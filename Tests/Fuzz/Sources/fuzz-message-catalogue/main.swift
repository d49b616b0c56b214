import FmtCore
import FuzzSupport
import NameServices

/// The message catalogue loader: the input is `messages/en.json`, so every pattern in it is compiled by
/// ICU. A catalogue that loads must format each of its messages once the arguments the daemon asks for are
/// supplied (as numbers, then as strings), with wire errors only.
enum MessageCatalogueTarget {
    static let environment = PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"]))

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let store = DataStore(source: .embedded(["messages/en.json": text]), localDirectory: nil)
        guard let plugin = try? NamesPlugin(loading: store, environment: environment) else { return }
        guard case .object(let catalogue)? = try? JSONReader.parse(text, maxDepth: 4) else {
            Fuzz.fail("NamesPlugin loaded a catalogue that is not a JSON object: \(text.debugDescription)")
        }
        for key in catalogue.keys.prefix(8) {
            for value: JSONValue in [.number(JSONNumber(3)), .number(JSONNumber(1)), .string("other")] {
                format(key, plugin: plugin, value: value)
            }
        }
    }

    /// Formats `key`, adding each argument the daemon says is missing with `value` (or 0 where a number is
    /// required), up to 16 arguments.
    static func format(_ key: String, plugin: NamesPlugin, value: JSONValue) {
        var arguments: JSONObject = [:]
        for _ in 0..<16 {
            do {
                let fields: JSONObject = ["key": .string(key), "locale": "nl-BE", "args": .object(arguments)]
                _ = try plugin.handle(Request(op: "message", fields: fields))
                return
            } catch CoreError.invalidField(let field, _) where field.hasPrefix("args.") {
                let name = String(field.dropFirst("args.".count))
                arguments[name] = arguments[name] == nil ? value : .number(JSONNumber(0))
            } catch is any WireError {
                return
            } catch {
                Fuzz.fail("message \(key) threw a non-wire error: \(error)")
            }
        }
    }
}

Fuzz.run { data, size in Fuzz.timed(data, size, MessageCatalogueTarget.run) }
