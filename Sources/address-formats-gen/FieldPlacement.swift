import FmtCore
import Foundation

/// One line of a layout as fields with the literal text between each two (`separators[i]` lies between
/// `fields[i]` and `fields[i + 1]`), so a field can be put beside another and the line written out again.
struct TemplateLine: Equatable {
    var fields: [String]
    var separators: [String]

    init(fields: [String], separators: [String]) {
        self.fields = fields
        self.separators = separators
    }

    /// Reads an fmtd template (`{postalCode} {city}`); it starts and ends with a field, as the converter writes it.
    init(_ template: String) {
        var fields: [String] = []
        var separators: [String] = []
        var literal = ""
        var rest = Substring(template)
        while let character = rest.first {
            if character == "{", let close = rest.firstIndex(of: "}") {
                if !fields.isEmpty { separators.append(literal) }
                literal = ""
                fields.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(character)
                rest = rest.dropFirst()
            }
        }
        self.fields = fields
        self.separators = separators
    }

    var template: String {
        var out = ""
        for (index, field) in fields.enumerated() {
            if index > 0 { out += separators[index - 1] }
            out += "{\(field)}"
        }
        return out
    }
}

/// OpenCage's template for one country, as lines of slots: each slot the fmtd field its component (or the first
/// alternative of a `{{#first}}` section that has one) stands for, with the text written before it on its line.
struct OpenCageTemplate {
    struct Slot {
        let field: String
        /// The literal text between the slot before on the line (if any) and this one.
        let textBefore: String
    }

    let lines: [[Slot]]

    /// OpenCage's components by the fmtd field they stand for; `county` stands for the region only where the
    /// template has no state.
    static let components: [String: String] = [
        "postcode": "postalCode", "city": "city", "town": "city", "village": "city", "hamlet": "city",
        "municipality": "city", "postal_city": "city", "state": "region", "state_code": "region",
        "province": "region", "region": "region", "suburb": "district", "city_district": "district",
        "neighbourhood": "district", "road": "street",
    ]

    init?(_ text: String) {
        let hasState = text.contains("{{{state}}}") || text.contains("{{{state_code}}}")
        var lines: [[Slot]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var slots: [Slot] = []
            var pending = ""
            var rest = Substring(line)
            func field(of component: Substring) -> String? {
                if let field = Self.components[String(component)] { return field }
                return !hasState && (component == "county" || component == "county_code") ? "region" : nil
            }
            while !rest.isEmpty {
                if rest.hasPrefix("{{#first}}"), let end = rest.range(of: "{{/first}}") {
                    let body = rest[rest.index(rest.startIndex, offsetBy: 10)..<end.lowerBound]
                    let alternatives = body.components(separatedBy: "||").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    // A section stands for the city when one of its alternatives is a city (`suburb || town ||
                    // city` is AU's locality), else for the field of its first alternative that has one. Its text
                    // outside the components (BR's `, {{{quarter}}}`) is written before it.
                    var lead = ""
                    var chosen: String?
                    for alternative in alternatives {
                        guard let open = alternative.range(of: "{{{"), let close = alternative.range(of: "}}}") else {
                            continue
                        }
                        guard let mapped = field(of: alternative[open.upperBound..<close.lowerBound]) else { continue }
                        if chosen == nil || (mapped == "city" && chosen != "city") {
                            chosen = mapped
                            lead = String(alternative[..<open.lowerBound])
                        }
                    }
                    if let chosen { slots.append(Slot(field: chosen, textBefore: pending + lead)) }
                    pending = chosen == nil ? pending : ""
                    rest = rest[end.upperBound...]
                } else if rest.hasPrefix("{{{"), let close = rest.range(of: "}}}") {
                    let component = rest[rest.index(rest.startIndex, offsetBy: 3)..<close.lowerBound]
                    if let mapped = field(of: component) {
                        slots.append(Slot(field: mapped, textBefore: pending))
                        pending = ""
                    }
                    rest = rest[close.upperBound...]
                } else {
                    pending.append(rest.removeFirst())
                }
            }
            lines.append(slots)
        }
        guard lines.contains(where: { !$0.isEmpty }) else { return nil }
        self.lines = lines
    }

    /// Where `field` is: its line and slot.
    func position(of field: String) -> (line: Int, slot: Int)? {
        for (index, line) in lines.enumerated() {
            if let slot = line.firstIndex(where: { $0.field == field }) { return (index, slot) }
        }
        return nil
    }

    /// Whether the template runs from the largest unit to the smallest: the city before the street.
    var isBigEndian: Bool {
        let order = lines.flatMap { $0.map(\.field) }
        guard let city = order.firstIndex(of: "city"), let street = order.firstIndex(of: "street") else { return false }
        return city < street
    }
}

