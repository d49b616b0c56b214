import FmtCore
import FmtDispatch
import Foundation
import Glibc
import NameServices

/// The most expensive lines a client can send within `--max-line`, each answered by the same `Dispatcher` a
/// loop runs: text at the Stream-Safe limit (30 combining marks of alternating class per starter) in every
/// field that is compared, hashed, normalised or collated, the deepest nesting, the most names. Reports the
/// thread CPU time per line (median and worst of `--runs`, at least 5), the figure that bounds how long one
/// line can hold a loop.
struct WorstLines {
    let options: Options
    let dispatcher: Dispatcher
    let say: (String) -> Void

    /// A starter followed by the most marks Stream-Safe text allows, alternating combining classes 230 and 220
    /// so canonical reordering has the most work.
    static let segment = "a" + String(repeating: "\u{301}\u{316}", count: JSONReader.maxNonStarters / 2)

    /// `prefix` + text + `suffix`, the text repeated to fill the line up to `limit` bytes.
    static func filled(_ prefix: String, _ suffix: String, unit: String = segment, limit: Int) -> [UInt8] {
        let room = limit - prefix.utf8.count - suffix.utf8.count - 1
        let count = max(0, room / unit.utf8.count)
        return Array((prefix + String(repeating: unit, count: count) + suffix).utf8)
    }

    /// A JSON array of short marked names filling the line (up to `NamesPlugin.maximumNames`).
    static func names(limit: Int, maximum: Int) -> String {
        let name = "\"" + segment + "\""
        let count = min(maximum, (limit - 64) / (name.utf8.count + 1))
        return "[" + Array(repeating: name, count: max(1, count)).joined(separator: ",") + "]"
    }

    /// `prefix` + a JSON array of names filling the line + `suffix`: each name `words` words (the most a name may
    /// have in `nameSearch`), `word` repeated within `NamesPlugin.maximumNameBytes`, as many names as fit (at most
    /// `NamesPlugin.maximumNames`).
    static func searchNames(
        _ prefix: String, _ suffix: String, word: String, words: Int? = nil, limit: Int
    ) -> [UInt8] {
        let name: String
        if let words {
            let each = String(
                repeating: word, count: max(1, (NamesPlugin.maximumNameBytes / words - 1) / word.utf8.count))
            name = Array(repeating: each, count: words).joined(separator: " ")
        } else {
            name = String(repeating: word, count: NamesPlugin.maximumNameBytes / word.utf8.count)
        }
        let quoted = "\"" + name + "\""
        let room = limit - prefix.utf8.count - suffix.utf8.count - 8
        let count = min(NamesPlugin.maximumNames, max(1, room / (quoted.utf8.count + 1)))
        return Array((prefix + "[" + Array(repeating: quoted, count: count).joined(separator: ",") + "]" + suffix).utf8)
    }

    /// An `Accept-Language` value of the most entries allowed (32), each a distinct long tag of an unsupported
    /// language, so none wins early and the value is past the resolver's cached length: resolved afresh each time.
    static let acceptLanguage = (0..<32).map {
        "x\(String(UnicodeScalar(UInt8(97 + $0 % 26))))-Latn-\(100 + $0)-u-co-phonebk;q=0.\($0 % 9 + 1)"
    }
    .joined(separator: ",")

    /// A JSON array of locale tags of the most entries allowed (32), likewise.
    static let localeArray =
        "["
        + (0..<32).map { "\"x\(String(UnicodeScalar(UInt8(97 + $0 % 26))))-Latn-\(100 + $0)-u-co-phonebk\"" }
        .joined(separator: ",") + "]"

