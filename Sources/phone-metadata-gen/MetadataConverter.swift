import Foundation
import PhoneNumbers

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Errors of the XML → JSON conversion; each names what was wrong.
enum ConversionError: Error, CustomStringConvertible {
    case malformedXML(String)
    case missing(String)
    case invalid(String)

    var description: String {
        switch self {
        case .malformedXML(let detail): "malformed XML: \(detail)"
        case .missing(let what): "missing \(what)"
        case .invalid(let what): "invalid \(what)"
        }
    }
}

/// A minimal element tree; text is the concatenated character data of the element itself.
final class XMLElementNode {
    let name: String
    let attributes: [String: String]
    var children: [XMLElementNode] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func child(_ name: String) -> XMLElementNode? { children.first { $0.name == name } }
    func all(_ name: String) -> [XMLElementNode] { children.filter { $0.name == name } }
}

final class TreeBuilder: NSObject, XMLParserDelegate {
    var stack: [XMLElementNode] = [XMLElementNode(name: "#document", attributes: [:])]

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let node = XMLElementNode(name: elementName, attributes: attributeDict)
        stack[stack.count - 1].children.append(node)
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
}

/// Converts upstream `PhoneNumberMetadata.xml` into our JSON document.
enum MetadataConverter {
    static let typeElements: [(element: String, wire: String)] = [
        ("fixedLine", "fixedLine"), ("mobile", "mobile"), ("pager", "pager"), ("tollFree", "tollFree"),
        ("premiumRate", "premiumRate"), ("sharedCost", "sharedCost"), ("personalNumber", "personalNumber"),
        ("voip", "voip"), ("uan", "uan"), ("voicemail", "voicemail"),
    ]

    static let source =
        "Converted from libphonenumber's PhoneNumberMetadata.xml (https://github.com/google/libphonenumber), "
        + "Copyright (C) 2009 The Libphonenumber Authors, Apache License 2.0"

    /// The elements and attributes of upstream's schema (the DTD at the top of `PhoneNumberMetadata.xml`). The
    /// converter reads some and ignores others on purpose (data/README.md says which and why); anything outside
    /// this table is new upstream and is reported, so it is noticed rather than dropped.
    static let schema: [String: Set<String>] = {
        let typeAttributes: Set<String> = []
        var table: [String: Set<String>] = [
            "phoneNumberMetadata": [], "territories": [], "references": [], "sourceUrl": [],
            "territory": [
                "id", "countryCode", "mainCountryForCode", "leadingDigits", "preferredInternationalPrefix",
                "internationalPrefix", "nationalPrefix", "nationalPrefixForParsing", "nationalPrefixTransformRule",
                "preferredExtnPrefix", "nationalPrefixFormattingRule", "nationalPrefixOptionalWhenFormatting",
                "carrierCodeFormattingRule", "mobileNumberPortableRegion",
            ],
            "generalDesc": [], "noInternationalDialling": [], "availableFormats": [],
            "numberFormat": [
                "nationalPrefixFormattingRule", "nationalPrefixOptionalWhenFormatting", "carrierCodeFormattingRule",
                "pattern",
            ],
            "nationalNumberPattern": [], "exampleNumber": [], "format": [], "intlFormat": [], "leadingDigits": [],
            "possibleLengths": ["national", "localOnly"],
        ]
        for (element, _) in typeElements { table[element] = typeAttributes }
        return table
    }()

    /// Elements and attributes of the document that `schema` does not know, as `element` or `element@attribute`
    /// with the territory they are in, in document order.
    static func unknownConstructs(xml: Data) throws -> [String] {
        let root = try parse(xml)
        var found: [String] = []
        func visit(_ node: XMLElementNode, territory: String?) {
            let territory = node.name == "territory" ? node.attributes["id"] : territory
            let place = territory.map { " in territory \($0)" } ?? ""
            if let known = schema[node.name] {
                for attribute in node.attributes.keys.sorted() where !known.contains(attribute) {
                    found.append("\(node.name)@\(attribute)\(place)")
                }
            } else {
                found.append("<\(node.name)>\(place)")
            }
            for child in node.children { visit(child, territory: territory) }
        }
        for child in root.children { visit(child, territory: nil) }
        return found
    }

