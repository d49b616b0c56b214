import DateFormatting
import FmtCore
import FuzzSupport

/// The date parser and the `date` op. The input is `date|locale|style|yearShared`: a date that parses
/// prints back to the same date, and the op answers it (or refuses it with a wire error) in any locale.
enum DateTarget {
    static let plugin: DatePlugin = {
        let environment = PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"]))
        do {
            let store = DataStore(source: .embedded([:]), localDirectory: nil)
            return try DatePlugin(loading: store, environment: environment)
        } catch {
            Fuzz.fail("the date plugin does not load: \(error)")
        }
    }()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let parts = String(decoding: bytes, as: UTF8.self).split(
            separator: "|", maxSplits: 3, omittingEmptySubsequences: false
        ).map(String.init)
        let text = parts[0]
        if let date = try? CalendarDate(parsing: text) {
            guard (1...12).contains(date.month), (1...31).contains(date.day),
                (try? CalendarDate(parsing: date.description)) == date
            else {
                Fuzz.fail("\(text.debugDescription) parsed to \(date), which does not print back the same")
            }
        }
        var fields: JSONObject = ["op": "date", "date": .string(text)]
        if parts.count > 1 { fields.append("locale", .string(parts[1])) }
        if parts.count > 2 { fields.append("style", .string(parts[2])) }
        if parts.count > 3 { fields.append("yearShared", .bool(parts[3] == "1")) }
        do {
            let response = try plugin.handle(Request(op: "date", fields: fields))
            guard response["text"]?.stringValue?.isEmpty == false else {
                Fuzz.fail("\(parts) formatted to no text: \(response)")
            }
        } catch is any WireError {
        } catch {
            Fuzz.fail("\(parts) threw a non-wire error: \(error)")
        }
    }
}

_ = DateTarget.plugin
Fuzz.run { data, size in Fuzz.timed(data, size, DateTarget.run) }
