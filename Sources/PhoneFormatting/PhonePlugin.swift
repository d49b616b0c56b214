import FmtCore
import PhoneNumbers

/// The `phone` op: parses a phone number as libphonenumber does, validates and types it against the loaded
/// numbering-plan metadata, and returns every form plus `display`, the form the viewer's region reads. A value
/// is one loaded snapshot of `phone-metadata.json`, so a SIGHUP after a metadata update swaps in new plans.
public struct PhonePlugin: FormatterPlugin {
    public static let name = "phone"
    /// `phone` describes a phone number, `phoneMatch` compares numbers (upstream's `isNumberMatch`),
    /// `phoneExample` gives a region's example number of a type.
    public enum Op: String, PluginOp {
        case phone, phoneMatch, phoneExample
    }

    /// The most entries `b` of one `phoneMatch` may hold.
    public static let maximumMatchEntries = 10_000

    /// The metadata file under the data root, written by `phone-metadata-gen`.
    public static let file = "phone-metadata.json"

    private let engine: PhoneEngine
    /// The words `spoken` is read with, per served language.
    private let speech: PhoneSpeech
    private let resolver: LocaleResolver
    public let dataInfo: JSONObject

    public init(loading data: DataStore, environment: PluginEnvironment) throws {
        let bytes = try data.read(Self.file)
        let metadata: PhoneMetadata
        do {
            metadata = try PhoneMetadata(json: bytes)
        } catch {
            throw Self.dataError(error)
        }
        engine = PhoneEngine(metadata: metadata)
        speech = try PhoneSpeech(loading: data, languages: environment.resolver.supported)
        resolver = environment.resolver
        dataInfo = [
            "source": .string(data.sourceDescription),
            "version": .string(metadata.version),
            "checksum": .string(SHA256.hex(bytes)),
            "regions": JSONValue(metadata.regions.count),
        ]
    }

    /// Answers `phone`, `phoneMatch` and `phoneExample`.
    public func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws {
        switch op {
        case .phone: try phone(request.fields, into: &response)
        case .phoneMatch: try match(request.fields, into: &response)
        case .phoneExample: try example(request.fields, into: &response)
        }
    }

    /// Answers `{"op":"phone","number":…,"defaultRegion":…,"viewerRegion":…,"locale":…}` with `valid, e164, region,
    /// type, national, international, rfc3966, display, extension, possible, possibleReason, dialFrom, spoken,
    /// spokenLang`, in that order: `spoken` is `display` read aloud in the language `locale` resolves to.
    /// The number is read where it lies in the request's line (no `String` is made of it); it is read first, so a
    /// request without one is refused for that whatever its regions.
    private func phone(_ fields: RequestFields, into response: inout ResponseWriter) throws {
        let answered = try fields.withUTF8("number") { span -> Result<Void, any Error> in
            span.withUnsafeBufferPointer { number in
                Result { () throws -> Void in
                    let defaultRegion = try Self.defaultRegion(fields)
                    guard let viewerRegion = try Self.viewerRegion(fields) else {
                        throw CoreError.invalidField(
                            "viewerRegion",
                            message:
                                "The field \"viewerRegion\" is required: the viewer's ISO 3166-1 alpha-2 region (e.g. NL), "
                                + "or ZZ when it is not known.")
                    }
                    let speech = speech.language(try fields.locale(resolver).language)
                    do throws(PhoneParseError) {
                        try engine.describe(
                            utf8: number, defaultRegion: defaultRegion?.code, viewerRegion: viewerRegion.code
                        ) { Self.write($0, speech: speech, to: &response) }
                    } catch {
                        throw PhoneNumberError.invalidNumber(error)
                    }
                }
            }
        }
        guard let answered else { throw RequestFailures().missing("number") }
        try answered.get()
    }

    /// Answers `{"op":"phoneMatch","a":…,"b":…,"defaultRegion":…}` with `match` (`exact`, `nsn`, `shortNsn`,
    /// `none`), or with `matches`, one per entry in order, when `b` is an array.
    private func match(_ fields: RequestFields, into response: inout ResponseWriter) throws {
        let first = try fields.required("a")
        let defaultRegion = try Self.defaultRegion(fields)?.code
        switch fields["b"] {
        case .array?:
            guard let others = try fields.strings("b") else { return }
            guard others.count <= Self.maximumMatchEntries else {
                throw CoreError.invalidField(
                    "b",
                    message:
                        "At most \(Self.maximumMatchEntries) entries per request, got \(others.count); split the list.")
            }
            let results = engine.match(first, against: others, defaultRegion: defaultRegion)
            var names: [String] = []
            names.reserveCapacity(results.count)
            for (index, result) in results.enumerated() {
                switch result {
                case .success(let match): names.append(match.rawValue)
                case .failure(let error): throw PhoneNumberError.invalidMatchText(error, index: index)
                }
            }
            response.member("matches", names)
        default:
            let second = try fields.required("b", or: "The field \"b\" must be a string or an array of strings.")
            do {
                response.member("match", try engine.match(first, second, defaultRegion: defaultRegion).rawValue)
            } catch {
                throw PhoneNumberError.invalidMatchText(error, index: nil)
            }
        }
    }

