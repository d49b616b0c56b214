/// Sorts indices in place by a strict total order, with few comparisons: each comparison of names is an ICU
/// collation, which costs far more than moving indices. Runs of `runLength` are sorted by binary insertion (for the
/// usual handful of names, about `log2(n!)` comparisons), then merged pairwise through `scratch`.
enum IndexSort {
    static let runLength = 16

    /// Sorts `order` by `precedes`, which must be a strict total order (names tie-broken by index); `scratch` holds
    /// at least as many indices as `order`.
    @inline(__always)
    static func sort(
        _ order: UnsafeMutableBufferPointer<Int32>, scratch: UnsafeMutableBufferPointer<Int32>,
        by precedes: (Int32, Int32) -> Bool
    ) {
        let count = order.count
        guard count > 1, let base = order.baseAddress else { return }
        var runStart = 0
        while runStart < count {
            insertionSort(base + runStart, count: min(runLength, count - runStart), by: precedes)
            runStart += runLength
        }
        guard count > runLength, let spare = scratch.baseAddress else { return }
        precondition(scratch.count >= count, "IndexSort scratch too small")
        var source = base
        var target = spare
        var width = runLength
        while width < count {
            var start = 0
            while start < count {
                let middle = min(start + width, count)
                let end = min(start + 2 * width, count)
                merge(source, start, middle, end, into: target, by: precedes)
                start = end
            }
            swap(&source, &target)
            width *= 2
        }
        if source != base { base.update(from: source, count: count) }
    }

    /// Binary insertion: each index goes after every earlier one that precedes it, found in `log2` comparisons
    /// (a check against the last one first would save comparisons on sorted input and cost them on any other).
    @inline(__always)
    private static func insertionSort(
        _ base: UnsafeMutablePointer<Int32>, count: Int, by precedes: (Int32, Int32) -> Bool
    ) {
        guard count > 1 else { return }
        for next in 1..<count {
            let value = base[next]
            var low = 0
            var high = next
            while low < high {
                let middle = (low &+ high) / 2
                if precedes(value, base[middle]) { high = middle } else { low = middle &+ 1 }
            }
            var index = next
            while index > low {
                base[index] = base[index &- 1]
                index &-= 1
            }
            base[low] = value
        }
    }

    @inline(__always)
    private static func merge(
        _ source: UnsafeMutablePointer<Int32>, _ start: Int, _ middle: Int, _ end: Int,
        into target: UnsafeMutablePointer<Int32>, by precedes: (Int32, Int32) -> Bool
    ) {
        var left = start
        var right = middle
        var out = start
        while left < middle && right < end {
            if precedes(source[right], source[left]) {
                target[out] = source[right]
                right += 1
            } else {
                target[out] = source[left]
                left += 1
            }
            out += 1
        }
        while left < middle {
            target[out] = source[left]
            left += 1
            out += 1
        }
        while right < end {
            target[out] = source[right]
            right += 1
            out += 1
        }
    }
}