    static func convert(xml: Data, version: String) throws -> Data {
        try document(xml: xml, version: version).encoded()
    }

    private static func parse(_ xml: Data) throws -> XMLElementNode {
        let parser = XMLParser(data: withoutDoctype(xml))
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse() else {
            throw ConversionError.malformedXML(parser.parserError.map { "\($0)" } ?? "unknown error")
        }
        guard let document = builder.stack.first else { throw ConversionError.malformedXML("no document") }
        return document
    }

    static func document(xml: Data, version: String) throws -> PhoneMetadataDocument {
        guard let root = try parse(xml).child("phoneNumberMetadata"),
            let territories = root.child("territories")
        else { throw ConversionError.missing("<phoneNumberMetadata><territories>") }
        let records = try territories.all("territory").map(territory)
        return PhoneMetadataDocument(version: version, source: source, territories: records)
    }

    /// FoundationXML on Linux crashes on `<!ATTLIST ... #IMPLIED>` declarations, and the DTD adds nothing here.
    static func withoutDoctype(_ xml: Data) -> Data {
        guard let start = xml.range(of: Data("<!DOCTYPE".utf8)),
            let end = xml.range(of: Data("]>".utf8), in: start.upperBound..<xml.endIndex)
        else { return xml }
        var result = xml
        result.removeSubrange(start.lowerBound..<end.upperBound)
        return result
    }

