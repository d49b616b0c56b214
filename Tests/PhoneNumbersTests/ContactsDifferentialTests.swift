import FmtTesting
import Foundation
import Testing

@testable import PhoneNumbers

/// Cases for the contacts features (matching, dialling from abroad, example numbers), built from every region's
/// example numbers in the styles of `DifferentialCases.examples`.
enum ContactsCases {
    /// One example number of a territory.
    struct Example {
        var region: String
        var code: Int
        var nationalPrefix: String?
        var nsn: String

        /// Digits in blocks of three.
        var grouped: String {
            stride(from: 0, to: nsn.count, by: 3).map { start -> String in
                let begin = nsn.index(nsn.startIndex, offsetBy: start)
                let end = nsn.index(begin, offsetBy: 3, limitedBy: nsn.endIndex) ?? nsn.endIndex
                return String(nsn[begin..<end])
            }.joined(separator: " ")
        }
        var e164: String { "+\(code)\(nsn)" }
        var international: String { "+\(code) \(grouped)" }
        /// With the national prefix; `nil` for non-geographic entities, which have no national form.
        var national: String? { region == "001" ? nil : (nationalPrefix ?? "") + nsn }
        var dialledFromAbroad: String { "00 \(code) \(grouped)" }

        /// The styles the phone differential test writes a number in.
        var styles: [String] { [e164, international, national, nsn, dialledFromAbroad].compactMap { $0 } }
        /// The region to parse national forms in (`001` has none: `US` then, where they are national US text).
        var parseRegion: String { region == "001" ? "US" : region }
    }

    /// Every territory's example numbers, territories in metadata order, types by name.
    static func examples(_ document: PhoneMetadataDocument) -> [[Example]] {
        document.territories.map { territory in
            territory.types.sorted { $0.key < $1.key }.compactMap { _, desc in
                desc.example.map {
                    Example(
                        region: territory.id, code: territory.countryCode, nationalPrefix: territory.nationalPrefix,
                        nsn: $0)
                }
            }
        }
    }

    /// The pairs of the issue, each as the two strings (`SS`), a parsed and a string (`OS`, both orders) and two
    /// parsed numbers (`OO`): the same number in two styles, a number and its national significant number with
    /// and without extensions, Italian leading zeros dropped, shorter variants, and two different numbers of one
    /// region.
    static func pairs(_ document: PhoneMetadataDocument) -> [MatchCase] {
        var cases: [MatchCase] = []
        func add(_ a: String, _ b: String, region: String) {
            for (first, second) in [(a, b), (b, a)] {
                cases.append(MatchCase(a: first, b: second, kind: "SS"))
                cases.append(MatchCase(a: first, b: second, defaultRegion: region, kind: "OS"))
            }
            cases.append(MatchCase(a: a, b: b, defaultRegion: region, kind: "OO"))
        }
        for examples in Self.examples(document) {
            for (index, example) in examples.enumerated() {
                let region = example.parseRegion
                let styles = example.styles
                for first in styles.indices {
                    for second in styles.indices where second > first {
                        add(styles[first], styles[second], region: region)
                    }
                }
                let nsn = example.nsn
                add(example.e164 + " ext. 12", nsn, region: region)
                add(example.e164, nsn + " ext. 12", region: region)
                add(example.e164 + " ext. 12", nsn + " ext. 12", region: region)
                add(example.e164 + " ext. 12", nsn + " ext. 34", region: region)
                add((example.national ?? nsn) + " x 7", example.international + " x 7", region: region)
                add(example.e164 + " ext. 12", example.e164, region: region)
                if nsn.hasPrefix("0") {
                    let significant = String(nsn.drop { $0 == "0" })
                    add(example.e164, significant, region: region)
                    add(example.e164, "+\(example.code)\(significant)", region: region)
                }
                if nsn.count > 4 {
                    add(example.e164, String(nsn.suffix(nsn.count - 3)), region: region)
                    add(example.international, String(nsn.dropLast()), region: region)
                }
                add(example.e164, "+\(example.code == 1 ? 44 : 1)\(nsn)", region: region)
                if index + 1 < examples.count {
                    let other = examples[index + 1]
                    add(example.e164, other.e164, region: region)
                    add(example.national ?? example.e164, other.national ?? other.nsn, region: region)
                    add(example.e164, other.nsn, region: region)
                }
            }
        }
        return cases
    }

