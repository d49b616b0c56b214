#include "fmt_icu_core.h"

#include <string.h>
#include <unicode/ucol.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/unorm2.h>
#include <unicode/uregion.h>
#include <unicode/uset.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>
#include <unicode/uversion.h>

#include "shim_internal.h"

static int copy_out(const char *text, char *out, int32_t capacity) {
    int32_t n = (int32_t)strlen(text);
    if (n <= capacity) memcpy(out, text, (size_t)n);
    return n;
}

int fmt_icu_version(char *out, int32_t capacity) {
    UVersionInfo info;
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_getVersion(info);
    u_versionToString(info, text);
    return copy_out(text, out, capacity);
}

int fmt_icu_unicode_version(char *out, int32_t capacity) {
    UVersionInfo info;
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_getUnicodeVersion(info);
    u_versionToString(info, text);
    return copy_out(text, out, capacity);
}

int fmt_icu_collation_version(char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open("", &status);
    if (U_FAILURE(status)) return -1;
    UVersionInfo info;
    char text[U_MAX_VERSION_STRING_LENGTH];
    ucol_getVersion(collator, info);
    ucol_close(collator);
    u_versionToString(info, text);
    return copy_out(text, out, capacity);
}

int32_t fmt_icu_available_locale_count(void) { return uloc_countAvailable(); }

const char *fmt_icu_available_locale(int32_t index) { return uloc_getAvailable(index); }

int fmt_icu_containing_region(const char *region, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const URegion *r = uregion_getRegionFromCode(region, &status);
    if (U_FAILURE(status) || r == NULL) return 0;
    const URegion *parent = uregion_getContainingRegion(r);
    if (parent == NULL) return 0;
    return copy_out(uregion_getRegionCode(parent), out, capacity);
}

int fmt_icu_region_display_name(const char *region, const char *locale, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    char id[16] = "und_";
    strncat(id, region, sizeof id - 5);
    UChar buffer[256];
    int32_t n = uloc_getDisplayCountry(id, locale, buffer, 256, &status);
    if (U_FAILURE(status) || n <= 0 || n > 256) return -1;
    return fmt_shim_utf16_to_utf8(buffer, n, out, capacity);
}

int fmt_icu_language_display_name(const char *language, const char *locale, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar buffer[256];
    int32_t n = uloc_getDisplayLanguage(language, locale, buffer, 256, &status);
    if (U_FAILURE(status) || n <= 0 || n > 256) return -1;
    return fmt_shim_utf16_to_utf8(buffer, n, out, capacity);
}

int32_t fmt_icu_stream_safe_violation(const char *text, int32_t length, int32_t limit) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
    if (U_FAILURE(status)) return 0;
    const uint8_t *bytes = (const uint8_t *)text;
    int32_t index = 0;
    int32_t run = 0;
    while (index < length) {
        int32_t start = index;
        UChar32 c;
        U8_NEXT(bytes, index, length, c);
        if (c < 0xC0) {
            run = 0;
            continue;
        }
        if (c < 0 || u_getIntPropertyValue(c, UCHAR_NFD_QUICK_CHECK) == UNORM_YES) {
            run = c >= 0 && u_getCombiningClass(c) != 0 ? run + 1 : 0;
            if (run > limit) return start;
            continue;
        }
        UChar decomposition[32];
        int32_t units = unorm2_getDecomposition(nfd, c, decomposition, 32, &status);
        if (U_FAILURE(status) || units <= 0) {
            status = U_ZERO_ERROR;
            run = u_getCombiningClass(c) == 0 ? 0 : run + 1;
            if (run > limit) return start;
            continue;
        }
        int32_t offset = 0;
        while (offset < units) {
            UChar32 part;
            U16_NEXT(decomposition, offset, units, part);
            run = u_getCombiningClass(part) == 0 ? 0 : run + 1;
            if (run > limit) return start;
        }
    }
    return -1;
}

int32_t fmt_icu_leading_nonstarter_ranges(int32_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    USet *set = uset_openEmpty();
    uset_applyIntPropertyValue(set, UCHAR_LEAD_CANONICAL_COMBINING_CLASS, 0, &status);
    uset_complement(set);
    int32_t count = U_SUCCESS(status) ? uset_getItemCount(set) : -1;
    for (int32_t item = 0; item < count && 2 * item + 1 < capacity; item++) {
        UChar32 low, high;
        status = U_ZERO_ERROR;
        uset_getItem(set, item, &low, &high, NULL, 0, &status);
        if (U_FAILURE(status)) {
            count = -1;
            break;
        }
        out[2 * item] = low;
        out[2 * item + 1] = high;
    }
    uset_close(set);
    return count;
}

int32_t fmt_icu_nfd_nonstarter_runs(int32_t scalar, int32_t *leading, int32_t *after_starter) {
    UErrorCode status = U_ZERO_ERROR;
    *leading = 0;
    *after_starter = 0;
    const UNormalizer2 *nfd = unorm2_getNFDInstance(&status);
    if (U_FAILURE(status)) return -1;
    UChar decomposition[64];
    int32_t units = unorm2_getDecomposition(nfd, scalar, decomposition, 64, &status);
    if (U_FAILURE(status)) return -1;
    if (units < 0) {
        units = 0;
        U16_APPEND_UNSAFE(decomposition, units, scalar);
    }
    int32_t parts = 0;
    int32_t run = 0;
    int32_t seen_starter = 0;
    int32_t offset = 0;
    while (offset < units) {
        UChar32 part;
        U16_NEXT(decomposition, offset, units, part);
        parts++;
        if (u_getCombiningClass(part) == 0) {
            seen_starter = 1;
            run = 0;
            continue;
        }
        run++;
        if (seen_starter) {
            if (run > *after_starter) *after_starter = run;
        } else {
            *leading = run;
        }
    }
    return parts;
}