    static func stripped(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    static func territory(_ node: XMLElementNode) throws -> TerritoryRecord {
        guard let id = node.attributes["id"] else { throw ConversionError.missing("territory id") }
        guard let codeText = node.attributes["countryCode"], let countryCode = Int(codeText) else {
            throw ConversionError.invalid("countryCode of territory \(id)")
        }
        let nationalPrefix = node.attributes["nationalPrefix"]
        var forParsing = node.attributes["nationalPrefixForParsing"].map(stripped)
        var transform = node.attributes["nationalPrefixTransformRule"].map(stripped)
        if forParsing == nil, let nationalPrefix, !nationalPrefix.isEmpty {
            forParsing = nationalPrefix
            transform = nil
        }
        var types: [String: NumberDescRecord] = [:]
        var inheriting: [String] = []
        var allLengths = Set<Int>()
        var allLocal = Set<Int>()
        for (element, wire) in typeElements {
            guard let desc = node.child(element) else { continue }
            let record = try numberDesc(desc, what: "\(id) \(element)")
            types[wire] = record
            // A type without <possibleLengths> has the territory's lengths, as upstream's empty list means.
            if desc.child("possibleLengths") == nil { inheriting.append(wire) }
            allLengths.formUnion(record.lengths)
            allLocal.formUnion(record.localOnlyLengths ?? [])
        }
        if let desc = node.child("noInternationalDialling") {
            let record = try numberDesc(desc, what: "\(id) noInternationalDialling")
            allLengths.formUnion(record.lengths)
            allLocal.formUnion(record.localOnlyLengths ?? [])
        }
        // Upstream reads a missing generalDesc or pattern as an empty pattern, which matches no number.
        let generalPattern = node.child("generalDesc")?.child("nationalNumberPattern").map { stripped($0.text) }
        allLocal.subtract(allLengths)
        let general = NumberDescRecord(
            pattern: generalPattern, lengths: allLengths.sorted(),
            localOnlyLengths: allLocal.isEmpty ? nil : allLocal.sorted())
        for wire in inheriting {
            types[wire]?.lengths = general.lengths
            types[wire]?.localOnlyLengths = general.localOnlyLengths
        }
        let defaultRule = node.attributes["nationalPrefixFormattingRule"]
        let formats = try node.child("availableFormats")?.all("numberFormat").map {
            try numberFormat($0, territoryRule: defaultRule, nationalPrefix: nationalPrefix ?? "", id: id)
        }
        return TerritoryRecord(
            id: id, countryCode: countryCode,
            mainCountryForCode: node.attributes["mainCountryForCode"] == "true" ? true : nil,
            leadingDigits: node.attributes["leadingDigits"].map(stripped),
            internationalPrefix: node.attributes["internationalPrefix"].map(stripped),
            preferredInternationalPrefix: node.attributes["preferredInternationalPrefix"].map(stripped),
            nationalPrefix: nationalPrefix, nationalPrefixForParsing: forParsing,
            nationalPrefixTransformRule: transform, preferredExtnPrefix: node.attributes["preferredExtnPrefix"],
            general: general, types: types, formats: formats)
    }

    static func lengths(_ spec: String, what: String) throws -> [Int] {
        var result = Set<Int>()
        for part in stripped(spec).split(separator: ",") {
            if part.hasPrefix("[") && part.hasSuffix("]") {
                let bounds = part.dropFirst().dropLast().split(separator: "-").compactMap { Int($0) }
                guard bounds.count == 2, bounds[0] <= bounds[1] else { throw ConversionError.invalid(what) }
                result.formUnion(bounds[0]...bounds[1])
            } else if let value = Int(part) {
                result.insert(value)
            } else {
                throw ConversionError.invalid(what)
            }
        }
        return result.sorted()
    }

    /// A number type's description. Its pattern is optional (a type without one never matches), and so are its
    /// possible lengths (the caller gives such a type the territory's lengths).
    static func numberDesc(_ node: XMLElementNode, what: String) throws -> NumberDescRecord {
        let pattern = node.child("nationalNumberPattern").map { stripped($0.text) }
        var national: [Int] = []
        var local: [Int]?
        if let possible = node.child("possibleLengths") {
            guard let text = possible.attributes["national"] else {
                throw ConversionError.missing("national possibleLengths of \(what)")
            }
            national = try lengths(text, what: "lengths of \(what)")
            local = try possible.attributes["localOnly"].map { try lengths($0, what: "localOnly lengths of \(what)") }
        }
        let example = node.child("exampleNumber").map { stripped($0.text) }
        return NumberDescRecord(pattern: pattern, lengths: national, localOnlyLengths: local, example: example)
    }

    static func numberFormat(
        _ node: XMLElementNode, territoryRule: String?, nationalPrefix: String, id: String
    ) throws -> NumberFormatRecord {
        guard let pattern = node.attributes["pattern"] else { throw ConversionError.missing("pattern of \(id) format") }
        guard let format = node.child("format")?.text else { throw ConversionError.missing("format of \(id) format") }
        let rule = (node.attributes["nationalPrefixFormattingRule"] ?? territoryRule).map {
            $0.replacingOccurrences(of: "$NP", with: nationalPrefix).replacingOccurrences(of: "$FG", with: "$1")
        }
        return NumberFormatRecord(
            pattern: stripped(pattern), format: format,
            leadingDigits: node.all("leadingDigits").last.map { stripped($0.text) },
            nationalPrefixRule: rule.flatMap { $0.isEmpty ? nil : $0 },
            intlFormat: node.child("intlFormat")?.text)
    }

    /// Reads the version from a `README.md` next to the XML (`libphonenumber **v9.0.35**`).
    static func versionFromReadme(nextTo xmlPath: String) -> String? {
        let readme = URL(fileURLWithPath: xmlPath).deletingLastPathComponent().appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: readme, encoding: .utf8),
            let range = text.range(of: "libphonenumber **v")
        else { return nil }
        let version = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
        return version.isEmpty ? nil : String(version)
    }
}
