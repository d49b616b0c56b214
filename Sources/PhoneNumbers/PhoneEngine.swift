import FmtCore

/// Why text could not be parsed as a phone number; `reason` is upstream's name for the error.
public enum PhoneParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case notANumber
    case invalidCountryCode
    case tooShortAfterIDD
    case tooShortNSN
    case tooLong

    /// Upstream's error name, e.g. `TOO_SHORT_NSN`.
    public var reason: String {
        switch self {
        case .notANumber: "NOT_A_NUMBER"
        case .invalidCountryCode: "INVALID_COUNTRY_CODE"
        case .tooShortAfterIDD: "TOO_SHORT_AFTER_IDD"
        case .tooShortNSN: "TOO_SHORT_NSN"
        case .tooLong: "TOO_LONG"
        }
    }

    /// The upstream error name.
    public var description: String { reason }
}

/// A parsed phone number.
public struct PhoneNumber: Sendable, Hashable {
    /// Country calling code, e.g. 44.
    public let countryCode: Int
    /// National significant number: ASCII digits, leading zeros kept (Italian numbers).
    public let nationalNumber: String
    /// Extension digits as written, if any.
    public let phoneExtension: String?

    /// A number from its parts; `nationalNumber` holds ASCII digits.
    public init(countryCode: Int, nationalNumber: String, phoneExtension: String? = nil) {
        self.countryCode = countryCode
        self.nationalNumber = nationalNumber
        self.phoneExtension = phoneExtension
    }
}

/// Output styles.
public enum PhoneNumberFormat: String, Sendable, CaseIterable {
    case e164, international, national, rfc3966
}

/// Everything the daemon reports about a number.
public struct PhoneDescription: Sendable, Equatable, Codable {
    /// Whether libphonenumber would call the number valid.
    public var valid: Bool
    /// `+` country code and national significant number, no extension.
    public var e164: String
    /// Region as libphonenumber determines it; `nil` when no single region fits.
    public var region: String?
    /// The number's type (`unknown` for invalid numbers).
    public var type: PhoneNumberType
    /// National format, with national prefix and extension.
    public var national: String
    /// International format, e.g. `+31 6 12345678`.
    public var international: String
    /// `tel:` URI, e.g. `tel:+31-6-12345678;ext=12`.
    public var rfc3966: String
    /// National form when the viewer is in the number's region, else international.
    public var display: String
    /// Extension digits, encoded as `extension`.
    public var phoneExtension: String?
    /// Whether the length is possible (upstream's `isPossibleNumber`).
    public var possible: Bool
    /// Upstream's `isPossibleNumberWithReason`.
    public var possibleReason: PhonePossibility
    /// How to dial the number from the viewer's region (upstream's `formatOutOfCountryCallingNumber`).
    public var dialFrom: String

    enum CodingKeys: String, CodingKey {
        case valid, e164, region, type, national, international, rfc3966, display
        case phoneExtension = "extension"
        case possible, possibleReason, dialFrom
    }
}

/// A parsed number in scratch memory: valid only inside the closure it is given to.
struct NumberBytes {
    let countryCode: Int
    /// ASCII digits.
    let nationalNumber: UnsafeBufferPointer<UInt8>
    /// The extension's digits as written, UTF-8.
    let phoneExtension: UnsafeBufferPointer<UInt8>?
    /// Whether both texts were made by parsing: digits, and the texts of national prefix transforms (a
    /// `PhoneNumber`'s may be anything). With plain transforms they go into JSON strings unchecked.
    var isParsed = false

    var number: PhoneNumber {
        PhoneNumber(
            countryCode: countryCode, nationalNumber: String(decoding: nationalNumber, as: UTF8.self),
            phoneExtension: phoneExtension.map { String(decoding: $0, as: UTF8.self) })
    }
}

/// A run of an input's scalars in the buffer a parse decodes it into.
typealias Scalars = Slice<UnsafeBufferPointer<Unicode.Scalar>>

/// Parses, validates and formats phone numbers like libphonenumber, over a metadata snapshot.
public struct PhoneEngine: Sendable {
    /// The metadata snapshot in use.
    public let metadata: PhoneMetadata
    let text: TextPatterns

