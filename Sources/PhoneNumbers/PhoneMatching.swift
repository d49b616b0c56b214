/// How closely two phone numbers match: upstream's `MatchType`, whose `NOT_A_NUMBER` is a `PhoneMatchError` here.
public enum PhoneMatch: String, Sendable, CaseIterable, Codable {
    /// Same country calling code, national significant number (Italian leading zeros included) and extension.
    case exact
    /// One side has no country calling code; the national significant numbers and extensions are the same.
    case nsn
    /// One national number is a suffix of the other (leading zeros aside), or they differ only in an extension
    /// one side lacks, under the same or a missing country calling code.
    case shortNsn
    /// Not the same number.
    case none

    /// Upstream's name, e.g. `SHORT_NSN_MATCH`.
    public var upstreamName: String {
        switch self {
        case .exact: "EXACT_MATCH"
        case .nsn: "NSN_MATCH"
        case .shortNsn: "SHORT_NSN_MATCH"
        case .none: "NO_MATCH"
        }
    }
}

/// Which of the two texts given to a match, `a` (the first) or `b` (the second).
public enum PhoneMatchSide: String, Sendable, Equatable {
    /// The first text.
    case a
    /// The second text (or the entry of a batch).
    case b
}

/// A text given to a match is no number (upstream's `NOT_A_NUMBER` match), with the side and the parse error.
public struct PhoneMatchError: Error, Sendable, Equatable {
    /// The text at fault.
    public let side: PhoneMatchSide
    /// Why it did not parse in the step that needed it.
    public let reason: PhoneParseError

    /// An error for `side` with `reason`.
    public init(side: PhoneMatchSide, reason: PhoneParseError) {
        self.side = side
        self.reason = reason
    }
}

/// Whether a number's length is possible in its numbering plan: upstream's `ValidationResult`.
public enum PhonePossibility: String, Sendable, CaseIterable, Codable {
    /// A possible length of the calling code's main region.
    case isPossible = "IS_POSSIBLE"
    /// A length only diallable within an area (the subscriber number without its area code).
    case isPossibleLocalOnly = "IS_POSSIBLE_LOCAL_ONLY"
    /// No numbering plan has the calling code.
    case invalidCountryCode = "INVALID_COUNTRY_CODE"
    /// Shorter than every possible length.
    case tooShort = "TOO_SHORT"
    /// Between the shortest and the longest possible length, but not one of them.
    case invalidLength = "INVALID_LENGTH"
    /// Longer than every possible length.
    case tooLong = "TOO_LONG"

    /// Upstream's `isPossibleNumber`: possible, or possible for local dialling only.
    public var isPossible: Bool { self == .isPossible || self == .isPossibleLocalOnly }

    /// `rawValue` as bytes that need no reference counting.
    var wireName: StaticString {
        switch self {
        case .isPossible: "IS_POSSIBLE"
        case .isPossibleLocalOnly: "IS_POSSIBLE_LOCAL_ONLY"
        case .invalidCountryCode: "INVALID_COUNTRY_CODE"
        case .tooShort: "TOO_SHORT"
        case .invalidLength: "INVALID_LENGTH"
        case .tooLong: "TOO_LONG"
        }
    }
}

extension PhoneEngine {
    // MARK: Matching

    /// Upstream's `isNumberMatch` on two parsed numbers.
    public func match(_ first: PhoneNumber, _ second: PhoneNumber) -> PhoneMatch {
        let firstExtension = first.phoneExtension.flatMap { $0.isEmpty ? nil : $0 }
        let secondExtension = second.phoneExtension.flatMap { $0.isEmpty ? nil : $0 }
        if let firstExtension, let secondExtension, firstExtension != secondExtension { return .none }
        let same = first.nationalNumber == second.nationalNumber && firstExtension == secondExtension
        if first.countryCode != 0 && second.countryCode != 0 {
            if same && first.countryCode == second.countryCode { return .exact }
            if first.countryCode == second.countryCode && Self.isSuffix(first.nationalNumber, second.nationalNumber) {
                return .shortNsn
            }
            return .none
        }
        if same { return .nsn }
        return Self.isSuffix(first.nationalNumber, second.nationalNumber) ? .shortNsn : .none
    }

    /// Upstream's `isNumberMatch` on a parsed number and a text: the text is read as written, else (without a
    /// country code) in the number's region, where an exact match counts as `nsn`. Errors name side `b`.
    public func match(_ first: PhoneNumber, _ second: String) throws(PhoneMatchError) -> PhoneMatch {
        try match(first, second, side: .b)
    }

    /// Upstream's `isNumberMatch` on two texts, without a default region: a text without a country code is read in
    /// the other's region, or without any when neither has one (then only national numbers are compared).
    public func match(_ first: String, _ second: String) throws(PhoneMatchError) -> PhoneMatch {
        try match(PreparedMatch(self, first), second)
    }

    /// `match(_:_:)` for texts; with a `defaultRegion` both are parsed in it (upstream's match of the two parsed
    /// numbers), so `+31 6 12345678` and `06-12345678` in `NL` are an exact match.
    public func match(_ first: String, _ second: String, defaultRegion: String?) throws(PhoneMatchError) -> PhoneMatch {
        guard let defaultRegion else { return try match(first, second) }
        return try match(PreparedMatch(self, first, defaultRegion: defaultRegion), second)
    }

