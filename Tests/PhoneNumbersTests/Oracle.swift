import FmtTesting
import Foundation

@testable import PhoneNumbers
@testable import phone_metadata_gen

/// The phone engine's inputs: the committed metadata, upstream's XMLs (never committed: `Paths.upstreamDirectory`;
/// the tests that convert them run only where they are) and the oracle's files.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: Paths.packageRoot)
    static let upstream = URL(fileURLWithPath: Paths.upstreamDirectory).appendingPathComponent("libphonenumber")
    static let upstreamAvailable =
        FileManager.default.fileExists(atPath: olderXML.path)
        && FileManager.default.fileExists(atPath: currentXML.path)
    static let currentXML = upstream.appendingPathComponent("PhoneNumberMetadata.xml")
    static let olderXML = upstream.appendingPathComponent("older/PhoneNumberMetadata.xml")
    static let committedJSON = packageRoot.appendingPathComponent("data/phone-metadata.json")
    static let vectors = packageRoot.appendingPathComponent("data/vectors/phone-format.json")
    static let knownDifferences = packageRoot.appendingPathComponent("Tests/PhoneNumbersTests/known-differences.json")

    static let engine: PhoneEngine = {
        do {
            return PhoneEngine(metadata: try PhoneMetadata(contentsOf: committedJSON))
        } catch {
            fatalError("cannot load \(committedJSON.path): \(error)")
        }
    }()

    static let document: PhoneMetadataDocument = {
        do {
            return try JSONDecoder().decode(PhoneMetadataDocument.self, from: Data(contentsOf: committedJSON))
        } catch {
            fatalError("cannot decode \(committedJSON.path): \(error)")
        }
    }()

    /// Converts an upstream XML at test time (never committed).
    static func convert(_ xml: URL, version: String) throws -> Data {
        try MetadataConverter.convert(xml: Data(contentsOf: xml), version: version)
    }
}

/// One input of the differential and vector tests.
struct PhoneCase: Codable, Hashable {
    var number: String
    var defaultRegion: String?
    var viewerRegion: String?
}

/// An answer in the oracle's shape.
struct PhoneAnswer: Codable, Equatable {
    var ok: Bool
    var reason: String?
    var valid: Bool?
    var e164: String?
    var region: String?
    var type: String?
    var national: String?
    var international: String?
    var rfc3966: String?
    var display: String?
    var `extension`: String?
    var possibleReason: String?
    var dialFrom: String?

    init(engine: PhoneEngine, phoneCase: PhoneCase) {
        do {
            let description = try engine.describe(
                number: phoneCase.number, defaultRegion: phoneCase.defaultRegion, viewerRegion: phoneCase.viewerRegion)
            self.init(description)
        } catch {
            self.init(ok: false)
            reason = error.reason
        }
    }

    init(ok: Bool) { self.ok = ok }

    init(_ description: PhoneDescription) {
        ok = true
        valid = description.valid
        e164 = description.e164
        region = description.region
        type = description.type.rawValue
        national = description.national
        international = description.international
        rfc3966 = description.rfc3966
        display = description.display
        `extension` = description.phoneExtension
        possibleReason = description.possibleReason.rawValue
        dialFrom = description.dialFrom
    }

    /// Field-by-field differences, as `field: engine ≠ oracle`.
    func differences(from expected: PhoneAnswer) -> [String] {
        let fields: [(String, String?, String?)] = [
            ("ok", "\(ok)", "\(expected.ok)"), ("reason", reason, expected.reason),
            ("valid", valid.map { "\($0)" }, expected.valid.map { "\($0)" }), ("e164", e164, expected.e164),
            ("region", region, expected.region), ("type", type, expected.type),
            ("national", national, expected.national), ("international", international, expected.international),
            ("rfc3966", rfc3966, expected.rfc3966), ("display", display, expected.display),
            ("extension", `extension`, expected.extension),
        ]
        // Vectors written before `possibleReason` and `dialFrom` existed do not pin them.
        let added: [(String, String?, String?)] =
            expected.ok && expected.possibleReason != nil
            ? [("possibleReason", possibleReason, expected.possibleReason), ("dialFrom", dialFrom, expected.dialFrom)]
            : []
        return (fields + added).filter { $0.1 != $0.2 }.map { "\($0.0): \($0.1 ?? "nil") ≠ \($0.2 ?? "nil")" }
    }
}