    /// An engine over a metadata snapshot; cheap enough to build on every reload.
    public init(metadata: PhoneMetadata) {
        self.metadata = metadata
        self.text = TextPatterns()
    }

    // MARK: Parsing

    /// Parses `text`; `defaultRegion` (upper-case region code) is used for numbers without a country code.
    public func parse(_ text: String, defaultRegion: String?) throws(PhoneParseError) -> PhoneNumber {
        try parse(text, defaultRegion: defaultRegion, checkRegion: true)
    }

    /// `parse`; with `checkRegion` false a number without a country code and without a (known) default region
    /// parses with country code 0, as upstream's internal parse for matching does.
    func parse(_ text: String, defaultRegion: String?, checkRegion: Bool) throws(PhoneParseError) -> PhoneNumber {
        try withParsed(text, defaultRegion: defaultRegion, checkRegion: checkRegion) { $0.number }
    }

    /// The most scalars a number's text may have (upstream's `MAX_INPUT_STRING_LENGTH`).
    static let maximumInputLength = 250

    /// Parses `text` into scratch memory on the stack and calls `body` with the result, valid only inside it.
    func withParsed<Result>(
        _ text: String, defaultRegion: String?, checkRegion: Bool, _ body: (NumberBytes) -> Result
    ) throws(PhoneParseError) -> Result {
        let region = defaultRegion.flatMap { metadata.plan(forRegion: $0) }
        var text = text
        return try text.withUTF8 { utf8 in
            Swift.Result { () throws(PhoneParseError) -> Result in
                try metadata.tables.withParsed(utf8: utf8, region: region, checkRegion: checkRegion, body)
            }
        }.get()
    }

    /// `withParsed(_:defaultRegion:checkRegion:_:)` over the text's well-formed UTF-8.
    func withParsed<Result>(
        utf8 text: UnsafeBufferPointer<UInt8>, defaultRegion: String?, checkRegion: Bool,
        _ body: (NumberBytes) -> Result
    ) throws(PhoneParseError) -> Result {
        let region = defaultRegion.flatMap { metadata.plan(forRegion: $0) }
        return try metadata.tables.withParsed(utf8: text, region: region, checkRegion: checkRegion, body)
    }

    /// The scalars' UTF-8 in the arena (an extension as written: at most 20 scalars).
    static func utf8(_ scalars: Scalars, arena: inout ScratchArena) -> UnsafeBufferPointer<UInt8> {
        let out = arena.take(4 * scalars.count)
        var cursor = ByteCursor(out)
        for scalar in scalars {
            for unit in UTF8.encode(scalar)! { cursor.write(unit) }
        }
        return UnsafeBufferPointer(rebasing: out[..<cursor.written])
    }

    private static let phoneContext = Array(";phone-context=".unicodeScalars)
    private static let telPrefix = Array("tel:".unicodeScalars)
    private static let isdnSubaddress = Array(";isub=".unicodeScalars)

    /// The part of the input holding the number: RFC 3966 handling, or extraction from surrounding text. A number
    /// put together from a `phone-context` is written into `spare`, which is at least as long as the input.
    /// `isPlainNumber`: every scalar is a plain number character (`ExtensionGrammar.isPlainNumberCharacter`).
    static func nationalPart(
        _ scalars: Scalars, spare: UnsafeMutableBufferPointer<Unicode.Scalar>, isPlainNumber: Bool = false
    ) throws(PhoneParseError) -> Scalars {
        var national: Scalars
        // `;phone-context=` and `;isub=` both start with a semicolon, which few numbers hold.
        let mayHaveParameters = !isPlainNumber && scalars.contains(";")
        if mayHaveParameters, let contextStart = Self.find(Self.phoneContext, in: scalars) {
            let valueStart = contextStart + Self.phoneContext.count
            let valueEnd = scalars[valueStart...].firstIndex(of: ";") ?? scalars.endIndex
            let context = scalars[valueStart..<valueEnd]
            guard Self.isValidPhoneContext(context) else { throw .notANumber }
            var built = 0
            if context.first == "+" {
                for scalar in context {
                    spare[built] = scalar
                    built += 1
                }
            }
            let numberStart = Self.find(Self.telPrefix, in: scalars).map { $0 + Self.telPrefix.count } ?? 0
            if numberStart < contextStart {
                for scalar in scalars[numberStart..<contextStart] {
                    spare[built] = scalar
                    built += 1
                }
            }
            national = UnsafeBufferPointer(rebasing: spare[..<built])[...]
        } else {
            national = Self.extractPossibleNumber(scalars, mayHoldSecondNumber: !isPlainNumber)
        }
        if mayHaveParameters, let isdn = Self.find(Self.isdnSubaddress, in: national), isdn > national.startIndex {
            national = national[..<isdn]
        }
        return national
    }

