#ifndef FMTD_SHIM_INTERNAL_H
#define FMTD_SHIM_INTERNAL_H

#include <unicode/utypes.h>

/* UTF-16 -> UTF-8 into out; returns the UTF-8 length (which may exceed capacity: nothing useful is
   written then), or -1 on malformed input. Shared by every shim file. */
int fmt_shim_utf16_to_utf8(const UChar *text, int32_t length, char *out, int32_t capacity);

/* UTF-8 -> UTF-16; returns the UTF-16 length, or -1 on malformed input or overflow. */
int32_t fmt_shim_utf8_to_utf16(const char *text, int32_t length, UChar *out, int32_t capacity);

#endif
