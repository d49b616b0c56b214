import FmtCore

/// A number's description as `describe` gives it, every text UTF-8 in scratch memory (and the extension where it
/// lies in the request). Not escapable: the compiler keeps it inside the closure it is lent to, and its texts are
/// lent as `Span`s no longer than it. The `phone` op writes it into the response without building a `String`.
public struct PhoneDescriptionBytes: ~Escapable {
    /// Whether libphonenumber would call the number valid.
    public let valid: Bool
    /// The number's type (`unknown` for invalid numbers).
    public let type: PhoneNumberType
    /// Upstream's `isPossibleNumberWithReason`.
    public let possibleReason: PhonePossibility
    /// Whether every text is known to go into a JSON string as it is: made of digits and the texts of plain
    /// metadata. When false a text may still be plain, and a writer checks.
    public let isKnownPlain: Bool
    // The texts, for the package's writers (`PhoneResponse`), which take them only while this value is lent.
    package let e164Bytes: UnsafeBufferPointer<UInt8>
    package let regionBytes: UnsafeBufferPointer<UInt8>?
    package let nationalBytes: UnsafeBufferPointer<UInt8>
    package let internationalBytes: UnsafeBufferPointer<UInt8>
    package let rfc3966Bytes: UnsafeBufferPointer<UInt8>
    package let displayBytes: UnsafeBufferPointer<UInt8>
    package let phoneExtensionBytes: UnsafeBufferPointer<UInt8>?
    package let dialFromBytes: UnsafeBufferPointer<UInt8>

    @_lifetime(immortal)
    package init(
        valid: Bool, e164: UnsafeBufferPointer<UInt8>, region: UnsafeBufferPointer<UInt8>?, type: PhoneNumberType,
        national: UnsafeBufferPointer<UInt8>, international: UnsafeBufferPointer<UInt8>,
        rfc3966: UnsafeBufferPointer<UInt8>, display: UnsafeBufferPointer<UInt8>,
        phoneExtension: UnsafeBufferPointer<UInt8>?, possibleReason: PhonePossibility,
        dialFrom: UnsafeBufferPointer<UInt8>, isKnownPlain: Bool
    ) {
        self.valid = valid
        self.type = type
        self.possibleReason = possibleReason
        self.isKnownPlain = isKnownPlain
        e164Bytes = e164
        regionBytes = region
        nationalBytes = national
        internationalBytes = international
        rfc3966Bytes = rfc3966
        displayBytes = display
        phoneExtensionBytes = phoneExtension
        dialFromBytes = dialFrom
    }

    /// `bytes` (one of the description's texts) as a span that lives no longer than the description: the one place
    /// the texts' lifetime is tied to it.
    @_lifetime(copy self)
    private func lent(_ bytes: UnsafeBufferPointer<UInt8>) -> Span<UInt8> {
        _overrideLifetime(bytes.span, copying: self)
    }

    /// `+` country code and national significant number, no extension.
    public var e164: Span<UInt8> {
        @_lifetime(copy self) get { lent(e164Bytes) }
    }
    /// Region as libphonenumber determines it; `nil` when no single region fits.
    public var region: Span<UInt8>? {
        @_lifetime(copy self) get {
            guard let regionBytes else { return nil }
            return lent(regionBytes)
        }
    }
    /// National format, with national prefix and extension.
    public var national: Span<UInt8> {
        @_lifetime(copy self) get { lent(nationalBytes) }
    }
    /// International format, e.g. `+31 6 12345678`.
    public var international: Span<UInt8> {
        @_lifetime(copy self) get { lent(internationalBytes) }
    }
    /// `tel:` URI, e.g. `tel:+31-6-12345678;ext=12`.
    public var rfc3966: Span<UInt8> {
        @_lifetime(copy self) get { lent(rfc3966Bytes) }
    }
    /// National form when the viewer is in the number's region, else international.
    public var display: Span<UInt8> {
        @_lifetime(copy self) get { lent(displayBytes) }
    }
    /// Extension digits as written.
    public var phoneExtension: Span<UInt8>? {
        @_lifetime(copy self) get {
            guard let phoneExtensionBytes else { return nil }
            return lent(phoneExtensionBytes)
        }
    }
    /// How to dial the number from the viewer's region (upstream's `formatOutOfCountryCallingNumber`).
    public var dialFrom: Span<UInt8> {
        @_lifetime(copy self) get { lent(dialFromBytes) }
    }

