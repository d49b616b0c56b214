import FmtCore
import Foundation
import Testing

/// `JSONValueDecoder` decodes what Foundation's `JSONDecoder` decodes, from the daemon's own parsed tree.
@Suite struct JSONValueDecoderBehaviour {
    struct Record: Codable, Equatable {
        struct Inner: Codable, Equatable {
            var pattern: String?
            var lengths: [Int]
        }
        var id: String
        var code: Int
        var small: UInt8
        var ratio: Double
        var main: Bool?
        var absent: String?
        var inner: Inner
        var types: [String: Inner]
        var list: [Inner]?
        var nested: [[Int]]
    }

    static let text = """
        {"id":"NL","code":31,"small":255,"ratio":0.5,"main":true,"absent":null,
         "inner":{"pattern":"[1-9]\\\\d{8}","lengths":[9]},
         "types":{"mobile":{"lengths":[9,10]},"fixedLine":{"pattern":"x","lengths":[]}},
         "list":[{"lengths":[1]},{"pattern":"é","lengths":[2,3]}],
         "nested":[[1,2],[],[3]]}
        """

    @Test func decodesWhatFoundationDecodes() throws {
        let foundation = try JSONDecoder().decode(Record.self, from: Data(Self.text.utf8))
        let ours = try JSONValueDecoder().decode(Record.self, from: try JSONReader.parse(Self.text))
        #expect(ours == foundation)
    }

    @Test func aWrongTypeNamesItsPath() throws {
        let text = Self.text.replacingOccurrences(of: "\"lengths\":[2,3]", with: "\"lengths\":[2,\"3\"]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Record.self, from: Data(text.utf8)) }
        do {
            _ = try JSONValueDecoder().decode(Record.self, from: try JSONReader.parse(text))
            Issue.record("decoded a string as an Int")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["list", "1", "lengths", "1"])
        }
    }

    @Test func aMissingKeyAndAnOutOfRangeNumberAreRefused() throws {
        let missing = Self.text.replacingOccurrences(of: "\"code\":31,", with: "")
        do {
            _ = try JSONValueDecoder().decode(Record.self, from: try JSONReader.parse(missing))
            Issue.record("decoded without code")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "code")
        }
        let tooLarge = Self.text.replacingOccurrences(of: "\"small\":255", with: "\"small\":256")
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Record.self, from: try JSONReader.parse(tooLarge))
        }
        let fraction = Self.text.replacingOccurrences(of: "\"code\":31", with: "\"code\":31.5")
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Record.self, from: try JSONReader.parse(fraction))
        }
    }
}
