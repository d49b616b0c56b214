#ifndef FMTD_ICU_SEARCH_H
#define FMTD_ICU_SEARCH_H

/* Name search for the names plugin: the words of a name and their scripts, and its search form (an ICU
   transform to lower-case ASCII-ish Latin). UTF-16 in and out, as Swift's NSRange, Kotlin and JavaScript count. */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fmt_transform fmt_transform;

/* Opens an ICU transform by its compound id ("Any-Latin; Latin-ASCII; Lower"). NULL when ICU cannot. A
   transliterator is not thread-safe: the handle keeps the one opened here only to clone it, and lends each
   call a clone of its own (kept for the next call; see fmt_pool in shim_internal.h). */
fmt_transform *fmt_transform_open(const char *id);
void fmt_transform_close(fmt_transform *transform);

/* How many clones the handle has made so far (for tests: about one per thread, however many calls). */
int32_t fmt_transform_clones(const fmt_transform *transform);

/* The search form of UTF-16 text: transformed, then every run of characters that are not letters, marks or
   numbers (white space, punctuation, symbols) written as one space, with none at either end. Writes at most
   capacity code units into out; returns the length of the form (which may exceed capacity: retry with that
   much), -1 on failure. Safe from many threads at once. */
int32_t fmt_search_form(fmt_transform *transform, const uint16_t *text, int32_t length, uint16_t *out,
                        int32_t capacity);

/* The words of UTF-16 text: maximal runs of letters, marks and numbers (general categories L, M, N). For
   word i, words[3i] is its start, words[3i+1] its end (UTF-16 offsets) and words[3i+2] its script (an ICU
   UScriptCode: of its first character whose script is not Common or Inherited, else 0, Common). Returns
   how many words there are (only capacity are written). */
int32_t fmt_search_words(const uint16_t *text, int32_t length, int32_t *words, int32_t capacity);

/* What transliterating UTF-16 text in one call costs, in units of about a microsecond: 16 per Han character
   and 48 more when there is one (ICU 72's Han-Latin takes 8 to 14 us a character after about 50 us a call;
   every other script about 1 us per UTF-16 unit or less), 1 per other UTF-16 code unit. */
int32_t fmt_search_form_cost(const uint16_t *text, int32_t length);

/* ICU's UScriptCode of Common (0), Inherited (1) and Latin, for callers comparing scripts. */
#define FMT_SCRIPT_COMMON 0
#define FMT_SCRIPT_INHERITED 1
#define FMT_SCRIPT_LATIN 25

#ifdef __cplusplus
}
#endif

#endif