    static func find<Text: ScalarText>(_ needle: [Unicode.Scalar], in haystack: Text) -> Int? {
        guard haystack.count >= needle.count, let head = needle.first else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == head && haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// RFC 3966 `phone-context`: a global number (`+` and digits with visual separators) or a domain name.
    static func isValidPhoneContext<Text: ScalarText>(_ value: Text) -> Bool {
        guard let first = value.first else { return false }
        if first == "+" {
            let rest = value.dropFirst()
            return rest.contains(where: TextRules.isDecimalDigit)
                && rest.allSatisfy { TextRules.isDecimalDigit($0) || "-.()".unicodeScalars.contains($0) }
        }
        var labels = value
        if labels.last == "." { labels = labels.dropLast() }
        let parts = labels.split(separator: ".", omittingEmptySubsequences: false)
        guard let top = parts.last else { return false }
        for part in parts {
            guard let head = part.first, let tail = part.last, head != "-", tail != "-",
                part.allSatisfy({ TextRules.isLatinLetter($0) || TextRules.isDecimalDigit($0) || $0 == "-" })
            else { return false }
        }
        return top.first.map(TextRules.isLatinLetter) == true
    }

    /// Trims text before the first digit or plus sign, trailing characters other than letters, numbers and `#`,
    /// and a second number introduced by `/ x` or `\\ x` (which a text without an `x` cannot hold: then
    /// `mayHoldSecondNumber` may be false).
    static func extractPossibleNumber<Text: ScalarText>(_ text: Text, mayHoldSecondNumber: Bool = true) -> Text {
        guard let start = text.firstIndex(where: { TextRules.isPlus($0) || TextRules.isDecimalDigit($0) })
        else { return text[text.endIndex...] }
        var number = text[start...]
        while let last = number.last, last == "_" || !(last == "#" || TextRules.isWordCharacter(last)) {
            number = number.dropLast()
        }
        var index = mayHoldSecondNumber ? number.startIndex : number.endIndex
        while index < number.endIndex {
            if number[index] == "/" || number[index] == "\\" {
                var next = index + 1
                while next < number.endIndex, number[next] == " " { next += 1 }
                if next < number.endIndex, number[next] == "x" {
                    return number[..<index]
                }
            }
            index += 1
        }
        return number
    }

    /// Digits only (any script), or keypad conversion when the text holds three or more letters (which it cannot
    /// when `mayHoldLetters` is false); written into the arena.
    static func normalize(
        _ text: Scalars, mayHoldLetters: Bool = true, arena: inout ScratchArena
    ) -> UnsafeBufferPointer<UInt8> {
        var letters = 0
        if mayHoldLetters {
            for scalar in text {
                if scalar == "\n" { break }
                if TextRules.isLatinLetter(scalar) {
                    letters += 1
                    if letters == 3 { break }
                }
            }
        }
        let out = arena.take(text.count)
        var cursor = ByteCursor(out)
        if letters >= 3 {
            for scalar in text {
                if scalar.value >= 48 && scalar.value <= 57 {
                    cursor.write(UInt8(truncatingIfNeeded: scalar.value))
                } else if let digit = TextRules.keypadDigit(scalar) {
                    cursor.write(digit)
                }
            }
        } else {
            for scalar in text {
                if let digit = TextRules.digitValue(scalar) { cursor.write(digit) }
            }
        }
        return UnsafeBufferPointer(rebasing: out[..<cursor.written])
    }

    enum LengthResult {
        case possible, localOnly, tooShort, tooLong, invalidLength
    }

    static func lengthCheck(_ length: Int, _ desc: NumberDesc) -> LengthResult {
        if length < 32 && desc.localOnly & (1 << UInt32(length)) != 0 { return .localOnly }
        if length == desc.minLength { return .possible }
        if length < desc.minLength { return .tooShort }
        if length > desc.maxLength { return .tooLong }
        return desc.lengths & (1 << UInt32(length)) != 0 ? .possible : .invalidLength
    }
}

extension PlanTables {
    /// `PhoneEngine.withParsed`, with the default region's territory found.
    func withParsed<Result>(
        utf8 text: UnsafeBufferPointer<UInt8>, region regionTerritory: UnsafePointer<TerritoryPlan>?,
        checkRegion: Bool, _ body: (NumberBytes) -> Result
    ) throws(PhoneParseError) -> Result {
        // The input and, behind it, the text an RFC 3966 `phone-context` puts together (never longer than it).
        let outcome = TextRules.withScalars(utf8: text, limit: PhoneEngine.maximumInputLength, factor: 2) {
            buffer, count -> Swift.Result<Result, PhoneParseError> in
            // Digits are normalised at most three times, each no longer than the text; an extension's digits are
            // at most 20 scalars. National prefix transforms, which need more, spill to the heap.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 3 * count + 96) { storage in
                var arena = ScratchArena(storage)
                let parsed = Swift.Result { () throws(PhoneParseError) -> NumberBytes in
                    try parse(
                        UnsafeMutableBufferPointer(rebasing: buffer[..<count]),
                        spare: UnsafeMutableBufferPointer(rebasing: buffer[count...]),
                        regionTerritory: regionTerritory, checkRegion: checkRegion, arena: &arena)
                }
                return arena.keepingAlive { parsed.map(body) }
            }
        }
        guard let outcome else { throw .tooLong }
        return try outcome.get()
    }

