import Testing

@testable import AddressFormatting

/// The shown values' text that is not in the request (rewritten values, values made in code, the country's name)
/// goes into `ShownValues.textCapacity` bytes on the stack, and past that into a buffer of the size it needs: an
/// address of long `String` values renders as the definition says either way.
@Suite struct ShownTextCapacityTests {
    @Test func valuesPastTheStackBufferRenderAsTheDefinitionGives() throws {
        let definition = try RenderingDefinitionTests()
        for repeats in [1, 8, 40] {
            var values = FieldMap<String>()
            for field in AddressField.allCases {
                values[field] = String(repeating: "Straße ", count: repeats) + field.rawValue + "\u{301}"
            }
            for country in ["NL", "JP", "TH"] {
                try definition.check(values, country: country, language: nil, viewerLanguage: 0, repeats != 8)
            }
        }
    }
}
