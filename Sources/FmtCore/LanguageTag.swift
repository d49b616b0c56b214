/// A well-formed BCP 47 language tag, parsed without ICU so malformed input is refused before any
/// ICU call. `nl_BE` is accepted as `nl-BE`; `x`, `123` and `en--GB` are not tags.
public struct LanguageTag: Sendable, Hashable, CustomStringConvertible {
    /// Lower-case language subtag (`nl`).
    public let language: String
    /// Title-case script subtag (`Latn`), if any.
    public let script: String?
    /// Upper-case region subtag (`BE`, `419`), if any.
    public let region: String?
    /// Variants, extensions and private use, lower-case, in their original order (`u-co-phonebk`).
    public let trailing: [String]

    public static let english = LanguageTag(language: "en", script: nil, region: nil, trailing: [])

    public init(language: String, script: String?, region: String?, trailing: [String]) {
        self.language = language
        self.script = script
        self.region = region
        self.trailing = trailing
    }

    /// Parses a tag, or returns nil when it is not well-formed.
    public init?(parsing text: String) {
        guard !text.isEmpty, text.utf8.count <= 128 else { return nil }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.utf8.allSatisfy(Self.isAlphanumeric) })
        else { return nil }
        var index = 0
        let first = subtags[0]
        guard (2...3).contains(first.count) || (5...8).contains(first.count), first.utf8.allSatisfy(Self.isAlpha)
        else { return nil }
        language = first.lowercased()
        index = 1
        if index < subtags.count, subtags[index].count == 4, subtags[index].utf8.allSatisfy(Self.isAlpha) {
            script = subtags[index].prefix(1).uppercased() + subtags[index].dropFirst().lowercased()
            index += 1
        } else {
            script = nil
        }
        if index < subtags.count,
            (subtags[index].count == 2 && subtags[index].utf8.allSatisfy(Self.isAlpha))
                || (subtags[index].count == 3 && subtags[index].utf8.allSatisfy(Self.isDigit))
        {
            region = subtags[index].uppercased()
            index += 1
        } else {
            region = nil
        }
        var rest: [String] = []
        var inExtension = false
        var inPrivateUse = false
        while index < subtags.count {
            let subtag = subtags[index].lowercased()
            if inPrivateUse {
                // After `x`, every subtag of 1 to 8 letters or digits is private use (`en-x-a-b`).
            } else if subtag.count == 1 {
                // A singleton opens an extension (whose subtags have 2 to 8 characters) or private use (1 to 8);
                // it needs at least one subtag after it.
                inPrivateUse = subtag == "x"
                guard index + 1 < subtags.count, subtags[index + 1].count >= (inPrivateUse ? 1 : 2) else { return nil }
                inExtension = true
            } else if !inExtension {
                let isVariant =
                    subtag.count >= 5 || (subtag.count == 4 && subtag.utf8.first.map(Self.isDigit) == true)
                guard isVariant else { return nil }
            }
            rest.append(subtag)
            index += 1
        }
        trailing = rest
    }

    /// The canonical spelling (`nl-BE`, `de-DE-u-co-phonebk`).
    public var description: String {
        ([language] + [script, region].compactMap { $0 } + trailing).joined(separator: "-")
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte)
    }
}