    /// One text matched against many (`b` of a batch): the first is parsed once. Each entry is the match or the
    /// error of that pair.
    public func match(
        _ first: String, against others: [String], defaultRegion: String?
    ) -> [Result<PhoneMatch, PhoneMatchError>] {
        let prepared = PreparedMatch(self, first, defaultRegion: defaultRegion)
        return others.map { other in
            do throws(PhoneMatchError) {
                return .success(try match(prepared, other))
            } catch {
                return .failure(error)
            }
        }
    }

    /// The first text of a match, parsed in the ways the match may need.
    struct PreparedMatch {
        let defaultRegion: String?
        let text: String
        let strict: Result<PhoneNumber, PhoneParseError>
        /// Without a default region and without a country code: country code 0 (parsed only when needed).
        let lenient: Result<PhoneNumber, PhoneParseError>?

        init(_ engine: PhoneEngine, _ text: String, defaultRegion: String? = nil) {
            self.defaultRegion = defaultRegion
            self.text = text
            strict = Result { () throws(PhoneParseError) in try engine.parse(text, defaultRegion: defaultRegion) }
            if defaultRegion == nil, case .failure(.invalidCountryCode) = strict {
                lenient = Result { () throws(PhoneParseError) in
                    try engine.parse(text, defaultRegion: nil, checkRegion: false)
                }
            } else {
                lenient = nil
            }
        }
    }

    func match(_ first: PreparedMatch, _ second: String) throws(PhoneMatchError) -> PhoneMatch {
        if first.defaultRegion != nil {
            let firstNumber = try first.strict.get(side: .a)
            let secondNumber = try Result { () throws(PhoneParseError) in
                try parse(second, defaultRegion: first.defaultRegion)
            }.get(side: .b)
            return match(firstNumber, secondNumber)
        }
        switch first.strict {
        case .success(let number):
            return try match(number, second, side: .b)
        case .failure(let error):
            guard error == .invalidCountryCode else { throw PhoneMatchError(side: .a, reason: error) }
            switch Result(catching: { () throws(PhoneParseError) in try parse(second, defaultRegion: nil) }) {
            case .success(let secondNumber):
                return try match(secondNumber, first.text, side: .a)
            case .failure(let secondError):
                guard secondError == .invalidCountryCode else {
                    throw PhoneMatchError(side: .b, reason: secondError)
                }
                let firstNumber = try (first.lenient ?? .failure(error)).get(side: .a)
                let secondNumber = try Result { () throws(PhoneParseError) in
                    try parse(second, defaultRegion: nil, checkRegion: false)
                }.get(side: .b)
                return match(firstNumber, secondNumber)
            }
        }
    }

    /// Upstream's match of a number and a text; errors name `side`, the text's.
    private func match(
        _ number: PhoneNumber, _ text: String, side: PhoneMatchSide
    ) throws(PhoneMatchError)
        -> PhoneMatch
    {
        let parsed = Result { () throws(PhoneParseError) in try parse(text, defaultRegion: nil) }
        switch parsed {
        case .success(let other):
            return match(number, other)
        case .failure(let error):
            guard error == .invalidCountryCode else { throw PhoneMatchError(side: side, reason: error) }
            if let region = metadata.mainRegion(forCountryCode: number.countryCode) {
                let other = try Result { () throws(PhoneParseError) in try parse(text, defaultRegion: region) }
                    .get(side: side)
                let result = match(number, other)
                return result == .exact ? .nsn : result
            }
            let other = try Result { () throws(PhoneParseError) in
                try parse(text, defaultRegion: nil, checkRegion: false)
            }.get(side: side)
            return match(number, other)
        }
    }

    /// Whether one national number, leading zeros dropped, ends the other (upstream compares them as integers).
    static func isSuffix(_ first: String, _ second: String) -> Bool {
        func significant(_ digits: String) -> Substring {
            let trimmed = digits.drop { $0 == "0" }
            return trimmed.isEmpty ? "0" : trimmed
        }
        let one = significant(first).utf8
        let other = significant(second).utf8
        return one.count >= other.count
            ? one.reversed().starts(with: other.reversed())
            : other.reversed().starts(with: one.reversed())
    }

    // MARK: Possible numbers

    /// Upstream's `isPossibleNumberWithReason`: the national significant number's length against the possible
    /// lengths of the calling code's main region (upstream's known limit: `+1` numbers are judged by the US plan).
    public func possibility(of number: PhoneNumber) -> PhonePossibility {
        Self.possibility(
            number.nationalNumber.utf8.count, metadata.tables.mainPlan(forCode: number.countryCode)?.pointee.general)
    }

    // MARK: Example numbers

    /// Upstream's `getExampleNumberForType`: the region's example number of `type`, parsed in the region. `nil`
    /// for an unknown region, `001`, or a type without an example (`fixedLineOrMobile` is `fixedLine`'s
    /// example; `unknown` has none).
    public func exampleNumber(region: String, type: PhoneNumberType = .fixedLine) -> PhoneNumber? {
        guard let territory = metadata.territory(forRegion: region) else { return nil }
        let key: PhoneNumberType = type == .fixedLineOrMobile ? .fixedLine : type
        guard let example = territory.examples[key] else { return nil }
        return try? parse(example, defaultRegion: region)
    }
}

extension Result where Failure == PhoneParseError {
    fileprivate func get(side: PhoneMatchSide) throws(PhoneMatchError) -> Success {
        switch self {
        case .success(let value): value
        case .failure(let error): throw PhoneMatchError(side: side, reason: error)
        }
    }
}
