import FmtCore
import FmtTesting
import Testing

@testable import NameServices

/// `searchForm` and `nameSearch`: finding a contact by what people type, in the viewer's collation and across
/// scripts through the search form.
@Suite struct NameSearchTests {
    /// The names plugin on the shipped data, loaded as fmtd loads it.
    let shipped: NamesPlugin

    init() throws {
        shipped = try loadPlugin(NamesPlugin.self)
    }

    func forms(_ names: [String], locale: String = "de") throws -> [String] {
        let request: JSONValue = ["op": "searchForm", "locale": .string(locale), "names": JSONValue(names)]
        return try shipped.answer(JSONWriter.string(request)).strings("forms")
    }

    /// The matches as `index: [[start, length]]`.
    func search(_ query: String, _ names: [String], locale: String = "de") throws -> [Int: [[Int]]] {
        let request: JSONValue = [
            "op": "nameSearch", "locale": .string(locale), "query": .string(query), "names": JSONValue(names),
        ]
        var found: [Int: [[Int]]] = [:]
        for match in try shipped.answer(JSONWriter.string(request))["matches"]?.arrayValue ?? [] {
            let object = match.objectValue!
            let index = object["index"]!.numberValue!.intValue!
            found[index] = object["ranges"]!.arrayValue!.map { $0.arrayValue!.map { $0.numberValue!.intValue! } }
        }
        return found
    }

