import FmtTesting
import Foundation
import Testing

/// Every `Mutex` in the sources is taken with `withTracedLock`, so the ThreadSanitizer step of CI sees its acquire and
/// release: a plain `withLock` there reads to ThreadSanitizer as a race under the lock.
@Suite struct TracedLockTests {
    @Test func everyMutexInTheSourcesIsTakenTraced() throws {
        let sources = URL(fileURLWithPath: Paths.packageRoot + "/Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var checked = 0
        var plain: [String] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            checked += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(".withLock {") || line.contains(".withLock(") {
                if file.lastPathComponent != "Mutex+Traced.swift" {
                    plain.append("\(file.lastPathComponent):\(number + 1)")
                }
            }
        }
        #expect(checked > 100, "the sources were found")
        #expect(plain.isEmpty, "take these with withTracedLock: \(plain)")
    }
}
