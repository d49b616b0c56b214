import Foundation
import PhoneNumbers

#if canImport(Glibc)
import Glibc
#endif

/// A micro-benchmark of metadata loading and of parse + validate + format (all forms) per number.
public enum PhoneBenchmark {
    /// Timings in nanoseconds.
    public struct Result: Sendable, CustomStringConvertible {
        /// Median time to load and compile the metadata JSON.
        public var loadNanoseconds: Double
        /// Median wall-clock time per number of `describe` (parse, region, type, validity, E.164, national,
        /// international, RFC 3966), and the median thread CPU time, by input.
        public var perNumber: [(input: String, nanoseconds: Double, cpuNanoseconds: Double)]

        /// Median wall-clock time over all numbers.
        public var medianNanoseconds: Double { PhoneBenchmark.median(perNumber.map(\.nanoseconds)) }
        /// Median thread CPU time over all numbers (insensitive to preemption on a busy machine).
        public var medianCPUNanoseconds: Double { PhoneBenchmark.median(perNumber.map(\.cpuNanoseconds)) }

        /// A printable report.
        public var description: String {
            var lines = [String(format: "metadata load: %.2f ms (median of 9)", loadNanoseconds / 1e6)]
            lines.append("      wall       cpu  input (describe = parse + validate + type + all formats)")
            for (input, time, cpu) in perNumber {
                lines.append(String(format: "  %6.3f µs %6.3f µs  ", time / 1000, cpu / 1000) + input)
            }
            lines.append(
                String(
                    format: "describe median over NL/DE/GB/US numbers: %.3f µs wall, %.3f µs thread CPU",
                    medianNanoseconds / 1000, medianCPUNanoseconds / 1000))
            return lines.joined(separator: "\n")
        }
    }

    /// Inputs: NL, DE, GB and US numbers in international and national writing, with their default regions.
    public static let inputs: [(String, String?)] = [
        ("+31 6 12345678", nil), ("020 123 4567", "NL"), ("+49 30 1234567", nil), ("0151 23456789", "DE"),
        ("+44 20 7946 0958", nil), ("07700 900123", "GB"), ("(650) 253-0000", "US"), ("+1 212 555 0123", nil),
    ]

    /// Runs the benchmark over the JSON metadata `json`.
    public static func run(
        json: Data, iterations: Int = 20_000, inputs: [(String, String?)] = PhoneBenchmark.inputs
    ) throws -> Result {
        var loads: [Double] = []
        var metadata: PhoneMetadata?
        for _ in 0..<9 {
            let start = ContinuousClock.now
            metadata = try PhoneMetadata(json: Array(json))
            loads.append(nanoseconds(ContinuousClock.now - start))
        }
        guard let metadata else { preconditionFailure("metadata loaded nine times") }
        let engine = PhoneEngine(metadata: metadata)
        var perNumber: [(String, Double, Double)] = []
        let batch = 100
        for (input, region) in inputs {
            var samples: [Double] = []
            var cpuSamples: [Double] = []
            var sink = 0
            for _ in 0..<max(iterations / batch, 1) {
                let cpuStart = threadCPUNanoseconds()
                let start = ContinuousClock.now
                for _ in 0..<batch {
                    let description = try? engine.describe(number: input, defaultRegion: region, viewerRegion: "NL")
                    sink &+= description.map { $0.rfc3966.utf8.count &+ ($0.valid ? 1 : 0) } ?? 0
                }
                samples.append(nanoseconds(ContinuousClock.now - start) / Double(batch))
                cpuSamples.append((threadCPUNanoseconds() - cpuStart) / Double(batch))
            }
            precondition(sink > 0)
            perNumber.append((input, median(samples), median(cpuSamples)))
        }
        return Result(loadNanoseconds: median(loads), perNumber: perNumber)
    }

    static func threadCPUNanoseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

extension PhoneBenchmark {
    /// Wall-clock and thread CPU time of one `phoneMatch` batch: a number against `count` others (every
    /// region's example numbers, E.164 and national in turn, with the NL mobile among them), median of `rounds`.
    public static func runMatch(json: Data, count: Int = 10_000, rounds: Int = 21) throws -> String {
        let metadata = try PhoneMetadata(json: Array(json))
        let engine = PhoneEngine(metadata: metadata)
        var pool: [String] = []
        for region in metadata.regions {
            for (_, example) in metadata.examples(region: region).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let code = metadata.countryCode(forRegion: region) ?? 0
                pool.append(pool.count % 2 == 0 ? "+\(code) \(example)" : example)
            }
        }
        var others = (0..<count).map { pool[$0 % pool.count] }
        others[count / 2] = "06-12345678"
        var lines: [String] = []
        for region in [nil, "NL"] as [String?] {
            var samples: [Double] = []
            var cpuSamples: [Double] = []
            var matches = 0
            for _ in 0..<rounds {
                let cpuStart = threadCPUNanoseconds()
                let start = ContinuousClock.now
                let results = engine.match("+31 6 12345678", against: others, defaultRegion: region)
                samples.append(nanoseconds(ContinuousClock.now - start))
                cpuSamples.append(threadCPUNanoseconds() - cpuStart)
                matches = results.count { (try? $0.get()).map { $0 != .none } ?? false }
            }
            lines.append(
                String(
                    format: "match against %d (defaultRegion %@): %.2f ms wall, %.2f ms thread CPU, %d matches",
                    count, region ?? "none", median(samples) / 1e6, median(cpuSamples) / 1e6, matches))
        }
        return lines.joined(separator: "\n")
    }
}
