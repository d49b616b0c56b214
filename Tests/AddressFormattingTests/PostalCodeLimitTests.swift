import AddressFormatting
import FmtCore
import FmtTesting
import Foundation
import Testing

/// The bounds a postal-code rule keeps: patterns that backtrack exponentially are refused at load, every match
/// runs under ICU's step limit, and a code longer than `AddressPlugin.maximumPostalCodeLength` is not matched at all.
@Suite struct PostalCodeLimitTests {
    /// France as `fr.json` in `address-formats.d` with `pattern` and an example postal code.
    static func france(pattern: String, example: String = "75001") -> String {
        let fixture = try! String(
            contentsOfFile: Paths.fixturesDirectory + "/address-formats.d/fr.json", encoding: .utf8)
        return
            fixture
            .replacingOccurrences(of: #""[0-9]{5}""#, with: JSONWriter.string(.string(pattern)))
            .replacingOccurrences(of: #""75001""#, with: JSONWriter.string(.string(example)))
    }

    static func load(pattern: String, example: String = "75001") throws -> Result<AddressPlugin, DataError> {
        let local = try TemporaryDirectory()
        try local.write("address-formats.d/fr.json", france(pattern: pattern, example: example))
        do {
            return .success(try loadPlugin(AddressPlugin.self, configDirectory: local.path))
        } catch let error as DataError {
            return .failure(error)
        }
    }

    @Test(arguments: [
        "([A-Z]+)+[0-9]", "(?:[A-Z]+)*", "([A-Z]{1,3})+[0-9]", "(A|AB)*[0-9]", "((?:[0-9]?)[A-Z]){2,5}",
        "(?:x(?:[A-Z]*))+", "(?i:([a-z]+))+", "[0-9]{33}", "[0-9]{1,40}", "(?x)[0-9]{5}",
    ])
    func aPatternThatBacktracksExponentiallyIsRefusedAtLoad(pattern: String) throws {
        guard case .failure(let error) = try Self.load(pattern: pattern, example: "75001") else {
            Issue.record("\(pattern) loaded")
            return
        }
        #expect(error.field == "formats.FR.postalCode.pattern", "\(error)")
        #expect(error.problem.contains("is refused"), "\(error)")
    }

    @Test(arguments: [
        ("[0-9]{5}", "75001"), ("([0-9]{5})(?:[ -]?([0-9]{4}))?", "75001"), ("(?:[0-9]{2}){2}[0-9]", "75001"),
        ("(?:75)+[0-9]{3}", "75001"), ("\\d{2}(?:\\Q(+)\\E)?\\d{3}", "75001"), ("[[0-9]&&[^A]]{5}", "75001"),
        ("\\p{Nd}{5}", "75001"),
    ])
    func aPatternWithoutNestedRepetitionLoads(pattern: String, example: String) throws {
        #expect(throws: Never.self) { try Self.load(pattern: pattern, example: example).get() }
    }

    static let costly = String(repeating: "[A-Z]*", count: 10) + "[0-9]"
    static let request =
        #"{"op":"address","locale":"en","address":{"country":"FR","street":"Rue","city":"Paris","postalCode":"#

    /// Ten stars in a row pass the shape check but cost C(42, 10) ways on 32 letters: about 4 s for eight stars
    /// without a limit (measured with ICU 72); under the step limit the match stops in about 1 ms.
    @Test func aCostlyMatchStopsAtTheStepLimitAndIsFlaggedAsNotMatching() throws {
        let plugin = try Self.load(pattern: Self.costly, example: "A1").get()
        let code = String(repeating: "ABCDEFGH", count: 4)
        var response: JSONObject = [:]
        let costly = try Timing.fastest {
            response = try plugin.answer(Self.request + JSONWriter.string(.string(code)) + "}}")
        }
        #expect(response.warningCodes == ["postal_code_format"])
        // The same request whose code the same pattern matches at once: the whole address answer, parsing and
        // formatting included.
        var benign: JSONObject = [:]
        let baseline = try Timing.fastest(of: 5) { benign = try plugin.answer(Self.request + #""A1"}}"#) }
        #expect(benign.warningCodes == [])
        // The step limit stops the match within a few times the cost of a whole answer; without it the match
        // runs for seconds, thousands of times the baseline.
        #expect(Timing.ratio(costly, to: baseline) < 100, "stopped in \(costly); a benign code took \(baseline)")
        print(
            "a costly match stopped in \(costly): \(Timing.ratio(costly, to: baseline)) times a benign code's \(baseline)"
        )
    }

    @Test func aCodeLongerThanTheLimitIsNotMatchedWhateverThePattern() throws {
        let plugin = try Self.load(pattern: "[A-Z]+[0-9]?", example: "A").get()
        let fits = String(repeating: "A", count: AddressPlugin.maximumPostalCodeLength)
        #expect(try plugin.answer(Self.request + "\"\(fits)\"}}").warningCodes == [])
        let longer = try plugin.answer(Self.request + "\"\(fits)A\"}}")
        #expect(longer.warningCodes == ["postal_code_format"])
        #expect(longer.strings("lines").contains { $0.contains(fits + "A") })
    }

    @Test func anExampleThatExceedsTheStepLimitIsRefusedAtLoad() throws {
        guard case .failure(let error) = try Self.load(pattern: Self.costly, example: String(repeating: "A", count: 30))
        else {
            Issue.record("loaded")
            return
        }
        #expect(error.field == "formats.FR.postalCode.pattern")
        #expect(error.problem.contains("step limit"), "\(error)")
    }
}