    /// Pairs of the phone differential test's pseudo-random and noisy texts (neighbours, and each with its digits
    /// alone), to reach the parse errors and odd inputs the example pairs miss.
    static func generatedPairs(_ document: PhoneMetadataDocument, count: Int) -> [MatchCase] {
        let texts = DifferentialCases.random(document, count: count) + DifferentialCases.noisy(count: count)
        var cases: [MatchCase] = []
        for (index, first) in texts.enumerated() {
            let second = texts[(index + 1) % texts.count]
            let digits = String(first.number.filter { $0.isASCII && $0.isNumber })
            for other in [second.number, digits] {
                cases.append(MatchCase(a: first.number, b: other, kind: "SS"))
                cases.append(MatchCase(a: first.number, b: other, defaultRegion: first.defaultRegion, kind: "OS"))
                cases.append(MatchCase(a: first.number, b: other, defaultRegion: first.defaultRegion, kind: "OO"))
            }
        }
        return cases
    }

    /// Every viewer: every region, `001`, an unknown region and none.
    static func viewers(_ document: PhoneMetadataDocument) -> [String?] {
        document.territories.map(\.id).filter { $0 != "001" } + ["001", "ZZ", nil]
    }
}

extension MatchAnswer {
    /// The engine's answer in the oracle's shape for a `MatchCase`.
    init(engine: PhoneEngine, matchCase: MatchCase) {
        func named(_ body: () throws(PhoneMatchError) -> PhoneMatch, sides: Bool) -> MatchAnswer {
            do throws(PhoneMatchError) {
                return MatchAnswer(match: try body().upstreamName)
            } catch {
                return sides
                    ? MatchAnswer(match: "NOT_A_NUMBER", side: error.side.rawValue, reason: error.reason.reason)
                    : MatchAnswer(match: "NOT_A_NUMBER")
            }
        }
        switch matchCase.kind {
        case "SS":
            self = named({ () throws(PhoneMatchError) in try engine.match(matchCase.a, matchCase.b) }, sides: false)
        case "OS":
            let first: PhoneNumber
            do {
                first = try engine.parse(matchCase.a, defaultRegion: matchCase.defaultRegion)
            } catch {
                self = MatchAnswer(match: "NOT_A_NUMBER", side: "a", reason: error.reason)
                return
            }
            self = named({ () throws(PhoneMatchError) in try engine.match(first, matchCase.b) }, sides: false)
        default:
            guard matchCase.defaultRegion == nil else {
                self = named(
                    { () throws(PhoneMatchError) in
                        try engine.match(matchCase.a, matchCase.b, defaultRegion: matchCase.defaultRegion)
                    }, sides: true)
                return
            }
            // Both parsed without a region (only numbers with a country code parse), then compared.
            self = named(
                { () throws(PhoneMatchError) in
                    let first = try Result { () throws(PhoneParseError) in
                        try engine.parse(matchCase.a, defaultRegion: nil)
                    }
                    .mapError { PhoneMatchError(side: .a, reason: $0) }.get()
                    let second = try Result { () throws(PhoneParseError) in
                        try engine.parse(matchCase.b, defaultRegion: nil)
                    }
                    .mapError { PhoneMatchError(side: .b, reason: $0) }.get()
                    return engine.match(first, second)
                }, sides: true)
        }
    }
}

@Suite("Differential test of matching, dialling from abroad and example numbers (phonenumbers 9.0.35)")
struct ContactsDifferentialTests {
    static let known: [KnownDifference] = {
        (try? JSONDecoder().decode([KnownDifference].self, from: Data(contentsOf: Fixtures.knownDifferences))) ?? []
    }()

    static func report(_ what: String, cases: Int, skipped: Int, mismatches: [String]) {
        let compared = cases - skipped
        let agreement = 100.0 * Double(compared - mismatches.count) / Double(max(compared, 1))
        print(
            "\(what): \(cases) cases, \(compared) compared, \(mismatches.count) mismatches, agreement "
                + "\(String(format: "%.2f", agreement))%, \(skipped) known differences")
        for mismatch in mismatches.prefix(40) { Issue.record("\(mismatch)") }
    }

