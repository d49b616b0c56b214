import CICU
import FmtCore
import Synchronization

/// An ICU collator for one language tag, with canonical equivalence on so NFC and NFD spellings compare
/// equal. ICU collators are thread-safe for comparison and sort keys once configured, so one instance is
/// shared read-only by every request for its tag.
final class Collator: @unchecked Sendable {
    private let handle: OpaquePointer
    /// ICU's version of this collator (root collation plus tailoring): stored sort keys are valid for one.
    let version: String

    /// Opens the collator of a BCP 47 tag (`sv-SE`, `de-u-co-phonebk`), or nil when ICU cannot.
    init?(tag: String) {
        guard let handle = fmt_collator_open(tag) else { return nil }
        self.handle = handle
        version = ICUInfo.read { fmt_collator_version(handle, $0, $1) }
    }

    deinit {
        fmt_collator_close(handle)
    }

    /// A UTF-8 string lent for comparing, its length checked against ICU's `int32_t` once rather than at every
    /// comparison it takes part in.
    struct Text {
        let start: UnsafePointer<UInt8>?
        let count: Int32

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            start = bytes.baseAddress
            count = Int32(bytes.count)
        }

        var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: Int(count)) }
    }

    /// Compares two UTF-8 strings in place: negative, zero or positive.
    @inline(__always)
    func compare(_ a: Text, _ b: Text) -> Int32 {
        comparer.compare(a, b)
    }

    /// The collator's comparison as a plain value, valid while the collator is: a sort's closures capture it
    /// without retaining the shared collator.
    var comparer: Comparer { Comparer(handle: handle) }

    struct Comparer {
        fileprivate let handle: OpaquePointer

        /// Compares two UTF-8 strings in place: negative, zero or positive.
        @inline(__always)
        func compare(_ a: Text, _ b: Text) -> Int32 {
            fmt_collator_compare(
                handle, UnsafePointer(OpaquePointer(a.start)), a.count, UnsafePointer(OpaquePointer(b.start)), b.count)
        }
    }

    /// Compares two UTF-8 strings: negative, zero or positive.
    func compare(_ a: [UInt8], _ b: [UInt8]) -> Int32 {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                a.withMemoryRebound(to: CChar.self) { a in
                    b.withMemoryRebound(to: CChar.self) { b in
                        fmt_collator_compare(handle, a.baseAddress, Int32(a.count), b.baseAddress, Int32(b.count))
                    }
                }
            }
        }
    }

    /// Writes the primary weights of UTF-16 text (see `fmt_collator_primaries`) and returns how many there are,
    /// which may be more than the buffers hold; -1 when ICU fails.
    func primaries(
        _ text: UnsafeBufferPointer<UInt16>, into weights: inout [UInt32], starts: inout [Int32], ends: inout [Int32]
    ) -> Int {
        let capacity = Int32(min(weights.count, starts.count, ends.count))
        return Int(
            fmt_collator_primaries(
                handle, text.baseAddress, Int32(text.count), &weights, &starts, &ends, capacity))
    }

    /// Calls `body` with the ICU sort key of a UTF-8 string, without the terminating zero byte (empty when ICU makes
    /// none), from a buffer on the stack: the same bytes `sortKey(_:)` gives.
    func withSortKey<Result>(
        _ text: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var zero: CChar = 0
        return withUnsafePointer(to: &zero) { zero in
            // ICU is handed an address even for an empty text.
            let source = text.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } ?? zero
            let count = Int32(text.count)
            var capacity = 512
            while true {
                let done: Result? = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { key in
                    let length = fmt_collator_sort_key(handle, source, count, key.baseAddress, Int32(capacity))
                    if length < 0 { return body(UnsafeBufferPointer(start: nil, count: 0)) }
                    guard Int(length) <= capacity else {
                        capacity = Int(length)
                        return nil
                    }
                    return body(UnsafeBufferPointer(rebasing: key[0..<Int(length)]))
                }
                if let done { return done }
            }
        }
    }

    /// The ICU sort key of a string, without the terminating zero byte: comparing two keys byte by byte
    /// orders them as `compare` orders the strings.
    func sortKey(_ text: String) -> [UInt8] {
        var utf8 = Array(text.utf8)
        if utf8.isEmpty { utf8 = [0] }
        let count = Int32(text.utf8.count)
        var capacity = max(64, text.utf8.count * 4)
        while true {
            var key = [UInt8](repeating: 0, count: capacity)
            let length = utf8.withUnsafeBufferPointer { source in
                source.withMemoryRebound(to: CChar.self) { source in
                    fmt_collator_sort_key(handle, source.baseAddress, count, &key, Int32(capacity))
                }
            }
            if length < 0 { return [] }
            if Int(length) <= capacity {
                key.removeSubrange(Int(length)...)
                return key
            }
            capacity = Int(length)
        }
    }
}

/// ICU's cardinal plural rules for one language tag; immutable once opened and shared across threads.
final class PluralRules: @unchecked Sendable {
    private let handle: OpaquePointer

    init?(tag: String) {
        guard let handle = fmt_plural_open(tag) else { return nil }
        self.handle = handle
    }

    deinit {
        fmt_plural_close(handle)
    }

    /// The CLDR category of a number (`one`, `few`, `many`, ...).
    func category(of number: Double) -> String? {
        let category = ICUInfo.read(capacity: 16) { fmt_plural_select(handle, number, $0, $1) }
        return category.isEmpty ? nil : category
    }

    /// The category of a plain decimal string (`1.0`), whose visible fraction digits count, read by one of
    /// `formatters`; nil when the text is not of the form `-?digits(.digits)?` within `DecimalText`'s bounds.
    func category(ofDecimal text: String, formatters: DecimalFormatters) -> String? {
        var text = text
        let category = text.withUTF8 { decimal in
            decimal.withMemoryRebound(to: CChar.self) { decimal in
                ICUInfo.read(capacity: 16) {
                    fmt_plural_select_decimal(
                        handle, formatters.handle, decimal.baseAddress, Int32(decimal.count), $0, $1)
                }
            }
        }
        return category.isEmpty ? nil : category
    }
}

/// The ICU number formatters a decimal `plural` count is read with, one per count of fraction digits (0 to 30),
/// each opened the first time it is needed and then shared by every thread: opening one cost about 15 µs a
/// request when each call opened its own. They depend on no language (the plural rules do), so a plugin keeps
/// one table for all of them; ICU's number formatters are thread-safe when each call has its own result, as
/// every call here does.
final class DecimalFormatters: @unchecked Sendable {
    /// The C table; nil when it could not be allocated (each call then opens a formatter of its own).
    fileprivate let handle: OpaquePointer?

    init() {
        handle = fmt_decimal_formatters_open()
    }

    deinit {
        fmt_decimal_formatters_close(handle)
    }

    /// How many formatters have been opened: at most one per count of fraction digits, however many requests.
    var opened: Int { Int(fmt_decimal_formatters_opened(handle)) }
}

/// ICU objects by language tag, so each tag's collator or rules are opened once and then shared.
final class TagCache<Value: AnyObject & Sendable>: Sendable {
    private let cache: LookupCache<HashableKeys<String>, Value, ForgetAll>
    private let open: @Sendable (String) -> Value?

    init(limit: Int = 256, open: @escaping @Sendable (String) -> Value?) {
        cache = LookupCache(limit: limit)
        self.open = open
    }

    func value(for tag: String) -> Value? {
        cache.value(for: tag) { open(tag) }
    }
}
