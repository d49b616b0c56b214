import FmtServer
import Testing

/// Which socket paths are safe, decided from `lstat` results without touching the file system.
@Suite struct SocketPathPolicyTests {
    let policy = SocketPathPolicy(trustedOwners: [0, 999])

    @Test func rootOrDaemonOwnedDirectoriesNoOneElseCanWriteAreTrusted() {
        #expect(policy.problem(owner: 0, mode: 0o040755) == nil)
        #expect(policy.problem(owner: 999, mode: 0o040700) == nil)
    }

    @Test func aStickyWorldWritableDirectoryLikeTmpIsTrusted() {
        #expect(policy.problem(owner: 0, mode: 0o041777) == nil)
    }

    @Test func anotherUsersDirectoryIsRefusedWhateverItsMode() {
        #expect(policy.problem(owner: 65534, mode: 0o040755) != nil)
        #expect(policy.problem(owner: 65534, mode: 0o041777) != nil)
    }

    @Test func aDirectoryOthersOrItsGroupMayWriteIsRefusedUnlessSticky() {
        #expect(policy.problem(owner: 0, mode: 0o040777)?.contains("other users") == true)
        #expect(policy.problem(owner: 0, mode: 0o040775)?.contains("group") == true)
        #expect(policy.problem(owner: 0, mode: 0o040757) != nil)
    }

    @Test func aLinkIsJudgedByItsOwnerAndAnythingElseOnThePathIsRefused() {
        #expect(policy.problem(owner: 0, mode: 0o120777) == nil)
        #expect(policy.problem(owner: 65534, mode: 0o120777) != nil)
        #expect(policy.problem(owner: 0, mode: 0o100644) == "it is not a directory")
    }

    @Test func onlyASocketAtThePathMayBeReplaced() {
        #expect(SocketPathPolicy.existing(mode: nil) == .absent)
        #expect(SocketPathPolicy.existing(mode: 0o140755) == .socket)
        #expect(SocketPathPolicy.existing(mode: 0o100600) == .other(kind: "a regular file"))
        #expect(SocketPathPolicy.existing(mode: 0o120777) == .other(kind: "a symbolic link"))
        #expect(SocketPathPolicy.existing(mode: 0o010644) == .other(kind: "a FIFO"))
        #expect(SocketPathPolicy.existing(mode: 0o040755) == .other(kind: "a directory"))
    }
}
