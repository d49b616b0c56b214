import Glibc

/// Readings of another process from `/proc`: CPU time (all threads) and memory.
struct ProcessProbe {
    let pid: Int32

    /// Clock ticks per second of `utime`/`stime` (USER_HZ, normally 100).
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// utime + stime of the whole process in seconds, or nil when the process is gone.
    func cpuSeconds() -> Double? {
        Self.cpuSeconds(statPath: "/proc/\(pid)/stat")
    }

    private static func cpuSeconds(statPath: String) -> Double? {
        guard let text = read(statPath),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / ticksPerSecond
    }

    /// utime + stime of each thread in seconds, by thread id.
    func threadCPUSeconds() -> [Int32: Double] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [:] }
        defer { closedir(directory) }
        var result: [Int32: Double] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let tid = Int32(name),
                let seconds = ProcessProbe.cpuSeconds(statPath: "/proc/\(pid)/task/\(tid)/stat")
            else { continue }
            result[tid] = seconds
        }
        return result
    }

    /// A `kB` line of `/proc/PID/status` (`VmRSS`, `VmHWM`) in KiB.
    func statusKiB(_ key: String) -> Int? {
        guard let text = Self.read("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    var residentKiB: Int? { statusKiB("VmRSS") }
    var peakResidentKiB: Int? { statusKiB("VmHWM") }

    var isAlive: Bool { kill(pid, 0) == 0 }

    /// Reads a whole file with plain `read(2)`: `/proc` files report a size of 0.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
