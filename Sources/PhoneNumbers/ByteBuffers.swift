import FmtCore

/// Values copied once at load and never written again, freed by their owner's `deinit`. Read without reference
/// counting: a hot loop over shared metadata touches no refcount that two event loops would contend for.
struct FrozenArray<Element: BitwiseCopyable>: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Element>

    static var empty: Self { Self(buffer: UnsafeBufferPointer(start: nil, count: 0)) }

    private init(buffer: UnsafeBufferPointer<Element>) {
        self.buffer = buffer
    }

    init(_ elements: some Collection<Element>) {
        guard !elements.isEmpty else {
            self = .empty
            return
        }
        let storage = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = storage.initialize(from: elements)
        buffer = UnsafeBufferPointer(storage)
    }

    var count: Int { buffer.count }
    var isEmpty: Bool { buffer.isEmpty }

    @inline(__always)
    subscript(index: Int) -> Element { buffer[index] }

    func deallocate() {
        buffer.deallocate()
    }
}

typealias FrozenBytes = FrozenArray<UInt8>

/// Scratch regions for one parse, handed out in order and never moved: on the stack, and (past the stack part,
/// which the common case never reaches) in heap blocks freed with the arena.
struct ScratchArena: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var used = 0
    private var spilled: [UnsafeMutableBufferPointer<UInt8>] = []

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        capacity = storage.count
    }

    mutating func take(_ count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if used + count <= capacity {
            defer { used += count }
            return UnsafeMutableBufferPointer(start: base + used, count: count)
        }
        let block = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
        spilled.append(block)
        return block
    }

    /// Runs `body`, which reads regions of the arena, while the arena is borrowed: its heap blocks outlive it.
    func keepingAlive<Result>(_ body: () -> Result) -> Result {
        body()
    }

    deinit {
        for block in spilled { block.deallocate() }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes after the first `count`, rebased to offset 0.
    @inline(__always)
    func dropping(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[Swift.min(count, self.count)...])
    }
}
