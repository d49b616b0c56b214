import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// `addressFormat` renders each country's example as `address` renders that address for the same viewer, whether
/// the example was prepared at load (no `language`) or for the request (a `language`).
@Suite struct ExampleRenderingTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    @Test func everyExampleIsRenderedAsAddressRendersIt() throws {
        let countries = (plugin.dataInfo["countries"]?.arrayValue ?? []).compactMap(\.stringValue) + ["AQ"]
        #expect(countries.count > 100)
        for country in countries {
            for (locale, language) in [("en", nil), ("nl-BE", nil), ("de-CH", "de"), ("en-JP", "ja")] {
                let languageMember = language.map { #","language":"\#($0)""# } ?? ""
                let description = try plugin.answer(
                    #"{"op":"addressFormat","country":"\#(country)","locale":"\#(locale)"\#(languageMember)}"#)
                let example = try #require(description["example"]?.objectValue)
                var address = try #require(example["address"]?.objectValue)
                if let language { address["language"] = .string(language) }
                let rendered = try plugin.answer(
                    #"{"op":"address","address":\#(JSONWriter.string(.object(address))),"locale":"\#(locale)"}"#)
                #expect(example["lines"] == rendered["lines"], "\(country) \(locale)")
                #expect(example["oneLine"] == rendered["oneLine"], "\(country) \(locale)")
            }
        }
    }
}
