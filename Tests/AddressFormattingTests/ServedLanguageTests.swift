import AddressFormatting
import FmtCore
import FmtTesting
import Foundation
import Testing

/// `lang` names the language of the labels: a language the resolver serves must have its label table.
@Suite struct ServedLanguageTests {
    @Test func aServedLanguageWithoutItsLabelTableIsRefusedAtLoad() throws {
        let copy = try TemporaryDirectory()
        try FileManager.default.removeItem(atPath: copy.path)
        try FileManager.default.copyItem(atPath: Paths.dataDirectory, toPath: copy.path)
        try FileManager.default.removeItem(atPath: copy.path + "/translations/de.json")
        // A generation whose resolver still serves German (as one built before the table went) must refuse.
        #expect {
            try AddressPlugin(
                loading: DataStore(source: .directory(copy.path), localDirectory: nil),
                environment: PluginEnvironment(resolver: LocaleResolver(supported: ["en", "nl", "de"])))
        } throws: { error in
            guard let error = error as? DataError else { return false }
            return error.file == "translations/de.json" && error.problem.contains("served language")
        }
        // Loaded as fmtd loads it, the languages come from the tables, so German is simply not served.
        let withoutGerman = try loadPlugin(AddressPlugin.self, dataDirectory: copy.path)
        let response = try withoutGerman.answer(#"{"op":"addressFormat","country":"DE","locale":"de"}"#)
        #expect(response.string("lang") == "en")
        let city = response["fields"]?.arrayValue?.first { $0.objectValue?["field"] == "city" }
        #expect(city?.objectValue?["label"] == "City")
    }
}