    /// Whether the length is possible (upstream's `isPossibleNumber`).
    public var possible: Bool { possibleReason.isPossible }

    /// `type` in wire spelling (static text).
    public var typeName: UnsafeBufferPointer<UInt8> { type.wireName.bytes }

    /// `possibleReason` in wire spelling (static text).
    public var possibleReasonName: UnsafeBufferPointer<UInt8> { possibleReason.wireName.bytes }
}

extension PhoneDescription {
    init(_ bytes: borrowing PhoneDescriptionBytes) {
        func text(_ buffer: UnsafeBufferPointer<UInt8>) -> String { String(decoding: buffer, as: UTF8.self) }
        self.init(
            valid: bytes.valid, e164: text(bytes.e164Bytes), region: bytes.regionBytes.map(text), type: bytes.type,
            national: text(bytes.nationalBytes), international: text(bytes.internationalBytes),
            rfc3966: text(bytes.rfc3966Bytes), display: text(bytes.displayBytes),
            phoneExtension: bytes.phoneExtensionBytes.map(text), possible: bytes.possible,
            possibleReason: bytes.possibleReason, dialFrom: text(bytes.dialFromBytes))
    }
}

extension StaticString {
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}

extension PhoneEngine {
    // MARK: Validation

    /// The region of a number: the only region of its calling code, or among regions sharing it the first whose
    /// `leadingDigits` match (or, lacking them, whose types match). `nil` when none fits; `001` for
    /// non-geographic numbers.
    public func region(of number: PhoneNumber) -> String? {
        Self.withBytes(of: number) { bytes in
            metadata.tables.classify(bytes.countryCode, bytes.nationalNumber).territory.map {
                metadata.territories[Int($0.pointee.index)].id
            }
        }
    }

    /// Whether the number is valid: its region's metadata knows the number as some type.
    public func isValid(_ number: PhoneNumber) -> Bool {
        type(of: number) != .unknown
    }

    /// The number's type, `unknown` when it has no single region or matches no type.
    public func type(of number: PhoneNumber) -> PhoneNumberType {
        Self.withBytes(of: number) { metadata.tables.classify($0.countryCode, $0.nationalNumber).type }
    }

    // MARK: Formatting

    /// Formats the number; the metadata of the calling code's main region decides the grouping.
    public func format(_ number: PhoneNumber, _ style: PhoneNumberFormat) -> String {
        Self.withBytes(of: number) { bytes in
            withDescription(bytes, viewerRegion: nil) { description in
                let text =
                    switch style {
                    case .e164: description.e164Bytes
                    case .national: description.nationalBytes
                    case .international: description.internationalBytes
                    case .rfc3966: description.rfc3966Bytes
                    }
                return String(decoding: text, as: UTF8.self)
            }
        }
    }

    /// Upstream's `formatOutOfCountryCallingNumber`: how to dial the number from `viewerRegion`. Within the
    /// number's calling code the national form (inside NANPA `1` and the national form); from elsewhere the
    /// viewer's IDD (its preferred one where the IDD is a pattern of several), the calling code and the
    /// international grouping, or the international form when the viewer has no single IDD. An unknown viewer
    /// region gives the international form.
    public func formatOutOfCountry(_ number: PhoneNumber, from viewerRegion: String?) -> String {
        Self.withBytes(of: number) { bytes in
            withDescription(bytes, viewerRegion: viewerRegion) { String(decoding: $0.dialFromBytes, as: UTF8.self) }
        }
    }

    /// A `PhoneNumber`'s texts as bytes.
    static func withBytes<Result>(of number: PhoneNumber, _ body: (NumberBytes) -> Result) -> Result {
        var nationalNumber = number.nationalNumber
        return nationalNumber.withUTF8 { digits in
            guard var phoneExtension = number.phoneExtension else {
                return body(NumberBytes(countryCode: number.countryCode, nationalNumber: digits, phoneExtension: nil))
            }
            return phoneExtension.withUTF8 {
                body(NumberBytes(countryCode: number.countryCode, nationalNumber: digits, phoneExtension: $0))
            }
        }
    }

