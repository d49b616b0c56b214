import AddressFormatting
import FmtCore
import Foundation
import Testing

/// `lang` names the language of the labels: a language the resolver serves must have its label table.
@Suite struct ServedLanguageTests {
    @Test func aServedLanguageWithoutItsLabelTableIsRefusedAtLoad() throws {
        let copy = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: dataDirectory, toPath: copy.path)
        try FileManager.default.removeItem(atPath: copy.path + "/translations/de.json")
        #expect {
            try loadPlugin(dataRoot: copy.path)
        } throws: { error in
            guard let error = error as? DataError else { return false }
            return error.file == "translations/de.json" && error.problem.contains("served language")
        }
        let withoutGerman = try AddressPlugin(
            loading: DataStore(source: .directory(copy.path), localDirectory: nil),
            environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl"])))
        let response = try ask(withoutGerman, #"{"op":"addressFormat","country":"DE","locale":"de"}"#)
        #expect(response.string("lang") == "en")
        let city = response["fields"]?.arrayValue?.first { $0.objectValue?["field"] == "city" }
        #expect(city?.objectValue?["label"] == "City")
    }
}
