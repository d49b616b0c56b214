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
}
