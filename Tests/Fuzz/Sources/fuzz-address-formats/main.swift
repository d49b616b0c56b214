import AddressFormatting
import FmtCore
import FuzzSupport

/// The address format loader: the input is `address-formats.json` (the label tables are the committed
/// ones). A catalogue that loads must describe every country it has and format its example address for a
/// viewer at home and abroad, in every language, with wire errors only.
enum AddressFormatsTarget {

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var files = LabelTables.files
        files["address-formats.json"] = String(decoding: bytes, as: UTF8.self)
        let store = DataStore(source: .embedded(files), localDirectory: nil)
        guard let plugin = try? AddressPlugin(loading: store, environment: LabelTables.environment) else { return }
        let countries = ["default"] + (plugin.dataInfo["countries"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        for (index, country) in countries.prefix(6).enumerated() {
            let locale = ["en-GB", "nl-BE", "de-AT"][index % 3]
            let code = country == "default" ? "PT" : country
            expectWireErrorsOnly {
                let described = try plugin.handle(
                    Request(op: "addressFormat", fields: ["country": .string(code), "locale": .string(locale)]))
                let example = described["example"]?.objectValue?["address"]?.objectValue ?? ["country": .string(code)]
                for viewer in [code, "JP"] {
                    let fields: JSONObject = [
                        "address": .object(example), "locale": .string(locale), "viewerRegion": .string(viewer),
                    ]
                    _ = try plugin.handle(Request(op: "address", fields: fields))
                }
            }
        }
    }

    static func expectWireErrorsOnly(_ body: () throws -> Void) {
        do {
            try body()
        } catch is any WireError {
        } catch {
            Fuzz.fail("a loaded catalogue threw a non-wire error: \(error)")
        }
    }
}

_ = LabelTables.files
Fuzz.run { data, size in Fuzz.timed(data, size, AddressFormatsTarget.run) }
