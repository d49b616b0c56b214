import FmtCore
import FmtTesting
import Foundation
import Testing

@testable import AddressFormatting

/// A region's code is found by the value's bytes where they decide it and by its definition elsewhere
/// (`lookup[value.lowercased()]`, which matches by canonical equivalence); either way `code(for:)` and
/// `code(utf8:)` give what the definition gives. Checked on every code, name and alias of the shipped formats and of
/// a local format whose names lower-case to other text, decompose, or are canonically equivalent to ASCII text, each
/// entered in several cases, decomposed, padded, cut and stretched.
@Suite struct RegionCodesTests {
    /// A local `US` format: its names hold letters whose lower case is longer or outside ASCII, a precomposed
    /// letter, and scalars canonically equivalent to ASCII (U+037E is `;`, U+1FEF is a grave accent, U+212A is `K`).
    static let localFormat = #"""
        {"formats": {"US": {
          "lines": ["{street}", "{city} {region}"], "oneLine": "{street}, {city} {region}",
          "labels": {"street": "address.field.street", "city": "address.field.city",
                     "region": "address.field.region"},
          "regionCodes": {"QC": "Québec", "IS": "İstanbul", "SA": "ΣΆΜΟΣ", "ST": "Straße", "GQ": "a\u037Eb",
                          "GV": "x\u1FEFy", "KA": "\u212Aansas", "DZ": "ǅemal", "CA": "California"},
          "regionAliases": {"Que\u0301bec": "QC", "CALIF": "CA", "ﬁfe": "ST"},
          "example": {"street": "Main St", "city": "Topeka", "region": "KA"}
        }}}
        """#

    static func catalogs() throws -> [FormatCatalog] {
        let shipped = try FormatCatalog(
            loading: DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil))
        let local = try TemporaryDirectory()
        try local.write("address-formats.d/us.json", localFormat)
        let overridden = try FormatCatalog(
            loading: DataStore(source: .directory(Paths.dataDirectory), localDirectory: local.path))
        return [shipped, overridden]
    }

    /// The codes, names and aliases of every format with region codes, in the catalogs' data and the local file.
    static func enteredNames() throws -> [String] {
        let store = DataStore(source: .directory(Paths.dataDirectory), localDirectory: nil)
        var names: [String] = []
        for document in [try store.readJSON("address-formats.json"), try JSONReader.parse(Array(localFormat.utf8))] {
            for format in document.objectValue?["formats"]?.objectValue ?? [:] {
                for entry in format.value.objectValue?["regionCodes"]?.objectValue ?? [:] {
                    names.append(entry.key)
                    if let name = entry.value.stringValue { names.append(name) }
                }
                for alias in format.value.objectValue?["regionAliases"]?.objectValue ?? [:] { names.append(alias.key) }
            }
        }
        return names
    }

    /// `name` as a client may enter it.
    static func variants(of name: String, generator: inout BytePatternTests.Generator) -> [String] {
        var mixed = ""
        for character in name {
            mixed += generator.next(2) == 0 ? character.uppercased() : character.lowercased()
        }
        return [
            name, name.lowercased(), name.uppercased(), name.capitalized, mixed,
            name.decomposedStringWithCanonicalMapping, name.precomposedStringWithCanonicalMapping,
            name.uppercased().decomposedStringWithCanonicalMapping, " " + name, name + " ", String(name.dropLast()),
            name + "s", String(repeating: name, count: 3), String(repeating: name, count: 40), name + "\u{301}",
            name.replacingOccurrences(of: "K", with: "\u{212A}"), name.replacingOccurrences(of: ";", with: "\u{37E}"),
            name.replacingOccurrences(of: "i", with: "ı"), name.replacingOccurrences(of: "s", with: "ſ"),
        ]
    }

    @Test func everyEnteredNameGetsTheDefinitionsCode() throws {
        let names = try Self.enteredNames() + ["a;b", "A;B", "x`y", "kansas", "KANSAS", "istanbul", "σάμοσ", "", "ß"]
        #expect(names.count > 400)
        var generator = BytePatternTests.Generator(state: 15)
        var found = 0
        for catalog in try Self.catalogs() {
            for format in catalog.ordered {
                guard let regions = format.regions else { continue }
                for name in names {
                    for value in Self.variants(of: name, generator: &generator) {
                        let definition = regions.definedCode(for: value)
                        if definition != nil { found += 1 }
                        #expect(regions.code(for: value) == definition, "\(format.key): \(Array(value.unicodeScalars))")
                        var contiguous = value
                        contiguous.withUTF8 { utf8 in
                            #expect(regions.code(utf8: utf8) == definition, "\(format.key): \(value)")
                        }
                    }
                }
            }
        }
        #expect(found > 1000)
    }

    @Test func aNameCanonicallyEquivalentToASCIITextIsFoundByThatText() throws {
        let regions = try #require(try Self.catalogs()[1].formats["US"]?.regions)
        #expect(regions.code(for: "A;B") == "GQ")
        #expect(regions.code(for: "x`Y") == "GV")
        #expect(regions.code(for: "KANSAS") == "KA")
        #expect(regions.code(for: "QUÉBEC") == "QC")
        #expect(regions.code(for: "Que\u{301}bec") == "QC")
        #expect(regions.code(for: "Calif") == "CA")
        #expect(regions.code(for: "Califo") == nil)
        for bytes: [UInt8] in [[0x51, 0x75, 0xC3, 0x62, 0x65, 0x63], [0xFF], [0x43, 0x41, 0x80]] {
            let repaired = String(decoding: bytes, as: UTF8.self)
            bytes.withUnsafeBufferPointer { #expect(regions.code(utf8: $0) == regions.definedCode(for: repaired)) }
        }
    }

    /// `mayEqualASCII` takes a scalar outside ASCII as equivalent to ASCII text only when it is equivalent to one
    /// ASCII character: exact because no scalar decomposes canonically to two or more ASCII scalars, checked here
    /// against Foundation's NFD over every scalar.
    @Test func mayEqualASCIIIsExactForEveryScalar() {
        var equivalent: [UInt32] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            let decomposed = text.decomposedStringWithCanonicalMapping
            let isASCII = decomposed.utf8.allSatisfy { $0 < 0x80 }
            #expect(RegionCodes.mayEqualASCII(text) == isASCII, "U+\(String(value, radix: 16))")
            if isASCII {
                #expect(decomposed.unicodeScalars.count == 1, "U+\(String(value, radix: 16))")
                equivalent.append(value)
            }
        }
        #expect(equivalent.contains(0x212A) && equivalent.contains(0x37E) && equivalent.contains(0x1FEF))
    }
}
