import Testing

@testable import CopyRules

/// The text a reader sees in ICU MessageFormat: arguments, `#`, selectors and keywords are not text; quoted text
/// is.
@Suite struct MessageTextTests {
    static func words(_ pattern: String) -> [String] {
        MessagePiece.parse(pattern).wordRuns.flatMap { $0.map(\.text) }
    }

    @Test func argumentsAndPluralSyntaxAreNotText() {
        #expect(
            Self.words("{name} updated {count, plural, one {# detail} other {# details}}")
                == ["updated", "detail", "details"])
        #expect(
            Self.words("{count, plural, offset:1 =0 {Nobody} =1 {Only {host}} one {{host} and # Other} other {Many}}")
                == ["Nobody", "Only", "and", "Other", "Many"])
        #expect(Self.words("{count, plural, offset: 2 other {# left}}") == ["left"])
        #expect(
            Self.words("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} place") == [
                "st", "nd", "rd", "th", "place",
            ])
    }

    @Test func selectKeysAndNestedArgumentsAreNotText() {
        let pattern =
            "{gender, select, Female {{count, plural, one {She has # Contact} other {She has # Contacts}}} "
            + "Male {He left} other {They left}}"
        #expect(
            Self.words(pattern) == ["She", "has", "Contact", "She", "has", "Contacts", "He", "left", "They", "left"])
    }

    @Test func simpleArgumentStylesAreNotText() {
        #expect(Self.words("Paid {amount, number, ::currency/EUR} on {day, date, short}") == ["Paid", "on"])
        #expect(Self.words("{n, number, '#'0.00 Units} Done") == ["Done"])
        #expect(Self.words("{n, choice, 0#No Files|1#One File} Left") == ["Left"])
    }

    @Test func quotedTextIsTextAndApostrophesFollowICU() {
        #expect(Self.words("It''s '{'Literal'}' here") == ["It's", "Literal", "here"])
        #expect(Self.words("Don't stop") == ["Don't", "stop"])
        #expect(Self.words("'{name}' is Quoted") == ["name", "is", "Quoted"])
        // `#` is text outside a plural, and a quote before it there is an apostrophe.
        #expect(MessagePiece.parse("No. # here").texts == ["No. # here"])
        #expect(MessagePiece.parse("{n, plural, other {'#' is # items}}").texts == ["# is ", " items"])
    }

    @Test func anUnmatchedClosingBraceOutsideArgumentsIsText() {
        // Found by the copy-rules fuzz target: ICU formats this pattern as written, the reader stopped at `}`.
        let found = "\0\0\0\0\0\0\04ts\": 1, \"maxSegments\": 1}}\0Saved"
        #expect(MessagePiece.parse(found).texts == [found])
        #expect(Self.words("Saved} Now done!") == ["Saved", "Now", "done"])
        #expect(MessagePiece.parse("{n, plural, other {# left}}} Done}").texts == [" left", "} Done}"])
    }

    @Test func argumentTypesAreReadInEitherCase() {
        // Found by the copy-rules fuzz target: ICU formats `Done now`, the reader read one placeholder.
        #expect(Self.words("{g, SELECT, other {Done now}}") == ["Done", "now"])
        #expect(Self.words("{n, Plural, one {# item} other {# items}}") == ["item", "items"])
        #expect(MessagePiece.parse("{n, SelectOrdinal, other {'#' #th}}").texts == ["# ", "th"])
    }

    @Test func sentencesOpenAtTheStartAfterStopsAndInBranchesAtTheStart() {
        let runs = MessagePiece.parse("{n, plural, =0 {None found} other {# found}}. Try again: Now").wordRuns
        let opening = runs.flatMap { $0 }.filter(\.opensSentence).map(\.text)
        #expect(opening == ["None", "Try", "Now"])
        // A word after a placeholder is inside the sentence the placeholder began.
        #expect(MessagePiece.parse("{name} Left").wordRuns.flatMap { $0 }.map(\.opensSentence) == [false])
    }

    @Test func malformedOrHostilePatternsEndWithoutFailing() {
        for pattern in [
            "{", "}", "{a", "{a,", "{a, plural", "{a, plural,", "{a, plural, one", "{a, plural, one {x", "'",
            "'{", "{a, select, x {'}", "{a, plural, offset:", String(repeating: "{a, select, x {", count: 5000),
            String(repeating: "'{'", count: 1000),
        ] {
            _ = MessagePiece.parse(pattern).wordRuns
        }
        // Deeper than the parser's limit, the rest is one placeholder.
        let deep = String(repeating: "{a, select, x {Deep ", count: 40) + String(repeating: "}}", count: 40)
        #expect(Self.words(deep).count == 32)
    }
}
