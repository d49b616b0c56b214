import Foundation
import Testing

@testable import PhoneNumbers
@testable import phone_metadata_gen

struct VectorFile: Decodable {
    struct Case: Decodable {
        var input: PhoneCase
        var expected: PhoneAnswer
    }

    var cases: [Case]
}

extension PhoneAnswer {
    enum CodingKeys: String, CodingKey {
        case ok, reason, valid, e164, region, type, national, international, rfc3966, display, `extension`
        case possibleReason, dialFrom
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ok = try container.decodeIfPresent(Bool.self, forKey: .ok) ?? true
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        valid = try container.decodeIfPresent(Bool.self, forKey: .valid)
        e164 = try container.decodeIfPresent(String.self, forKey: .e164)
        region = try container.decodeIfPresent(String.self, forKey: .region)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        national = try container.decodeIfPresent(String.self, forKey: .national)
        international = try container.decodeIfPresent(String.self, forKey: .international)
        rfc3966 = try container.decodeIfPresent(String.self, forKey: .rfc3966)
        display = try container.decodeIfPresent(String.self, forKey: .display)
        `extension` = try container.decodeIfPresent(String.self, forKey: .extension)
        possibleReason = try container.decodeIfPresent(String.self, forKey: .possibleReason)
        dialFrom = try container.decodeIfPresent(String.self, forKey: .dialFrom)
    }
}

@Suite("Phone vectors")
struct VectorTests {
    @Test("all 50 vectors of data/vectors/phone-format.json pass through the engine")
    func vectors() throws {
        let file = try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: Fixtures.vectors))
        #expect(file.cases.count == 50)
        #expect(Set(file.cases.compactMap { $0.expected.e164?.prefix(3) }).count >= 5)
        for vector in file.cases {
            let actual = PhoneAnswer(engine: Fixtures.engine, phoneCase: vector.input)
            #expect(actual.differences(from: vector.expected).isEmpty, "\(vector.input.number)")
        }
    }

    @Test("display follows the viewer region")
    func display() throws {
        let engine = Fixtures.engine
        let fromNL = try engine.describe(number: "06 12345678", defaultRegion: "NL", viewerRegion: "NL")
        let fromBE = try engine.describe(number: "06 12345678", defaultRegion: "NL", viewerRegion: "BE")
        #expect(fromNL.display == "06 12345678")
        #expect(fromBE.display == "+31 6 12345678")
        #expect(fromBE.rfc3966 == "tel:+31-6-12345678")
        let guernsey = try engine.describe(number: "+44 1481 256789", defaultRegion: nil, viewerRegion: "GB")
        #expect(guernsey.region == "GG")
        #expect(guernsey.display == guernsey.international)
    }

    @Test("parse errors carry upstream's reason")
    func errors() {
        let engine = Fixtures.engine
        let cases: [(String, String?, String)] = [
            ("abc", "NL", "NOT_A_NUMBER"), ("612345678", nil, "INVALID_COUNTRY_CODE"),
            ("+999 1234", nil, "INVALID_COUNTRY_CODE"), ("00 31", "NL", "TOO_SHORT_AFTER_IDD"),
            ("+49 1", nil, "TOO_SHORT_NSN"), ("+49 123456789012345678", nil, "TOO_LONG"),
        ]
        for (text, region, reason) in cases {
            #expect(throws: PhoneParseError.self, "\(text)") { try engine.parse(text, defaultRegion: region) }
            do {
                _ = try engine.parse(text, defaultRegion: region)
            } catch {
                #expect(error.reason == reason, "\(text)")
            }
        }
    }
}

@Suite("Phone metadata")
struct MetadataTests {
    @Test(
        "conversion is deterministic and equals the committed file",
        .enabled(if: Fixtures.upstreamAvailable, "needs upstream's XML in ../shared/upstream or FMTD_UPSTREAM_DIR"))
    func deterministic() throws {
        let first = try Fixtures.convert(Fixtures.currentXML, version: "9.0.35")
        let second = try Fixtures.convert(Fixtures.currentXML, version: "9.0.35")
        #expect(first == second)
        #expect(first == (try Data(contentsOf: Fixtures.committedJSON)))
        #expect(Fixtures.engine.metadata.version == "9.0.35")
    }

