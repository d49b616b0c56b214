import CICU

/// A decimal string where a count is expected (`plural`'s `count`, a `message` argument used as a number):
/// `-?digits(.digits)?`, at most `characterLimit` characters; `plural` also keeps at most `fractionDigitLimit`
/// digits after the point, since its category counts them (CLDR's `v` and `f`). The C shim checks the same
/// bounds; these say which one a refused text broke.
struct DecimalText {
    /// The most characters a decimal string may have (64), as the C shim bounds it.
    static let characterLimit = Int(FMT_DECIMAL_MAX_LENGTH)
    /// The most digits after the point a decimal `plural` count may have (30), as the C shim bounds it.
    static let fractionDigitLimit = Int(FMT_DECIMAL_MAX_FRACTION_DIGITS)

    /// Its characters, when it is of the shape.
    let count: Int
    /// Its digits after the point.
    let fractionDigits: Int
    /// Whether every digit is 0 (`-0.00`): zero, which has no sign in a count.
    let isZero: Bool

    /// The shape of `text`, or nil when it is not `-?digits(.digits)?` (whatever its length).
    init?(_ text: String) {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { (0x30...0x39).contains($0) } })
        else { return nil }
        count = text.utf8.count
        fractionDigits = parts.count == 2 ? parts[1].count : 0
        isZero = parts.allSatisfy { $0.allSatisfy { $0 == 0x30 } }
    }

    /// Why `text` is no decimal `plural` count, for the `invalid_field` message on `count`: the bound it broke,
    /// or that it is not of the shape.
    static func pluralRefusal(_ text: String) -> String {
        let shown = "The count \"\(text.prefix(32))\""
        guard let decimal = DecimalText(text) else { return shown + " is not a decimal such as \"1.0\" or \"-2.50\"." }
        if decimal.count > characterLimit {
            return shown + " has \(decimal.count) characters; a decimal count has at most \(characterLimit) characters."
        }
        if decimal.fractionDigits > fractionDigitLimit {
            return shown
                + " has \(decimal.fractionDigits) digits after the point; a decimal count has at most "
                + "\(fractionDigitLimit) digits after the point."
        }
        return shown + " is not a decimal such as \"1.0\" or \"-2.50\"."
    }
}
