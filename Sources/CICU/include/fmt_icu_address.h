#ifndef FMTD_ICU_ADDRESS_H
#define FMTD_ICU_ADDRESS_H

/* ICU services for the address plugin: canonical territory codes and compiled postal-code patterns.
   Plain C types only; text is UTF-8 and offsets are UTF-8 byte offsets. */

#include <stdint.h>

/* The canonical code of an ISO 3166-1 territory ICU knows, after ICU's aliases ("uk" -> "GB"), or 0 bytes
   when the code is unknown or names a grouping ("EU"), a continent or the unknown region ("ZZ"). */
int fmt_icu_address_territory(const char *code, char *out, int32_t capacity);

/* A compiled regular expression in ICU syntax. Matching works on a private clone (kept in a small
   locked pool for reuse), so one pattern may be shared by any number of threads. */
typedef struct fmt_address_pattern fmt_address_pattern;

/* Compiles a pattern of at most 512 UTF-16 units; NULL on a syntax error, with the UTF-16 offset of the
   error in *error_offset (or -1 when ICU gives none or the pattern is too long). */
fmt_address_pattern *fmt_icu_address_pattern_open(const char *pattern, int32_t length, int32_t *error_offset);

void fmt_icu_address_pattern_close(fmt_address_pattern *pattern);

/* The number of capture groups of the pattern. */
int32_t fmt_icu_address_pattern_groups(const fmt_address_pattern *pattern);

/* Every match runs under ICU's limits: at most FMT_ADDRESS_MATCH_STEPS steps of the match engine (one step is
   10,000 backtracking operations, about 0.17 ms on a 2024 x86-64 core, so 5 steps is under 1 ms; a real postal
   code needs well under one) and a backtrack stack of at most FMT_ADDRESS_MATCH_STACK_BYTES. */
#define FMT_ADDRESS_MATCH_STEPS 5
#define FMT_ADDRESS_MATCH_STACK_BYTES (64 * 1024)

/* Matches the whole of text. On a match returns the number of capture groups and fills starts/ends
   (index 0 is the whole match, then each group, up to capacity entries) with UTF-8 byte offsets,
   -1 for a group that did not take part. Returns -1 when the text does not match, -2 on an ICU error,
   -3 when the match exceeded the step or stack limit (ICU's U_REGEX_TIME_OUT, U_REGEX_STACK_OVERFLOW). */
int32_t fmt_icu_address_pattern_match(
    fmt_address_pattern *pattern, const char *text, int32_t length,
    int32_t *starts, int32_t *ends, int32_t capacity);

/* The ICU script code (UScriptCode) of a Script property value alias ("Hani", "Arab", "Han"), or -1 when ICU
   has no such value. */
int32_t fmt_icu_address_script_code(const char *name);

/* Reads text up to its first letter, a code point whose script is neither Common nor Inherited: 1 when that
   letter's script, or one of its script extensions, is one of scripts[0..count), 0 when it is another,
   -1 when the text has no letter (digits, punctuation, spaces) or is not valid UTF-8. */
int32_t fmt_icu_address_first_letter_in(const char *text, int32_t length, const int32_t *scripts, int32_t count);

/* The script text in a language is likely written in, by ICU's likely subtags for the language subtag (2 to 8
   lower-case letters) and the region subtag (NULL or up to 3 characters): "fa" -> "Arab", "pa" "PK" -> "Arab",
   "pa" -> "Guru", "ja" -> "Jpan". Writes the ISO 15924 code (4 bytes, not terminated) to out when it fits in
   capacity and returns its length; 0 when the subtags are out of bounds or ICU knows no script for them. */
int32_t fmt_icu_address_likely_script(const char *language, const char *region, char *out, int32_t capacity);

#endif
