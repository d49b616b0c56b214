import AddressFormatting
import DateFormatting
import FmtCore
import NameServices
import PhonePlugin

/// The formatter plugins compiled into this binary, in `info` order. Adding a plugin module means adding it here.
enum PluginCatalog {
    static let all: [any FormatterPlugin.Type] = [
        AddressPlugin.self, DatePlugin.self, PhoneFormatter.self, NamesPlugin.self,
    ]

    static var names: [String] { all.map { $0.name } }

    static func enabled(_ names: [String]) -> [any FormatterPlugin.Type] {
        all.filter { names.contains($0.name) }
    }
}