    @Test(
        "isNumberMatch agrees with the oracle on pairs built from every region's example numbers",
        .enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func matchingAgreesWithOracle() throws {
        let engine = Fixtures.engine
        let cases =
            ContactsCases.pairs(Fixtures.document) + ContactsCases.generatedPairs(Fixtures.document, count: 2000)
        let answers = try Oracle.matchAnswers(cases)
        let skipped = Set(
            Self.known.filter { $0.test == "match" }.map { "\($0.number)|\($0.b ?? "")|\($0.kind ?? "")" })
        var mismatches: [String] = []
        var skippedCount = 0
        for (matchCase, expected) in zip(cases, answers) {
            if skipped.contains("\(matchCase.a)|\(matchCase.b)|\(matchCase.kind)") {
                skippedCount += 1
                continue
            }
            let actual = MatchAnswer(engine: engine, matchCase: matchCase)
            if actual != expected {
                mismatches.append(
                    "\(matchCase.kind) \(matchCase.a) ~ \(matchCase.b) [\(matchCase.defaultRegion ?? "-")]: "
                        + "\(actual) ≠ \(expected)")
            }
        }
        Self.report("phone match", cases: cases.count, skipped: skippedCount, mismatches: mismatches)
        #expect(mismatches.isEmpty)
        #expect(cases.count > 50_000)
        let kinds = Dictionary(grouping: answers, by: \.match).mapValues(\.count)
        for kind in ["EXACT_MATCH", "NSN_MATCH", "SHORT_NSN_MATCH", "NO_MATCH", "NOT_A_NUMBER"] {
            #expect(kinds[kind, default: 0] > 100, "\(kind) is exercised")
        }
    }

    @Test(
        "formatOutOfCountryCallingNumber agrees with the oracle from every region as viewer",
        .enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func diallingFromEveryRegionAgreesWithOracle() throws {
        let engine = Fixtures.engine
        let viewers = ContactsCases.viewers(Fixtures.document)
        let examples = ContactsCases.examples(Fixtures.document).flatMap { $0 }
        var cases = examples.map { DialCase(number: $0.e164, viewers: viewers) }
        cases += examples.map { DialCase(number: $0.e164 + " ext. 123", viewers: ["US", "GB", "RU", "NL"]) }
        let answers = try Oracle.dialAnswers(cases)
        var mismatches: [String] = []
        var compared = 0
        for (dialCase, expected) in zip(cases, answers) {
            guard let number = try? engine.parse(dialCase.number, defaultRegion: dialCase.defaultRegion) else {
                if expected.ok { mismatches.append("\(dialCase.number): does not parse, the oracle's does") }
                continue
            }
            for (viewer, dial) in zip(dialCase.viewers, expected.dial ?? []) {
                compared += 1
                let actual = engine.formatOutOfCountry(number, from: viewer)
                if actual != dial { mismatches.append("\(dialCase.number) from \(viewer ?? "-"): \(actual) ≠ \(dial)") }
            }
        }
        Self.report("phone dialFrom", cases: compared, skipped: 0, mismatches: mismatches)
        #expect(mismatches.isEmpty)
        #expect(compared > 250_000)
    }

    @Test(
        "getExampleNumberForType agrees with the oracle for every region and type",
        .enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func exampleNumbersAgreeWithOracle() throws {
        let engine = Fixtures.engine
        let regions = Fixtures.document.territories.map(\.id) + ["ZZ"]
        let cases = regions.flatMap { region in
            PhoneNumberType.allCases.map {
                ExampleCase(region: region, type: $0.rawValue, viewerRegion: region == "NL" ? "BE" : region)
            }
        }
        let answers = try Oracle.exampleAnswers(cases)
        var mismatches: [String] = []
        var found = 0
        for (exampleCase, expected) in zip(cases, answers) {
            let type = PhoneNumberType(rawValue: exampleCase.type) ?? .unknown
            let number = engine.exampleNumber(region: exampleCase.region, type: type)
            guard let number, expected.found else {
                if (number != nil) != expected.found {
                    mismatches.append("\(exampleCase.region) \(exampleCase.type): found \(number != nil)")
                }
                continue
            }
            found += 1
            let actual = PhoneAnswer(engine.describe(number, viewerRegion: exampleCase.viewerRegion))
            let differences = actual.differences(from: expected.number)
            if !differences.isEmpty {
                mismatches.append(
                    "\(exampleCase.region) \(exampleCase.type): " + differences.joined(separator: "; "))
            }
        }
        Self.report("phone example", cases: cases.count, skipped: 0, mismatches: mismatches)
        #expect(mismatches.isEmpty)
        #expect(found > 1000)
    }
}
