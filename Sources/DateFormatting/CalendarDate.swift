/// A calendar date as people give it: a day and month, and a year when one is known. It is not an
/// instant, so no time zone ever applies to it.
public struct CalendarDate: Sendable, Hashable, CustomStringConvertible {
    /// 1...9999, or nil for a year-less date (`--11-29`).
    public let year: Int?
    /// 1...12.
    public let month: Int
    /// 1 through the length of the month (29 February is valid without a year).
    public let day: Int

    /// Parses `YYYY-MM-DD` or the year-less `--MM-DD` of ISO 8601 and vCard, strictly: ASCII digits at fixed
    /// positions, nothing before or after, and a day that exists in that month and year.
    public init(parsing text: String) throws(DateError) {
        var utf8 = text
        let parts = utf8.withUTF8 { Self.parts($0) }
        (year, month, day) = try parts.get()
    }

    /// Parses the UTF-8 of a date's text as `init(parsing:)` does (a request's `date` where it lies in the line).
    public init(utf8: UnsafeBufferPointer<UInt8>) throws(DateError) {
        (year, month, day) = try Self.parts(utf8).get()
    }

    /// Year, month and day of a text's bytes, or why they are no date.
    private static func parts(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<(Int?, Int, Int), DateError> {
        var text: String { String(decoding: bytes, as: UTF8.self) }
        let dash = UInt8(ascii: "-")
        let year: Int?
        let rest: Int
        if bytes.count == 10, bytes[4] == dash, bytes[7] == dash {
            guard let value = number(bytes, 0..<4) else { return .failure(.malformed(text)) }
            guard value >= 1 else { return .failure(.noSuchDate(text, reason: "there is no year 0000")) }
            year = value
            rest = 5
        } else if bytes.count == 7, bytes[0] == dash, bytes[1] == dash, bytes[4] == dash {
            year = nil
            rest = 2
        } else {
            return .failure(.malformed(text))
        }
        guard let month = number(bytes, rest..<rest + 2), let day = number(bytes, bytes.count - 2..<bytes.count) else {
            return .failure(.malformed(text))
        }
        guard (1...12).contains(month) else { return .failure(.noSuchDate(text, reason: "there is no month \(month)")) }
        let length = daysInMonth(month, year: year)
        guard (1...length).contains(day) else {
            let monthName = monthNames[month - 1]
            let reason =
                if let year {
                    "\(monthName) \(year) has \(length) days"
                } else {
                    "\(monthName) has at most \(length) days"
                }
            return .failure(.noSuchDate(text, reason: reason))
        }
        return .success((year, month, day))
    }

    /// A validated date from its parts; nil when the day does not exist.
    public init?(year: Int?, month: Int, day: Int) {
        if let year, !(1...9999).contains(year) { return nil }
        guard (1...12).contains(month), (1...Self.daysInMonth(month, year: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The ISO 8601 spelling it was parsed from (`1990-11-29`, `--02-29`).
    public var description: String {
        let monthDay = Self.twoDigits(month) + "-" + Self.twoDigits(day)
        guard let year else { return "--" + monthDay }
        let digits = String(year)
        return String(repeating: "0", count: 4 - digits.count) + digits + "-" + monthDay
    }

    /// Whether a year is a leap year in the Gregorian calendar.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// Days in a month; a year-less February has 29, since a birthday on 29 February exists.
    public static func daysInMonth(_ month: Int, year: Int?) -> Int {
        switch month {
        case 2: year.map { isLeapYear($0) ? 29 : 28 } ?? 29
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
