import Foundation
import Synchronization
import Testing

@testable import FmtServer

/// Reload requests are numbered and each reload records which it answered: a request that comes during a reload
/// is answered by the next one, which the sequence says.
@Suite struct ReloadWorkerTests {
    /// A reload body that waits for the test to let each reload finish, with the outcomes the test scripts.
    final class Gate: Sendable {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let outcomes: Mutex<[Bool]>

        init(_ outcomes: [Bool]) { self.outcomes = Mutex(outcomes) }

        func reload() -> ReloadWorker.Outcome {
            started.signal()
            release.wait()
            return (outcomes.withLock { $0.removeFirst() }, "")
        }
    }

    static func waitFor(_ condition: () -> Bool) {
        for _ in 0..<500 where !condition() { usleep(2_000) }
    }

    @Test func aRequestDuringAReloadIsAnsweredByTheNextAndTheSequenceSaysSo() {
        let sequence = ReloadSequence()
        let gate = Gate([true, false])
        let worker = ReloadWorker(sequence: sequence) { gate.reload() }
        #expect(worker.request())
        gate.started.wait()
        #expect(sequence.snapshot == ReloadSequence.Snapshot(requested: 1, started: 1, finished: 0, lastOK: nil))

        // The second request comes while the first reload runs: merged into the next.
        let before = sequence.snapshot.requested
        #expect(!worker.request())
        #expect(sequence.snapshot.requested == 2)
        gate.release.signal()
        gate.started.wait()
        let afterFirst = sequence.snapshot
        #expect(afterFirst.finished == 1 && afterFirst.lastOK == true && afterFirst.started == 2)
        #expect(afterFirst.finished <= before, "the first reload does not answer the second request")

        gate.release.signal()
        Self.waitFor { sequence.snapshot.finished == 2 }
        #expect(sequence.snapshot == ReloadSequence.Snapshot(requested: 2, started: 2, finished: 2, lastOK: false))
        Self.waitFor { worker.collect().idle }
    }
}
