import FmtTesting
import Foundation
import Testing

@testable import PhoneNumbers

/// A case where the engine is known to differ from the oracle, with the reason. `test` is absent for the phone
/// differential test, `match` for a matching pair (`number` is `a`, with `b` and `kind`).
struct KnownDifference: Codable {
    var test: String?
    var number: String
    var b: String?
    var kind: String?
    var defaultRegion: String?
    var reason: String
}

enum DifferentialCases {
    /// Every region's example number of every type, written as E.164, international with spaces, national with
    /// the default region, and dialled from abroad with an IDD; viewed from its own and another region.
    static func examples(_ document: PhoneMetadataDocument) -> [PhoneCase] {
        var cases: [PhoneCase] = []
        for territory in document.territories {
            let region = territory.id
            let code = territory.countryCode
            let abroad = region == "US" ? "DE" : "US"
            let idd = abroad == "US" ? "011" : "00"
            for (_, desc) in territory.types.sorted(by: { $0.key < $1.key }) {
                guard let example = desc.example else { continue }
                let grouped = stride(from: 0, to: example.count, by: 3).map { start -> String in
                    let begin = example.index(example.startIndex, offsetBy: start)
                    let end = example.index(begin, offsetBy: 3, limitedBy: example.endIndex) ?? example.endIndex
                    return String(example[begin..<end])
                }.joined(separator: " ")
                cases.append(PhoneCase(number: "+\(code)\(example)", viewerRegion: region))
                cases.append(PhoneCase(number: "+\(code) \(grouped)", viewerRegion: abroad))
                if region != "001" {
                    let national = (territory.nationalPrefix ?? "") + example
                    cases.append(PhoneCase(number: national, defaultRegion: region, viewerRegion: region))
                    cases.append(PhoneCase(number: example, defaultRegion: region, viewerRegion: abroad))
                }
                cases.append(
                    PhoneCase(number: "\(idd) \(code) \(grouped)", defaultRegion: abroad, viewerRegion: region))
            }
        }
        return cases
    }

    /// Deterministic pseudo-random numbers around each region's calling code and prefixes, to probe paths the
    /// example numbers miss (national prefix stripping, IDDs, invalid lengths, shared calling codes).
    static func random(_ document: PhoneMetadataDocument, count: Int) -> [PhoneCase] {
        var random = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let regions = document.territories.filter { $0.id != "001" }
        let separators = ["", " ", "-", ".", " (", ") ", "/"]
        var cases: [PhoneCase] = []
        for _ in 0..<count {
            let territory = regions[next(regions.count)]
            let examples = territory.types.values.compactMap(\.example)
            var digits = examples.isEmpty ? "" : examples[next(examples.count)]
            switch next(4) {
            case 0: digits = String(digits.prefix(max(1, digits.count - 1 - next(3))))
            case 1: digits += String(next(100))
            case 2:
                let keep = digits.prefix(next(max(digits.count, 1)) + 1)
                digits = String(keep) + String((0..<(next(8) + 1)).map { _ in Character(String(next(10))) })
            default: break
            }
            var written = ""
            for (index, digit) in digits.enumerated() {
                if index > 0 && next(4) == 0 { written += separators[next(separators.count)] }
                written.append(digit)
            }
            let style = next(5)
            let prefix: String
            var region: String? = territory.id
            switch style {
            case 0: prefix = "+\(territory.countryCode) "; region = nil
            case 1: prefix = (territory.nationalPrefix ?? "")
            case 2: prefix = "00\(territory.countryCode)"; region = ["NL", "DE", "GB", "FR"][next(4)]
            case 3: prefix = "\(territory.countryCode)"
            default: prefix = ""
            }
            cases.append(PhoneCase(number: prefix + written, defaultRegion: region, viewerRegion: territory.id))
        }
        return cases
    }

