import AddressFormatting
import DateFormatting
import FmtCore
import NameServices
import PhoneFormatting

/// The formatter plugins compiled into fmtd, in `info` order. Adding a plugin module means adding it here, as a
/// dependency of FmtHost in Package.swift, and nowhere else: the daemon, fmtbench, the fuzz targets and the
/// tests all take their plugins from this list.
public enum PluginCatalog {
    public static let all: [any FormatterPlugin.Type] = [
        AddressPlugin.self, DatePlugin.self, PhonePlugin.self, NamesPlugin.self,
    ]

    public static var names: [String] { all.map { $0.name } }

    /// The plugins named, in catalogue order.
    public static func enabled(_ names: [String]) -> [any FormatterPlugin.Type] {
        all.filter { names.contains($0.name) }
    }
}