    @Test(
        "reloading 9.0.0 metadata changes answers (US 324, example numbers)",
        .enabled(if: Fixtures.upstreamAvailable, "needs upstream's XML in ../shared/upstream or FMTD_UPSTREAM_DIR"))
    func reloadChangesAnswers() throws {
        let olderJSON = try Fixtures.convert(Fixtures.olderXML, version: "9.0.0")
        let older = PhoneEngine(metadata: try PhoneMetadata(json: olderJSON))
        let current = Fixtures.engine
        #expect(older.metadata.version == "9.0.0")
        let area324 = try current.parse("+1 324 555 1234", defaultRegion: nil)
        #expect(current.isValid(area324))
        #expect(!older.isValid(try older.parse("+1 324 555 1234", defaultRegion: nil)))
        var changed = 0
        for (region, examples) in Fixtures.document.territories.map({ ($0.id, $0.types) }) where region != "001" {
            for example in examples.values.compactMap(\.example) {
                guard let number = try? current.parse(example, defaultRegion: region),
                    let old = try? older.parse(example, defaultRegion: region)
                else { continue }
                if current.describe(number, viewerRegion: region) != older.describe(old, viewerRegion: region) {
                    changed += 1
                }
            }
        }
        #expect(changed > 10)
    }

    @Test("loading errors name the field")
    func loadErrors() throws {
        var document = Fixtures.document
        document.territories[3].types["mobile"]?.pattern = "12(3"
        #expect(throws: PhoneMetadataError.self) { try PhoneMetadata(document: document) }
        do {
            _ = try PhoneMetadata(document: document)
        } catch {
            #expect(error.description.contains("territories[3]"))
            #expect(error.description.contains("types.mobile.p"))
        }
        let json = Data(#"{"version":"1","source":"x","territories":[{"id":"NL","cc":31}]}"#.utf8)
        do {
            _ = try PhoneMetadata(json: json)
            Issue.record("loading must fail")
        } catch {
            #expect(error.description.contains("territories[0].gen"), "\(error)")
        }
    }
}

/// The metadata's `version` is what `info` reports and `fmtq stats --openmetrics` writes as a label: one line of
/// text, so a control character or a line break in it is refused at load, naming the field.
@Suite struct MetadataVersionTests {
    @Test(arguments: ["9.0.35\r\nfmtd_injected_total 42", "9.0.35\n", "9\u{0}", "9\t35", "9\u{9F}", "9\u{2028}"])
    func aVersionWithAControlCharacterOrLineBreakIsRefused(version: String) throws {
        var document = Fixtures.document
        document.version = version
        #expect {
            try PhoneMetadata(document: document)
        } throws: { error in
            guard case .invalidField(let field, let detail)? = error as? PhoneMetadataError else { return false }
            return field == "version" && detail.contains("U+")
        }
        document.version = "9.0.35 (ünïcödé, 日本)"
        #expect(try PhoneMetadata(document: document).version == "9.0.35 (ünïcödé, 日本)")
    }
}

@Suite("Digit patterns")
struct DigitPatternTests {
    func whole(_ pattern: String, _ text: String) throws -> Bool {
        let compiled = try DigitPattern(pattern)
        return Array(text.utf8).withUnsafeBufferPointer { compiled.matchesWhole($0) }
    }

    @Test("subset semantics")
    func semantics() throws {
        #expect(try whole("(?:[124-7]\\d\\d|3(?:[02-9]\\d|1[0-8]))\\d{6}", "201234567"))
        #expect(try !whole("(?:[124-7]\\d\\d|3(?:[02-9]\\d|1[0-8]))\\d{6}", "319123456"))
        #expect(try whole("8\\d{6,9}", "8123456789"))
        #expect(try !whole("8\\d{6,9}", "81234567890"))
        #expect(try whole("[^0]\\d?", "5"))
        let prefix = try DigitPattern("0?(?:(11|2)15)?")
        let match = Array("01512".utf8).withUnsafeBufferPointer { prefix.match($0) }
        #expect(match?.range == 0..<1)
        let withGroup = Array("0111512345".utf8).withUnsafeBufferPointer { prefix.match($0) }
        #expect(withGroup?.range == 0..<5)
        #expect(withGroup?.groups.first == .some(1..<3))
        // A letter is a literal, as in upstream's engines: it matches no digit string.
        #expect(try !whole("a", "1"))
        #expect(try !whole("1a?", "1a"))
        #expect(try whole("1a?", "1"))
        #expect(throws: PatternSyntaxError.self) { try DigitPattern("\\w") }
        // Found by the phone-metadata fuzz target: a repeat count long enough to overflow Int.
        #expect(throws: PatternSyntaxError.self) { try DigitPattern("\\d{99999999999999999999999}") }
        #expect(throws: PatternSyntaxError.self) { try DigitPattern("\\d{2,99999999999999999999999}") }
    }