    private func parse(
        _ input: UnsafeMutableBufferPointer<Unicode.Scalar>, spare: UnsafeMutableBufferPointer<Unicode.Scalar>,
        regionTerritory: UnsafePointer<TerritoryPlan>?, checkRegion: Bool, arena: inout ScratchArena
    ) throws(PhoneParseError) -> NumberBytes {
        // Most numbers are digits and separators alone: then several searches below are known to find nothing.
        let isPlainNumber = input.allSatisfy(ExtensionGrammar.isPlainNumberCharacter)
        var national = try PhoneEngine.nationalPart(
            UnsafeBufferPointer(input)[...], spare: spare, isPlainNumber: isPlainNumber)
        guard TextPatterns().isViable(national) else { throw .notANumber }
        if regionTerritory == nil && checkRegion {
            guard let first = national.first, TextRules.isPlus(first) else { throw .invalidCountryCode }
        }
        var phoneExtension: UnsafeBufferPointer<UInt8>?
        if !isPlainNumber, let (digits, rest) = TextPatterns().splitExtension(national) {
            phoneExtension = PhoneEngine.utf8(digits, arena: &arena)
            national = rest
        }
        var territory = regionTerritory
        var countryCode: Int
        var digits: UnsafeBufferPointer<UInt8>
        do {
            (countryCode, digits) = try extractCountryCode(
                national, territory: territory, mayHoldLetters: !isPlainNumber, arena: &arena)
        } catch .invalidCountryCode where national.first.map(TextRules.isPlus) == true {
            let unsigned = national.drop { TextRules.isPlus($0) }
            (countryCode, digits) = try extractCountryCode(
                unsigned, territory: territory, mayHoldLetters: !isPlainNumber, arena: &arena)
            if countryCode == 0 { throw .invalidCountryCode }
        }
        if countryCode != 0 {
            territory = mainPlan(forCode: countryCode)
        } else if let regionTerritory {
            countryCode = regionTerritory.pointee.countryCode
        }
        if digits.count < 2 { throw .tooShortNSN }
        if let territory, let stripped = stripNationalPrefix(digits, territory, arena: &arena) {
            switch PhoneEngine.lengthCheck(stripped.count, territory.pointee.general) {
            case .tooShort, .localOnly, .invalidLength: break
            case .possible, .tooLong: digits = stripped
            }
        }
        if digits.count < 2 { throw .tooShortNSN }
        if digits.count > 17 { throw .tooLong }
        return NumberBytes(
            countryCode: countryCode, nationalNumber: digits, phoneExtension: phoneExtension, isParsed: true)
    }