/// Upstream's answer on a piece of text for the viability test and the extension split.
struct TextAnswer: Codable, Equatable {
    var viable: Bool
    var `extension`: String?
    var before: String?
}

/// A metadata-style pattern and a text to match it against.
struct PatternCase: Codable {
    var pattern: String
    var text: String
}

/// Python's answer for a `PatternCase`; `groups` is nil when nothing matches at the start.
struct PatternAnswer: Codable, Equatable {
    var whole: Bool
    var end: Int?
    var groups: [[Int]?]?
}

/// A pair for upstream's `isNumberMatch`: `SS` two strings (no default region), `OS` `a` parsed in
/// `defaultRegion` and `b` as text, `OO` both parsed in `defaultRegion`.
struct MatchCase: Codable, Hashable {
    var a: String
    var b: String
    var defaultRegion: String?
    var kind: String
}

/// Upstream's match name, or `NOT_A_NUMBER` with the side and reason where a parse in the region failed.
struct MatchAnswer: Codable, Equatable {
    var match: String
    var side: String?
    var reason: String?
}

/// A number and the viewers to dial it from (`nil`: no viewer region).
struct DialCase: Codable {
    var number: String
    var defaultRegion: String?
    var viewers: [String?]
}

/// The dialling forms, one per viewer; `ok` false when the number does not parse.
struct DialAnswer: Codable, Equatable {
    var ok: Bool
    var dial: [String]?
}

/// A region, a wire type name and the viewer of the example number.
struct ExampleCase: Codable {
    var region: String
    var type: String
    var viewerRegion: String?
}

/// `found` and, when found, the example number as a number's answer.
struct ExampleAnswer: Codable {
    var found: Bool
    var valid: Bool?
    var e164: String?
    var region: String?
    var type: String?
    var national: String?
    var international: String?
    var rfc3966: String?
    var display: String?
    var `extension`: String?
    var possibleReason: String?
    var dialFrom: String?

    var number: PhoneAnswer {
        var answer = PhoneAnswer(ok: true)
        answer.valid = valid
        answer.e164 = e164
        answer.region = region
        answer.type = type
        answer.national = national
        answer.international = international
        answer.rfc3966 = rfc3966
        answer.display = display
        answer.extension = `extension`
        answer.possibleReason = possibleReason
        answer.dialFrom = dialFrom
        return answer
    }
}

/// Runs `oracle.py` (Python `phonenumbers==9.0.35`) on the cases.
enum Oracle {
    static func answers(_ cases: [PhoneCase]) throws -> [PhoneAnswer] {
        try run(cases, arguments: [])
    }

    /// Upstream's viability test and extension split on each text.
    static func textAnswers(_ texts: [String]) throws -> [TextAnswer] {
        try run(texts, arguments: ["--text"])
    }

    /// Upstream's `is_number_match` on each pair.
    static func matchAnswers(_ cases: [MatchCase]) throws -> [MatchAnswer] {
        try run(cases, arguments: ["--match"])
    }

    /// Upstream's `format_out_of_country_calling_number` of each number from each of its viewers.
    static func dialAnswers(_ cases: [DialCase]) throws -> [DialAnswer] {
        try run(cases, arguments: ["--dial"])
    }

    /// Upstream's `example_number_for_type`, described as a number's answer.
    static func exampleAnswers(_ cases: [ExampleCase]) throws -> [ExampleAnswer] {
        try run(cases, arguments: ["--example"])
    }

    /// Python's `re` on each pattern and text: whole match, and the match at the start with its groups.
    static func patternAnswers(_ cases: [PatternCase]) throws -> [PatternAnswer] {
        try run(cases, arguments: ["--pattern"])
    }

    private static func run<Input: Encodable, Output: Decodable>(
        _ inputs: [Input], arguments: [String]
    ) throws -> [Output] {
        try PhoneOracle.run(inputs, arguments: arguments)
    }
}

/// A fixed-seed pseudo-random sequence (a 64-bit LCG, high bits), so generated test cases are the same every run.
struct SeededNumbers {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
