#ifndef FMTD_ICU_TEXT_H
#define FMTD_ICU_TEXT_H

/* How text is read aloud and which way it runs: ICU's spell-out rules and bidi classes, plain C types only. */

#include <stdint.h>

/* The words ICU's spell-out rules (unum_open UNUM_SPELLOUT, the locale's default rule set) give the digits 0 to 9
   in `locale` ("en": "zero" … "nine", "nl": "nul" … "negen", "de": "null" … "neun"), as UTF-8, one after another
   in `out`, the byte length of each in `lengths[0..9]`. Opens the rules once, formats the ten and closes them:
   for a table made at load, never per request. Returns the total byte length (more than capacity: nothing
   useful was written) or -1 on failure. */
int fmt_icu_spellout_digits(const char *locale, char *out, int32_t capacity, int32_t *lengths);

/* The strong direction of one scalar by its bidi class (u_charDirection): 1 for left-to-right (L), 2 for
   right-to-left (R or AL), 0 for any other class (weak or neutral). */
int32_t fmt_icu_strong_direction(int32_t scalar);

/* Whether ICU writes `locale`'s script right to left (uloc_isRightToLeft: `ar`, `he`, `fa`, `ur`): 1 or 0. */
int32_t fmt_icu_is_right_to_left(const char *locale);

#endif
