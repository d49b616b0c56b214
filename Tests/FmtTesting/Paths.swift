import Foundation

/// Where the package, its data and the built binaries are, found from this file and the running test binary.
public enum Paths {
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    public static let dataDirectory = packageRoot + "/data"

    /// Shared test fixtures (`Tests/Fixtures`).
    public static let fixturesDirectory = packageRoot + "/Tests/Fixtures"

    /// The upstream sources the converters read, never committed: `FMTD_UPSTREAM_DIR`, else
    /// `../shared/upstream` beside the checkout.
    public static let upstreamDirectory: String = {
        if let directory = ProcessInfo.processInfo.environment["FMTD_UPSTREAM_DIR"], !directory.isEmpty {
            return directory
        }
        return (packageRoot as NSString).deletingLastPathComponent + "/shared/upstream"
    }()

    /// The directory holding the test bundle, which is also where SwiftPM puts `fmtd` and `fmtq`.
    public static let productsDirectory: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (executable as NSString).deletingLastPathComponent
    }()

    public static var fmtd: String { productsDirectory + "/fmtd" }
    public static var fmtq: String { productsDirectory + "/fmtq" }
    public static var fmtbench: String { productsDirectory + "/fmtbench" }

    /// A fresh private directory for one test's sockets and files (short, to fit `sun_path`).
    public static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/fmtd-test-XXXXXX".utf8CString)
        guard let path = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw POSIXError(.EIO)
        }
        return String(cString: path)
    }
}
