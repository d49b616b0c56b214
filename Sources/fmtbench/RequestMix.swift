import FmtCore
import Foundation

/// Request lines for the load, built from the checked vector files so every request is well-formed and
/// expected to succeed: the benchmark measures real work, and any `"ok":false` is an error.
struct RequestMix {
    /// Request lines per op, each without its newline, in vector-file order.
    let linesByOp: [(op: String, lines: [[UInt8]])]

    /// Eight names whose collation differs from code-point order in every locale below (case, accents,
    /// `Å`/`Ö`, lower-case particles).
    static let sortNames = ["de Vries", "Zoë", "Émile", "Åsa", "van Dijk", "Bakker", "Öztürk", "Jansen"]
    static let sortLocales = ["nl", "de", "en-US", "sv-SE"]
    /// `plural` with decimal-string counts, the form whose visible fraction digits count: ICU number formatting
    /// reads each before the rules pick its category. Languages with a rule on `v` (cs, pl) and without (en, fr).
    static let pluralLocales = ["en", "cs", "pl", "fr"]
    static let pluralCounts = ["1.5", "2.50", "3", "0.125", "1000000.0"]

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Loads the requests of `ops` from `directory` (`data/vectors`).
    init(ops: [String], vectorsDirectory directory: String) throws {
        var linesByOp: [(String, [[UInt8]])] = []
        for op in ops {
            let requests: [JSONObject]
            switch op {
            case "phone": requests = try Self.phoneRequests(directory + "/phone-format.json")
            case "phoneMatch": requests = try Self.phoneMatchRequests(directory + "/phone-format.json")
            case "address": requests = try Self.successfulRequests(directory + "/address-format.json", addingOp: nil)
            case "date": requests = try Self.successfulRequests(directory + "/date-format.json", addingOp: "date")
            case "sort":
                requests = Self.sortLocales.map {
                    ["op": "sort", "locale": .string($0), "names": JSONValue(Self.sortNames)]
                }
            case "ping": requests = [["op": "ping"]]
            case "plural":
                requests = Self.pluralLocales.flatMap { locale in
                    Self.pluralCounts.map { ["op": "plural", "locale": .string(locale), "count": .string($0)] }
                }
            default: throw LoadError(description: "no requests for op \(op)")
            }
            guard !requests.isEmpty else {
                throw LoadError(description: "no successful \(op) requests in \(directory)")
            }
            linesByOp.append((op, requests.map { JSONWriter.encode(.object($0)) }))
        }
        self.linesByOp = linesByOp
    }

    /// The cycle the load sends: one request of each op in turn, so every op has the same weight whatever
    /// its number of vectors; shorter lists wrap around.
    var cycle: [(op: String, line: [UInt8])] {
        let longest = linesByOp.map(\.lines.count).max() ?? 0
        var cycle: [(op: String, line: [UInt8])] = []
        for index in 0..<longest {
            for entry in linesByOp { cycle.append((entry.op, entry.lines[index % entry.lines.count])) }
        }
        return cycle
    }

    var averageLineBytes: Double {
        let lines = cycle
        return lines.isEmpty ? 0 : Double(lines.reduce(0) { $0 + $1.line.count + 1 }) / Double(lines.count)
    }

    private static func cases(_ path: String) throws -> [JSONObject] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read \(path) (use --vectors DIR)")
        }
        guard case .object(let document) = try JSONReader.parse(Array(data)),
            case .array(let cases)? = document["cases"]
        else { throw LoadError(description: "\(path) has no \"cases\" array") }
        return cases.compactMap(\.objectValue)
    }

    /// `{"op":"phone",...input}` for every phone vector (all of them parse).
    private static func phoneRequests(_ path: String) throws -> [JSONObject] {
        try cases(path).compactMap { testCase in
            guard let input = testCase["input"]?.objectValue else { return nil }
            var request: JSONObject = ["op": "phone"]
            for member in input { request.append(member.key, member.value) }
            return request
        }
    }

    /// Entries of one `phoneMatch` batch: a service checking a new contact against its whole list.
    static let phoneMatchEntries = 10_000

    /// Two `phoneMatch` requests of a Dutch mobile against 10,000 entries (the phone vectors' numbers in turn),
    /// with `defaultRegion` NL and without one. A line of about 180 KB: the daemon needs a larger `--max-line`.
    private static func phoneMatchRequests(_ path: String) throws -> [JSONObject] {
        let numbers = try cases(path).compactMap { $0["input"]?.objectValue?["number"]?.stringValue }
        guard !numbers.isEmpty else { return [] }
        let entries = JSONValue((0..<phoneMatchEntries).map { numbers[$0 % numbers.count] })
        return [
            ["op": "phoneMatch", "a": "+31 6 12345678", "b": entries, "defaultRegion": "NL"],
            ["op": "phoneMatch", "a": "+31 6 12345678", "b": entries],
        ]
    }

    /// The requests of the cases that expect a response (not an error).
    private static func successfulRequests(_ path: String, addingOp op: String?) throws -> [JSONObject] {
        try cases(path).compactMap { testCase in
            guard testCase["response"] != nil, let request = testCase["request"]?.objectValue else { return nil }
            guard let op else { return request }
            var withOp: JSONObject = ["op": .string(op)]
            for member in request where member.key != "op" { withOp.append(member.key, member.value) }
            return withOp
        }
    }
}
