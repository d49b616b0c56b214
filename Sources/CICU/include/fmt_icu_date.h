#ifndef FMTD_ICU_DATE_H
#define FMTD_ICU_DATE_H

/* Calendar dates through ICU's DateTimePatternGenerator and date formatter, behind opaque handles.
   Locale ids are plain ICU ids ("nl_BE", "en_150"); the shim always forces the Gregorian calendar.
   Text functions follow fmt_icu_core.h: they return the UTF-8 byte length (which may exceed capacity:
   retry with a larger buffer) or -1 on failure. */

#include <stdint.h>

/* A pattern generator for one locale. It mutates internally: use it from one thread at a time. */
typedef struct fmt_date_generator fmt_date_generator;

/* Opens a generator for an ICU locale id; NULL when ICU cannot. */
fmt_date_generator *fmt_date_generator_open(const char *locale);
void fmt_date_generator_close(fmt_date_generator *generator);

/* The locale's best pattern for a skeleton ("yMMMMd" in "nl" -> "d MMMM y"). */
int fmt_date_generator_best_pattern(fmt_date_generator *generator, const char *skeleton, char *out,
                                    int32_t capacity);

/* A date formatter for one locale and pattern, in UTC on the proleptic Gregorian calendar. Once opened
   it is only read, so one formatter may be used from several threads at once. */
typedef struct fmt_date_formatter fmt_date_formatter;

/* Opens a formatter for an ICU locale id and a UTF-8 pattern ("d MMMM y"); NULL when ICU cannot. */
fmt_date_formatter *fmt_date_formatter_open(const char *locale, const char *pattern);
void fmt_date_formatter_close(fmt_date_formatter *formatter);

/* Formats the calendar date year-month-day (month 1-12) at midnight UTC, so the host's time zone never
   shifts it. The caller validates the date. A pattern of only day, month and year fields and literal text
   is compiled when the formatter opens and written without ICU, once it has written the same text as ICU
   for every month, day and length of year; any other pattern is formatted by ICU. */
int fmt_date_formatter_format(const fmt_date_formatter *formatter, int32_t year, int32_t month, int32_t day,
                              char *out, int32_t capacity);

/* As fmt_date_formatter_format, always by ICU's udat_format: the reference the compiled form is held to. */
int fmt_date_formatter_format_icu(const fmt_date_formatter *formatter, int32_t year, int32_t month, int32_t day,
                                  char *out, int32_t capacity);

/* 1 when the formatter writes dates by its compiled pattern, 0 when by ICU. */
int fmt_date_formatter_is_compiled(const fmt_date_formatter *formatter);

/* The CLDR version of ICU's locale data ("42.0"). */
int fmt_icu_cldr_version(char *out, int32_t capacity);

#endif
