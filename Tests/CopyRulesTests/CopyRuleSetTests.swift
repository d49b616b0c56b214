import FmtCore
import Testing

@testable import CopyRules

/// The copy rules file and its local extensions: merged in order, bounded in every dimension, and refused whole
/// (naming file and member) when anything in them is malformed.
@Suite struct CopyRuleSetTests {
    static func load(_ shipped: String?, _ local: [String] = []) throws(DataError) -> CopyRuleSet {
        try CopyRuleSet(
            shipped: shipped.map { ("copy-rules.json", Array($0.utf8)) },
            local: local.enumerated().map { ("/etc/fmtd/copy-rules.d/\($0.offset).json", Array($0.element.utf8)) })
    }

    static func problem(_ shipped: String?, _ local: [String] = []) -> DataError? {
        do {
            _ = try load(shipped, local)
            return nil
        } catch {
            return error
        }
    }

    @Test func aLocalFileAddsTermsForbiddenWordsAndNames() throws {
        let rules = try Self.load(
            #"{"languages":{"nl":{"glossary":{"detail":"gegeven"},"forbidden":[{"word":"u","use":"je"}]}}}"#,
            [
                #"{"languages":{"nl":{"glossary":{"invoice":"factuur","detail":"gegeven"},"properNouns":["Mollie"]}}}"#,
                #"{"languages":{"fy":{"forbidden":[{"word":"jo","use":"do"}]}}}"#,
            ])
        #expect(rules.languages["nl"]?.glossaryOrder == ["detail", "invoice"])
        #expect(rules.languages["nl"]?.properNouns == ["Mollie"])
        #expect(rules.languages["nl"]?.forbidden.count == 1)
        #expect(rules.languages["fy"]?.forbidden.first?.use == "do")
        #expect(rules.keySegments == 2...3)
    }

    @Test func noFilesAndAnEmptyObjectAreNoRules() throws {
        #expect(try Self.load(nil) == CopyRuleSet())
        #expect(try Self.load("{}").languages.isEmpty)
    }