    /// Deterministic pseudo-random text built from number-like tokens: digits in several scripts, plus signs,
    /// punctuation, letters, extension labels and RFC 3966 parts.
    static func noisy(count: Int) -> [PhoneCase] {
        var random = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let tokens = [
            "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "06", "00", "011", "31", "44", "49", "1", "20", "800",
            "１", "２", "٣", "۴", "५", "+", "＋", " ", "-", ".", "(", ")", "/", "~", "*", "#", ",", ";", "x", "X",
            " ext. ", " ext ", ";ext=", " x ", " #", ",,", "tel:", ";phone-context=+1", ";phone-context=abc.com",
            ";isub=12", "FLOWERS", "abc", "A", "e", "int", " доб ", " anexo ", "\\", "–", "\u{00A0}", "\u{3000}",
            "?", "!", ":", "ß", "\n",
        ]
        let regions: [String?] = [nil, "NL", "BE", "DE", "GB", "US", "FR", "IT", "AR", "BR", "MX", "RU", "AU", "ZZ"]
        var cases: [PhoneCase] = []
        for _ in 0..<count {
            var text = ""
            for _ in 0..<(next(14) + 1) { text += tokens[next(tokens.count)] }
            cases.append(PhoneCase(number: text, defaultRegion: regions[next(regions.count)], viewerRegion: "NL"))
        }
        return cases
    }