    @Test("format patterns, capturing groups in a row, match by their groups exactly as by the program")
    func groupSequencesMatchLikeTheProgram() throws {
        var texts = Set<String>()
        for territory in Fixtures.document.territories {
            for format in territory.formats ?? [] { texts.insert(format.pattern) }
        }
        let shipped = texts.count
        texts.formUnion(["(\\d{0,2})(\\d{2,3})", "([2-9]{1,3})(\\d)(1?)", "([^0])", "(\\d{3,})(\\d)", "(\\d)(?:5)"])
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        var inputs: [[UInt8]] = [Array("12a45678".utf8), []]
        for _ in 0..<48 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(seed >> 59) % 19
            inputs.append((0..<length).map { index in UInt8(48 + Int((seed >> UInt64(index * 3 % 56)) % 10)) })
        }
        var grouped = 0
        var mismatches: [String] = []
        for text in texts.sorted() {
            let pattern = try DigitPattern(text)
            if pattern.compiled.groups != nil { grouped += 1 }
            for input in inputs {
                for whole in [false, true] {
                    for start in [0, 1, 3] where start <= input.count {
                        input.withUnsafeBufferPointer { buffer in
                            let byGroups = pattern.match(buffer, from: start, whole: whole)
                            let byProgram = pattern.match(buffer, from: start, whole: whole, memoized: true)
                            if byGroups?.range != byProgram?.range || byGroups?.groups != byProgram?.groups {
                                mismatches.append("\(text) on \(String(decoding: input, as: UTF8.self)) from \(start)")
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        // Every shipped format pattern and the two hand-written sequences take the group path; the rest do not.
        #expect(grouped == shipped + 3)
    }

    @Test("stacked quantifiers are refused, as upstream's engines refuse or read them differently")
    func stackedQuantifiersAreRefused() {
        // Found by the phone-metadata fuzz target: 39 stacked `+` once compiled to 2^39 copies of their atom.
        for pattern in ["[04679]" + String(repeating: "+", count: 39) + "1", "6**7", "1*?", "1++", "1{2}{3}", "1?+"] {
            #expect(throws: PatternSyntaxError.self, "\(pattern)") { try DigitPattern(pattern) }
        }
    }

    @Test("an open repeat keeps one copy of its body and matches like the greedy repeat it is")
    func openRepeatsStaySmall() throws {
        #expect(try DigitPattern("(?:12345){3,}").program.count == 2 * 5 + 5 + 2)
        #expect(try whole("(?:12){2,}3", "1212123"))
        #expect(try !whole("(?:12){2,}3", "123"))
        #expect(try whole("1+2", "1112"))
    }

    @Test("nested loops stay linear: the matcher remembers what it tried once a plain search runs long")
    func nestedLoopsStayLinear() throws {
        // Exponential for plain backtracking on a failing input, and nullable loops inside loops.
        let nested = "(?:(?:(?:(?:(?:(?:[04679]+)+)+)+)+)+)+1"
        #expect(try !whole(nested, String(repeating: "0", count: 40) + "2"))
        #expect(try whole(nested, String(repeating: "0", count: 40) + "1"))
        let nullable = "6(?:(?:(?:(?:6*)*)*)*)*7"
        #expect(try whole(nullable, "66667"))
        #expect(try !whole(nullable, "66668"))
        let captured = try DigitPattern("((?:(?:(?:1*)*)*)*)(2)")
        let match = Array("11112".utf8).withUnsafeBufferPointer { captured.match($0, whole: true) }
        #expect(match?.groups == [0..<4, 4..<5])
    }

    @Test("nested repeats that would compile to a huge program are refused, naming the limit")
    func nestedRepeatsAreBounded() throws {
        do {
            _ = try DigitPattern("(?:(?:(?:\\d{64}){64}){64}){64}")
            Issue.record("a 16-million-instruction pattern must be refused")
        } catch {
            #expect(error.detail.contains("instructions"), "\(error)")
        }
        // Ordinary repeats in a short pattern fit under the minimum budget.
        #expect(try whole("\\d{14}", "12345678901234"))
        #expect(try whole("(?:\\d{2,8}){3}", "123456"))
    }

    @Test("deep nesting and very long patterns are refused before they reach the recursive parser")
    func deepNestingIsRefused() {
        #expect(throws: PatternSyntaxError.self) {
            try DigitPattern(String(repeating: "(", count: 50_000) + "1" + String(repeating: ")", count: 50_000))
        }
        #expect(throws: PatternSyntaxError.self) {
            try DigitPattern(String(repeating: "(?:", count: 33) + "1" + String(repeating: ")", count: 33))
        }
        #expect(throws: Never.self) {
            try DigitPattern(String(repeating: "(?:", count: 32) + "1" + String(repeating: ")", count: 32))
        }
        #expect(throws: PatternSyntaxError.self) { try DigitPattern(String(repeating: "1", count: 9000)) }
    }
}

@Suite("Upstream's test metadata")
struct TestingMetadataTests {
    static let testingXML = Fixtures.upstream.appendingPathComponent("testing/PhoneNumberMetadataForTesting.xml")
    static let available = FileManager.default.fileExists(atPath: testingXML.path)

    @Test(
        "converts deterministically and loads whole, with every territory",
        .enabled(if: available, "needs upstream's test metadata XML"))
    func convertsAndLoads() throws {
        let first = try Fixtures.convert(Self.testingXML, version: "0.0.0-test")
        #expect(first == (try Fixtures.convert(Self.testingXML, version: "0.0.0-test")))
        let document = try JSONDecoder().decode(PhoneMetadataDocument.self, from: first)
        let xml = try String(contentsOf: Self.testingXML, encoding: .utf8)
        #expect(document.territories.count == xml.components(separatedBy: "<territory ").count - 1)
        let metadata = try PhoneMetadata(json: first)
        #expect(metadata.version == "0.0.0-test")
    }

    @Test(
        "a type without a pattern is kept without one, with its lengths, and matches no number",
        .enabled(if: available, "needs upstream's test metadata XML"))
    func typesWithoutPatterns() throws {
        let document = try JSONDecoder().decode(
            PhoneMetadataDocument.self, from: try Fixtures.convert(Self.testingXML, version: "0.0.0-test"))
        let barbados = try #require(document.territories.first { $0.id == "BB" })
        let fixedLine = try #require(barbados.types["fixedLine"])
        #expect(fixedLine.pattern == nil)
        #expect(!fixedLine.lengths.isEmpty)
        let engine = PhoneEngine(metadata: try PhoneMetadata(json: try Fixtures.convert(Self.testingXML, version: "t")))
        let example = try #require(fixedLine.example)
        let number = try engine.parse(example, defaultRegion: "BB")
        #expect(!engine.isValid(number))
    }

    @Test("no element or attribute of upstream's three files is unknown; a new one is reported")
    func unknownConstructsAreReported() throws {
        for xml in [Fixtures.currentXML, Fixtures.olderXML, Self.testingXML]
        where FileManager.default.fileExists(atPath: xml.path) {
            #expect(try MetadataConverter.unknownConstructs(xml: Data(contentsOf: xml)) == [], "\(xml.path)")
        }
        let changed = """
            <phoneNumberMetadata><territories><territory id="AO" countryCode="244" leadingZeroPossible="true">
            <generalDesc><nationalNumberPattern>\\d{9}</nationalNumberPattern></generalDesc><emergency/>
            </territory></territories></phoneNumberMetadata>
            """
        #expect(
            try MetadataConverter.unknownConstructs(xml: Data(changed.utf8)) == [
                "territory@leadingZeroPossible in territory AO", "<emergency> in territory AO",
            ])
    }

    @Test("a literal that is not a digit matches nothing in a digit string, as in upstream's engines")
    func literalsMatchNoDigit() throws {
        let prefix = try DigitPattern("0~0")
        for text in ["0", "00", "000", "0~0", "010"] {
            #expect(!Array(text.utf8).withUnsafeBufferPointer { prefix.matchesWhole($0) }, "\(text)")
        }
        let either = try DigitPattern("(?:8~10|8)\\d")
        #expect(Array("81".utf8).withUnsafeBufferPointer { either.matchesWhole($0) })
        #expect(throws: PatternSyntaxError.self) { try DigitPattern("^0") }
        #expect(throws: PatternSyntaxError.self) { try DigitPattern("(0)\\1") }
    }
}