    @Test func aLocalFileMayNotRedefineAGlossaryTermOrTheKeyShape() {
        let shipped = #"{"languages":{"nl":{"glossary":{"detail":"gegeven"}}}}"#
        let conflict = Self.problem(shipped, [#"{"languages":{"nl":{"glossary":{"detail":"detail"}}}}"#])
        #expect(conflict?.file == "/etc/fmtd/copy-rules.d/0.json")
        #expect(conflict?.field == "languages.nl.glossary.detail")
        let key = Self.problem(shipped, [#"{"key":{"minSegments":1}}"#])
        #expect(key?.field == "key")
    }

    @Test(arguments: [
        (#"[]"#, nil as String?),
        (#"{"languages":[]}"#, "languages"),
        (#"{"language":{}}"#, "language"),
        (#"{"version":2}"#, "version"),
        (#"{"key":{"minSegments":0}}"#, "key.minSegments"),
        (#"{"key":{"minSegments":3,"maxSegments":2}}"#, "key"),
        (#"{"key":{"minSegments":2.5}}"#, "key.minSegments"),
        (#"{"key":{"segments":2}}"#, "key.segments"),
        (#"{"languages":{"NL":{}}}"#, "languages.NL"),
        (#"{"languages":{"dutch":{}}}"#, "languages.dutch"),
        (#"{"languages":{"nl":{"capitalisation":"sentence"}}}"#, "languages.nl.capitalisation"),
        (#"{"languages":{"nl":{"capitalization":"title"}}}"#, "languages.nl.capitalization"),
        (#"{"languages":{"nl":{"glossary":{"detail":7}}}}"#, "languages.nl.glossary.detail"),
        (#"{"languages":{"nl":{"glossary":{"detail!":"gegeven"}}}}"#, "languages.nl.glossary.detail!"),
        (#"{"languages":{"nl":{"glossary":{"":"gegeven"}}}}"#, "languages.nl.glossary."),
        (#"{"languages":{"nl":{"glossary":{"{x}":"gegeven"}}}}"#, "languages.nl.glossary.{x}"),
        (#"{"languages":{"nl":{"forbidden":[{"word":"u"}]}}}"#, "languages.nl.forbidden[0].use"),
        (
            #"{"languages":{"nl":{"forbidden":[{"word":"u","use":"je","case":true}]}}}"#,
            "languages.nl.forbidden[0].case"
        ),
        (#"{"languages":{"nl":{"forbidden":["u"]}}}"#, "languages.nl.forbidden[0]"),
        (#"{"languages":{"nl":{"properNouns":["Google", 1]}}}"#, "languages.nl.properNouns"),
        (#"{"languages":{"de":{"lowercaseWords":["Der"]}}}"#, "languages.de.lowercaseWords"),
        (#"{"languages":{"de":{"lowercaseWords":["der die"]}}}"#, "languages.de.lowercaseWords"),
        (#"{"languages":{"de":{"inflections":["-en"]}}}"#, "languages.de.inflections"),
        (#"{"languages":{"de":{"inflections":["abcdefghi"]}}}"#, "languages.de.inflections"),
        (#"{"languages":{"nl":{"properNouns":["a b c d e f g"]}}}"#, "languages.nl.properNouns"),
    ])
    func refusesAMalformedMemberNamingIt(file: String, field: String?) {
        let problem = Self.problem(file)
        #expect(problem != nil, "\(file)")
        #expect(problem?.file == "copy-rules.json")
        #expect(problem?.field == field, "\(file): \(String(describing: problem))")
    }

    @Test func refusesWhatIsTooLargeTooDeepOrTooMany() {
        let big = #"{"languages":{}, "x":""# + String(repeating: " ", count: CopyRuleSet.Limits.maximumFileBytes) + "}"
        #expect(Self.problem(big)?.problem.contains("at most") == true)
        let deep = String(repeating: "[", count: 50) + String(repeating: "]", count: 50)
        #expect(
            Self.problem(#"{"languages":{"nl":{"glossary":{"a":"# + deep + "}}}}")?.problem.contains("JSON") == true)
        let long = String(repeating: "a", count: CopyRuleSet.Limits.maximumWordLength + 1)
        #expect(Self.problem(#"{"languages":{"nl":{"properNouns":[""# + long + #""]}}}"#) != nil)
        let justLongEnough = String(repeating: "a", count: CopyRuleSet.Limits.maximumWordLength)
        #expect(Self.problem(#"{"languages":{"nl":{"properNouns":[""# + justLongEnough + #""]}}}"#) == nil)

        let languages = (0..<(CopyRuleSet.Limits.maximumLanguages + 1)).map { index in
            let code = String(UnicodeScalar(UInt8(97 + index / 26))) + String(UnicodeScalar(UInt8(97 + index % 26)))
            return #""\#(code)":{}"#
        }
        #expect(
            Self.problem(#"{"languages":{"# + languages.joined(separator: ",") + "}}")?.problem.contains("64") == true)
        #expect(Self.problem(#"{"languages":{"# + languages.dropLast().joined(separator: ",") + "}}") == nil)

        let terms = (0..<CopyRuleSet.Limits.maximumEntries).map { #""term\#(Self.letters($0))":"x""# }
        let most = #"{"languages":{"nl":{"glossary":{"# + terms.joined(separator: ",") + "}}}}"
        #expect(Self.problem(most) == nil)
        // One more, from a local file: the limit is for all files together.
        let more = Self.problem(most, [#"{"languages":{"nl":{"glossary":{"extra":"x"}}}}"#])
        #expect(more?.file == "/etc/fmtd/copy-rules.d/0.json")
        #expect(more?.problem.contains("all files together") == true)
    }

    /// Letters only (terms are words): 0 → a, 27 → bb.
    static func letters(_ number: Int) -> String {
        var number = number
        var text = ""
        repeat {
            text.append(Character(UnicodeScalar(UInt8(97 + number % 26))))
            number /= 26
        } while number > 0
        return text
    }
}
