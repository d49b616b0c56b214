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
