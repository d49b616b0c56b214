#include "fmt_icu_names.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/ucol.h>
#include <unicode/uloc.h>
#include <unicode/unumberformatter.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

#include "shim_internal.h"

struct fmt_collator {
    UCollator *collator;
};

struct fmt_plural {
    UPluralRules *rules;
};

/* A BCP 47 tag as an ICU locale id ("de-u-co-phonebk" -> "de@collation=phonebook"); 0 on failure. */
static int locale_id(const char *tag, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    int32_t n = uloc_forLanguageTag(tag, out, capacity, &parsed, &status);
    if (U_FAILURE(status) || n <= 0 || n >= capacity) return 0;
    out[n] = 0;
    return 1;
}

static int copy_ascii(const char *text, char *out, int32_t capacity) {
    int32_t n = (int32_t)strlen(text);
    if (n <= capacity) memcpy(out, text, (size_t)n);
    return n;
}

fmt_collator *fmt_collator_open(const char *tag) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(tag, id, (int32_t)sizeof id)) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(id, &status);
    if (U_FAILURE(status)) return NULL;
    ucol_setAttribute(collator, UCOL_NORMALIZATION_MODE, UCOL_ON, &status);
    fmt_collator *result = malloc(sizeof *result);
    if (U_FAILURE(status) || result == NULL) {
        ucol_close(collator);
        free(result);
        return NULL;
    }
    result->collator = collator;
    return result;
}

void fmt_collator_close(fmt_collator *collator) {
    if (collator == NULL) return;
    ucol_close(collator->collator);
    free(collator);
}

int fmt_collator_compare(const fmt_collator *collator, const char *a, int32_t a_length, const char *b,
                         int32_t b_length) {
    UErrorCode status = U_ZERO_ERROR;
    UCollationResult result = ucol_strcollUTF8(collator->collator, a, a_length, b, b_length, &status);
    if (U_FAILURE(status)) return 0;
    return result == UCOL_LESS ? -1 : result == UCOL_GREATER ? 1 : 0;
}

int32_t fmt_collator_sort_key(const fmt_collator *collator, const char *text, int32_t length, uint8_t *out,
                              int32_t capacity) {
    UChar stack[256];
    UChar *utf16 = stack;
    int32_t utf16_length = 0;
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8WithSub(stack, 256, &utf16_length, text, length, 0xFFFD, NULL, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) {
        utf16 = malloc(sizeof(UChar) * (size_t)utf16_length);
        if (utf16 == NULL) return -1;
        status = U_ZERO_ERROR;
        u_strFromUTF8WithSub(utf16, utf16_length, &utf16_length, text, length, 0xFFFD, NULL, &status);
    }
    int32_t key_length = -1;
    if (U_SUCCESS(status)) {
        /* ICU writes and counts a terminating zero byte; when the key does not fit, report the capacity needed. */
        int32_t total = ucol_getSortKey(collator->collator, utf16, utf16_length, out, capacity);
        key_length = total > capacity ? total : total - 1;
    }
    if (utf16 != stack) free(utf16);
    return key_length;
}

int fmt_collator_version(const fmt_collator *collator, char *out, int32_t capacity) {
    UVersionInfo info;
    char text[U_MAX_VERSION_STRING_LENGTH];
    ucol_getVersion(collator->collator, info);
    u_versionToString(info, text);
    return copy_ascii(text, out, capacity);
}

fmt_plural *fmt_plural_open(const char *tag) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!locale_id(tag, id, (int32_t)sizeof id)) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(id, &status);
    if (U_FAILURE(status)) return NULL;
    fmt_plural *result = malloc(sizeof *result);
    if (result == NULL) {
        uplrules_close(rules);
        return NULL;
    }
    result->rules = rules;
    return result;
}

void fmt_plural_close(fmt_plural *plural) {
    if (plural == NULL) return;
    uplrules_close(plural->rules);
    free(plural);
}

int fmt_plural_select(const fmt_plural *plural, double number, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UChar keyword[32];
    int32_t n = uplrules_select(plural->rules, number, keyword, 32, &status);
    if (U_FAILURE(status) || n <= 0 || n >= 32) return -1;
    return fmt_shim_utf16_to_utf8(keyword, n, out, capacity);
}

/* The number of fraction digits of "-?[0-9]+(\.[0-9]+)?" spelled by the length bytes at text, or -1 when
   they are not of that shape. */
static int32_t fraction_digits(const char *text, int32_t length) {
    const char *p = text;
    const char *end = text + length;
    if (p < end && *p == '-') p++;
    if (p == end || *p < '0' || *p > '9') return -1;
    while (p < end && *p >= '0' && *p <= '9') p++;
    if (p == end) return 0;
    if (*p != '.') return -1;
    const char *start = ++p;
    while (p < end && *p >= '0' && *p <= '9') p++;
    if (p != end || p == start) return -1;
    return (int32_t)(p - start);
}

int fmt_plural_select_decimal(const fmt_plural *plural, const char *decimal, int32_t length, char *out,
                              int32_t capacity) {
    if (length < 0 || length > 64) return -1;
    int32_t digits = fraction_digits(decimal, length);
    if (digits < 0 || digits > 30) return -1;
    /* A skeleton with exactly the text's fraction digits keeps "1.0" as 1.0 (v = 1): the default drops them. */
    UChar skeleton[48];
    int32_t skeleton_length = 0;
    if (digits == 0) {
        u_uastrcpy(skeleton, "precision-integer");
        skeleton_length = u_strlen(skeleton);
    } else {
        skeleton[skeleton_length++] = u'.';
        for (int32_t i = 0; i < digits; i++) skeleton[skeleton_length++] = u'0';
    }
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormatter *formatter = unumf_openForSkeletonAndLocale(skeleton, skeleton_length, "en", &status);
    UFormattedNumber *result = unumf_openResult(&status);
    UChar keyword[32];
    int32_t n = -1;
    if (U_SUCCESS(status)) unumf_formatDecimal(formatter, decimal, length, result, &status);
    if (U_SUCCESS(status)) n = uplrules_selectFormatted(plural->rules, result, keyword, 32, &status);
    unumf_closeResult(result);
    unumf_close(formatter);
    if (U_FAILURE(status) || n <= 0 || n >= 32) return -1;
    return fmt_shim_utf16_to_utf8(keyword, n, out, capacity);
}

void fmt_names_free(void *pointer) { free(pointer); }
