import Testing

@testable import FmtCore

/// The one region reader: each field says which codes it accepts, and the flat and tree readings of a request
/// agree on every code and every refusal.
@Suite struct RegionTests {
    /// Every two-letter code in both cases, plus malformed texts.
    static let texts: [String] = {
        var texts = ["", "N", "NLD", "1", "N1", "001", "419", "ÑL", "N\u{0}", "nl ", " nl"]
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                texts.append(String(decoding: [first, second], as: UTF8.self))
                texts.append(String(decoding: [first | 0x20, second], as: UTF8.self))
            }
        }
        return texts
    }()

    @Test func aTerritoryFieldTakesOnlyTerritoriesICUKnowsThroughTheirAliases() {
        #expect(Region(alpha2: "nl")?.code == "NL")
        #expect(Region(alpha2: "UK")?.code == "GB")
        for refused in ["ZZ", "zz", "QQ", "CS", "EU", "N", "NLD", "001", "ÑL"] {
            #expect(Region(alpha2: refused) == nil, "\(refused)")
        }
    }

    @Test func anUnknownViewerFieldTakesTerritoriesAndZZOnly() {
        #expect(Region(alpha2: "zz", accepting: .territoryOrUnknown) == Region.unknown)
        #expect(Region(alpha2: "ZZ", accepting: .territoryOrUnknown)?.isUnknown == true)
        #expect(Region(alpha2: "uk", accepting: .territoryOrUnknown)?.code == "GB")
        for refused in ["QQ", "CS", "N", "NLD", "001", "ÑL", "Z"] {
            #expect(Region(alpha2: refused, accepting: .territoryOrUnknown) == nil, "\(refused)")
        }
    }

    @Test func aPhoneRegionTakesAnyTwoLettersAsLibphonenumberDoes() {
        #expect(Region(alpha2: "cs", accepting: .anyLetters)?.code == "CS")
        #expect(Region(alpha2: "qQ", accepting: .anyLetters)?.code == "QQ")
        #expect(Region(alpha2: "zz", accepting: .anyLetters)?.isUnknown == true)
        #expect(Region(alpha2: "uk", accepting: .anyLetters)?.code == "GB")
        for refused in ["", "N", "NLD", "1", "N1", "001", "ÑL", "N\u{0}"] {
            #expect(Region(alpha2: refused, accepting: .anyLetters) == nil, "\(refused)")
        }
    }

    /// Each mode accepts a superset of the narrower one, and names an accepted territory alike.
    @Test func widerModesOnlyAddCodes() {
        for text in Self.texts {
            let territory = Region(alpha2: text)
            let orUnknown = Region(alpha2: text, accepting: .territoryOrUnknown)
            let letters = Region(alpha2: text, accepting: .anyLetters)
            if let territory {
                #expect(orUnknown == territory && letters == territory, "\(text)")
            }
            if let orUnknown { #expect(letters == orUnknown, "\(text)") }
            #expect((orUnknown != nil) == (territory != nil || text.uppercased() == "ZZ"), "\(text)")
            #expect((letters != nil) == (text.utf8.count == 2 && text.allSatisfy { $0.isASCII && $0.isLetter }))
        }
    }

    @Test(arguments: [Region.Accepted.territory, .territoryOrUnknown, .anyLetters])
    func flatAndTreeReadingsAgreeOnEveryCode(accepted: Region.Accepted) throws {
        for text in Self.texts {
            let line = JSONWriter.string(.object(["op": "phone", "viewerRegion": .string(text)]))
            let bytes = Array(line.utf8)
            let flat = try bytes.withUnsafeBufferPointer { try Request(line: $0) }
            let tree = try Request(JSONReader.parse(bytes))
            let read = [flat, tree].map { request in
                Result { try request.fields.region("viewerRegion", accepting: accepted) }
            }
            switch (read[0], read[1]) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(text)")
                #expect(a == Region(alpha2: text, accepting: accepted), "\(text)")
            case (.failure(let a), .failure(let b)): #expect("\(a)" == "\(b)", "\(text)")
            default: Issue.record("\(text): flat \(read[0]), tree \(read[1])")
            }
        }
    }
}
