extension UnsafeMutablePointer<UInt8> {
    /// Copies `count` bytes from `source` (a member name, a short value) with a few unaligned loads and stores,
    /// where `memmove` costs a call and its own dispatch on the size; more than 64 bytes go to `memmove`. Reads and
    /// writes only the `count` bytes.
    @inlinable @inline(__always)
    public func copyShort(from source: UnsafePointer<UInt8>, count: Int) {
        let target = self
        guard count <= 64 else {
            update(from: source, count: count)
            return
        }
        let from = UnsafeRawPointer(source)
        let to = UnsafeMutableRawPointer(target)
        if count >= 8 {
            var offset = 0
            while offset < count &- 8 {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset,
                    as: UInt64.self)
                offset &+= 8
            }
            // The last word overlaps the one before it rather than leaving a tail byte by byte.
            let last = count &- 8
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: last, as: UInt64.self), toByteOffset: last, as: UInt64.self)
        } else if count >= 4 {
            let last = count &- 4
            let low = from.loadUnaligned(as: UInt32.self)
            let high = from.loadUnaligned(fromByteOffset: last, as: UInt32.self)
            to.storeBytes(of: low, as: UInt32.self)
            to.storeBytes(of: high, toByteOffset: last, as: UInt32.self)
        } else if count > 0 {
            target[0] = source[0]
            target[count &>> 1] = source[count &>> 1]
            target[count &- 1] = source[count &- 1]
        }
    }

    /// As `copyShort(from:count:)`, from a buffer (which may be empty and have no address).
    @inlinable @inline(__always)
    public func copyShort(from source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        copyShort(from: base, count: source.count)
    }
}
