import FuzzDriver
import Glibc

/// The harness around libFuzzer shared by every target: runs the driver, times each input, and reads the
/// repository's `data/` so targets load the data the daemon ships.
public enum Fuzz {
    /// Hands control to libFuzzer with the process arguments; exits with its status.
    public static func run(_ callback: fmtd_fuzz_callback) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// Inputs slower than this many milliseconds are reported (`FMTD_FUZZ_SLOW_MS`, default 10), plus
    /// `FMTD_FUZZ_SLOW_MS_PER_KIB` (default 0) per KiB of input for loaders, whose honest cost grows with the file.
    public static let slowMilliseconds = environmentNumber("FMTD_FUZZ_SLOW_MS") ?? 10
    public static let slowMillisecondsPerKiB = environmentNumber("FMTD_FUZZ_SLOW_MS_PER_KIB") ?? 0

    /// Runs `body` on one input and reports it when it is slow. Time is the process's CPU time, so waiting for a
    /// core on a busy machine does not count (a copy-rules input replayed in 2.4 ms took 44 ms of wall-clock time at
    /// a load average of 7 on 2 cores); a slow input is re-run twice and judged by its fastest run; a slow input
    /// is written to `slow-unit-<hash>` and announced with `FMTD-FUZZ SLOW UNIT`, which `run.sh` fails on.
    public static func timed(
        _ data: UnsafePointer<UInt8>?, _ size: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Int32 {
        let bytes = UnsafeBufferPointer(start: size == 0 ? nil : data, count: size)
        let limit = slowMilliseconds + slowMillisecondsPerKiB * Double(size) / 1024
        var fastest = Double.infinity
        for _ in 0..<3 {
            let started = nanoseconds()
            body(bytes)
            fastest = min(fastest, Double(nanoseconds() - started) / 1e6)
            if fastest <= limit { return 0 }
        }
        let name = "slow-unit-" + hash(bytes)
        let prefix = getenv("FMTD_FUZZ_ARTIFACTS").map { String(cString: $0) } ?? "./"
        if let file = fopen(prefix + name, "wb") {
            _ = fwrite(bytes.baseAddress, 1, bytes.count, file)
            fclose(file)
        }
        printError("FMTD-FUZZ SLOW UNIT: \(format3(fastest)) ms > \(format3(limit)) ms, written to \(prefix)\(name)")
        return 0
    }

    /// Aborts the run with `message` (libFuzzer then saves the input as a crash).
    public static func fail(_ message: String) -> Never {
        printError("FMTD-FUZZ INVARIANT BROKEN: " + message)
        abort()
    }

    /// The repository's `data/` directory: `FMTD_FUZZ_DATA`, else found from this source file's location.
    public static let dataDirectory: String = {
        if let path = getenv("FMTD_FUZZ_DATA") { return String(cString: path) }
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(5)
        return parts.joined(separator: "/") + "/data"
    }()

    /// The text of a file under `data/`; the target cannot run without it.
    public static func dataFile(_ path: String) -> String {
        guard let file = fopen(dataDirectory + "/" + path, "rb") else { fail("cannot open \(dataDirectory)/\(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func environmentNumber(_ name: String) -> Double? {
        getenv(name).flatMap { Double(String(cString: $0)) }
    }

    private static func printError(_ line: String) {
        _ = (line + "\n").withCString { write(2, $0, strlen($0)) }
    }

    private static func nanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func format3(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// FNV-1a of the input, to name artifacts.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