    // MARK: Description

    /// Parses and describes a number as the daemon reports it. `viewerRegion` decides `display`.
    public func describe(
        number text: String, defaultRegion: String?, viewerRegion: String?
    ) throws(PhoneParseError) -> PhoneDescription {
        try withParsed(text, defaultRegion: defaultRegion, checkRegion: true) { number in
            withDescription(number, viewerRegion: viewerRegion) { PhoneDescription($0) }
        }
    }

    /// Describes a parsed number; `display` is national when `viewerRegion` is the number's region.
    public func describe(_ number: PhoneNumber, viewerRegion: String?) -> PhoneDescription {
        Self.withBytes(of: number) { bytes in
            withDescription(bytes, viewerRegion: viewerRegion) { PhoneDescription($0) }
        }
    }

    /// `describe(number:defaultRegion:viewerRegion:)` with the texts as bytes, given to `body` without building a
    /// `String`: what the `phone` op writes.
    public func describe(
        number text: String, defaultRegion: String?, viewerRegion: String?,
        _ body: (borrowing PhoneDescriptionBytes) -> Void
    ) throws(PhoneParseError) {
        try withParsed(text, defaultRegion: defaultRegion, checkRegion: true) { number in
            withDescription(number, viewerRegion: viewerRegion, body)
        }
    }

    /// `describe(number:defaultRegion:viewerRegion:_:)` of the number's well-formed UTF-8 (a request's string read
    /// where it lies in the line), so no `String` is made of it.
    public func describe(
        utf8 text: UnsafeBufferPointer<UInt8>, defaultRegion: String?, viewerRegion: String?,
        _ body: (borrowing PhoneDescriptionBytes) -> Void
    ) throws(PhoneParseError) {
        try withParsed(utf8: text, defaultRegion: defaultRegion, checkRegion: true) { number in
            withDescription(number, viewerRegion: viewerRegion, body)
        }
    }

    /// `describe(_:viewerRegion:)` with the texts as bytes.
    public func describe(
        _ number: PhoneNumber, viewerRegion: String?, _ body: (borrowing PhoneDescriptionBytes) -> Void
    ) {
        Self.withBytes(of: number) { withDescription($0, viewerRegion: viewerRegion, body) }
    }

    /// Every form of the number, put together in one buffer on the stack.
    func withDescription<Result>(
        _ number: NumberBytes, viewerRegion: String?, _ body: (borrowing PhoneDescriptionBytes) -> Result
    ) -> Result {
        let viewer = viewerRegion.flatMap { metadata.plan(forRegion: $0) }
        return metadata.tables.withDescription(number, viewer: viewer, viewerRegion: viewerRegion, body)
    }

    /// Upstream's `isPossibleNumberWithReason` for a national number of `length` digits.
    static func possibility(_ length: Int, _ general: NumberDesc?) -> PhonePossibility {
        guard let general else { return .invalidCountryCode }
        return switch lengthCheck(length, general) {
        case .possible: .isPossible
        case .localOnly: .isPossibleLocalOnly
        case .tooShort: .tooShort
        case .tooLong: .tooLong
        case .invalidLength: .invalidLength
        }
    }
}

extension PlanTables {
    /// The number's territory (as `region(of:)` decides) and its type there.
    func classify(
        _ countryCode: Int, _ digits: UnsafeBufferPointer<UInt8>
    ) -> (territory: UnsafePointer<TerritoryPlan>?, type: PhoneNumberType) {
        let candidates = territories(forCode: countryCode)
        if candidates.isEmpty { return (nil, .unknown) }
        if candidates.count == 1 {
            let territory = plan(candidates[0])
            return (territory, Self.type(digits, territory))
        }
        for index in candidates {
            let territory = plan(index)
            if let leading = territory.pointee.leadingDigits {
                if leading.matchesPrefix(digits) { return (territory, Self.type(digits, territory)) }
            } else {
                let type = Self.type(digits, territory)
                if type != .unknown { return (territory, type) }
            }
        }
        return (nil, .unknown)
    }

