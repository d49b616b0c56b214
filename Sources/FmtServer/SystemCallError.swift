import Glibc

/// A C call that failed, with the `errno` it left: the one errno rule on the Swift side. Every `csys_` call (and
/// the Glibc calls used beside them) returns a negative value on failure and sets `errno`; `check` throws that as a
/// `SystemCallError`, `failure` hands it back for callers that log it and carry on.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, e.g. `epoll_ctl(ADD, listener)`.
    public let call: String
    /// The `errno` the call left.
    public let errno: Int32

    /// A failure of `call` with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }

    /// Returns `result` when it is not negative; otherwise throws the failure with the current `errno`.
    @discardableResult
    public static func check<Result: BinaryInteger>(_ call: String, _ result: Result) throws(SystemCallError) -> Result
    {
        if result < 0 { throw SystemCallError(call: call, errno: Glibc.errno) }
        return result
    }

    /// The failure of `call` when `result` is negative (with the current `errno`), else nil.
    public static func failure<Result: BinaryInteger>(_ call: String, _ result: Result) -> SystemCallError? {
        result < 0 ? SystemCallError(call: call, errno: Glibc.errno) : nil
    }
}

extension ListenerError {
    /// A system call failure while getting the listening socket.
    init(_ failure: SystemCallError) {
        self = .system(failure.call, errno: failure.errno)
    }
}
