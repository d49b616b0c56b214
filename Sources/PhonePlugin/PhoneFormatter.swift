import FmtCore
import PhoneNumbers

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `phone` op: parses a phone number as libphonenumber does, validates and types it against the loaded
/// numbering-plan metadata, and returns every form plus `display`, the form the viewer's region reads. A value
/// is one loaded snapshot of `phone-metadata.json`, so a SIGHUP after a metadata update swaps in new plans.
public struct PhoneFormatter: FormatterPlugin {
    public static let name = "phone"
    /// `phone` describes a phone number.
    public enum Op: String, PluginOp {
        case phone
    }

    /// The metadata file under the data root, written by `phone-metadata-gen`.
    public static let file = "phone-metadata.json"

    private let engine: PhoneEngine
    public let dataInfo: JSONObject

    public init(loading data: DataStore, environment: PluginEnvironment) throws {
        let bytes = try data.read(Self.file)
        let metadata: PhoneMetadata
        do {
            metadata = try PhoneMetadata(json: Data(bytes))
        } catch {
            throw Self.dataError(error)
        }
        engine = PhoneEngine(metadata: metadata)
        dataInfo = [
            "source": .string(data.sourceDescription),
            "version": .string(metadata.version),
            "checksum": .string(SHA256.hex(bytes)),
            "regions": JSONValue(metadata.regions.count),
        ]
    }

    /// Answers `{"op":"phone","number":…,"defaultRegion":…,"viewerRegion":…}` with `valid, e164, region, type,
    /// national, international, rfc3966, display, extension`, in that order.
    public func handle(_ op: Op, _ request: Request, into response: inout ResponseWriter) throws {
        let fields = request.fields
        let number = try fields.required("number")
        let defaultRegion = try fields.region("defaultRegion")
        guard let viewerRegion = try fields.region("viewerRegion") else {
            throw CoreError.invalidField(
                "viewerRegion",
                message: "The field \"viewerRegion\" is required: the viewer's ISO 3166-1 alpha-2 region (e.g. NL).")
        }
        let description: PhoneDescription
        do {
            description = try engine.describe(
                number: number, defaultRegion: defaultRegion?.code, viewerRegion: viewerRegion.code)
        } catch {
            throw PhoneNumberError.invalidNumber(error)
        }
        Self.write(description, to: &response)
    }

    static func write(_ description: PhoneDescription, to response: inout ResponseWriter) {
        response.member("valid", description.valid)
        response.member("e164", description.e164)
        response.member("region", description.region)
        response.member("type", description.type.rawValue)
        response.member("national", description.national)
        response.member("international", description.international)
        response.member("rfc3966", description.rfc3966)
        response.member("display", description.display)
        response.member("extension", description.phoneExtension)
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

/// A `phone` request whose number cannot be parsed; `reason` carries libphonenumber's error name.
public enum PhoneNumberError: WireError, Equatable {
    case invalidNumber(PhoneParseError)

    public var code: String { "invalid_number" }
    public var field: String? { "number" }
    public var details: JSONObject {
        switch self {
        case .invalidNumber(let error): ["reason": .string(error.reason)]
        }
    }

    /// What went wrong, ending with upstream's reason so that `fmtq` shows it too.
    public var message: String {
        switch self {
        case .invalidNumber(let error): "\(Self.explanation(error)) (\(error.reason))."
        }
    }

    private static func explanation(_ error: PhoneParseError) -> String {
        switch error {
        case .notANumber: "The field \"number\" does not hold a phone number"
        case .invalidCountryCode:
            "The number has no known country calling code: write it with + and the code, or give \"defaultRegion\""
        case .tooShortAfterIDD: "The number is too short after the international dialling prefix"
        case .tooShortNSN: "The number is too short to be a phone number"
        case .tooLong: "The number is too long to be a phone number"
        }
    }
}
