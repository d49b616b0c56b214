import CSystem
import FmtCore
import Glibc
import Synchronization

/// The listener's `accept`, shared by every event loop: one call at a time, beside the one reserved descriptor.
///
/// Linux takes the lowest free descriptor before it looks for a waiting connection, so once the daemon is out of
/// descriptors the only way to answer a waiting client is to free the reserve (an open `/dev/null`), accept into
/// its number, answer `overloaded`, close, and take the reserve back. If loops accepted on their own, one loop's
/// plain `accept` could take the number another had just freed; once that connection is held, the reserve is gone
/// and every later client waits unanswered. Here every `accept` holds the lock, and a reserve that could not be
/// taken back is taken before the next plain `accept` can use a freed number.
final class Acceptor: Sendable {
    /// What one call to ``accept(answeringOverloaded:)`` did.
    enum Outcome: Equatable {
        /// A connection to serve (or refuse) on this descriptor.
        case accepted(Int32)
        /// No connection is waiting, or `accept` failed for a reason worth only trying again on the next event.
        case nothingWaiting
        /// Out of descriptors (`errno` given): one waiting connection was answered through the reserve.
        case answeredThroughReserve(errno: Int32)
        /// Out of descriptors (`errno` given) and the reserve could not be used: stop accepting for a while.
        case outOfDescriptors(errno: Int32)
    }

    private let listenerFD: Int32
    /// The reserved descriptor, or -1 while it could not be taken back; the lock every `accept` holds.
    private let reserve: Mutex<Int32>

    /// Takes the reserve; throws when even that is impossible.
    init(listener: Listener) throws(ListenerError) {
        listenerFD = listener.fd
        let fd = csys_open_reserve()
        guard fd >= 0 else { throw .system("opening the reserved descriptor", errno: errno) }
        reserve = Mutex(fd)
    }

    deinit {
        reserve.withTracedLock { if $0 >= 0 { Glibc.close($0) } }
    }

    /// Accepts one connection. When out of descriptors, frees the reserve, accepts into it and hands that
    /// descriptor to `answer`, which must answer and close it, before the reserve is taken back.
    func accept(answeringOverloaded answer: (Int32) -> Void) -> Outcome {
        reserve.withTracedLock { reserve in
            if reserve < 0 { reserve = csys_open_reserve() }
            let fd = csys_accept(listenerFD)
            if fd >= 0 { return .accepted(fd) }
            let code = errno
            guard code == EMFILE || code == ENFILE else { return .nothingWaiting }
            guard reserve >= 0 else { return .outOfDescriptors(errno: code) }
            Glibc.close(reserve)
            let taken = csys_accept(listenerFD)
            let failure = errno
            if taken >= 0 { answer(taken) }
            reserve = csys_open_reserve()
            if taken >= 0 { return .answeredThroughReserve(errno: code) }
            return failure == EAGAIN || failure == EWOULDBLOCK ? .nothingWaiting : .outOfDescriptors(errno: code)
        }
    }
}
