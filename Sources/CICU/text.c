#include "fmt_icu_text.h"

#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/unum.h>

#include "shim_internal.h"

int fmt_icu_spellout_digits(const char *locale, char *out, int32_t capacity, int32_t *lengths) {
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *format = unum_open(UNUM_SPELLOUT, NULL, 0, locale, NULL, &status);
    if (U_FAILURE(status) || format == NULL) return -1;
    int32_t total = 0;
    for (int32_t digit = 0; digit < 10; digit++) {
        UChar text[64];
        int32_t length = unum_format(format, digit, text, 64, NULL, &status);
        if (U_FAILURE(status) || length <= 0 || length > 64) {
            unum_close(format);
            return -1;
        }
        int32_t room = capacity > total ? capacity - total : 0;
        int32_t written = fmt_shim_utf16_to_utf8(text, length, out + (room > 0 ? total : 0), room);
        if (written < 0) {
            unum_close(format);
            return -1;
        }
        lengths[digit] = written;
        total += written;
    }
    unum_close(format);
    return total;
}

int32_t fmt_icu_strong_direction(int32_t scalar) {
    if (scalar < 0 || scalar > 0x10FFFF) return 0;
    switch (u_charDirection((UChar32)scalar)) {
    case U_LEFT_TO_RIGHT: return 1;
    case U_RIGHT_TO_LEFT:
    case U_RIGHT_TO_LEFT_ARABIC: return 2;
    default: return 0;
    }
}

int32_t fmt_icu_is_right_to_left(const char *locale) { return uloc_isRightToLeft(locale) ? 1 : 0; }
