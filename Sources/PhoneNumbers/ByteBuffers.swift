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

/// A byte buffer appended to in order, on the stack until it outgrows it (then on the heap, freed with the
/// writer). Texts written are addressed by offset, so they stay valid when the buffer grows.
struct ByteWriter: ~Copyable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    private var onHeap = false

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        capacity = storage.count
    }

    deinit {
        if onHeap { base.deallocate() }
    }

    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @inline(never)
    private mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, 2 * capacity)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.initialize(from: base, count: count)
        if onHeap { base.deallocate() }
        base = larger
        capacity = newCapacity
        onHeap = true
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Most texts appended are short (a calling code, a prefix, a group, a member name): copied without a call.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).copyShort(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Lets `body` write at most `maximum` bytes at the end, returning how many it wrote.
    @inline(__always)
    mutating func append(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximum)
        let written = body(base + count)
        precondition(written <= maximum, "wrote past the reserved bytes")
        count += written
    }

    /// Appends a copy of bytes already written (`range` of this buffer).
    @inline(__always)
    mutating func appendCopy(of range: Range<Int>) {
        reserve(range.count)
        (base + count).copyShort(from: base + range.lowerBound, count: range.count)
        count += range.count
    }

    /// The value in decimal, as `String(value)` writes it.
    mutating func appendDecimal(_ value: Int) {
        if value < 0 { append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude)
    }

    private mutating func appendDecimal(_ value: UInt) {
        if value >= 10 { appendDecimal(value / 10) }
        append(UInt8(truncatingIfNeeded: 48 + value % 10))
    }

    @inline(__always)
    subscript(offset: Int) -> UInt8 { base[offset] }

    /// Calls `body` with the start of the bytes written, which it must not keep.
    func withBase<Result>(_ body: (UnsafePointer<UInt8>) -> Result) -> Result {
        body(base)
    }

    /// The bytes of `range`, valid until the next append.
    @inline(__always)
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The bytes after the first `count`, rebased to offset 0.
    @inline(__always)
    func dropping(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: self[Swift.min(count, self.count)...])
    }
}
