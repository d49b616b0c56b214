/// How much room the month gets: `long` spells it out, `medium` abbreviates it, `short` uses its number.
public enum DateStyle: String, Sendable, CaseIterable {
    case long, medium, short

    /// The ICU skeleton: the fields wanted, which the locale's pattern generator orders and punctuates.
    public func skeleton(withYear: Bool) -> String {
        switch (self, withYear) {
        case (.long, false): "dMMMM"
        case (.long, true): "yMMMMd"
        case (.medium, false): "dMMM"
        case (.medium, true): "yMMMd"
        case (.short, false): "dM"
        case (.short, true): "yMd"
        }
    }
}

extension DateStyle {
    /// The style whose name is exactly `utf8`; nil for any other text.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
        func spells(_ name: StaticString) -> Bool {
            utf8.count == name.utf8CodeUnitCount
                && utf8.hasSameBytes(as: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        }
        if spells("long") {
            self = .long
        } else if spells("medium") {
            self = .medium
        } else if spells("short") {
            self = .short
        } else {
            return nil
        }
    }
}
