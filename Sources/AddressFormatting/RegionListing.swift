import CICU
import FmtCore
import Synchronization

/// `addressFormat`'s `regions`: one list of a country's sub-regions (its regions, a region's cities, a city's
/// districts) for a form, each with its key, name, Latin name, ISO 3166-2 code, name in the viewer's language and
/// postal-code prefixes where the data has them, sorted by the viewer's collation of the name the viewer reads
/// (the viewer's language's, else the country's where that is the viewer's language, else the Latin one, else the
/// country's). The order of a list is worked out once per viewer tag and remembered, at most `orderLimit` of them
/// (the next one starts afresh), with at most `collatorLimit` collators.
final class RegionListing: Sendable {
    static let orderLimit = 512
    static let collatorLimit = 16

    private struct OrderKey: Hashable {
        let format: Int
        let parent: Int
        let tag: String
    }

    private struct State {
        var orders: [OrderKey: [Int32]] = [:]
        var collators: [String: RegionCollator] = [:]
    }

    private let state = Mutex(State())

    /// Writes `regions` (the list under `parent`, -1 for the regions) of `table`, the format at `formatIndex` of
    /// `country`, for a viewer of `viewer`.
    func write(
        _ table: RegionTable, formatIndex: Int, parent: Int, country: String, viewer: LanguageTag,
        into response: inout ResponseWriter
    ) {
        let language = viewer.language
        let order = self.order(table, formatIndex: formatIndex, parent: parent, viewer: viewer)
        response.array("regions") { list in
            for index in order {
                let entry = table.entries[Int(index)]
                list.objectElement { object in
                    table.withBytes(entry.key) { object.member("key", utf8: $0) }
                    table.withBytes(entry.name) { object.member("name", utf8: $0) }
                    if entry.latinName.count > 0 {
                        table.withBytes(entry.latinName) { object.member("latinName", utf8: $0) }
                    }
                    if entry.isoCode.count > 0, let code = table.string(entry.isoCode) {
                        object.member("isoCode", "\(country)-\(code)")
                    }
                    if language != table.language, let name = table.translatedName(Int(index), language: language) {
                        table.withBytes(name) { object.member("viewerName", utf8: $0) }
                    }
                    if let prefixes = table.prefixPattern(Int(index)) {
                        object.member("postalCodePrefixes", prefixes)
                    }
                }
            }
        }
    }

    /// The name a viewer of `language` reads for `entry`: theirs, else the country's where it is theirs, else the
    /// Latin one, else the country's.
    static func readName(_ table: RegionTable, _ entry: Int, language: String) -> RegionTable.Text {
        if language != table.language, let name = table.translatedName(entry, language: language) { return name }
        let names = table.entries[entry]
        if language != table.language, names.latinName.count > 0 { return names.latinName }
        return names.name
    }

    private func order(_ table: RegionTable, formatIndex: Int, parent: Int, viewer: LanguageTag) -> [Int32] {
        let tag = viewer.description
        let key = OrderKey(format: formatIndex, parent: parent, tag: tag)
        let (known, collator) = state.withTracedLock { state -> ([Int32]?, RegionCollator?) in
            if let order = state.orders[key] { return (order, nil) }
            if let collator = state.collators[tag] { return (nil, collator) }
            return (nil, nil)
        }
        if let known { return known }
        let sorter = collator ?? RegionCollator(tag: tag) ?? RegionCollator(tag: "und")
        let range = table.list(under: parent)
        let names = range.map { Self.readName(table, $0, language: viewer.language) }
        var order = range.map { Int32($0) }
        order.sort { left, right in
            let a = names[Int(left) - range.lowerBound]
            let b = names[Int(right) - range.lowerBound]
            return table.withBytes(a) { a in
                table.withBytes(b) { b in
                    let compared = sorter?.compare(a, b) ?? 0
                    if compared != 0 { return compared < 0 }
                    // Equal names keep the data's order.
                    return left < right
                }
            }
        }
        state.withTracedLock { state in
            if state.orders.count >= Self.orderLimit { state.orders = [:] }
            state.orders[key] = order
            if let sorter, state.collators[tag] == nil {
                if state.collators.count >= Self.collatorLimit { state.collators = [:] }
                state.collators[tag] = sorter
            }
        }
        return order
    }
}

/// An ICU collator for one tag, shared read-only (ICU's comparison is thread-safe once it is configured).
private final class RegionCollator: @unchecked Sendable {
    private let handle: OpaquePointer

    init?(tag: String) {
        guard let handle = fmt_collator_open(tag) else { return nil }
        self.handle = handle
    }

    deinit {
        fmt_collator_close(handle)
    }

    func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
        a.withMemoryRebound(to: CChar.self) { a in
            b.withMemoryRebound(to: CChar.self) { b in
                fmt_collator_compare(handle, a.baseAddress, Int32(a.count), b.baseAddress, Int32(b.count))
            }
        }
    }
}
