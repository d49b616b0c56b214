#ifndef FMTD_ICU_NAMES_H
#define FMTD_ICU_NAMES_H

/* Collation, plural rules and message formatting for the names plugin. Plain C types, UTF-8 in and out.
   Handles are opaque; collators and plural rules are immutable once opened and safe to use from many
   threads at once, message patterns are not (the caller serialises fmt_message_format per handle).
   Text-writing functions follow fmt_icu_core.h: they return the length needed, -1 on failure. */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fmt_collator fmt_collator;
typedef struct fmt_plural fmt_plural;
typedef struct fmt_decimal_formatters fmt_decimal_formatters;
typedef struct fmt_message fmt_message;

/* The bounds of a plain decimal string fmt_plural_select_decimal reads: its length in bytes and its digits
   after the point. */
#define FMT_DECIMAL_MAX_LENGTH 64
#define FMT_DECIMAL_MAX_FRACTION_DIGITS 30

/* Opens the collator for a BCP 47 tag, honouring -u- keywords ("de-u-co-phonebk"), with canonical
   equivalence on (NFC and NFD spellings compare equal). NULL when ICU cannot open one. */
fmt_collator *fmt_collator_open(const char *tag);
void fmt_collator_close(fmt_collator *collator);

/* Compares two UTF-8 strings: -1, 0 or 1. Malformed UTF-8 compares as ICU's replacement handling does. */
int fmt_collator_compare(const fmt_collator *collator, const char *a, int32_t a_length, const char *b,
                         int32_t b_length);

/* Writes the sort key of a UTF-8 string into out and returns its length without ICU's terminating zero
   byte (which is written too). A result above capacity is the capacity needed: nothing useful was written. */
int32_t fmt_collator_sort_key(const fmt_collator *collator, const char *text, int32_t length, uint8_t *out,
                              int32_t capacity);

/* The primary weights of UTF-16 text in this collator, in order, 16 bits each (a weight of more than two bytes
   comes as two, as ICU's collation element iterator gives it), without the ignorable ones (combining marks,
   which only weigh at the secondary and tertiary levels): two texts are equal at primary strength when their
   weights are. For each weight starts[i] is the offset where the characters it came from begin and ends[i]
   where they end, with the marks after them; the weights of one expanded character (ß as ss) share both.
   Returns how many weights there are (only capacity are written), -1 on failure. Safe from many threads at
   once: each call borrows an iterator of the collator's own (ICU's iterators are not thread-safe), opened the
   first time none is free and kept for the next call. */
int32_t fmt_collator_primaries(const fmt_collator *collator, const uint16_t *text, int32_t length,
                               uint32_t *primaries, int32_t *starts, int32_t *ends, int32_t capacity);

/* The collator's version (root collation plus tailoring), "153.112.28.0"-style. */
int fmt_collator_version(const fmt_collator *collator, char *out, int32_t capacity);

/* Opens the cardinal plural rules of a BCP 47 tag. NULL when ICU cannot. */
fmt_plural *fmt_plural_open(const char *tag);
void fmt_plural_close(fmt_plural *plural);

/* The CLDR plural category ("one", "few", ...) of a number. */
int fmt_plural_select(const fmt_plural *plural, double number, char *out, int32_t capacity);

/* ICU number formatters that read a plain decimal string keeping exactly its fraction digits, one per count
   of them (0 to FMT_DECIMAL_MAX_FRACTION_DIGITS), each opened the first time a decimal with that many digits
   is selected and kept until close. A table is safe to use from many threads at once: ICU documents
   UNumberFormatter as thread-safe when each call formats into its own UFormattedNumber, as every call here
   does. NULL when the table cannot be allocated. */
fmt_decimal_formatters *fmt_decimal_formatters_open(void);
void fmt_decimal_formatters_close(fmt_decimal_formatters *formatters);

/* How many formatters the table has opened so far (for tests: at most one per count of fraction digits). */
int32_t fmt_decimal_formatters_opened(const fmt_decimal_formatters *formatters);

/* The category of a plain decimal string ("1.0", "-2.50"), keeping its visible fraction digits (CLDR's v
   and f operands), read by the table's formatter for its count of fraction digits (opened for this call
   alone when formatters is NULL). -1 when the length bytes of decimal are not a plain decimal (a NUL among
   them included) or exceed the bounds above. */
int fmt_plural_select_decimal(const fmt_plural *plural, fmt_decimal_formatters *formatters, const char *decimal,
                              int32_t length, char *out, int32_t capacity);

/* Argument kinds of a message pattern, as fmt_message_argument reports them. */
enum {
    FMT_MESSAGE_ARG_TEXT = 0,    /* {name}: a string, or a number formatted for the locale */
    FMT_MESSAGE_ARG_NUMBER = 1,  /* plural, selectordinal, {n, number}, spellout, ordinal */
    FMT_MESSAGE_ARG_SELECT = 2,  /* select: a string */
    FMT_MESSAGE_ARG_OTHER = 3    /* choice, date, time, duration or a custom type: not supported */
};

/* Compiles an ICU MessageFormat pattern (UTF-8) for an ICU locale id. On failure returns NULL and writes
   the reason (ICU's error name and offset, or the limit exceeded) into error. Patterns with numbered
   arguments are refused, and so are patterns whose complex arguments nest deeper than max_depth: formatting
   recurses once per level (about 2.3 KB of the caller's stack each in ICU 72), parsing about 0.3 KB per level.
   The caller bounds length, which bounds the parser's recursion before the depth is known. */
fmt_message *fmt_message_open(const char *locale, const char *pattern, int32_t length, int32_t max_depth,
                              char *error, int32_t error_capacity);
void fmt_message_close(fmt_message *message);

/* The deepest nesting of sub-messages (0 for a pattern without plural, select or selectordinal). */
int32_t fmt_message_depth(const fmt_message *message);

/* The distinct argument occurrences of a pattern, in pattern order (an argument used twice with different
   kinds appears twice). fmt_message_argument writes the name and returns its length; *kind gets the kind. */
int32_t fmt_message_argument_count(const fmt_message *message);
int fmt_message_argument(const fmt_message *message, int32_t index, char *out, int32_t capacity, int32_t *kind);

/* Formats with named arguments. values[i] is UTF-8 of value_lengths[i] bytes (a NUL in it is text, not an end);
   is_number[i] != 0 marks values[i] as a decimal number
   literal ("2", "1.5", "1e3"). Returns a malloc'd NUL-terminated UTF-8 string (free with fmt_names_free)
   and its length in *length, or NULL with ICU's error name in error. Not thread-safe per handle. */
char *fmt_message_format(fmt_message *message, int32_t count, const char *const *names,
                         const char *const *values, const int32_t *value_lengths, const int32_t *is_number,
                         int32_t *length, char *error, int32_t error_capacity);

void fmt_names_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
