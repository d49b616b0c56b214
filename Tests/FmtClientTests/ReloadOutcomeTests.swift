import FmtClient
import Testing

/// `reload` takes the outcome of a reload that began after its request, never of one already running.
@Suite struct ReloadOutcomeTests {
    static func counters(ok: Int, failed: Int, requested: Int?, finished: Int?, lastOK: Bool?) -> FmtReloadCounters {
        FmtReloadCounters(
            ok: ok, failed: failed, generation: 1 + ok, lastError: failed > 0 ? "address-formats.json: broken" : "",
            kept: [], requested: requested, finished: finished, lastOK: lastOK)
    }

    /// A slow reload is running when the request comes (request 1 started it, the request is number 2 and merges
    /// into the next): its success is not the answer; the next reload's refusal is.
    @Test func aReloadAlreadyRunningDoesNotAnswerARequestMergedIntoTheNext() {
        let before = Self.counters(ok: 0, failed: 0, requested: 1, finished: 0, lastOK: nil)
        let runningOneSucceeded = Self.counters(ok: 1, failed: 0, requested: 2, finished: 1, lastOK: true)
        #expect(FmtReloadCounters.outcome(before: before, after: runningOneSucceeded) == nil)
        let nextOneRefused = Self.counters(ok: 1, failed: 1, requested: 2, finished: 2, lastOK: false)
        #expect(
            FmtReloadCounters.outcome(before: before, after: nextOneRefused)
                == .failure(.refused(reason: "address-formats.json: broken")))
    }

    @Test func aReloadThatBeganAfterTheRequestAnswersIt() throws {
        let before = Self.counters(ok: 3, failed: 1, requested: 4, finished: 4, lastOK: false)
        #expect(
            FmtReloadCounters.outcome(
                before: before, after: Self.counters(ok: 3, failed: 1, requested: 5, finished: 4, lastOK: false))
                == nil)
        let after = Self.counters(ok: 4, failed: 1, requested: 5, finished: 5, lastOK: true)
        #expect(try FmtReloadCounters.outcome(before: before, after: after)?.get().generation == 5)
    }

    @Test func aDaemonWithoutRequestNumbersIsReadByItsCounters() throws {
        let before = Self.counters(ok: 0, failed: 0, requested: nil, finished: nil, lastOK: nil)
        #expect(FmtReloadCounters.outcome(before: before, after: before) == nil)
        let after = Self.counters(ok: 1, failed: 0, requested: nil, finished: nil, lastOK: nil)
        #expect(try FmtReloadCounters.outcome(before: before, after: after)?.get().generation == 2)
    }
}
