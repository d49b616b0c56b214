import Foundation
import FuzzSupport
import PhoneNumbers

/// The phone number parser with the committed metadata. The input is `REGION\nnumber` (an empty or unknown
/// region means none). A parsed number formats in every style and is described; a valid number's E.164
/// form parses back to the same number.
enum PhoneTarget {
    static let engine: PhoneEngine = {
        do {
            return PhoneEngine(metadata: try PhoneMetadata(json: Array(Fuzz.dataFile("phone-metadata.json").utf8)))
        } catch {
            Fuzz.fail("data/phone-metadata.json does not load: \(error)")
        }
    }()

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: bytes, as: UTF8.self)
        let (regionText, numberText): (Substring, Substring) =
            if let newline = text.firstIndex(of: "\n") {
                (text[..<newline], text[text.index(after: newline)...])
            } else {
                ("", text[...])
            }
        let region = regionText.isEmpty ? nil : String(regionText)
        guard let number = try? engine.parse(String(numberText), defaultRegion: region) else { return }
        for style in PhoneNumberFormat.allCases {
            _ = engine.format(number, style)
        }
        let description = engine.describe(number, viewerRegion: region)
        guard engine.isValid(number) else { return }
        let e164 = engine.format(number, .e164)
        // Upstream does not round-trip a national number with two or more leading zeros either: `JP 00-0…`
        // is valid as 0037687486782665, and its E.164 form parses back with the national prefix stripped
        // (phonenumbers 9.0.35 gives 7486782665, invalid). The other invariants still hold for it.
        guard !number.nationalNumber.hasPrefix("00") else {
            guard description.valid, description.e164 == e164 else {
                Fuzz.fail("\(text.debugDescription): describe disagrees with format: \(description)")
            }
            return
        }
        guard let again = try? engine.parse(e164, defaultRegion: nil),
            again.countryCode == number.countryCode, again.nationalNumber == number.nationalNumber
        else {
            Fuzz.fail("\(text.debugDescription) parsed as valid \(number); its E.164 form \(e164) does not parse back")
        }
        guard description.valid, description.e164 == e164 else {
            Fuzz.fail("\(text.debugDescription): describe disagrees with format: \(description)")
        }
    }
}

_ = PhoneTarget.engine
Fuzz.run { data, size in Fuzz.timed(data, size, PhoneTarget.run) }