extension AddressFormatConverter {
    /// The fields every converted format shows, placed in this order where upstream's format has no slot: the
    /// city first, so that the fallbacks beside the city have it. The sorting code is not among them: it is
    /// shown where upstream's format has `%X` (and in FR by override); elsewhere a country truly has no place for
    /// one, and an entered one is listed with a `field_not_used` warning.
    static let placedFields = ["city", "postalCode", "region", "district"]

    /// OpenCage's template for `country` (following `use_country`).
    func openCageTemplate(_ country: String) -> OpenCageTemplate? {
        var entry = sources.templates[country]?.objectValue
        var hops = 0
        while let redirect = entry?["use_country"]?.stringValue, hops < 4 {
            entry = sources.templates[redirect]?.objectValue
            hops += 1
        }
        return entry?["address_template"]?.stringValue.flatMap(OpenCageTemplate.init)
    }

    /// `lines` with every field of `placedFields` that no line names put in by one rule (data/README.md,
    /// "Every entered value is shown"): where OpenCage's template for the country places the component, beside
    /// a field of the same OpenCage line that the layout shows, else on a line of its own next to the line of
    /// a field of the OpenCage lines around it; without the component, by the field's fallback (district on a line
    /// of its own above the city's, postal code before the city, region after the city, sorting code after the
    /// city). A big-endian layout against a little-endian template is placed mirrored; `tight` is the separator
    /// of a local Chinese or Japanese layout (none), used for every field placed on a line there.
    static func placingMissingFields(
        _ lines: [String], template: OpenCageTemplate?, bigEndian: Bool, tight: Bool
    ) -> [String] {
        var model = lines.map(TemplateLine.init)
        func locate(_ field: String) -> (line: Int, index: Int)? {
            for (line, content) in model.enumerated() {
                if let index = content.fields.firstIndex(of: field) { return (line, index) }
            }
            return nil
        }
        func separator(_ text: String) -> String {
            if tight { return "" }
            return text.contains(",") ? ", " : " "
        }
        /// Puts `field` beside `anchor` on its line, after it or before it; beside the street is beside the street
        /// and its house number, whichever order they have.
        func put(_ field: String, beside anchor: String, after: Bool, separator: String) {
            guard let (line, found) = locate(anchor) else { return }
            var index = found
            if anchor == "street", let number = model[line].fields.firstIndex(of: "houseNumber") {
                index = after ? max(index, number) : min(index, number)
            }
            let at = after ? index + 1 : index
            model[line].fields.insert(field, at: at)
            model[line].separators.insert(separator, at: index)
        }
        /// Puts `field` on a line of its own after (or before) the line of `anchor`; before the street line is
        /// before the `{extra}` line above it too, which belongs to the street.
        func putLine(_ field: String, nextTo anchor: String, after: Bool) {
            guard var (line, _) = locate(anchor) else { return }
            if !after, anchor == "street", line > 0, model[line - 1].fields == ["extra"] { line -= 1 }
            model.insert(TemplateLine(fields: [field], separators: []), at: after ? line + 1 : line)
        }
        let mirrored = bigEndian != (template?.isBigEndian ?? false)
        for field in placedFields where locate(field) == nil {
            if let template, let (lineIndex, slotIndex) = template.position(of: field) {
                let line = template.lines[lineIndex]
                if let before = line[..<slotIndex].lastIndex(where: { locate($0.field) != nil }) {
                    let text = line[(before + 1)...slotIndex].map(\.textBefore).joined()
                    put(field, beside: line[before].field, after: !mirrored, separator: separator(text))
                    continue
                }
                if let after = line[(slotIndex + 1)...].firstIndex(where: { locate($0.field) != nil }) {
                    let text = line[(slotIndex + 1)...after].map(\.textBefore).joined()
                    put(field, beside: line[after].field, after: mirrored, separator: separator(text))
                    continue
                }
                let earlier = template.lines[..<lineIndex].reversed().lazy.compactMap { slots in
                    slots.last(where: { locate($0.field) != nil })
                }.first
                if let earlier {
                    putLine(field, nextTo: earlier.field, after: !mirrored)
                    continue
                }
                let later = template.lines[(lineIndex + 1)...].lazy.compactMap { slots in
                    slots.first(where: { locate($0.field) != nil })
                }.first
                if let later {
                    putLine(field, nextTo: later.field, after: mirrored)
                    continue
                }
            }
            // The fallbacks, written for a little-endian layout (mirrored for a big-endian one, but the sorting
            // code, which follows the city either way).
            switch field {
            case "city":
                putLine(field, nextTo: "street", after: !bigEndian)
            case "postalCode":
                put(field, beside: "city", after: bigEndian, separator: separator(" "))
            case "region":
                put(field, beside: "city", after: !bigEndian, separator: separator(bigEndian ? " " : ", "))
            case "district":
                putLine(field, nextTo: "city", after: bigEndian)
            default:
                put(field, beside: "city", after: true, separator: separator(" "))
            }
        }
        return model.map(\.template)
    }
}
