import FmtCore

/// The plain implementation `LanguageTag(parsing:)` is held to: subtags split as strings, Unicode-aware
/// `count` and case changes, each rule checked in the order BCP 47 states it.
enum ReferenceLanguageTag {
    static func parse(_ text: String) -> LanguageTag? {
        guard !text.isEmpty, text.utf8.count <= 128 else { return nil }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.utf8.allSatisfy(isAlphanumeric) })
        else { return nil }
        var index = 0
        let first = subtags[0]
        guard (2...3).contains(first.count) || (5...8).contains(first.count), first.utf8.allSatisfy(isAlpha)
        else { return nil }
        let language = first.lowercased()
        let script: String?
        let region: String?
        index = 1
        if index < subtags.count, subtags[index].count == 4, subtags[index].utf8.allSatisfy(isAlpha) {
            script = subtags[index].prefix(1).uppercased() + subtags[index].dropFirst().lowercased()
            index += 1
        } else {
            script = nil
        }
        if index < subtags.count,
            (subtags[index].count == 2 && subtags[index].utf8.allSatisfy(isAlpha))
                || (subtags[index].count == 3 && subtags[index].utf8.allSatisfy(isDigit))
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
                    subtag.count >= 5 || (subtag.count == 4 && subtag.utf8.first.map(isDigit) == true)
                guard isVariant else { return nil }
            }
            rest.append(subtag)
            index += 1
        }
        return LanguageTag(language: language, script: script, region: region, trailing: rest)
    }

    static func isAlpha(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte)
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte)
    }
}
