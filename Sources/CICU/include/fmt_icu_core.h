#ifndef FMTD_ICU_CORE_H
#define FMTD_ICU_CORE_H

/* An opaque facade over the system ICU: plain C types only, UTF-8 in and out, so neither ICU's
   types nor Debian's versioned symbol names (_72) reach Swift. Functions writing text return the
   byte length written (not NUL-terminated beyond capacity) or -1 on failure; a result longer than
   capacity returns the needed length, so callers can retry with a larger buffer. */

#include <stdint.h>

/* ICU's own version ("72.1"), its Unicode version and the root collator's version. */
int fmt_icu_version(char *out, int32_t capacity);
int fmt_icu_unicode_version(char *out, int32_t capacity);
int fmt_icu_collation_version(char *out, int32_t capacity);

/* Locales ICU has data for, as ICU ids ("en_150"). */
int32_t fmt_icu_available_locale_count(void);
const char *fmt_icu_available_locale(int32_t index);

/* The region directly containing a region ("FR" -> "155"), or 0 bytes when there is none or the code is unknown. */
int fmt_icu_containing_region(const char *region, char *out, int32_t capacity);

/* The display name of a region code in a locale ("BE" in "nl" -> "België"). */
int fmt_icu_region_display_name(const char *region, const char *locale, char *out, int32_t capacity);

/* The display name of a language in a locale ("nl" in "de" -> "Niederländisch"). */
int fmt_icu_language_display_name(const char *language, const char *locale, char *out, int32_t capacity);

/* Stream-Safe Text (UAX #15): the byte offset of the first code point of well-formed UTF-8 text at which
   more than `limit` non-starters (canonical combining class > 0, after canonical decomposition) stand in a
   row, or -1 when there is none. Canonical reordering, which Swift's String comparison and hashing and
   ICU's collation run, is quadratic in such a run; text that passes is normalised in linear time. */
int32_t fmt_icu_stream_safe_violation(const char *text, int32_t length, int32_t limit);

/* The scalars whose canonical decomposition begins with a non-starter (Lead_Canonical_Combining_Class > 0), as
   closed ranges: out[2i] to out[2i+1]. Returns how many ranges there are (only those that fit in capacity
   int32s are written), or -1 on failure. */
int32_t fmt_icu_leading_nonstarter_ranges(int32_t *out, int32_t capacity);

/* One scalar's canonical decomposition (the scalar itself when it has none): how many non-starters it begins
   with before any starter (`leading`) and the longest run of non-starters after a starter in it
   (`after_starter`). Returns the number of scalars in the decomposition, or -1 on failure. */
int32_t fmt_icu_nfd_nonstarter_runs(int32_t scalar, int32_t *leading, int32_t *after_starter);

#endif
