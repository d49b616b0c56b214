#include "shim_internal.h"

#include <unicode/ustring.h>

int fmt_shim_utf16_to_utf8(const UChar *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = 0;
    u_strToUTF8(out, capacity, &written, text, length, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return written;
    if (U_FAILURE(status)) return -1;
    return written;
}

int32_t fmt_shim_utf8_to_utf16(const char *text, int32_t length, UChar *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t written = 0;
    u_strFromUTF8(out, capacity, &written, text, length, &status);
    if (U_FAILURE(status)) return -1;
    return written;
}
