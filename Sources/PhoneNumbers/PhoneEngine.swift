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
        let scalars = TextRules.scalars(of: text)
        if scalars.count > 250 { throw .tooLong }
        var national = try nationalPart(scalars)
        guard self.text.isViable(national) else { throw .notANumber }
        let regionTerritory = defaultRegion.flatMap { metadata.territory(forRegion: $0) }
        if regionTerritory == nil && checkRegion {
            guard let first = national.first, TextRules.isPlus(first) else { throw .invalidCountryCode }
        }
        var phoneExtension: String?
        if let (digits, rest) = self.text.splitExtension(national) {
            phoneExtension = digits
            national = rest
        }
        var territory = regionTerritory
        var countryCode: Int
        var digits: ArraySlice<UInt8>
        do {
            (countryCode, digits) = try extractCountryCode(national, territory: territory)
        } catch .invalidCountryCode where national.first.map(TextRules.isPlus) == true {
            let unsigned = national.drop { TextRules.isPlus($0) }
            (countryCode, digits) = try extractCountryCode(unsigned, territory: territory)
            if countryCode == 0 { throw .invalidCountryCode }
        }
        if countryCode != 0 {
            territory = metadata.territories(forCode: countryCode).first
        } else {
            digits = Self.normalize(national)[...]
            if let regionTerritory { countryCode = regionTerritory.countryCode }
        }
        if digits.count < 2 { throw .tooShortNSN }
        if let territory, let stripped = stripNationalPrefix(digits, territory) {
            switch Self.lengthCheck(stripped.count, territory.general) {
            case .tooShort, .localOnly, .invalidLength: break
            case .possible, .tooLong: digits = stripped
            }
        }
        if digits.count < 2 { throw .tooShortNSN }
        if digits.count > 17 { throw .tooLong }
        return PhoneNumber(
            countryCode: countryCode, nationalNumber: String(decoding: digits, as: UTF8.self),
            phoneExtension: phoneExtension)
    }

    private static let phoneContext = Array(";phone-context=".unicodeScalars)
    private static let telPrefix = Array("tel:".unicodeScalars)
    private static let isdnSubaddress = Array(";isub=".unicodeScalars)

    /// The part of the input holding the number: RFC 3966 handling, or extraction from surrounding text.
    private func nationalPart(_ scalars: [Unicode.Scalar]) throws(PhoneParseError) -> ArraySlice<Unicode.Scalar> {
        var national: ArraySlice<Unicode.Scalar>
        if let contextStart = Self.find(Self.phoneContext, in: scalars[...]) {
            let valueStart = contextStart + Self.phoneContext.count
            let valueEnd = scalars[valueStart...].firstIndex(of: ";") ?? scalars.endIndex
            let context = scalars[valueStart..<valueEnd]
            guard Self.isValidPhoneContext(context) else { throw .notANumber }
            var built: [Unicode.Scalar] = context.first == "+" ? Array(context) : []
            let numberStart = Self.find(Self.telPrefix, in: scalars[...]).map { $0 + Self.telPrefix.count } ?? 0
            if numberStart < contextStart { built += scalars[numberStart..<contextStart] }
            national = built[...]
        } else {
            national = Self.extractPossibleNumber(scalars[...])
        }
        if let isdn = Self.find(Self.isdnSubaddress, in: national), isdn > national.startIndex {
            national = national[..<isdn]
        }
        return national
    }

    private static func find(_ needle: [Unicode.Scalar], in haystack: ArraySlice<Unicode.Scalar>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == needle[0] && haystack[index..<index + needle.count].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// RFC 3966 `phone-context`: a global number (`+` and digits with visual separators) or a domain name.
    static func isValidPhoneContext(_ value: ArraySlice<Unicode.Scalar>) -> Bool {
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
    /// and a second number introduced by `/ x` or `\\ x`.
    static func extractPossibleNumber(_ text: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        guard let start = text.firstIndex(where: { TextRules.isPlus($0) || TextRules.isDecimalDigit($0) })
        else { return [] }
        var number = text[start...]
        while let last = number.last, last == "_" || !(last == "#" || TextRules.isWordCharacter(last)) {
            number = number.dropLast()
        }
        var index = number.startIndex
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

    /// Digits only (any script), or keypad conversion when the text holds three or more letters.
    static func normalize(_ text: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        var letters = 0
        for scalar in text {
            if scalar == "\n" { break }
            if TextRules.isLatinLetter(scalar) {
                letters += 1
                if letters == 3 { break }
            }
        }
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        if letters >= 3 {
            for scalar in text {
                if scalar.value >= 48 && scalar.value <= 57 {
                    result.append(UInt8(scalar.value))
                } else if let digit = TextRules.keypadDigit(scalar) {
                    result.append(digit)
                }
            }
        } else {
            for scalar in text {
                if let digit = TextRules.digitValue(scalar) { result.append(digit) }
            }
        }
        return result
    }

    /// Finds the country calling code from a plus sign, an IDD, or the default region's own code.
    /// Returns 0 and no digits when there is none.
    private func extractCountryCode(
        _ national: ArraySlice<Unicode.Scalar>, territory: Territory?
    ) throws(PhoneParseError) -> (Int, ArraySlice<UInt8>) {
        if national.isEmpty { return (0, []) }
        var full: ArraySlice<UInt8>
        var explicit = false
        let plusCount = national.prefix { TextRules.isPlus($0) }.count
        if plusCount > 0 {
            full = Self.normalize(national.dropFirst(plusCount))[...]
            explicit = true
        } else {
            full = Self.normalize(national)[...]
            if let idd = territory?.internationalPrefix,
                let end = full.withUnsafeBufferPointer({ idd.matchEnd($0) })
            {
                let rest = full.dropFirst(end)
                if rest.first != UInt8(ascii: "0") {
                    full = rest
                    explicit = true
                }
            }
        }
        if explicit {
            if full.count <= 2 { throw .tooShortAfterIDD }
            if full.first != UInt8(ascii: "0") {
                var code = 0
                for length in 1...min(3, full.count) {
                    code = code * 10 + Int(full[full.startIndex + length - 1] - 48)
                    if !metadata.territories(forCode: code).isEmpty { return (code, full.dropFirst(length)) }
                }
            }
            throw .invalidCountryCode
        }
        if let territory, full.starts(with: territory.countryCodeDigits) {
            var potential = full.dropFirst(territory.countryCodeDigits.count)
            if let stripped = stripNationalPrefix(potential, territory) { potential = stripped }
            let fullMatches = full.withUnsafeBufferPointer { territory.general.matchesPattern($0) }
            let potentialMatches = potential.withUnsafeBufferPointer { territory.general.matchesPattern($0) }
            if (!fullMatches && potentialMatches) || Self.lengthCheck(full.count, territory.general) == .tooLong {
                return (territory.countryCode, potential)
            }
        }
        return (0, [])
    }

    /// Strips a national prefix (and carrier code) per `nationalPrefixForParsing`, applying the transform rule.
    /// Returns `nil` when nothing applies or when stripping would turn a matching number into a non-matching one.
    private func stripNationalPrefix(_ digits: ArraySlice<UInt8>, _ territory: Territory) -> ArraySlice<UInt8>? {
        guard !digits.isEmpty, let prefix = territory.nationalPrefixForParsing else { return nil }
        let groupCount = prefix.groupCount
        return digits.withUnsafeBufferPointer { buffer -> ArraySlice<UInt8>? in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(2 * groupCount, 1)) { slots in
                guard let end = prefix.match(buffer, from: 0, slots: slots) else { return nil }
                let viableBefore = territory.general.matchesPattern(buffer)
                var result: ArraySlice<UInt8>
                if let transform = territory.nationalPrefixTransform, groupCount > 0,
                    slots[2 * groupCount - 2] >= 0, slots[2 * groupCount - 1] >= slots[2 * groupCount - 2]
                {
                    var built: [UInt8] = []
                    for piece in transform {
                        switch piece {
                        case .text(let text): built += text
                        case .group(let index):
                            guard index >= 1, index <= groupCount else { continue }
                            let lower = Int(slots[2 * index - 2])
                            let upper = Int(slots[2 * index - 1])
                            if lower >= 0 && upper >= lower { built += buffer[lower..<upper] }
                        }
                    }
                    built += buffer[end...]
                    result = built[...]
                } else {
                    result = digits.dropFirst(end)
                }
                if viableBefore && !result.withUnsafeBufferPointer({ territory.general.matchesPattern($0) }) {
                    return nil
                }
                return result
            }
        }
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

    // MARK: Validation

    /// The region of a number: the only region of its calling code, or among regions sharing it the first whose
    /// `leadingDigits` match (or, lacking them, whose types match). `nil` when none fits; `001` for
    /// non-geographic numbers.
    public func region(of number: PhoneNumber) -> String? {
        classify(number).territory?.id
    }

    /// Whether the number is valid: its region's metadata knows the number as some type.
    public func isValid(_ number: PhoneNumber) -> Bool {
        classify(number).type != .unknown
    }

    /// The number's type, `unknown` when it has no single region or matches no type.
    public func type(of number: PhoneNumber) -> PhoneNumberType {
        classify(number).type
    }

    /// The number's territory (as `region(of:)` decides) and its type there.
    func classify(_ number: PhoneNumber) -> (territory: Territory?, type: PhoneNumberType) {
        let candidates = metadata.territories(forCode: number.countryCode)
        if candidates.isEmpty { return (nil, .unknown) }
        var nsn = number.nationalNumber
        return nsn.withUTF8 { digits -> (Territory?, PhoneNumberType) in
            if candidates.count == 1 { return (candidates[0], Self.type(digits, candidates[0])) }
            for territory in candidates {
                if let leading = territory.leadingDigits {
                    if leading.matchesPrefix(digits) { return (territory, Self.type(digits, territory)) }
                } else {
                    let type = Self.type(digits, territory)
                    if type != .unknown { return (territory, type) }
                }
            }
            return (nil, .unknown)
        }
    }

    static func type(_ digits: UnsafeBufferPointer<UInt8>, _ territory: Territory) -> PhoneNumberType {
        guard territory.general.matches(digits) else { return .unknown }
        let types = territory.types
        for index in 0..<8 where types[index]?.matches(digits) == true {
            return Territory.typeOrder[index]
        }
        let mobile = types[9]
        if types[8]?.matches(digits) == true {
            if territory.sameMobileAndFixedLinePattern || mobile?.matches(digits) == true { return .fixedLineOrMobile }
            return .fixedLine
        }
        if !territory.sameMobileAndFixedLinePattern && mobile?.matches(digits) == true { return .mobile }
        return .unknown
    }

    // MARK: Formatting

    /// Formats the number; the metadata of the calling code's main region decides the grouping.
    public func format(_ number: PhoneNumber, _ style: PhoneNumberFormat) -> String {
        switch style {
        case .e164: "+\(number.countryCode)\(number.nationalNumber)"
        case .national: forms(number).national
        case .international: forms(number).international
        case .rfc3966: forms(number).rfc3966
        }
    }

    /// National, international and RFC 3966 forms, sharing the format choice and one output buffer.
    func forms(_ number: PhoneNumber) -> (national: String, international: String, rfc3966: String) {
        let code = number.countryCode
        guard let territory = metadata.territories(forCode: code).first else {
            return (number.nationalNumber, number.nationalNumber, number.nationalNumber)
        }
        let phoneExtension = number.phoneExtension.flatMap { $0.isEmpty ? nil : $0 }
        let extensionPrefix = territory.preferredExtnPrefix ?? " ext. "
        var out: [UInt8] = []
        out.reserveCapacity(112)
        var nsn = number.nationalNumber
        var nationalEnd = 0
        var groupedStart = 0
        var groupedEnd = 0
        nsn.withUTF8 { digits in
            let nationalFormat = Self.chooseFormat(territory.formats, territory.formatsByPrefix, digits)
            if let nationalFormat {
                Self.substitute(
                    nationalFormat.pattern, nationalFormat.nationalWithPrefix ?? nationalFormat.national, digits,
                    into: &out)
            } else {
                out += digits
            }
            if let phoneExtension {
                out += extensionPrefix.utf8
                out += phoneExtension.utf8
            }
            nationalEnd = out.count
            out.append(UInt8(ascii: "+"))
            Self.appendDecimal(code, to: &out)
            out.append(UInt8(ascii: " "))
            groupedStart = out.count
            let internationalFormat: NumberFormat?
            let internationalTemplate: [NumberFormat.Piece]?
            if territory.internationalFormats.isEmpty {
                internationalFormat = nationalFormat
                internationalTemplate = nationalFormat?.national
            } else {
                internationalFormat = Self.chooseFormat(
                    territory.internationalFormats, territory.internationalFormatsByPrefix, digits)
                internationalTemplate = internationalFormat.map { $0.international ?? $0.national }
            }
            if let internationalFormat, let internationalTemplate {
                Self.substitute(internationalFormat.pattern, internationalTemplate, digits, into: &out)
            } else {
                out += digits
            }
            groupedEnd = out.count
        }
        if let phoneExtension {
            out += extensionPrefix.utf8
            out += phoneExtension.utf8
        }
        let rfcStart = out.count
        out += "tel:+".utf8
        Self.appendDecimal(code, to: &out)
        out.append(UInt8(ascii: "-"))
        Self.appendRFC3966Separators(from: groupedStart..<groupedEnd, in: &out)
        if let phoneExtension {
            out += ";ext=".utf8
            out += phoneExtension.utf8
        }
        return out.withUnsafeBufferPointer { buffer in
            (
                String(decoding: buffer[..<nationalEnd], as: UTF8.self),
                String(decoding: buffer[nationalEnd..<rfcStart], as: UTF8.self),
                String(decoding: buffer[rfcStart...], as: UTF8.self)
            )
        }
    }

    private static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &output) }
        output.append(UInt8(48 + value % 10))
    }

    /// The first format whose last `leadingDigits` pattern matches a prefix and whose pattern matches the whole.
    private static func chooseFormat(
        _ formats: [NumberFormat], _ byPrefix: [[NumberFormat]], _ digits: UnsafeBufferPointer<UInt8>
    ) -> NumberFormat? {
        var candidates = formats
        if digits.count >= 2, !byPrefix.isEmpty {
            let first = Int(digits[0] &- 48)
            let second = Int(digits[1] &- 48)
            guard first < 10, second < 10 else { return nil }
            candidates = byPrefix[first * 10 + second]
        }
        for format in candidates {
            if let leading = format.leadingDigits, !leading.matchesPrefix(digits) { continue }
            if format.pattern.matchesWhole(digits) { return format }
        }
        return nil
    }

    /// Replaces every successive match of the pattern by the template, like a regex substitution.
    private static func substitute(
        _ pattern: DigitPattern, _ template: [NumberFormat.Piece], _ digits: UnsafeBufferPointer<UInt8>,
        into output: inout [UInt8]
    ) {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(2 * pattern.groupCount, 1)) { slots in
            var position = 0
            while position < digits.count {
                if let end = pattern.match(digits, from: position, slots: slots), end > position {
                    for piece in template {
                        switch piece {
                        case .text(let text): output += text
                        case .group(let group):
                            guard group >= 1, group <= pattern.groupCount else { continue }
                            let lower = Int(slots[2 * group - 2])
                            let upper = Int(slots[2 * group - 1])
                            if lower >= 0 && upper >= lower { output += digits[lower..<upper] }
                        }
                    }
                    position = end
                } else {
                    output.append(digits[position])
                    position += 1
                }
            }
        }
    }

    /// Appends a copy of `range` of `output` with leading punctuation dropped and each run of punctuation turned
    /// into one `-`.
    private static func appendRFC3966Separators(from range: Range<Int>, in output: inout [UInt8]) {
        var wroteAny = false
        var inSeparator = false
        if output[range].allSatisfy({ $0 < 0x80 }) {
            for index in range {
                let byte = output[index]
                if TextRules.isPunctuation(Unicode.Scalar(byte)) {
                    inSeparator = true
                    continue
                }
                if inSeparator && wroteAny { output.append(UInt8(ascii: "-")) }
                inSeparator = false
                wroteAny = true
                output.append(byte)
            }
        } else {
            let text = String(decoding: output[range], as: UTF8.self)
            for scalar in text.unicodeScalars {
                if TextRules.isPunctuation(scalar) {
                    inSeparator = true
                    continue
                }
                if inSeparator && wroteAny { output.append(UInt8(ascii: "-")) }
                inSeparator = false
                wroteAny = true
                output += String(scalar).utf8
            }
        }
        if inSeparator && wroteAny { output.append(UInt8(ascii: "-")) }
    }

    // MARK: Description

    /// `+`, the calling code and the national number, appended rather than interpolated.
    private static func e164(_ number: PhoneNumber) -> String {
        var text = "+"
        text += String(number.countryCode)
        text += number.nationalNumber
        return text
    }

    /// Parses and describes a number as the daemon reports it. `viewerRegion` decides `display`.
    public func describe(
        number text: String, defaultRegion: String?, viewerRegion: String?
    ) throws(PhoneParseError) -> PhoneDescription {
        describe(try parse(text, defaultRegion: defaultRegion), viewerRegion: viewerRegion)
    }

    /// Describes a parsed number; `display` is national when `viewerRegion` is the number's region.
    public func describe(_ number: PhoneNumber, viewerRegion: String?) -> PhoneDescription {
        let (territory, type) = classify(number)
        let region = territory?.id
        let (national, international, rfc3966) = forms(number)
        let possibility = possibility(of: number)
        return PhoneDescription(
            valid: type != .unknown, e164: Self.e164(number), region: region,
            type: type, national: national, international: international, rfc3966: rfc3966,
            display: region != nil && region == viewerRegion ? national : international,
            phoneExtension: number.phoneExtension, possible: possibility.isPossible, possibleReason: possibility,
            dialFrom: dialForm(number, from: viewerRegion, national: national, international: international))
    }
}