    /// Hand-written cases for each behaviour in the issue's list.
    static let edges: [PhoneCase] = {
        let specs: [(String, String?)] = [
            // Extraction from text and viability.
            ("Call me at +31 (0)6 1234 5678 tomorrow!", nil), ("phone: 020 7946 0958.", "GB"),
            ("+31 6 12345678 / x 12", nil), ("+31 6 12345678\\x12", nil), ("abc", "NL"), ("", "NL"),
            ("1", "NL"), ("12", "NL"), ("+12", nil), ("++31 6 12345678", nil), ("0031 (6) 123-456.78", "NL"),
            ("+31 6 1234 5678 +1", nil), ("*31#", "NL"), ("123abc456", "US"), ("(650) 253-0000", "US"),
            // RFC 3966.
            ("tel:+1-650-253-0000", nil), ("tel:+1-650-253-0000;ext=123", nil),
            ("tel:253-0000;phone-context=+1-650", "US"),
            ("tel:253-0000;phone-context=+1-650", nil), ("tel:0612345678;phone-context=example.nl", "NL"),
            ("tel:0612345678;phone-context=", "NL"), ("tel:0612345678;phone-context=-bad.example", "NL"),
            ("tel:+44-20-7946-0958;isub=1234", nil), ("tel:+31-6-12345678;isub=1;ext=5", nil),
            ("tel:612345678;phone-context=+31", nil), ("tel:612345678;phone-context=+31;ext=77", nil),
            ("tel:612345678;phone-context=a.b.c.nl.", "NL"),
            // Extensions.
            ("+44 20 7946 0958 x123", nil), ("020 7946 0958 ext. 42", "GB"), ("+1 650 253 0000 extension 7", nil),
            ("+1 650 253 0000 ext: 12345", nil), ("+1 650 253 0000 #99", nil), ("+1 650 253 0000 - 12#", nil),
            ("+49 30 1234567,,89", nil), ("+49 30 1234567;89", nil), ("+49 30 1234567,89", nil),
            ("+32 2 555 12 34 доб 12", nil), ("+32 2 555 12 34 anexo 5", nil), ("+32 2 555 12 34 int 5", nil),
            ("+1 650 253 0000 x 12345678901234567890", nil), ("+1 650 253 0000 x 123456789012345678901", nil),
            ("+1 650 253 0000 ｅｘｔ１２", nil), ("+1 650 253 0000 extensión 3", nil), ("+1 650 253 0000~7", nil),
            ("+44 1481 123456 x 7", nil), ("+1 800 FLOWERS x 1", nil),
            // Unicode digits, full-width plus, letters.
            ("０２０ ７９４６ ０９５８", "GB"), ("＋31 6 12345678", nil), ("٠٦١٢٣٤٥٦٧٨", "NL"), ("۰۶۱۲۳۴۵۶۷۸", "NL"),
            ("०६१२३४५६७८", "NL"), ("1-800-FLOWERS", "US"), ("+1 800 FLOWERS", nil), ("0800-FLOWERS", "NL"),
            ("1-800-MICRO-SOFT", "US"), ("ab1234", "US"), ("+31 6 ab cd", nil), ("+1 (800) GOT-JUNK", nil),
            // IDD and country code.
            ("00 31 6 12345678", "NL"), ("00 31 6 12345678", "US"), ("011 31 6 12345678", "US"),
            ("011 31 6 12345678", "NL"), ("00 0 31 6", "NL"), ("00 31", "NL"), ("001", "NL"), ("+0", nil),
            ("+999 1234 5678", nil), ("+00 31 6 12345678", "NL"), ("+", nil), ("+1", nil), ("31 6 12345678", "NL"),
            ("316 1234 5678", "NL"), ("1 650 253 0000", "US"), ("44 20 7946 0958", "GB"), ("49 30 1234567", "DE"),
            ("6 12345678", "NL"), ("612345678", nil), ("612345678", "ZZ"), ("612345678", "nl"), ("+31612345678", "ZZ"),
            ("0011 31 6 12345678", "AU"), ("810 49 30 1234567", "RU"), ("00 49 30 1234567", "RU"),
            // National prefix and carrier codes.
            ("0 6 12345678", "NL"), ("06 12345678", "NL"), ("0 0 6 12345678", "NL"), ("011 15 2345-6789", "AR"),
            ("0 11 15 2345 6789", "AR"), ("(0xx21) 2345-6789", "BR"), ("0 21 21 2345 6789", "BR"),
            ("044 55 1234 5678", "MX"), ("01 55 1234 5678", "MX"), ("1 55 1234 5678", "MX"), ("8 800 555 35 35", "RU"),
            ("8 10 49 30 1234567", "RU"), ("0800 1111", "GB"), ("180020 20 7946 0958", "GB"), ("1 800 123 4567", "US"),
            ("0712345678", "KE"), ("15 2345 6789", "AR"), ("0 0 5", "DE"),
            // Italian leading zeros and length checks.
            ("+39 06 1234 5678", nil), ("+39 0000 00", nil), ("06 1234 5678", "IT"), ("+39 02 1234567", nil),
            ("+225 07 12 34 56 78", nil), ("0000", "IT"), ("+39 00", nil), ("+44 1", nil), ("+44 12", nil),
            ("+49 123456789012345678", nil), ("+49 12345678901234567", nil), ("123456789012345678901234567890", "US"),
            ("+1 23", nil), ("+49 1", nil), (String(repeating: "1", count: 251), "US"),
            (String(repeating: " ", count: 240) + "+31612345678", nil),
            // Shared calling codes, non-geographic numbers, formats.
            ("+44 1481 123456", nil), ("+44 1534 123456", nil), ("+44 1624 123456", nil), ("+1 242 555 1234", nil),
            ("+1 684 622 1234", nil), ("+1 324 555 1234", nil), ("+7 701 123 4567", nil), ("+7 495 123 4567", nil),
            ("+7 600 123 4567", nil), ("+599 9 123 4567", nil), ("+262 269 12 34 56", nil), ("+262 639 12 34 56", nil),
            ("+800 1234 5678", nil), ("+882 1234 5678", nil), ("+870 301 234 567", nil), ("+979 123 456 789", nil),
            ("+1 999 555 1234", nil), ("+44 7911 123456", nil), ("+44 800 1111", nil), ("+49 1512 3456789", nil),
            ("+49 171 12345678", nil), ("+49 30 123", nil), ("+32 2 555 12 34", nil), ("+32 470 12 34 56", nil),
            ("+31 20 123 4567", nil), ("+31 800 1234", nil), ("+31 14020", nil), ("+212 5 2012 3456", nil),
            ("+886 2 2123 4567", nil), ("+421 2 1234 5678", nil), ("+43 648 1234567", nil), ("+27 50 123 4567", nil),
            ("+1 650 253 0000", nil), ("+52 1 55 1234 5678", nil), ("+54 9 11 1234 5678", nil),
            ("+61 4 1234 5678", nil), ("+81 3 1234 5678", nil), ("+86 10 1234 5678", nil), ("+91 98765 43210", nil),
            ("+55 11 91234 5678", nil), ("+33 1 23 45 67 89", nil), ("+34 912 34 56 78", nil),
            ("+1 800 555 0199", nil), ("+44 20 7946 0958", nil), ("+47 42 12 34 56", nil), ("+84 90 123 45 67", nil),
            ("+48 12 345 67 89", nil), ("+90 212 345 67 89", nil),
            // Letters upstream's case-insensitive patterns also take: dotless i, long s, Kelvin sign, dotted I,
            // old Cyrillic forms.
            ("1-800-FLOW\u{131}RS", "US"), ("1-800-FLOW\u{17F}RS", "US"), ("1-800-FLOW\u{212A}RS", "US"),
            ("1-800-FLOW\u{130}RS", "US"), ("123\u{131}45", "US"), ("+1 650 253 0000 EXTEN\u{17F}I\u{D3}N 5", nil),
            ("+1 650 253 0000 \u{131}NT 5", nil), ("+1 650 253 0000 \u{130}nt 5", nil),
            ("+7 495 123 4567 \u{1C81}\u{1C82}\u{431} 12", nil), ("+1 650 253 0000 X 12", nil),
        ]
        // Long text that nearly matches upstream's patterns, as written, international, and in an RFC 3966 URI.
        let long: [(String, String?)] =
            TextCases.long.map { ($0, "NL") } + TextCases.long.map { ("+" + $0.dropLast(1), nil) }
            + TextCases.long.map { ("tel:" + $0.prefix(200) + ";phone-context=+1", "US") }
        var cases: [PhoneCase] = []
        for (number, region) in specs + long {
            for viewer in ["NL", "GB", "US", region ?? "DE"] {
                cases.append(PhoneCase(number: number, defaultRegion: region, viewerRegion: viewer))
            }
        }
        return cases
    }()
}

