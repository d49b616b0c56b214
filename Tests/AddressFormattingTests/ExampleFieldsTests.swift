import AddressFormatting
import FmtCore
import FmtTesting
import Testing

@testable import address_formats_gen

/// `addressFormat`'s example (issue 30) fills every field its country's upstream `fmt` names, and shows it, in the
/// described layout's own script: the addressee (`%N`, `%O`), the street and number (`%A`), city, region,
/// district and sorting code (`%C`, `%S`, `%D`, `%X`) and the postal code (`%Z`, where the format has a rule).
/// The seed formats keep the examples their vectors pin, byte for byte.
@Suite struct ExampleFieldsTests {
    static let seeds: Set<String> = ["NL", "BE", "DE", "GB", "US"]
    static let fields: [Character: [String]] = [
        "N": ["name"], "O": ["organization"], "A": ["street", "houseNumber"], "C": ["city"], "S": ["region"],
        "Z": ["postalCode"], "D": ["district"], "X": ["sortingCode"],
    ]

    /// The fields an upstream `fmt` names, in the order it names them.
    static func fields(of fmt: String) -> [String] {
        var names: [String] = []
        for token in AddressFormatConverter.tokenize(fmt) {
            guard case .field(let code) = token else { continue }
            for name in fields[code] ?? [] where !names.contains(name) { names.append(name) }
        }
        return names
    }

    @Test(
        "every example fills and shows every field of its upstream fmt, in its layout's script",
        .enabled(
            if: GeneratedFormatsTests.upstreamAvailable, "needs ../shared/upstream/address or FMTD_UPSTREAM_DIR"))
    func everyExampleFillsAndShowsEveryFieldOfItsUpstreamFormat() throws {
        let sources = try UpstreamSources(directory: GeneratedFormatsTests.upstream)
        let plugin = try loadPlugin(AddressPlugin.self)
        var checked: Set<String> = []
        for country in sources.records.keys.sorted() where country != "ZZ" && !Self.seeds.contains(country) {
            let fmt = sources.records[country]?["fmt"]?.stringValue ?? sources.records["ZZ"]?["fmt"]?.stringValue
            let wanted = Self.fields(of: try #require(fmt, "\(country) has no fmt"))
            // The layout served without a language (the local one where there are two), then the Latin one.
            for language in [nil, "en"] as [String?] {
                let member = language.map { #","language":"\#($0)""# } ?? ""
                let described = try plugin.answer(
                    #"{"op":"addressFormat","country":"\#(country)","locale":"en"\#(member)}"#)
                let layout = described.string("layoutScript") ?? "national"
                if language != nil && layout != "latin" { continue }
                let example = described["example"]?.objectValue ?? [:]
                let address = example["address"]?.objectValue ?? [:]
                let lines = example.strings("lines")
                let city = address["city"]?.stringValue ?? ""
                for field in wanted {
                    // A postal code only where the format has a rule (KP has none), whose example it is.
                    if field == "postalCode", (described["postalCode"] ?? .null) == .null { continue }
                    let value = address[field]?.stringValue ?? ""
                    #expect(!value.isEmpty, "\(country) \(layout): the example has no \(field): \(address)")
                    guard !value.isEmpty else { continue }
                    // A region equal to the city is printed once (`dropWhenEqual`): București, Astana.
                    let printedOnce = field == "region" && value.lowercased() == city.lowercased()
                    #expect(
                        printedOnce || lines.contains { $0.contains(value) },
                        "\(country) \(layout): \(field) \"\(value)\" is not in \(lines)")
                }
                // The layout's own script: no Latin letter in a local example; a national one is written in the
                // script of its town throughout (a Cyrillic name in Москва, a Latin one in Cairo).
                for entry in address where entry.key != "country" && entry.key != "language" {
                    let value = entry.value.stringValue ?? ""
                    guard value.unicodeScalars.contains(where: \.properties.isAlphabetic) else { continue }
                    switch layout {
                    case "local":
                        #expect(!AddressFormatConverter.isLatin(value), "\(country) local: \(entry.key) \"\(value)\"")
                    case "latin":
                        #expect(AddressFormatConverter.isLatin(value), "\(country) Latin: \(entry.key) \"\(value)\"")
                    default:
                        #expect(
                            AddressFormatConverter.isLatin(value) == AddressFormatConverter.isLatin(city),
                            "\(country): \(entry.key) \"\(value)\" is not in the script of \(city)")
                    }
                }
                checked.insert(country)
            }
        }
        #expect(checked.count == 252 - Self.seeds.count)
    }

    /// Where a country's data lists sub-regions, fmtd's words may only name one of them; elsewhere the region is
    /// written as the country writes it. The town decides by whole words, so a short code inside its name (SO's
    /// `AD` in Mogadishu) picks nothing.
    @Test func aTownPicksItsRegionByWholeWords() {
        #expect(AddressFormatConverter.hasWords("dublin, co. dublin", "Co. Dublin".lowercased()))
        #expect(AddressFormatConverter.hasWords("andorra la vella", "andorra la vella"))
        #expect(!AddressFormatConverter.hasWords("mogadishu", "ad"))
        #expect(!AddressFormatConverter.hasWords("paramaribo", "para"))
        #expect(!AddressFormatConverter.hasWords("madrid", "a"))
    }
}