    @Test func searchFormsAreLatinLowerCaseWithoutAccentsInEveryScript() throws {
        #expect(
            try forms(["Müller", "Иванов", "Ελένη Παππά", "山田太郎", "محمد عبد الله", "Straße", "O’Brien-Smith  Jr."])
                == [
                    "muller", "ivanov", "elene pappa", "shan tian tai lang", "mhmd bd allh", "strasse",
                    "o brien smith jr",
                ])
        #expect(try forms(["", "  ", "🎉 Zoë"]) == ["", "", "zoe"])
    }

    @Test func searchFormsDependOnNoLocale() throws {
        let names = ["Örjan", "Иванов", "Ñuñez"]
        #expect(try forms(names, locale: "sv") == forms(names, locale: "de"))
    }

    @Test func infoReportsTheTransformAndICUVersion() {
        #expect(shipped.dataInfo["searchTransform"]?.stringValue == "Any-Latin; Latin-ASCII; [:Lm:] Remove; Lower")
        #expect(shipped.dataInfo["version"]?.stringValue == ICUInfo.version)
    }

    @Test func mulFindsMüllerAndHighlightsTheUmlaut() throws {
        #expect(try search("mul", ["Müller", "Mueller", "Schmul"]) == [0: [[0, 3]]])
        // A decomposed ü: the highlight keeps the combining mark with its letter.
        #expect(try search("mu", ["Mu\u{308}ller"]) == [0: [[0, 3]]])
    }

    @Test func latinIvanovFindsCyrillicИвановAndHighlightsTheWholeWord() throws {
        #expect(try search("ivanov", ["Иванов", "Ivanova", "Петров"]) == [0: [[0, 6]], 1: [[0, 6]]])
        #expect(try search("ivan", ["Сергей Иванов"]) == [0: [[7, 6]]])
        #expect(try search("elen", ["Ελένη Παππά"]) == [0: [[0, 5]]])
        #expect(try search("shan", ["山田太郎"]) == [0: [[0, 4]]])
        #expect(try search("mhm", ["محمد عبد الله"]) == [0: [[0, 4]]])
        // A word in the query's own script compares by collation, not by form.
        #expect(try search("Иван", ["Иванов"]) == [0: [[0, 4]]])
    }

    @Test func vanFindsWordsThatBeginWithItNotSavannah() throws {
        #expect(try search("van", ["Anna van Dijk", "Van Halen", "Savannah"]) == [0: [[5, 3]], 1: [[0, 3]]])
    }

    @Test func swedishOFindsNoÖWhileGermanDoes() throws {
        #expect(try search("o", ["Örjan", "Olle"], locale: "sv") == [1: [[0, 1]]])
        #expect(try search("o", ["Örjan", "Olle"], locale: "de") == [0: [[0, 1]], 1: [[0, 1]]])
        // Across scripts too the Latin query still goes through its own collation for Latin names.
        #expect(try search("or", ["Örjan", "Орхан"], locale: "sv") == [1: [[0, 5]]])
    }

    @Test func ßMatchesSsBothWaysAndAsYouTypeIt() throws {
        #expect(try search("strass", ["Straße"]) == [0: [[0, 5]]])
        #expect(try search("stras", ["Straße"]) == [0: [[0, 5]]])
        #expect(try search("straß", ["Strasse"]) == [0: [[0, 6]]])
        #expect(try search("STRASSE", ["Straße"]) == [0: [[0, 6]]])
    }

    @Test func anEmptyQueryMatchesNothing() throws {
        #expect(try search("", ["Anna", ""]) == [:])
        #expect(try search("  - ", ["Anna"]) == [:])
    }

    @Test func rangesCountUTF16CodeUnitsPastAstralCharacters() throws {
        // 👍 and 𝒜 are two UTF-16 code units each (four UTF-8 bytes, one scalar).
        #expect(try search("mul", ["👍 Müller"]) == [0: [[3, 3]]])
        #expect(try search("jo", ["𝒜lice 🎉🎉 Jones"]) == [0: [[12, 2]]])
    }

    @Test func everyQueryWordNeedsADifferentWord() throws {
        #expect(try search("an an", ["Anna Andersson", "Anna Berg"]) == [0: [[0, 2], [5, 2]]])
        // `a` could take Anna, but then `an` would have none: it takes Ab instead.
        #expect(try search("a an", ["Anna Ab"]) == [0: [[0, 2], [5, 1]]])
        #expect(try search("dijk anna", ["Anna van Dijk"]) == [0: [[0, 4], [9, 4]]])
        #expect(try search("anna anna", ["Anna"]) == [:])
    }

    @Test func boundsAreInvalidFieldNamingTheField() throws {
        let many =
            #"{"op":"nameSearch","query":"a","names":"#
            + JSONWriter.string(JSONValue(Array(repeating: "a", count: 10_001))) + "}"
        #expect(shipped.failure(many)?.code == "invalid_field")
        #expect(shipped.failure(many)?.field == "names")
        let long = String(repeating: "a", count: 1_025)
        #expect(shipped.failure(#"{"op":"searchForm","names":[""# + long + #""]}"#)?.field == "names")
        #expect(shipped.failure(#"{"op":"nameSearch","query":"a","names":[""# + long + #""]}"#)?.field == "names")
        let words = Array(repeating: "a", count: 33).joined(separator: " ")
        #expect(shipped.failure(#"{"op":"nameSearch","query":"a","names":[""# + words + #""]}"#)?.field == "names")
        let query = Array(repeating: "a", count: 9).joined(separator: " ")
        #expect(shipped.failure(#"{"op":"nameSearch","query":""# + query + #"","names":["a"]}"#)?.field == "query")
        let longQuery = String(repeating: "a", count: 257)
        #expect(shipped.failure(#"{"op":"nameSearch","query":""# + longQuery + #"","names":["a"]}"#)?.field == "query")
        #expect(shipped.failure(#"{"op":"nameSearch","names":["a"]}"#)?.field == "query")
        #expect(shipped.failure(#"{"op":"nameSearch","query":"a"}"#)?.field == "names")
        #expect(shipped.failure(#"{"op":"searchForm"}"#)?.field == "names")
        // At the bounds: answered.
        let most = Array(repeating: "a", count: 32).joined(separator: " ")
        #expect(shipped.failure(#"{"op":"nameSearch","query":"a a a a a a a a","names":[""# + most + #""]}"#) == nil)
    }

    @Test func transliterationIsBoundedPerRequestWithHanCountingSixteen() throws {
        // 2,000 Cyrillic names of 6 code units: 12,000 units, within the budget of 16,384.
        #expect(try forms(Array(repeating: "Иванов", count: 2_000)).count == 2_000)
        // 1,000 Han characters in words of four: 1,000 × 16 + 250 × 48 = 28,000 units.
        let han = #"{"op":"searchForm","names":"# + JSONWriter.string(JSONValue(Array(repeating: "山田太郎", count: 250)))
        #expect(shipped.failure(han + "}")?.field == "names")
        // ASCII costs nothing: 3,000 names.
        #expect(try forms(Array(repeating: "Anna van Dijk", count: 3_000)).count == 3_000)
        // A Latin query over Cyrillic names spends the budget only on the words it compares across scripts.
        let request: JSONValue = [
            "op": "nameSearch", "query": "iv", "names": JSONValue(Array(repeating: "Иванов Петров", count: 1_300)),
        ]
        #expect(try shipped.answer(JSONWriter.string(request))["matches"]?.arrayValue?.count == 1_300)
        let tooMany: JSONValue = [
            "op": "nameSearch", "query": "iv", "names": JSONValue(Array(repeating: "Иванов Петров", count: 1_400)),
        ]
        #expect(shipped.failure(JSONWriter.string(tooMany))?.field == "names")
    }

    @Test func transliteratorsAreClonedPerThreadNotPerRequest() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 { _ = try? self.forms(["Иванов"]) }
                }
            }
        }
        #expect(shipped.searchTransform.clones <= 16)
    }
}
