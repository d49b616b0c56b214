import FmtCore

/// A `date` field that is not a calendar date in the accepted forms; always reported on the field `date`.
public enum DateError: WireError, Equatable {
    /// Not `YYYY-MM-DD` or `--MM-DD` (wrong length, separators, non-digits, a time part, a word).
    case malformed(String)
    /// The right shape, but no such day (`1990-02-30`, `--13-01`).
    case noSuchDate(String, reason: String)

    public var code: String { "invalid_date" }

    public var field: String? { "date" }

    public var message: String {
        switch self {
        case .malformed(let text):
            "\(Self.quoted(text)) is not a date: use YYYY-MM-DD, or --MM-DD without a year (e.g. 1990-11-29, --11-29)."
        case .noSuchDate(let text, let reason):
            "\(Self.quoted(text)) is not a calendar date: \(reason)."
        }
    }

    private static func quoted(_ text: String) -> String {
        text.count > 32 ? "\"\(text.prefix(32))…\"" : "\"\(text)\""
    }
}
