import FmtCore

/// The checks of an address against its country's sub-regions (libaddressinput's, as `RegionTable` holds them):
/// a region that is none of the country's (`region_unknown`), a city or district that is none of the found
/// region's or city's where the data lists them (`city_unknown`, `district_unknown`), and a postal code that fits
/// the country's pattern but not the prefixes of the region, city or district found (`postal_code_region`). A
/// value found is shown as the convention spells it: the code where the country writes regions as codes (today's
/// `regionCodes`), else the name as the data writes it (`ontario` → `Ontario`); nothing is refused or dropped.
enum AddressValidation {
    /// Checks `input`'s region, city, district and postal code, setting their bits in `warnings` (by
    /// `AddressField.ordinal`) and their shown values; returns whether the postal code's warning is
    /// `postal_code_region`. A postal code already flagged (`postal_code_format`) is not looked at again.
    static func check(_ input: inout AddressInput, format: AddressFormat, warnings: inout UInt16) -> Bool {
        guard let value = input.values[.region] else { return false }
        let table = format.subRegions
        var region: Int?
        if let codes = format.regions, let code = value.withUTF8(in: input.text, { codes.code(utf8: $0) }) {
            input.values[.region] = .string(code)
            if let table {
                var code = code
                region = code.withUTF8 { table.find($0, under: -1)?.entry }
            }
        } else if let table, let found = value.withUTF8(in: input.text, { table.find($0, under: -1) }) {
            region = found.entry
            respell(&input, .region, format.regions != nil ? table.entries[found.entry].key : found.spelling, in: table)
        } else if format.regions != nil || table != nil {
            warnings |= 1 << AddressField.region.ordinal
            return false
        }
        guard let table, let region else { return false }
        let city = find(&input, .city, under: region, in: table, warnings: &warnings)
        let district = city.flatMap { find(&input, .district, under: $0, in: table, warnings: &warnings) }
        let postalBit: UInt16 = 1 << AddressField.postalCode.ordinal
        guard warnings & postalBit == 0, let code = input.values[.postalCode] else { return false }
        let fits = code.withUTF8(in: input.text) { code in
            [region, city, district].allSatisfy { entry in entry.map { table.postalCodeFits(code, entry: $0) } ?? true }
        }
        guard !fits else { return false }
        warnings |= postalBit
        return true
    }

    /// The entry of `field`'s value in the list under `parent`, shown as the data spells it; nil with the field's
    /// warning when the list exists and the value is none of it, nil without one when there is no value or list.
    private static func find(
        _ input: inout AddressInput, _ field: AddressField, under parent: Int, in table: RegionTable,
        warnings: inout UInt16
    ) -> Int? {
        guard table.entries[parent].childCount > 0, let value = input.values[field] else { return nil }
        guard let found = value.withUTF8(in: input.text, { table.find($0, under: parent) }) else {
            warnings |= 1 << field.ordinal
            return nil
        }
        respell(&input, field, found.spelling, in: table)
        return found.entry
    }

    /// Shows `field` as `spelling` where its bytes differ (in case only: the value was found by it).
    private static func respell(
        _ input: inout AddressInput, _ field: AddressField, _ spelling: RegionTable.Text, in table: RegionTable
    ) {
        guard let value = input.values[field] else { return }
        let same = value.withUTF8(in: input.text) { entered in table.withBytes(spelling) { entered.elementsEqual($0) } }
        if !same, let text = table.string(spelling) { input.values[field] = .string(text) }
    }
}
