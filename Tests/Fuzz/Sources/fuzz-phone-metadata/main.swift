import Foundation
import FuzzSupport
import PhoneNumbers

/// The phone metadata loader (`data/phone-metadata.json` format, including its number patterns). Whatever
/// loads must then parse, format and describe each region's example numbers without trapping.
enum PhoneMetadataTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let metadata = try? PhoneMetadata(json: Array(bytes)) else { return }
        let engine = PhoneEngine(metadata: metadata)
        for region in metadata.regions.prefix(8) {
            let code = metadata.countryCode(forRegion: region)
            for (_, example) in metadata.examples(region: region).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                for (text, defaultRegion) in [(example, region), ("+\(code ?? 0) \(example)", nil)] {
                    guard let number = try? engine.parse(text, defaultRegion: defaultRegion) else { continue }
                    for style in PhoneNumberFormat.allCases { _ = engine.format(number, style) }
                    _ = engine.describe(number, viewerRegion: region)
                }
            }
        }
        for code in metadata.nonGeographicCountryCodes.prefix(4) {
            for (_, example) in metadata.examples(region: "001", countryCode: code) {
                _ = try? engine.describe(number: "+\(code)\(example)", defaultRegion: nil, viewerRegion: nil)
            }
        }
    }
}

Fuzz.run { data, size in Fuzz.timed(data, size, PhoneMetadataTarget.run) }
