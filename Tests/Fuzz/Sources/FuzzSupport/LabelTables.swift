import FmtCore

/// What the address targets load beside the file under test: the committed label tables, and the languages
/// they serve.
public enum LabelTables {
    /// `translations/<lang>.json` of `data/`, as `DataStore.Source.embedded` files.
    public static let files: [String: String] = {
        var files: [String: String] = [:]
        for language in ["de", "en", "nl"] {
            files["translations/\(language).json"] = Fuzz.dataFile("translations/\(language).json")
        }
        return files
    }()

    public static let environment = PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"]))
}