    /// Finds the country calling code from a plus sign, an IDD, or the default region's own code.
    /// Returns 0 and the text's digits, normalised, when there is none.
    private func extractCountryCode(
        _ national: Scalars, territory: UnsafePointer<TerritoryPlan>?, mayHoldLetters: Bool,
        arena: inout ScratchArena
    ) throws(PhoneParseError) -> (Int, UnsafeBufferPointer<UInt8>) {
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        if national.isEmpty { return (0, none) }
        var full: UnsafeBufferPointer<UInt8>
        var explicit = false
        var plusCount = 0
        while plusCount < national.count, TextRules.isPlus(national[national.startIndex + plusCount]) {
            plusCount += 1
        }
        if plusCount > 0 {
            full = PhoneEngine.normalize(national.dropFirst(plusCount), mayHoldLetters: mayHoldLetters, arena: &arena)
            explicit = true
        } else {
            full = PhoneEngine.normalize(national, mayHoldLetters: mayHoldLetters, arena: &arena)
            if let idd = territory?.pointee.internationalPrefix, let end = idd.matchEnd(full) {
                let rest = full.dropping(end)
                if rest.first != UInt8(ascii: "0") {
                    full = rest
                    explicit = true
                }
            }
        }
        if explicit {
            if full.count <= 2 { throw .tooShortAfterIDD }
            if full[0] != UInt8(ascii: "0") {
                var code = 0
                for length in 1...3 {
                    code = code * 10 + Int(full[length - 1] &- 48)
                    if hasTerritory(forCode: code) { return (code, full.dropping(length)) }
                }
            }
            throw .invalidCountryCode
        }
        if let territory, full.starts(with: territory.pointee.countryCodeDigits.buffer) {
            var potential = full.dropping(territory.pointee.countryCodeDigits.count)
            if let stripped = stripNationalPrefix(potential, territory, arena: &arena) { potential = stripped }
            let fullMatches = territory.pointee.general.matchesPattern(full)
            let potentialMatches = territory.pointee.general.matchesPattern(potential)
            if (!fullMatches && potentialMatches)
                || PhoneEngine.lengthCheck(full.count, territory.pointee.general) == .tooLong
            {
                return (territory.pointee.countryCode, potential)
            }
        }
        // Only the explicit case above changes `full`, and it returns or throws.
        return (0, full)
    }

    /// Strips a national prefix (and carrier code) per `nationalPrefixForParsing`, applying the transform rule.
    /// Returns `nil` when nothing applies or when stripping would turn a matching number into a non-matching one.
    private func stripNationalPrefix(
        _ digits: UnsafeBufferPointer<UInt8>, _ territory: UnsafePointer<TerritoryPlan>, arena: inout ScratchArena
    ) -> UnsafeBufferPointer<UInt8>? {
        guard !digits.isEmpty, let prefix = territory.pointee.nationalPrefixForParsing, prefix.mayMatchPrefix(digits)
        else { return nil }
        let groupCount = prefix.groupCount
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(2 * groupCount, 1)) {
            slots -> UnsafeBufferPointer<UInt8>? in
            guard let end = prefix.match(digits, from: 0, slots: slots) else { return nil }
            let viableBefore = territory.pointee.general.matchesPattern(digits)
            var result: UnsafeBufferPointer<UInt8>
            if let transform = territory.pointee.nationalPrefixTransform, groupCount > 0,
                slots[2 * groupCount - 2] >= 0, slots[2 * groupCount - 1] >= slots[2 * groupCount - 2]
            {
                let groups = UnsafeBufferPointer(slots)
                let out = arena.take(transform.length(groups: groups, groupCount: groupCount) + digits.count - end)
                var cursor = ByteCursor(out)
                transform.write(digits, groups: groups, groupCount: groupCount, into: &cursor)
                cursor.write(UnsafeBufferPointer(rebasing: digits[end...]))
                result = UnsafeBufferPointer(rebasing: out[..<cursor.written])
            } else {
                result = digits.dropping(end)
            }
            if viableBefore && !territory.pointee.general.matchesPattern(result) { return nil }
            return result
        }
    }
}
