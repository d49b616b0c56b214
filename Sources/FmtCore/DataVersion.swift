/// The `version` a data file names itself by: what `info` reports and `fmtq stats --openmetrics` writes as a label
/// value, so it must be one line of text. Loaders refuse a version with a control character or a line break.
public enum DataVersion {
    /// The first scalar of `text` a version may not hold: a control character (U+0000–U+001F, U+007F–U+009F, tab,
    /// CR and LF among them) or a line or paragraph separator (U+2028, U+2029); nil when there is none.
    public static func forbiddenScalar(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029
        }
    }

    /// What is wrong with `text` as a version, worded for a `DataError` on the file's `version` field (`holds
    /// U+000D, a control character: …`); nil when it is one line of text.
    public static func problem(_ text: String) -> String? {
        guard let scalar = forbiddenScalar(in: text) else { return nil }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let kind = scalar.value >= 0x2028 ? "a line break" : "a control character"
        return "holds \(code), \(kind): a version is one line of text (info and metrics report it)"
    }
}