    /// Answers `{"op":"phoneExample","region":…,"type":…,"viewerRegion":…,"locale":…}` with the example number as
    /// `phone` describes it; `type` defaults to `fixedLine`, `viewerRegion` to `region`.
    private func example(_ fields: RequestFields, into response: inout ResponseWriter) throws {
        guard let region = try fields.region("region", accepting: .anyLetters) else {
            throw CoreError.invalidField(
                "region", message: "The field \"region\" is required: an ISO 3166-1 alpha-2 region (e.g. NL).")
        }
        let type = try fields.enum("type", as: PhoneNumberType.self, noun: "a phone number type") ?? .fixedLine
        let viewerRegion = try Self.viewerRegion(fields) ?? region
        let speech = speech.language(try fields.locale(resolver).language)
        guard let number = engine.exampleNumber(region: region.code, type: type) else {
            throw PhoneNumberError.noExample(
                region: region.code, type: type, hasPlan: engine.metadata.countryCode(forRegion: region.code) != nil)
        }
        engine.describe(number, viewerRegion: viewerRegion.code) { Self.write($0, speech: speech, to: &response) }
    }

    /// `defaultRegion` as libphonenumber reads a region: any two ASCII letters (aliases such as `UK` canonical).
    /// `ZZ` and codes without a numbering plan (the retired `CS`) name no plan, so only a number written with `+`
    /// or a phone context parses, as upstream's parse in such a region.
    private static func defaultRegion(_ fields: RequestFields) throws -> Region? {
        try fields.region("defaultRegion", accepting: .anyLetters)
    }

    /// `viewerRegion`: a territory, or `ZZ` for a viewer whose region is not known, who is shown the international
    /// form and dials it as upstream's `formatOutOfCountryCallingNumber` from an unknown region does.
    private static func viewerRegion(_ fields: RequestFields) throws -> Region? {
        try fields.region("viewerRegion", accepting: .territoryOrUnknown)
    }

    /// The members of a description, in their wire order, straight from the engine's bytes.
    static func write(
        _ description: borrowing PhoneDescriptionBytes, speech: PhoneSpeech.Language, to response: inout ResponseWriter
    ) {
        PhoneResponse.write(description, speech: speech, to: &response)
    }

    private static func dataError(_ error: PhoneMetadataError) -> DataError {
        switch error {
        case .invalidField(let field, let detail):
            DataError(file: file, field: field == "(root)" ? nil : field, detail)
        case .invalidPattern(let field, let detail):
            DataError(file: file, field: field, "pattern does not compile: \(detail)")
        case .unreadable(_, let detail):
            DataError(file: file, detail)
        }
    }
}

/// A phone request that cannot be answered: a text that cannot be parsed (`invalid_number`, whose `reason` carries
/// libphonenumber's error name), or a region or type without an example number (`no_example`).
public enum PhoneNumberError: WireError, Equatable {
    /// `number` of `phone` does not parse.
    case invalidNumber(PhoneParseError)
    /// `a` or `b` of `phoneMatch` does not parse; `index` is the entry of an array `b`.
    case invalidMatchText(PhoneMatchError, index: Int?)
    /// `phoneExample` has no example of `type` in `region`; `hasPlan` is false for a region without a numbering
    /// plan.
    case noExample(region: String, type: PhoneNumberType, hasPlan: Bool)

    public var code: String {
        switch self {
        case .invalidNumber, .invalidMatchText: "invalid_number"
        case .noExample: "no_example"
        }
    }

    public var field: String? {
        switch self {
        case .invalidNumber: "number"
        case .invalidMatchText(let error, _): error.side.rawValue
        case .noExample(_, _, let hasPlan): hasPlan ? "type" : "region"
        }
    }

    public var details: JSONObject {
        switch self {
        case .invalidNumber(let error): ["reason": .string(error.reason)]
        case .invalidMatchText(let error, let index?) where error.side == .b:
            ["reason": .string(error.reason.reason), "index": JSONValue(index)]
        case .invalidMatchText(let error, _): ["reason": .string(error.reason.reason)]
        case .noExample: [:]
        }
    }

    /// What went wrong, ending with upstream's reason so that `fmtq` shows it too.
    public var message: String {
        switch self {
        case .invalidNumber(let error): "\(Self.explanation(error, field: "number")) (\(error.reason))."
        case .invalidMatchText(let error, let index):
            Self.matchExplanation(error, index: error.side == .b ? index : nil) + " (\(error.reason.reason))."
        case .noExample(let region, let type, let hasPlan):
            hasPlan
                ? "The numbering plan of \(region) has no example \(type.rawValue) number."
                : "\(region) has no numbering plan, so no example number."
        }
    }

    private static func matchExplanation(_ error: PhoneMatchError, index: Int?) -> String {
        let side = error.side.rawValue
        if error.reason == .notANumber {
            return index.map { "Entry \($0) of \"\(side)\" does not hold a phone number" }
                ?? "The field \"\(side)\" does not hold a phone number"
        }
        let place = index.map { "In entry \($0) of \"\(side)\": " } ?? "In \"\(side)\": "
        return place + explanation(error.reason, field: side)
    }

    private static func explanation(_ error: PhoneParseError, field: String) -> String {
        switch error {
        case .notANumber: "The field \"\(field)\" does not hold a phone number"
        case .invalidCountryCode:
            "The number has no known country calling code: write it with + and the code, or give \"defaultRegion\""
        case .tooShortAfterIDD: "The number is too short after the international dialling prefix"
        case .tooShortNSN: "The number is too short to be a phone number"
        case .tooLong: "The number is too long to be a phone number"
        }
    }
}
