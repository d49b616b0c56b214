import FmtServer
import Testing

/// Who gets a connection slot, decided without a socket.
@Suite struct AdmissionTests {
    @Test func oneUidStopsAtItsOwnLimitWhileOthersAreStillAdmitted() {
        let admission = Admission(maxConnections: 10, maxPerUID: 2)
        #expect(admission.admit(uid: 1000) == .admitted)
        #expect(admission.admit(uid: 1000) == .admitted)
        #expect(admission.admit(uid: 1000) == .overPerUIDLimit(uid: 1000, limit: 2))
        #expect(admission.admit(uid: 1001) == .admitted)
        #expect(admission.snapshot == Admission.Snapshot(open: 3, limit: 10, uids: 2, busiestUID: 2))
    }

    @Test func aRefusedConnectionTakesNoSlotAndAReleasedOneGivesItsSlotBack() {
        let admission = Admission(maxConnections: 2, maxPerUID: 1024)
        #expect(admission.admit(uid: 1) == .admitted)
        #expect(admission.admit(uid: 2) == .admitted)
        #expect(admission.admit(uid: 3) == .overGlobalLimit(limit: 2))
        #expect(admission.snapshot.open == 2)
        admission.release(uid: 1)
        #expect(admission.admit(uid: 3) == .admitted)
        admission.release(uid: 2)
        admission.release(uid: 3)
        #expect(admission.snapshot == Admission.Snapshot(open: 0, limit: 2, uids: 0, busiestUID: 0))
    }

    @Test func releasingAUidThatHoldsNothingChangesNothing() {
        let admission = Admission(maxConnections: 2, maxPerUID: 2)
        #expect(admission.admit(uid: 1) == .admitted)
        admission.release(uid: 7)
        #expect(admission.snapshot.open == 1)
    }

    @Test func theGlobalLimitOnlyEverGoesDown() {
        let admission = Admission(maxConnections: 100, maxPerUID: 1024)
        admission.lowerGlobalLimit(to: 1000)
        #expect(admission.snapshot.limit == 100)
        admission.lowerGlobalLimit(to: 3)
        #expect(admission.snapshot.limit == 3)
    }

    @Test func theDescriptorLimitLeavesHeadroomBesideTheDescriptorsInUse() {
        #expect(
            Admission.connectionLimit(configured: 4096, openFileLimit: 1_048_576, descriptorsInUse: 12, headroom: 32)
                == 4096)
        #expect(
            Admission.connectionLimit(configured: 4096, openFileLimit: 1024, descriptorsInUse: 12, headroom: 32) == 980)
        #expect(Admission.connectionLimit(configured: 4096, openFileLimit: 40, descriptorsInUse: 12, headroom: 32) == 1)
    }

    /// Many threads admitting and releasing at once never take more slots than the limits allow.
    @Test func concurrentAdmissionsNeverExceedTheLimits() async {
        let admission = Admission(maxConnections: 50, maxPerUID: 20)
        let admitted = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var held = 0
                    for _ in 0..<1000 where admission.admit(uid: UInt32(task % 4)) == .admitted { held += 1 }
                    return held
                }
            }
            return await group.reduce(0, +)
        }
        #expect(admitted == 50)
        #expect(admission.snapshot.busiestUID <= 20)
    }
}
