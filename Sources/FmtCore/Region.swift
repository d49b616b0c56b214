import CICU

/// A region code as every op reads it: an ISO 3166-1 alpha-2 territory ICU knows, in any case and through ICU's
/// aliases (`uk` → `GB`), or a UN M49 grouping from a locale tag (`419`). One parser, so every op agrees on
/// which viewer a region names.
public struct Region: Hashable, Sendable, CustomStringConvertible {
    /// The canonical code: two upper-case letters (`GB`) or three digits (`419`).
    public let code: String

    private init(canonical code: String) {
        self.code = code
    }

    /// What a region field accepts. Every op reads its region fields through this one parser, and each field
    /// says which of these it takes, so two fields that take the same codes can never disagree about one.
    public enum Accepted: Sendable {
        /// A territory ICU knows, through its aliases (`UK` → `GB`): where a region must name a real place
        /// (an address's country, a viewer's region for addresses, dates and names).
        case territory
        /// A territory, or `ZZ`, CLDR's unknown region: a phone viewer whose region is not known.
        case territoryOrUnknown
        /// Any two ASCII letters, as libphonenumber reads a region code: a territory through its aliases, else the
        /// letters upper-cased (`ZZ`, the retired `CS`), which name no numbering plan.
        case anyLetters
    }

    /// `ZZ`: CLDR's and libphonenumber's code for an unknown region.
    public static let unknown = Region(canonical: "ZZ")

    /// Whether this is `ZZ`, the unknown region.
    public var isUnknown: Bool { code == "ZZ" }

    /// The territory named by two ASCII letters in any case (`nl`, `UK`), or nil when the text is not two
    /// letters or ICU knows no territory by it (`QQ`, `ZZ`, `EU`); `accepted` widens what is taken.
    public init?(alpha2 text: String, accepting accepted: Accepted = .territory) {
        guard let slot = Self.slot(text), let code = Self.code(at: slot, accepting: accepted) else { return nil }
        self.init(canonical: code)
    }

    /// As `init(alpha2:accepting:)`, from the text's UTF-8.
    public init?(alpha2 text: UnsafeBufferPointer<UInt8>, accepting accepted: Accepted = .territory) {
        guard text.count == 2, let slot = Self.slot(text[0], text[1]),
            let code = Self.code(at: slot, accepting: accepted)
        else {
            return nil
        }
        self.init(canonical: code)
    }

    /// The code of the letters at `slot` as `accepted` reads them, or nil when it refuses them.
    private static func code(at slot: Int, accepting accepted: Accepted) -> String? {
        if let code = canonicalCodes[slot] { return code }
        switch accepted {
        case .territory: return nil
        case .territoryOrUnknown: return slot == unknownSlot ? unknown.code : nil
        case .anyLetters: return letterCodes[slot]
        }
    }

    /// A region from a locale tag's region subtag: a territory as `init(alpha2:)` reads it, or three digits ICU
    /// places in its region containment (`419`, `150`, `001`).
    public init?(subtag text: String) {
        if let region = Region(alpha2: text) {
            self = region
            return
        }
        let utf8 = text.utf8
        guard utf8.count == 3, utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            text == "001" || LocaleResolver.containingRegion(of: text) != nil
        else { return nil }
        self.init(canonical: text)
    }

    public var description: String { code }

    /// Every territory `init(alpha2:)` takes under its own code (aliases such as `UK` left out), sorted: what a
    /// completion or a form offers.
    package static var territories: [String] {
        (0..<(26 * 26)).compactMap { slot in
            canonicalCodes[slot].flatMap { $0 == letterCodes[slot] ? $0 : nil }
        }
    }

    /// The canonical code of each upper-case two-letter code, at `slot(_:)`; nil where ICU knows none. Asked of
    /// ICU once for all 676 codes, so a request finds a region by indexing.
    private static let canonicalCodes: [String?] = {
        var codes: [String?] = []
        codes.reserveCapacity(26 * 26)
        for first in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            for second in UInt8(ascii: "A")...UInt8(ascii: "Z") {
                let text = String(decoding: [first, second], as: UTF8.self)
                let code = ICUInfo.read(capacity: 8) { fmt_icu_address_territory(text, $0, $1) }
                codes.append(code.isEmpty ? nil : code)
            }
        }
        return codes
    }()

    /// Every slot's two letters, upper-cased: what `anyLetters` reads where ICU knows no territory.
    private static let letterCodes: [String] = (0..<(26 * 26)).map { slot in
        String(decoding: [UInt8(ascii: "A") + UInt8(slot / 26), UInt8(ascii: "A") + UInt8(slot % 26)], as: UTF8.self)
    }

    /// The slot of `ZZ`.
    private static let unknownSlot = 26 * 26 - 1

    /// The table index of two ASCII letters in either case.
    private static func slot(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard utf8.count == 2 else { return nil }
        return slot(utf8[utf8.startIndex], utf8[utf8.index(after: utf8.startIndex)])
    }

    private static func slot(_ first: UInt8, _ second: UInt8) -> Int? {
        let first = first & 0xDF
        let second = second & 0xDF
        let letters = UInt8(ascii: "A")...UInt8(ascii: "Z")
        guard letters.contains(first), letters.contains(second) else { return nil }
        return Int(first - UInt8(ascii: "A")) * 26 + Int(second - UInt8(ascii: "A"))
    }
}

extension ResolvedLocale {
    /// The viewer's region from the locale tag, canonical (`en-UK` → `GB`); nil when the tag has none or names
    /// a region ICU does not know, which then stays as sent in `region`.
    /// Made once with the resolution.
    @inlinable public var viewerRegion: Region? { storage.viewerRegion }
}
