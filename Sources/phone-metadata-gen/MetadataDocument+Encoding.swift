import Foundation
import PhoneNumbers

extension PhoneMetadataDocument {
    /// The document as `data/phone-metadata.json` holds it, encoded deterministically: sorted keys, one territory per line, trailing newline.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data("{\"source\":".utf8)
        out.append(try encoder.encode(source))
        out.append(Data(",\"version\":".utf8))
        out.append(try encoder.encode(version))
        out.append(Data(",\"territories\":[\n".utf8))
        for (index, territory) in territories.enumerated() {
            out.append(try encoder.encode(territory))
            out.append(Data((index == territories.count - 1 ? "\n" : ",\n").utf8))
        }
        out.append(Data("]}\n".utf8))
        return out
    }
}
