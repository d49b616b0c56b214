import FmtCore
import FmtDispatch

/// The languages a generation serves: the label tables its data has (`translations/<lang>.json`), read through
/// the same opened store as its plugins, so adding a language is data plus SIGHUP, and a table removed before a
/// reload takes its language out of that generation.
public enum Languages {
    /// The product's languages in its own order (English, Dutch, German); languages added as data follow
    /// alphabetically.
    public static let productOrder = ["en", "nl", "de"]

    /// The languages of `files` (paths under `translations/`), in the product's order.
    public static func ordered(_ files: [String]) -> [String] {
        let languages = files.map { String($0.split(separator: "/").last ?? "").replacing(".json", with: "") }
        return (languages.isEmpty ? productOrder : languages).sorted { rank($0) < rank($1) }
    }

    /// Builds each generation's environment from its data.
    public static let environmentLoader: PluginRegistry.EnvironmentLoader = { store throws(DataError) in
        PluginEnvironment(resolver: LocaleResolver(supported: ordered(try store.list("translations"))))
    }

    private static func rank(_ language: String) -> (Int, String) {
        (productOrder.firstIndex(of: language) ?? productOrder.count, language)
    }
}
