import AddressFormatting
import FmtCore
import FmtTesting
import Testing

/// `address.language` is remembered by the bytes sent: a text answers the same whether it is met for the first
/// time or again, blanks around a tag are trimmed, and a text that is no tag fails every time.
@Suite struct LanguageMemberTests {
    let plugin: AddressPlugin

    init() throws {
        plugin = try loadPlugin(AddressPlugin.self)
    }

    func answer(_ language: String?) throws -> JSONObject {
        let member = language.map { #","language":\#(JSONWriter.string(.string($0)))"# } ?? ""
        return try plugin.answer(
            #"{"op":"address","address":{"country":"JP","postalCode":"1000005","city":"千代田区","street":"丸の内""#
                + #"\#(member)},"locale":"en"}"#)
    }

    @Test func aTextAnswersAsItsTrimmedTagFirstAndAgain() throws {
        let japanese = try answer("ja")
        let latin = try answer("ja-Latn")
        #expect(japanese != latin)
        for _ in 0..<2 {
            #expect(try answer("ja") == japanese)
            #expect(try answer("  ja\t") == japanese)
            #expect(try answer("ja" + String(repeating: " ", count: 140)) == japanese)
            #expect(try answer("ja-Latn") == latin)
        }
    }

    @Test func blankOrNullIsAbsent() throws {
        let absent = try answer(nil)
        for _ in 0..<2 {
            #expect(try answer("") == absent)
            #expect(try answer("   ") == absent)
        }
        let null = try plugin.answer(
            #"{"op":"address","address":{"country":"JP","postalCode":"1000005","city":"千代田区","street":"丸の内","#
                + #""language":null},"locale":"en"}"#)
        #expect(null == absent)
    }

    @Test func aTextThatIsNoTagFailsEveryTime() {
        for text in ["no such tag", "j", String(repeating: "a", count: 70), "東京"] {
            for _ in 0..<2 {
                let line =
                    #"{"op":"address","address":{"country":"JP","city":"千代田区","language":"#
                    + JSONWriter.string(.string(text)) + #"},"locale":"en"}"#
                #expect(plugin.failure(line)?.field == "address.language", "\(text)")
            }
        }
        let number = #"{"op":"address","address":{"country":"JP","city":"千代田区","language":7},"locale":"en"}"#
        #expect(plugin.failure(number)?.field == "address.language")
    }
}