    static func type(_ digits: UnsafeBufferPointer<UInt8>, _ territory: UnsafePointer<TerritoryPlan>) -> PhoneNumberType
    {
        // A whole general match has fewer than 32 digits, and digits first.
        guard territory.pointee.general.matches(digits) else { return .unknown }
        let types = territory.pointee.types
        let filter = territory.pointee.typeFilter
        var candidates = filter[digits.count]
        if digits.count >= 2 { candidates &= filter[32 + Int(digits[0] &- 48) * 10 + Int(digits[1] &- 48)] }
        /// `types[index]?.matches(digits)`, its length and first digits already read in `candidates`.
        @inline(__always)
        func matches(_ index: Int) -> Bool {
            candidates >> UInt16(index) & 1 != 0 && types[index]?.pattern?.matchesWhole(digits) == true
        }
        var others = candidates & 0xFF
        while others != 0 {
            let index = others.trailingZeroBitCount
            if matches(index) { return Territory.typeOrder[index] }
            others &= others - 1
        }
        if matches(8) {
            return territory.pointee.sameMobileAndFixedLinePattern || matches(9) ? .fixedLineOrMobile : .fixedLine
        }
        if !territory.pointee.sameMobileAndFixedLinePattern && matches(9) { return .mobile }
        return .unknown
    }

