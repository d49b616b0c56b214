import FmtCore

extension JSONObject {
    /// A member that is a string.
    public func string(_ key: String) -> String? {
        self[key]?.stringValue
    }

    /// A member that is an array of strings (`lines`, `sorted`, `keys`, `supported`); empty when absent.
    public func strings(_ key: String) -> [String] {
        (self[key]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    /// A member that is an array of integers (`order`); empty when absent.
    public func integers(_ key: String) -> [Int] {
        (self[key]?.arrayValue ?? []).compactMap { $0.numberValue?.intValue }
    }

    /// The `code` of each warning.
    public var warningCodes: [String] {
        (self["warnings"]?.arrayValue ?? []).compactMap { $0.objectValue?["code"]?.stringValue }
    }
}
