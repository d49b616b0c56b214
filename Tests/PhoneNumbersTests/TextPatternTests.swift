import FmtTesting
import Foundation
import Testing

@testable import PhoneNumbers

enum TextCases {
    /// Deterministic pseudo-random text around upstream's viability and extension patterns: numbers with
    /// separators, letters with the oracle's case-insensitive equivalents, labels in every spelling, separator runs
    /// and extension digits around each length limit.
    static func generated(count: Int) -> [String] {
        var random = SeededNumbers(seed: 0x51_7CC1_B727_220A)
        func next(_ bound: Int) -> Int { random.next(bound) }
        let digits = ["1", "5", "0", "\u{663}", "\u{FF11}", "\u{1D7D7}", "12", "123", "1234567"]
        let punctuation = [
            " ", "-", ".", "(", ")", "/", "~", "*", "x", "X", "\u{A0}", "\u{2010}", "\u{FF0E}", "\u{3000}", "[", "]",
            "\u{FF5E}",
        ]
        let letters = [
            "a", "e", "t", "n", "s", "i", "o", "E", "T", "N", "S", "I", "O", "b", "z", "\u{212A}", "\u{17F}",
            "\u{130}", "\u{131}", "\u{F3}", "\u{D3}", "\u{301}", "\u{E9}", "\u{E4}",
        ]
        let labels = [
            "ext", "EXT", "eXt", "xt", "xtn", "extn", "extension", "EXTENSION", "extensi\u{F3}n", "EXTENSI\u{D3}",
            "extensio\u{301}n", "EXTEN\u{17F}\u{131}ON", "extens\u{130}o\u{301}n", "\u{FF45}\u{FF58}\u{FF54}",
            "\u{FF25}\u{FF38}\u{FF34}\u{FF2E}", "\u{FF58}\u{FF54}", "\u{434}\u{43E}\u{431}", "\u{414}\u{41E}\u{411}",
            "\u{1C81}\u{1C82}\u{431}", "anexo", "ANEXO", "int", "INT", "\u{130}nt", "\u{131}NT",
            "\u{FF49}\u{FF4E}\u{FF54}", "\u{FF29}\u{FF2E}\u{FF34}", "x", "X", "\u{FF58}", "\u{FF38}", "#", "\u{FF03}",
            "~", "\u{FF5E}", ";", ",,", ",", ",,,", ";ext=", ";EXT=", ";ex=", "e", "exten",
        ]
        let separators = [" ", "\u{A0}", "\t", ",", "-", " ,", ", ", " - ", "  ", ",-,", ""]
        let stops = [":", ".", "\u{FF0E}", "", "", ""]
        let junk = ["=", "_", "\n", "%", "\u{E4}", "#", "+", "\u{FF0B}", ";", ":", "!", "\u{2028}"]
        let pools = [digits, punctuation, letters, labels, separators, stops, junk, ["+", "\u{FF0B}"]]
        func pick(_ pool: [String]) -> String { pool[next(pool.count)] }
        func digitRun(_ length: Int) -> String {
            String((0..<length).map { _ in Character(pick(["1", "2", "9", "0", "\u{661}", "\u{FF18}"])) })
        }

        var texts: [String] = []
        for _ in 0..<count {
            var text = ""
            if next(2) == 0 {
                for _ in 0..<(next(14) + 1) { text += pick(pools[next(pools.count)]) }
            } else {
                if next(3) == 0 { text += pick(["+", "\u{FF0B}", "++"]) }
                if next(4) != 0 { text += pick(["123", "1 2 3", "(12) 3", "1-2"]) }
                for _ in 0..<(next(6) + 1) { text += pick(next(3) == 0 ? punctuation : digits) }
                if next(4) == 0 { text += pick(letters) + pick(digits) }
                for _ in 0..<next(3) { text += pick(separators) }
                text += pick(labels) + pick(stops)
                for _ in 0..<next(3) { text += pick(separators) }
                text += digitRun([1, 2, 3, 4, 5, 6, 7, 9, 10, 15, 16, 20, 21][next(13)])
                if next(3) == 0 { text += pick(["#", "#", "\u{FF03}", "##"]) }
                if next(8) == 0 { text += pick(junk + letters) }
            }
            texts.append(text)
        }
        return texts
    }

