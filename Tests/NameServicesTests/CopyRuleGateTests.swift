import CopyRules
import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import NameServices

/// The copy rules read catalogue text as ICU renders it (checked against ICU formatting every branch), and the
/// names plugin checks every catalogue it loads.
@Suite struct CopyRuleGateTests {
    /// Every text the pieces can render, with `•` for each placeholder.
    static func renderings(_ pieces: [MessagePiece]) -> Set<String> {
        var results: Set<String> = [""]
        for piece in pieces {
            let options: Set<String>
            switch piece {
            case .text(let text): options = [text]
            case .placeholder: options = ["•"]
            case .branches(let branches):
                options = branches.reduce(into: Set<String>()) { $0.formUnion(renderings($1)) }
            }
            results = Set(results.flatMap { prefix in options.map { prefix + $0 } })
        }
        return results
    }

    /// ICU's output with every number (`#`, `{n}`) written as `•`, as text arguments are.
    static func normalized(_ text: String) -> String {
        var result = ""
        var inNumber = false
        for character in text {
            if character.isASCII && character.isNumber {
                if !inNumber { result.append("•") }
                inNumber = true
            } else {
                result.append(character)
                inNumber = false
            }
        }
        return result
    }

    static let patterns = [
        "{name} updated {count, plural, one {# detail} other {# details}}",
        "{count, plural, offset:1 =0 {Nobody came} =1 {Only {host} came} one {{host} and # other came} "
            + "other {{host} and # others came}}",
        "{n, selectordinal, one {#st place} two {#nd place} few {#rd place} other {#th place}}",
        "{gender, select, female {{count, plural, one {She has # contact} other {She has # contacts}}} "
            + "male {He left} other {They left}}",
        "{count, plural, other {{gender, select, other {# stays literal in a select}}}}",
        "It''s '{'literal'}' for {name}",
        "{count, plural, other {'#' is # items}}",
        "Don't stop, {name}",
        "{count, plural, =0 {} other {# left}}",
        "Paid {amount, number} to {name}",
    ]

    static var shippedPatterns: [String] {
        ["en", "nl", "de"].flatMap { language -> [String] in
            let path = Paths.dataDirectory + "/messages/\(language).json"
            guard let data = FileManager.default.contents(atPath: path),
                let object = try? JSONReader.parse(Array(data)).objectValue
            else { return [] }
            return object.members.compactMap(\.value.stringValue)
        }
    }

    @Test(arguments: patterns + shippedPatterns)
    func everyTextICURendersIsOneTheCheckerReads(pattern: String) throws {
        let message = try CompiledMessage(pattern: pattern, language: "en")
        let expected = Self.renderings(MessagePiece.parse(pattern))
        var choices: [[(name: String, value: String, isNumber: Bool)]] = [[]]
        for (name, kind) in message.arguments {
            let values: [(String, Bool)]
            switch kind {
            case .text: values = [("•", false)]
            case .number: values = ["0", "1", "2", "3", "5", "21"].map { ($0, true) }
            case .select: values = ["female", "male", "google", "microsoft", "zzz"].map { ($0, false) }
            }
            choices = choices.flatMap { prefix in values.map { prefix + [(name, $0.0, $0.1)] } }
        }
        #expect(!expected.isEmpty)
        for values in choices {
            let text = Self.normalized(try message.format(values))
            #expect(expected.contains(text), "ICU rendered \"\(text)\" for \(pattern); the checker reads \(expected)")
        }
    }

    @Test func theShippedCataloguesPassTheShippedRules() throws {
        #expect(try loadPlugin(NamesPlugin.self).copyFindings == [])
    }

    @Test func aServiceCatalogueIsCheckedWithItsOwnTerms() throws {
        let config = try TemporaryDirectory([
            "messages.d/billing.en.json": #"{"billing.invoice.sent": "Your invoice was sent"}"#,
            "messages.d/billing.nl.json": #"{"billing.invoice.sent": "Uw rekening is verstuurd!"}"#,
            "copy-rules.d/billing.json": #"{"languages": {"nl": {"glossary": {"invoice": "factuur"}}}}"#,
        ])
        let plugin = try loadPlugin(NamesPlugin.self, configDirectory: config.path)
        #expect(plugin.copyFindings.map(\.rule) == [.exclamation, .forbiddenWord, .glossary])
        #expect(plugin.copyFindings.allSatisfy { $0.file == config.path + "/messages.d/billing.nl.json" })
        #expect(plugin.copyFindings.allSatisfy { $0.key == "billing.invoice.sent" && $0.language == "nl" })
        // Findings are warnings: the message still renders.
        let answer = try plugin.answer(#"{"op":"message","key":"billing.invoice.sent","locale":"nl"}"#)
        #expect(answer["text"] == "Uw rekening is verstuurd!")
    }

    @Test func aMalformedLocalRulesFileRefusesTheLoadNamingIt() throws {
        let config = try TemporaryDirectory(["copy-rules.d/broken.json": #"{"languages": {"nl": {"glossary": 5}}}"#])
        #expect {
            try loadPlugin(NamesPlugin.self, configDirectory: config.path)
        } throws: { error in
            (error as? DataError)?.file == config.path + "/copy-rules.d/broken.json"
                && (error as? DataError)?.field == "languages.nl.glossary"
        }
    }

    @Test func dataWithoutACopyRulesFileLoadsWithTheRulesEveryLanguageHas() throws {
        let data = try TemporaryDirectory([
            "messages/en.json": #"{"app.greeting.hello": "Hello {name}!"}"#,
            "translations/en.json": "{}",
        ])
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: data.path)
        #expect(plugin.copyFindings.map(\.rule) == [.exclamation])
    }
}
