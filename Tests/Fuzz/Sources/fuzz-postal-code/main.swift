import AddressFormatting
import FmtCore
import FuzzSupport

/// Postal-code rules as `address-formats.d` gives them, against long postal codes. The input's first line is
/// the pattern, the second the example code, the third a postal code to check (the label tables are the
/// committed ones). A rule that loads must answer `address` for the third line and for long codes built from
/// the example and from letters and digits (22, 30, 32, 33 and 4,000 characters) quickly, whatever the pattern:
/// `run.sh` fails a slow input, and the step limit is what keeps every one fast. A code longer than
/// `AddressPlugin.maximumPostalCodeLength` must never be confirmed.
enum PostalCodeTarget {

    static func formats(pattern: String, example: String) -> String {
        let rule: JSONValue = .object(["pattern": .string(pattern), "uppercase": true])
        let france: JSONValue = .object([
            "lines": ["{street}", "{postalCode} {city}"], "oneLine": "{street}, {postalCode} {city}",
            "labels": ["postalCode": "address.field.postal_code"], "required": ["city"], "postalCode": rule,
            "example": ["street": "Rue", "postalCode": .string(example), "city": "Paris"],
        ])
        let fallback: JSONValue = .object([
            "lines": ["{street}", "{city}"], "oneLine": "{street}, {city}", "labels": [:], "required": ["city"],
            "example": ["city": "Lisboa"],
        ])
        return JSONWriter.string(.object(["version": "fuzz", "formats": ["default": fallback, "FR": france]]))
    }

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2 else { return }
        let example = String(lines[1])
        var files = LabelTables.files
        files["address-formats.json"] = formats(pattern: String(lines[0]), example: example)
        let store = DataStore(source: .embedded(files), localDirectory: nil)
        guard let plugin = try? AddressPlugin(loading: store, environment: LabelTables.environment) else { return }
        var codes = lines.count > 2 ? [String(lines[2...].joined(separator: "\n"))] : []
        let letters = String(repeating: "ABCDEFGHIJKLMNOPQRSTUVWXYZ", count: 160)
        let seed = example.isEmpty ? "A" : example
        for length in [22, 30, 32, 33, 4000] {
            codes.append(String(letters.prefix(length)))
            codes.append(String(String(repeating: seed, count: length / max(seed.count, 1) + 1).prefix(length)))
        }
        codes.append(String(repeating: "9", count: 31) + "X")
        for code in codes {
            let fields: JSONObject = [
                "address": ["country": "FR", "city": "Paris", "postalCode": .string(code)], "locale": "en",
            ]
            do {
                let response = try plugin.handle(Request(op: "address", fields: fields))
                let flagged = response["warnings"]?.arrayValue?.contains {
                    $0.objectValue?["code"] == "postal_code_format"
                }
                let cleaned = code.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                if cleaned.unicodeScalars.count > AddressPlugin.maximumPostalCodeLength, flagged != true {
                    Fuzz.fail("a \(cleaned.unicodeScalars.count)-character code was confirmed: \(response)")
                }
            } catch is any WireError {
            } catch {
                Fuzz.fail("a loaded rule threw a non-wire error: \(error)")
            }
        }
    }
}

_ = LabelTables.files
Fuzz.run { data, size in Fuzz.timed(data, size, PostalCodeTarget.run) }