@Suite("Differential test against libphonenumber (phonenumbers 9.0.35)")
struct DifferentialTests {
    @Test(
        "engine agrees with the oracle field by field",
        .enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func agreesWithOracle() throws {
        let engine = Fixtures.engine
        let examples = DifferentialCases.examples(Fixtures.document)
        let fuzzCount = ProcessInfo.processInfo.environment["FMTD_PHONE_FUZZ"].flatMap { Int($0) } ?? 6000
        let cases =
            examples + DifferentialCases.edges
            + DifferentialCases.random(Fixtures.document, count: fuzzCount) + DifferentialCases.noisy(count: fuzzCount)
        let known = try JSONDecoder().decode([KnownDifference].self, from: Data(contentsOf: Fixtures.knownDifferences))
        let skipped = Set(known.filter { $0.test == nil }.map { "\($0.number)|\($0.defaultRegion ?? "")" })
        let answers: [PhoneAnswer]
        do {
            answers = try Oracle.answers(cases)
        } catch {
            Issue.record("\(error)")
            return
        }
        var compared = 0
        var mismatches: [String] = []
        for (phoneCase, expected) in zip(cases, answers) {
            if skipped.contains("\(phoneCase.number)|\(phoneCase.defaultRegion ?? "")") { continue }
            compared += 1
            let differences = PhoneAnswer(engine: engine, phoneCase: phoneCase).differences(from: expected)
            if !differences.isEmpty {
                mismatches.append(
                    "\(phoneCase.number) [\(phoneCase.defaultRegion ?? "-")→\(phoneCase.viewerRegion ?? "-")]: "
                        + differences.joined(separator: "; "))
            }
        }
        let agreement = 100.0 * Double(compared - mismatches.count) / Double(max(compared, 1))
        print(
            "phone differential: \(cases.count) cases (\(examples.count) from examples), \(compared) compared, "
                + "\(mismatches.count) mismatches, agreement \(String(format: "%.2f", agreement))%, "
                + "\(known.count) known differences")
        for mismatch in mismatches.prefix(60) { Issue.record("\(mismatch)") }
        #expect(mismatches.isEmpty)
        #expect(examples.count > 3000)
    }
}
