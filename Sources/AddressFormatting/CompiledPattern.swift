import CICU

/// A regular expression compiled by ICU once at load and shared read-only by every request thread
/// (each match runs on a private clone inside the shim). When the pattern's syntax allows, it is also compiled
/// into a `BytePattern`, which answers ASCII text without ICU.
final class CompiledPattern: @unchecked Sendable {
    // Unchecked: the handle is never mutated after init, and the shim only clones it to match.
    private let handle: OpaquePointer
    /// The number of capture groups.
    let groupCount: Int
    /// The byte matcher, when it covers the pattern and counts its groups as ICU does.
    let bytePattern: BytePattern?

    /// Compiles `pattern`; nil with the offset of the syntax error when ICU rejects it.
    static func compile(_ pattern: String) -> Result<CompiledPattern, PatternSyntaxError> {
        var errorOffset: Int32 = -1
        let bytes = Array(pattern.utf8)
        let handle = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                fmt_icu_address_pattern_open($0.baseAddress, Int32($0.count), &errorOffset)
            }
        }
        guard let handle else { return .failure(PatternSyntaxError(offset: Int(errorOffset))) }
        return .success(CompiledPattern(handle: handle, bytePattern: BytePattern(pattern)))
    }

    private init(handle: OpaquePointer, bytePattern: BytePattern?) {
        self.handle = handle
        let groupCount = Int(fmt_icu_address_pattern_groups(handle))
        self.groupCount = groupCount
        self.bytePattern = bytePattern.flatMap { $0.groupCount == groupCount ? $0 : nil }
    }

    deinit {
        fmt_icu_address_pattern_close(handle)
    }

    /// Matches the whole of `text`: by the byte matcher when it can answer, else by ICU.
    func wholeMatch(_ text: String) -> PatternMatch {
        if let bytePattern, let match = bytePattern.wholeMatch(text) { return match }
        return icuWholeMatch(text)
    }

    /// Matches the whole of `text` with ICU, under the shim's step and backtrack-stack limits.
    func icuWholeMatch(_ text: String) -> PatternMatch {
        let capacity = groupCount + 1
        var text = text
        let byteCount = text.utf8.count
        // Offsets go to stack buffers and the text's own UTF-8 is passed: a match allocates only its result.
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * capacity) { offsets in
            offsets.initialize(repeating: -1)
            let starts = offsets.baseAddress!
            let ends = starts + capacity
            let result = text.withUTF8 { utf8 in
                utf8.withMemoryRebound(to: CChar.self) {
                    fmt_icu_address_pattern_match(
                        handle, $0.baseAddress, Int32($0.count), starts, ends, Int32(capacity))
                }
            }
            guard result >= 0 else { return result == -3 ? .overLimit : .noMatch }
            let utf8 = text.utf8
            return .matched(
                (0..<capacity).map { index in
                    let start = Int(starts[index])
                    let end = Int(ends[index])
                    guard start >= 0, end >= start, end <= byteCount else { return nil }
                    let lower = utf8.index(utf8.startIndex, offsetBy: start)
                    let upper = utf8.index(lower, offsetBy: end - start)
                    return text[lower..<upper]
                })
        }
    }
}

/// The outcome of one match.
enum PatternMatch: Equatable {
    /// The text of the whole match (index 0) and of each group, nil for a group that took no part.
    case matched([Substring?])
    case noMatch
    /// ICU stopped the match at its step or backtrack-stack limit.
    case overLimit
}

/// ICU refused a pattern; `offset` is where (in UTF-16 units), or -1 when ICU does not say.
struct PatternSyntaxError: Error {
    let offset: Int
}
