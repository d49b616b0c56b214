import FmtCore
import FmtTesting
import Testing

@testable import NameServices

/// One loaded snapshot serves every worker thread: shared collators and plural rules are read-only, and
/// each compiled message formats under its own lock, so concurrent requests get the same answers as serial ones.
@Suite struct ConcurrencyTests {
    @Test func concurrentRequestsOnOneSnapshotAnswerAsSerialOnesDo() async throws {
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: Paths.dataDirectory, configDirectory: nil)
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<150 {
                        let count = worker * 1000 + round
                        let expected =
                            "Anna heeft \(count == 1 ? "1 gegeven" : "\(Self.dutchGrouping(count)) gegevens") bijgewerkt"
                        let message = try? plugin.answer(
                            #"{"op":"message","key":"contacts.details_updated","locale":"nl","args":{"count":\#(count),"name":"Anna"}}"#
                        )
                        if message?["text"] != .string(expected) { failures += 1 }
                        let sorted = try? plugin.answer(
                            #"{"op":"sort","locale":"sv","names":["Örjan","Åsa","Zoe"]}"#)
                        if sorted?["sorted"] != ["Zoe", "Åsa", "Örjan"] { failures += 1 }
                        let plural = try? plugin.answer(#"{"op":"plural","locale":"ru","count":21}"#)
                        if plural?["category"] != "one" { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    /// `searchForm` and `nameSearch` from many threads at once: the transliterator clones and collation element
    /// iterators each thread borrows answer as a serial plugin does, and stay few (one per thread at a time).
    @Test func concurrentSearchesAnswerAsSerialOnesAndBorrowTheirTransliterators() async throws {
        let serial = try loadPlugin(NamesPlugin.self, dataDirectory: Paths.dataDirectory, configDirectory: nil)
        let names = #"["Müller","Сергей Иванов","Ελένη Παππά","山田太郎","محمد عبد الله","Anna van Dijk","Örjan"]"#
        let queries = ["mul", "ivan", "o", "van d", "shan", "山", "Серг", "elen pap"]
        var built: [String] = []
        for locale in ["de", "sv", "ru", "cs"] {
            let head = #"{"locale":""# + locale + #"","names":"# + names
            built.append(head + #","op":"searchForm"}"#)
            for query in queries { built.append(head + #","op":"nameSearch","query":""# + query + #""}"#) }
        }
        let lines = built
        let expected = try lines.map { try serial.answer($0) }
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: Paths.dataDirectory, configDirectory: nil)
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<10 {
                        for offset in lines.indices {
                            let index = (offset + worker * 5 + round) % lines.count
                            if (try? plugin.answer(lines[index])) != expected[index] { failures += 1 }
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(plugin.searchTransform.clones <= 16)
    }

    /// Decimal `plural` counts on one plugin from many threads at once, each count of fraction digits met first by
    /// several of them: the shared number formatters answer as a serial plugin does, and one is kept per count.
    @Test func concurrentDecimalCountsAnswerAsSerialOnesAndShareTheirFormatters() async throws {
        let serial = try loadPlugin(NamesPlugin.self, dataDirectory: Paths.dataDirectory, configDirectory: nil)
        let counts = (0...30).map { digits in
            digits == 0 ? "21" : "1." + String(repeating: "0", count: digits - 1) + "5"
        }
        let lines = ["cs", "pl", "fr", "ar"].flatMap { locale in
            counts.map { #"{"op":"plural","locale":""# + locale + #"","count":""# + $0 + #""}"# }
        }
        let expected = try lines.map { try serial.answer($0) }
        let plugin = try loadPlugin(NamesPlugin.self, dataDirectory: Paths.dataDirectory, configDirectory: nil)
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<4 {
                        for offset in lines.indices {
                            // Each worker walks the lines from its own place, so first uses race.
                            let index = (offset + worker * 7 + round) % lines.count
                            if (try? plugin.answer(lines[index])) != expected[index] { failures += 1 }
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        #expect(plugin.decimalFormattersOpened == counts.count)
    }

    /// Dutch groups thousands with "." (CLDR nl).
    static func dutchGrouping(_ value: Int) -> String {
        value >= 1000 ? "\(value / 1000).\(String(value % 1000).leftPadded(to: 3))" : String(value)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
