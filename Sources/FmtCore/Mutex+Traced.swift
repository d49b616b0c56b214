import CSystem
import Synchronization

extension Mutex where Value: ~Copyable {
    /// `withLock`, in a form ThreadSanitizer can follow. Swift's `Mutex` takes its futex in code ThreadSanitizer does
    /// not instrument, so it sees two threads touching the guarded value under the lock as a race. Built with
    /// `FMTD_TSAN` defined (the ThreadSanitizer step of CI), this tells it the lock's acquire and release at the
    /// lock's address; in every other build it is `withLock` itself, with no added instruction.
    @inlinable @inline(__always)
    public borrowing func withTracedLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        #if FMTD_TSAN
        // The lock's own address: taking the guarded value's would be an access ThreadSanitizer checks before the
        // acquire is told.
        let lock = withUnsafePointer(to: self) { UnsafeRawPointer($0) }
        return try withLock { (value: inout sending Value) throws(Failure) -> sending Result in
            csys_tsan_acquire(lock)
            defer { csys_tsan_release(lock) }
            return try body(&value)
        }
        #else
        try withLock(body)
        #endif
    }
}
