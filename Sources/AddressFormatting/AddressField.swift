import Glibc

/// The fields of an address on the wire (`address.houseNumber`), in no particular order; each country's
/// format decides the order. The country is not among them: it selects the format.
public enum AddressField: String, Sendable, CaseIterable, Hashable {
    case name
    case organization
    case street
    case houseNumber
    case extra
    case postalCode
    case city
    case region
    /// The dependent locality within the city (libaddressinput `%D`: suburb, neighbourhood, colonia, 区, 구).
    case district
    /// A sorting code printed with the city (libaddressinput `%X`: France's CEDEX).
    case sortingCode

    /// The field a wire key names, as `init(rawValue:)` but cheaper: compared by bytes, and the names differ in
    /// length except `name`/`city`, `street`/`region` and `houseNumber`/`sortingCode`, so the length leaves at
    /// most two to compare.
    static func named(_ key: String) -> AddressField? {
        var key = key
        return key.withUTF8 { named(utf8: $0) }
    }

    /// `named(_:)` over the key's UTF-8.
    static func named(utf8 key: UnsafeBufferPointer<UInt8>) -> AddressField? {
        let candidates: (AddressField, StaticString, AddressField?, StaticString)
        switch key.count {
        case 4: candidates = (.name, "name", .city, "city")
        case 5: candidates = (.extra, "extra", nil, "")
        case 6: candidates = (.street, "street", .region, "region")
        case 8: candidates = (.district, "district", nil, "")
        case 10: candidates = (.postalCode, "postalCode", nil, "")
        case 11: candidates = (.houseNumber, "houseNumber", .sortingCode, "sortingCode")
        case 12: candidates = (.organization, "organization", nil, "")
        default: return nil
        }
        if key.hasSameBytes(as: candidates.1) { return candidates.0 }
        if let second = candidates.2, key.hasSameBytes(as: candidates.3) { return second }
        return nil
    }

    /// Hashes the case, not its raw string (the default for raw-value enums): sets of fields are checked
    /// on every request.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ordinal)
    }

    /// The label key of the field where a format names none for it: a field its lines do not show
    /// (`fields` lists it, with a `field_not_used` warning).
    var defaultLabelKey: String {
        switch self {
        case .houseNumber: "address.field.house_number"
        case .postalCode: "address.field.postal_code"
        case .sortingCode: "address.field.sorting_code"
        default: "address.field.\(rawValue)"
        }
    }

    /// The field's position in `allCases`, 0 to 9: an index into per-field tables.
    var ordinal: Int {
        switch self {
        case .name: 0
        case .organization: 1
        case .street: 2
        case .houseNumber: 3
        case .extra: 4
        case .postalCode: 5
        case .city: 6
        case .region: 7
        case .district: 8
        case .sortingCode: 9
        }
    }
}

/// One optional value per address field, stored inline: the per-request maps (entered values, shown values,
/// labels) cost no allocation and no hashing, where a `[AddressField: Value]` would do both.
struct FieldMap<Value> {
    private var name: Value?
    private var organization: Value?
    private var street: Value?
    private var houseNumber: Value?
    private var extra: Value?
    private var postalCode: Value?
    private var city: Value?
    private var region: Value?
    private var district: Value?
    private var sortingCode: Value?

    /// Whether the field has a value, without copying it.
    func has(_ field: AddressField) -> Bool {
        switch field {
        case .name: name != nil
        case .organization: organization != nil
        case .street: street != nil
        case .houseNumber: houseNumber != nil
        case .extra: extra != nil
        case .postalCode: postalCode != nil
        case .city: city != nil
        case .region: region != nil
        case .district: district != nil
        case .sortingCode: sortingCode != nil
        }
    }

    subscript(field: AddressField) -> Value? {
        get {
            switch field {
            case .name: name
            case .organization: organization
            case .street: street
            case .houseNumber: houseNumber
            case .extra: extra
            case .postalCode: postalCode
            case .city: city
            case .region: region
            case .district: district
            case .sortingCode: sortingCode
            }
        }
        set {
            switch field {
            case .name: name = newValue
            case .organization: organization = newValue
            case .street: street = newValue
            case .houseNumber: houseNumber = newValue
            case .extra: extra = newValue
            case .postalCode: postalCode = newValue
            case .city: city = newValue
            case .region: region = newValue
            case .district: district = newValue
            case .sortingCode: sortingCode = newValue
            }
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the bytes are a literal's (member names, compared without making a `String`). Up to 16 bytes (every
    /// member name) are compared as two words each way that overlap inside the bytes, without a call to `memcmp`.
    @inline(__always)
    func hasSameBytes(as literal: StaticString) -> Bool {
        let count = self.count
        guard count == literal.utf8CodeUnitCount else { return false }
        guard count >= 4, count <= 16 else {
            return count == 0 || memcmp(baseAddress!, literal.utf8Start, count) == 0
        }
        let left = UnsafeRawPointer(baseAddress!)
        let right = UnsafeRawPointer(literal.utf8Start)
        if count >= 8 {
            return left.loadUnaligned(as: UInt64.self) == right.loadUnaligned(as: UInt64.self)
                && left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                    == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        }
        return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
            && left.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                == right.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
}

extension FieldMap: Sendable where Value: Sendable {}
