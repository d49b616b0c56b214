import Foundation

/// Runs `Tests/PhoneNumbersTests/oracle.py`, libphonenumber's Python port (`phonenumbers==9.0.35`), the reference the
/// phone engine and the phone ops are held to. `FMTD_PHONE_ORACLE_PYTHON` names the Python that has it (CI's
/// virtualenv under `.build/`); else `python3`.
public enum PhoneOracle {
    /// The oracle's script.
    public static let script = Paths.packageRoot + "/Tests/PhoneNumbersTests/oracle.py"

    /// Why the oracle cannot answer here (the package missing, or another version), or nil when it can: a test that
    /// needs it is skipped with this message instead of failing.
    public static let unavailableReason: String? = {
        do {
            let _: [Probe] = try run([String](), arguments: ["--text"])
            return nil
        } catch {
            return "\(error)"
        }
    }()

    private struct Probe: Decodable {}

    /// The oracle's answers to `inputs`, one per input in order, in `arguments`' mode (none: a number's answer).
    public static func run<Input: Encodable, Output: Decodable>(
        _ inputs: [Input], arguments: [String]
    ) throws -> [Output] {
        let python = ProcessInfo.processInfo.environment["FMTD_PHONE_ORACLE_PYTHON"] ?? "python3"
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("phone-oracle-\(UUID()).json")
        try JSONEncoder().encode(inputs).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script] + arguments
        process.standardInput = try FileHandle(forReadingFrom: input)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw PhoneOracleUnavailable("cannot start \(python): \(error)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PhoneOracleUnavailable("\(python) exited with \(process.terminationStatus): \(message)")
        }
        let answers = try JSONDecoder().decode([Output].self, from: data)
        guard answers.count == inputs.count else {
            throw PhoneOracleUnavailable("oracle returned \(answers.count) answers for \(inputs.count) inputs")
        }
        return answers
    }
}

/// The oracle could not answer: why, and how to install it.
public struct PhoneOracleUnavailable: Error, CustomStringConvertible {
    public let detail: String

    public init(_ detail: String) { self.detail = detail }

    public var description: String {
        "phone oracle unavailable: \(detail). Install it with `python3 -m pip install phonenumbers==9.0.35` "
            + "(or point FMTD_PHONE_ORACLE_PYTHON at a Python that has it)."
    }
}
