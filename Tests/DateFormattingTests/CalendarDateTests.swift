import DateFormatting
import Testing

@Suite struct CalendarDateParsing {
    @Test func fullDateGivesYearMonthAndDay() throws {
        let date = try CalendarDate(parsing: "1990-11-29")
        #expect(date.year == 1990 && date.month == 11 && date.day == 29)
    }

    @Test func yearlessDateOfISO8601AndVCardHasNoYear() throws {
        let date = try CalendarDate(parsing: "--11-29")
        #expect(date.year == nil && date.month == 11 && date.day == 29)
    }

    @Test func twentyNinthOfFebruaryExistsWithoutAYearAndInLeapYearsOnly() throws {
        #expect(try CalendarDate(parsing: "--02-29").day == 29)
        #expect(try CalendarDate(parsing: "2000-02-29").day == 29)
        #expect(try CalendarDate(parsing: "2024-02-29").day == 29)
        #expect(throws: DateError.self) { try CalendarDate(parsing: "2023-02-29") }
        #expect(throws: DateError.self) { try CalendarDate(parsing: "1900-02-29") }
    }

    @Test(arguments: [
        "1990-02-30", "2023-02-29", "--13-01", "1990-2-3", "", "1990-11-29T10:00", "yesterday", "--02-30", "1990-04-31",
        "0000-01-01", "1990-00-01", "1990-01-00", " 1990-11-29", "1990-11-29\n", "1990/11/29", "+1990-11-29",
        "\u{661}\u{669}\u{669}\u{660}-11-29",
    ])
    func everyOtherFormIsAnInvalidDateOnTheDateField(text: String) {
        #expect {
            try CalendarDate(parsing: text)
        } throws: { error in
            let error = error as? DateError
            return error?.code == "invalid_date" && error?.field == "date"
        }
    }

    @Test func impossibleDayMessageSaysHowLongTheMonthIs() {
        #expect(throws: DateError.noSuchDate("1990-02-30", reason: "February 1990 has 28 days")) {
            try CalendarDate(parsing: "1990-02-30")
        }
        #expect(throws: DateError.noSuchDate("--04-31", reason: "April has at most 30 days")) {
            try CalendarDate(parsing: "--04-31")
        }
    }

    @Test(arguments: ["1990-11-29", "--02-29", "0001-01-01", "9999-12-31", "2001-03-05"])
    func descriptionIsTheISOSpellingItCameFrom(text: String) throws {
        #expect(try CalendarDate(parsing: text).description == text)
    }
}
