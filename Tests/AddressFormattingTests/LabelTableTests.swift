import AddressFormatting
import FmtCore
import FmtTesting
import Foundation
import Testing

/// The label tables: the same keys in every language, and never a raw key in a response.
@Suite struct LabelTableTests {
    static let languages = ["en", "nl", "de"]

    func keys(_ language: String) throws -> Set<String> {
        let store = DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
        guard case .object(let table) = try store.readJSON("translations/\(language).json") else { return [] }
        return Set(table.keys)
    }

    @Test func everyLanguageHasExactlyTheSameKeys() throws {
        let english = try keys("en")
        #expect(!english.isEmpty)
        #expect(try keys("nl") == english)
        #expect(try keys("de") == english)
        let files = try FileManager.default.contentsOfDirectory(atPath: Paths.dataDirectory + "/translations").sorted()
        #expect(files == ["de.json", "en.json", "nl.json"])
    }

    @Test func aMissingTranslationFailsTheLoadNamingFileAndKey() throws {
        let copy = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: Paths.dataDirectory, toPath: copy.path + "/data")
        let path = copy.path + "/data/translations/nl.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: #""address.field.city": "Plaats","#, with: "")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try loadPlugin(AddressPlugin.self, dataDirectory: copy.path + "/data")
        } throws: { error in
            let error = error as? DataError
            return error?.file == "translations/nl.json" && error?.field == "address.field.city"
        }
    }

    @Test func noResponseEverShowsARawKey() throws {
        let plugin = try loadPlugin(AddressPlugin.self)
        let everything =
            #""name":"N","organization":"O","street":"S","houseNumber":"1","extra":"E","postalCode":"x","#
            + #""city":"C","region":"R""#
        for country in ["NL", "BE", "DE", "GB", "US", "FR"] {
            for language in Self.languages {
                let address = try plugin.answer(
                    #"{"op":"address","address":{\#(everything),"country":"\#(country)"},"locale":"\#(language)"}"#)
                let format = try plugin.answer(
                    #"{"op":"addressFormat","country":"\#(country)","locale":"\#(language)"}"#)
                for text in [JSONWriter.string(.object(address)), JSONWriter.string(.object(format))] {
                    #expect(!text.contains("address."), "\(country) \(language): \(text)")
                }
                if country != "FR" { #expect(!address.warningCodes.isEmpty) }
            }
        }
    }

    @Test func dutchCopyIsInformalSentenceCaseWithoutExclamationMarks() throws {
        let store = DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
        for language in Self.languages {
            guard case .object(let table) = try store.readJSON("translations/\(language).json") else { continue }
            for member in table {
                let text = member.value.stringValue ?? ""
                #expect(!text.contains("!"), "\(language) \(member.key)")
                // `phone.spoken.*` are words read inside `spoken` (`plus drie een, …, toestel acht negen`), written
                // as mid-sentence: lower case but for German nouns.
                if !member.key.hasPrefix("phone.spoken.") {
                    #expect(text.first?.isUppercase == true || text.hasPrefix("{"), "\(language) \(member.key)")
                }
                if language == "nl" {
                    let words = Set(text.lowercased().split(whereSeparator: { !$0.isLetter }))
                    #expect(words.isDisjoint(with: ["u", "uw"]), "nl \(member.key) uses formal u")
                }
                if member.key.hasPrefix("address.field."), let first = text.split(separator: " ").first {
                    for word in text.split(separator: " ").dropFirst() where word.first?.isUppercase == true {
                        #expect(language == "de" || word == "ZIP", "\(language) \(member.key): \(first) … \(word)")
                    }
                }
            }
        }
    }
}