    static func lines(limit: Int) -> [(String, [UInt8])] {
        let text = { (prefix: String, suffix: String) in Self.filled(prefix, suffix, limit: limit) }
        let half = limit / 2 - 64
        let twoNames = Self.filled(#"{"op":"sort","locale":"de","names":[""#, "\",", limit: half + 40)
        let second = Self.filled("\"", #""]}"#, limit: half)
        let depth = JSONReader.defaultMaxDepth
        return [
            ("member name", text(#"{"op":"ping",""#, #"":1}"#)),
            ("op", text(#"{"op":""#, #""}"#)),
            ("locale", text(#"{"op":"date","date":"--11-29","locale":""#, #""}"#)),
            ("language tag", text(#"{"op":"language","tag":""#, #""}"#)),
            ("Accept-Language, 32", Array((#"{"op":"language","tag":""# + Self.acceptLanguage + #""}"#).utf8)),
            ("locale list, 32", Array((#"{"op":"date","date":"--11-29","locale":"# + Self.localeArray + "}").utf8)),
            ("message key", text(#"{"op":"message","key":""#, #""}"#)),
            (
                "message argument",
                text(#"{"op":"message","key":"contacts.details_updated","args":{"name":""#, #"","count":2}}"#)
            ),
            ("US region", text(#"{"op":"address","address":{"country":"US","city":"X","region":""#, #""}}"#)),
            (
                "address city, ZWJ emoji chain",
                Self.filled(
                    #"{"op":"address","address":{"country":"NL","city":""# + "\u{1F468}", #""}}"#,
                    unit: "\u{200D}\u{1F468}", limit: limit)
            ),
            (
                "address city, virama chain",
                Self.filled(
                    #"{"op":"address","address":{"country":"IN","city":""# + "\u{915}", #""}}"#, unit: "\u{94D}\u{915}",
                    limit: limit)
            ),
            (
                "address city, no-break spaces",
                Self.filled(
                    #"{"op":"address","address":{"country":"NL","city":""#, #""}}"#, unit: "\u{A0}", limit: limit)
            ),
            (
                "address city, Hangul jamo",
                Self.filled(
                    #"{"op":"address","address":{"country":"KR","city":""#, #""}}"#, unit: "\u{1100}", limit: limit)
            ),
            (
                "address city, U+0600 run",
                Self.filled(
                    #"{"op":"address","address":{"country":"EG","city":""#, #"a"}}"#, unit: "\u{600}", limit: limit)
            ),
            ("address street", text(#"{"op":"address","address":{"country":"NL","street":""#, #""}}"#)),
            ("phone number", text(#"{"op":"phone","number":"+31"#, #"","viewerRegion":"NL"}"#)),
            ("sort, two long names", twoNames + second),
            (
                "sort, most names",
                Array((#"{"op":"sort","locale":"sv","names":"# + Self.names(limit: limit, maximum: 10_000) + "}").utf8)
            ),
            (
                "sortKey, most names",
                Array(
                    (#"{"op":"sortKey","locale":"de","names":"# + Self.names(limit: limit, maximum: 10_000) + "}").utf8)
            ),
            (
                "searchForm, Han names",
                Self.searchNames(#"{"op":"searchForm","locale":"de","names":"#, "}", word: "山田太郎", limit: limit)
            ),
            (
                "searchForm, mixed scripts",
                Self.searchNames(#"{"op":"searchForm","locale":"de","names":"#, "}", word: "Иάم山ü", limit: limit)
            ),
            (
                "nameSearch, across scripts",
                Self.searchNames(
                    #"{"op":"nameSearch","locale":"de","query":"a b c d e f g h","names":"#, "}", word: "Иванов",
                    words: NamesPlugin.maximumNameWords, limit: limit)
            ),
            (
                "nameSearch, every word",
                Self.searchNames(
                    #"{"op":"nameSearch","locale":"de","query":"a a a a a a a a","names":"#, "}", word: "a",
                    words: NamesPlugin.maximumNameWords, limit: limit)
            ),
            (
                "nameSearch, marked words",
                Self.searchNames(
                    #"{"op":"nameSearch","locale":"de","query":"a a a a a a a a","names":"#, "}", word: segment,
                    words: NamesPlugin.maximumNameBytes / (segment.utf8.count + 1), limit: limit)
            ),
            ("plural count text", text(#"{"op":"plural","count":""#, #""}"#)),
            (
                "31 marks (refused)",
                Array((#"{"op":"ping","a"# + String(repeating: "\u{301}", count: 31) + #"":1}"#).utf8)
            ),
            (
                "nesting",
                Array(
                    (#"{"op":"ping","x":"# + String(repeating: "[", count: depth - 1)
                        + String(repeating: "]", count: depth - 1) + "}").utf8)
            ),
        ]
    }

    func run(limit: Int) -> JSONObject {
        let runs = max(5, options.runs)
        say("thread CPU per line within \(limit) bytes (\(runs) runs each; median and worst)")
        say("  line                      bytes     median µs     worst µs   answer")
        var report = JSONObject()
        var out: [UInt8] = []
        var worstOverall = 0.0
        for (name, line) in Self.lines(limit: limit) {
            var samples: [Double] = []
            for _ in 0..<runs {
                out.removeAll(keepingCapacity: true)
                let started = Self.threadCPU()
                line.withUnsafeBufferPointer { dispatcher.respond(to: $0, into: &out) }
                samples.append(Double(Self.threadCPU() - started) / 1000)
            }
            let answer = Self.summary(out)
            let worst = samples.max() ?? 0
            worstOverall = max(worstOverall, worst)
            say(
                "  " + pad(name, 24) + String(format: "%7d  %12.1f %12.1f   ", line.count, median(samples), worst)
                    + answer)
            report.append(
                name,
                [
                    "bytes": JSONValue(line.count), "medianMicroseconds": number(median(samples), 1),
                    "worstMicroseconds": number(worst, 1), "answer": .string(answer),
                ])
        }
        say(String(format: "worst line: %.1f µs", worstOverall))
        report.append("worstMicroseconds", number(worstOverall, 1))
        return report
    }

    /// `ok`, or the error code, of a response line.
    static func summary(_ response: [UInt8]) -> String {
        guard case .object(let object)? = try? JSONReader.parse(Array(response.dropLast())) else { return "?" }
        if object["ok"] == .bool(true) { return "ok" }
        return object["error"]?.objectValue?["code"]?.stringValue ?? "?"
    }

    static func threadCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