    /// Every form of the number, put together in one buffer on the stack.
    func withDescription<Result>(
        _ number: NumberBytes, viewer: UnsafePointer<TerritoryPlan>?, viewerRegion: String?,
        _ body: (borrowing PhoneDescriptionBytes) -> Result
    ) -> Result {
        let (territory, type) = classify(number.countryCode, number.nationalNumber)
        let main = mainPlan(forCode: number.countryCode)
        let possibility = PhoneEngine.possibility(number.nationalNumber.count, main?.pointee.general)
        let isKnownPlain =
            main?.pointee.textsArePlain != false && viewer?.pointee.textsArePlain != false
            && territory?.pointee.textsArePlain != false
            && (number.isParsed && transformsArePlain
                || ByteScan.escapeFlags(of: number.nationalNumber)
                    | (number.phoneExtension.map(ByteScan.escapeFlags(of:)) ?? 0) == 0)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { storage in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: slotCapacity) { slots in
                var out = ByteWriter(storage)
                out.append(UInt8(ascii: "+"))
                if let main {
                    out.append(main.pointee.countryCodeDigits.buffer)
                } else {
                    JSONWriter.withDecimalDigits(number.countryCode) { out.append($0) }
                }
                out.append(number.nationalNumber)
                let e164 = 0..<out.count
                let forms = Self.writeForms(number, main, slots: slots, into: &out)
                let dialFrom = Self.dialForm(number.countryCode, main, from: viewer, forms, into: &out)
                let region = territory?.pointee.id.buffer
                let display =
                    region.map { Self.equals($0, viewerRegion) } == true ? forms.national : forms.international
                return out.withWritten { written in
                    func text(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
                        UnsafeBufferPointer(rebasing: written[range])
                    }
                    return body(
                        PhoneDescriptionBytes(
                            valid: type != .unknown, e164: text(e164), region: region, type: type,
                            national: text(forms.national), international: text(forms.international),
                            rfc3966: text(forms.rfc3966), display: text(display),
                            phoneExtension: number.phoneExtension, possibleReason: possibility,
                            dialFrom: text(dialFrom), isKnownPlain: isKnownPlain))
                }
            }
        }
    }

    struct Forms {
        var national: Range<Int>
        var international: Range<Int>
        var rfc3966: Range<Int>
    }

    /// Writes the national, international and RFC 3966 forms, sharing the format choice and, where national and
    /// international use the same format, its match.
    private static func writeForms(
        _ number: NumberBytes, _ main: UnsafePointer<TerritoryPlan>?, slots: UnsafeMutableBufferPointer<Int32>,
        into out: inout ByteWriter
    ) -> Forms {
        let digits = number.nationalNumber
        let nationalStart = out.count
        guard let main else {
            out.append(digits)
            let all = nationalStart..<out.count
            return Forms(national: all, international: all, rfc3966: all)
        }
        let phoneExtension = number.phoneExtension.flatMap { $0.isEmpty ? nil : $0 }
        let chosen = chooseFormat(main.pointee.formats, digits, slots: slots)
        if let (format, firstEnd) = chosen {
            substitute(
                format.pointee.pattern, format.pointee.nationalTemplate, digits, firstEnd: firstEnd, slots: slots,
                into: &out)
        } else {
            out.append(digits)
        }
        let nationalGroupedEnd = out.count
        if let phoneExtension {
            out.append(main.pointee.extensionPrefix.buffer)
            out.append(phoneExtension)
        }
        let nationalEnd = out.count
        out.append(UInt8(ascii: "+"))
        out.append(main.pointee.countryCodeDigits.buffer)
        out.append(UInt8(ascii: " "))
        let groupedStart = out.count
        // The international list is the national one without the formats excluded internationally, in the same
        // order and buckets: every format before the national choice fails again, so that choice is the
        // international one too unless it is excluded. Its groups are still in `slots` unless the national
        // substitution needed further matches.
        var international = chosen
        var isNationalChoice = true
        if let (format, firstEnd) = chosen, firstEnd != digits.count { international = (format, nil) }
        if let formats = main.pointee.internationalFormats, chosen?.0.pointee.excludedInternationally != false {
            international = chooseFormat(formats, digits, slots: slots)
            isNationalChoice = false
        }
        // One match of the national choice whose national template is a prefix and the international one: the
        // grouping is already written, after that prefix.
        if isNationalChoice, let (format, knownEnd) = international, let firstEnd = knownEnd, firstEnd > 0,
            let prefixLength = format.pointee.nationalPrefixLength
        {
            out.appendCopy(of: (nationalStart + prefixLength)..<nationalGroupedEnd)
        } else if let (format, firstEnd) = international {
            substitute(
                format.pointee.pattern, format.pointee.internationalTemplate, digits, firstEnd: firstEnd, slots: slots,
                into: &out)
        } else {
            out.append(digits)
        }
        let groupedEnd = out.count
        if let phoneExtension {
            out.append(main.pointee.extensionPrefix.buffer)
            out.append(phoneExtension)
        }
        let rfcStart = out.count
        out.append("tel:+")
        out.append(main.pointee.countryCodeDigits.buffer)
        out.append(UInt8(ascii: "-"))
        appendRFC3966Separators(from: groupedStart..<groupedEnd, in: &out)
        if let phoneExtension {
            out.append(";ext=")
            out.append(phoneExtension)
        }
        return Forms(
            national: nationalStart..<nationalEnd, international: nationalEnd..<rfcStart, rfc3966: rfcStart..<out.count)
    }

    /// The first format whose last `leadingDigits` pattern matches a prefix and whose pattern matches the whole,
    /// with the end of the pattern's first match from the start (its groups left in `slots`), or `nil` for the end
    /// when the slots were used again.
    private static func chooseFormat(
        _ formats: FormatList, _ digits: UnsafeBufferPointer<UInt8>, slots: UnsafeMutableBufferPointer<Int32>
    ) -> (UnsafePointer<FormatPlan>, Int?)? {
        guard let plans = formats.plans.buffer.baseAddress else { return nil }
        if digits.count >= 2 {
            let first = Int(digits[0] &- 48)
            let second = Int(digits[1] &- 48)
            guard first < 10, second < 10 else { return nil }
            let buckets = formats.buckets.buffer
            let prefix = first * 10 + second
            for offset in Int(buckets[prefix])..<Int(buckets[prefix + 1]) {
                if let chosen = choose(plans + Int(buckets[offset]), digits, slots: slots) { return chosen }
            }
            return nil
        }
        for index in 0..<formats.plans.count {
            if let chosen = choose(plans + index, digits, slots: slots) { return chosen }
        }
        return nil
    }

    @inline(__always)
    private static func choose(
        _ format: UnsafePointer<FormatPlan>, _ digits: UnsafeBufferPointer<UInt8>,
        slots: UnsafeMutableBufferPointer<Int32>
    ) -> (UnsafePointer<FormatPlan>, Int?)? {
        if let leading = format.pointee.leadingDigits, !leading.matchesPrefix(digits) { return nil }
        let pattern = format.pointee.pattern
        let groups = UnsafeMutableBufferPointer(rebasing: slots[..<(2 * pattern.groupCount)])
        // The first match from the start is the whole-input match whenever it ends at the end, as it nearly
        // always does; it is also the substitution's first match either way.
        guard let end = pattern.firstMatch(digits, slots: groups) else { return nil }
        if end == digits.count || pattern.matchesWhole(digits) { return (format, end) }
        return nil
    }

    /// Replaces every successive match of the pattern by the template, like a regex substitution. `firstEnd` is
    /// the end of the match at the start when it is already known, its groups in `slots`.
    private static func substitute(
        _ pattern: PatternProgram, _ template: Template, _ digits: UnsafeBufferPointer<UInt8>, firstEnd: Int?,
        slots: UnsafeMutableBufferPointer<Int32>, into out: inout ByteWriter
    ) {
        let groupCount = pattern.groupCount
        let groups = UnsafeMutableBufferPointer(rebasing: slots[..<(2 * groupCount)])
        var known = firstEnd
        var position = 0
        while position < digits.count {
            let end: Int?
            if let first = known {
                end = first
                known = nil
            } else {
                end = pattern.match(digits, from: position, slots: groups)
            }
            if let end, end > position {
                template.write(digits, groups: UnsafeBufferPointer(groups), groupCount: groupCount, into: &out)
                position = end
            } else {
                out.append(digits[position])
                position += 1
            }
        }
    }

    /// Appends a copy of `range` of `output` with leading punctuation dropped and each run of punctuation turned
    /// into one `-`.
    private static func appendRFC3966Separators(from range: Range<Int>, in out: inout ByteWriter) {
        // An ASCII grouping (nearly every one) in one pass over its bytes; at the first other byte nothing is kept
        // and the grouping is read again as scalars.
        var isASCII = true
        out.append(atMost: range.count, from: range) { source, target in
            isASCII = target.write(
                source, joiningRunsWith: UInt8(ascii: "-"), where: TextRules.isASCIIPunctuation,
                stoppingAt: { $0 >= 0x80 })
        }
        if isASCII { return }
        var wroteAny = false
        var dash = false
        let text = out.withBytes(range) { String(decoding: $0, as: UTF8.self) }
        for scalar in text.unicodeScalars {
            if TextRules.isPunctuation(scalar) {
                dash = wroteAny
                continue
            }
            if dash {
                out.append(UInt8(ascii: "-"))
                dash = false
            }
            wroteAny = true
            for unit in UTF8.encode(scalar)! { out.append(unit) }
        }
        if dash { out.append(UInt8(ascii: "-")) }
    }

    // MARK: Dialling from abroad

    /// How to dial the number from `viewerRegion`, as `formatOutOfCountry` describes it: a range of `out`.
    private static func dialForm(
        _ code: Int, _ main: UnsafePointer<TerritoryPlan>?, from viewer: UnsafePointer<TerritoryPlan>?,
        _ forms: Forms, into out: inout ByteWriter
    ) -> Range<Int> {
        guard let viewer else { return forms.international }
        // Without a plan for the calling code every form is the national number.
        guard main != nil else { return forms.national }
        if code == 1 {
            if viewer.pointee.countryCode == 1 {
                let start = out.count
                out.append("1 ")
                out.appendCopy(of: forms.national)
                return start..<out.count
            }
        } else if code == viewer.pointee.countryCode {
            return forms.national
        }
        let prefix = viewer.pointee.diallingPrefix.buffer
        guard !prefix.isEmpty else { return forms.international }
        // `international` is `+`, the calling code, a space and the grouping: the IDD and a space replace the `+`.
        let start = out.count
        out.append(prefix)
        out.append(UInt8(ascii: " "))
        out.appendCopy(of: forms.international.dropFirst())
        return start..<out.count
    }

    /// Whether the bytes spell `text` (a region code: a few bytes, compared one by one).
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String?) -> Bool {
        guard var text else { return false }
        return text.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            for index in 0..<bytes.count where utf8[index] != bytes[index] { return false }
            return true
        }
    }
}