    /// Long text that nearly matches the patterns: the shapes that made a backtracking engine take milliseconds.
    static let long: [String] = {
        func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }
        return [
            repeated("1 ", 124) + "\u{E9}", repeated("1-", 120) + "ab1\u{E9}", repeated("1 x", 82) + "\u{E9}",
            repeated("1-x-", 61) + "_1", repeated("1", 240) + "#", repeated("1", 240) + "\u{E4}",
            "11" + repeated("  1", 80) + "x\u{E4}", repeated("1.1", 80) + "\u{E4}", repeated("1(", 120) + "x#",
            "+" + repeated("1 ", 120) + ";1\u{E9}", repeated("1 ", 100) + repeated("- ", 20) + "1234567#",
            repeated("1 ", 100) + repeated("- ", 20) + "123456#", "123" + repeated(",", 218) + "1234567890123456",
            "123" + repeated(",", 218) + "123456789", "123" + repeated(" ,", 118) + "1234567890",
            repeated("1 ", 100) + "ext. " + repeated("1", 21), repeated("1 ", 100) + "ext. " + repeated("1", 20),
            repeated("1 ", 60) + repeated(", ", 60) + "x 1234567890", repeated("1 ", 60) + repeated(",,", 60) + "1",
            repeated("12 ", 40) + repeated("\t,", 40) + ";:,-" + repeated("9", 15) + "#",
        ]
    }()
}

@Suite("Viability and extension patterns against upstream (phonenumbers 9.0.35)")
struct TextPatternTests {
    @Test(
        "the viability test and the extension split agree with upstream's regular expressions",
        .enabled(if: PhoneOracle.unavailableReason == nil, "needs phonenumbers==9.0.35 (FMTD_PHONE_ORACLE_PYTHON)"))
    func agreesWithUpstream() throws {
        let fuzzCount = ProcessInfo.processInfo.environment["FMTD_PHONE_FUZZ"].flatMap { Int($0) } ?? 6000
        let texts = TextCases.generated(count: 4 * fuzzCount) + TextCases.long
        let answers: [TextAnswer]
        do {
            answers = try Oracle.textAnswers(texts)
        } catch {
            Issue.record("\(error)")
            return
        }
        let patterns = TextPatterns()
        var mismatches: [String] = []
        var viable = 0
        var extensions = 0
        for (text, expected) in zip(texts, answers) {
            let scalars = Array(text.unicodeScalars)[...]
            let isViable = patterns.isViable(scalars)
            var answer = TextAnswer(viable: isViable)
            if expected.viable {
                viable += 1
                if let (digits, before) = patterns.splitExtension(scalars) {
                    answer.extension = String(String.UnicodeScalarView(digits))
                    answer.before = String(String.UnicodeScalarView(before))
                }
                if expected.extension != nil { extensions += 1 }
            } else {
                answer.extension = expected.extension
                answer.before = expected.before
            }
            if !answer.sameScalars(as: expected) {
                mismatches.append("\(text.debugDescription): \(answer) ≠ upstream \(expected)")
            }
        }
        print(
            "phone text patterns: \(texts.count) texts, \(viable) viable, \(extensions) with an extension, "
                + "\(mismatches.count) mismatches")
        for mismatch in mismatches.prefix(40) { Issue.record("\(mismatch)") }
        #expect(mismatches.isEmpty)
        #expect(viable > texts.count / 6 && extensions > texts.count / 8)
    }

    @Test("letters the oracle folds case-insensitively are letters in numbers and labels")
    func caseInsensitiveEquivalents() {
        let patterns = TextPatterns()
        func viable(_ text: String) -> Bool { patterns.isViable(Array(text.unicodeScalars)[...]) }
        func split(_ text: String) -> String? {
            patterns.splitExtension(Array(text.unicodeScalars)[...]).map { String(String.UnicodeScalarView($0.digits)) }
        }
        for letter in ["\u{130}", "\u{131}", "\u{17F}", "\u{212A}", "X"] {
            #expect(viable("123\(letter)4"), "123\(letter)4")
        }
        #expect(!viable("12\u{E9}3"))
        #expect(viable("12X3"))
        #expect(!viable("12a3"))
        #expect(split("650 253 0000 EXTEN\u{17F}\u{130}ON 5") == "5")
        #expect(split("650 253 0000 \u{131}nt 5") == "5")
        #expect(split("495 123 4567 \u{1C81}\u{1C82}\u{411} 12") == "12")
        #expect(split("650 253 0000 ext 123456789012345678901") == nil)
    }
}

extension TextAnswer {
    init(viable: Bool) {
        self.init(viable: viable, extension: nil, before: nil)
    }

    /// Equality scalar by scalar (`String` equality would treat `o\u{301}` and `ó` alike).
    func sameScalars(as other: TextAnswer) -> Bool {
        func scalars(_ text: String?) -> [Unicode.Scalar]? { text.map { Array($0.unicodeScalars) } }
        return viable == other.viable && scalars(`extension`) == scalars(other.extension)
            && scalars(before) == scalars(other.before)
    }
}
