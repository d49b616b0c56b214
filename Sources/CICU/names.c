#include "fmt_icu_names.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ucol.h>
#include <unicode/ucoleitr.h>
#include <unicode/uloc.h>
#include <unicode/unumberformatter.h>
#include <unicode/upluralrules.h>
#include <unicode/ustring.h>

#include "shim_internal.h"

struct fmt_collator {
    UCollator *collator;
    /* Collation element iterators over this collator, for fmt_collator_primaries: one lent per call. */
    fmt_pool iterators;
};

struct fmt_plural {
    UPluralRules *rules;
};

/* One formatter per count of fraction digits, 0 to FMT_DECIMAL_MAX_FRACTION_DIGITS, published once with a
   compare-and-swap: a slot goes from NULL to its formatter and never changes again until close. */
struct fmt_decimal_formatters {
    _Atomic(UNumberFormatter *) by_digits[FMT_DECIMAL_MAX_FRACTION_DIGITS + 1];
    atomic_int opened;
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
    fmt_pool_init(&result->iterators);
    return result;
}

static void close_iterator(void *iterator) { ucol_closeElements(iterator); }

void fmt_collator_close(fmt_collator *collator) {
    if (collator == NULL) return;
    fmt_pool_drain(&collator->iterators, close_iterator);
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

int32_t fmt_collator_primaries(const fmt_collator *collator, const uint16_t *text, int32_t length,
                               uint32_t *primaries, int32_t *starts, int32_t *ends, int32_t capacity) {
    if (length < 0) return -1;
    if (length == 0) return 0;
    fmt_pool *pool = (fmt_pool *)&collator->iterators;
    UErrorCode status = U_ZERO_ERROR;
    UCollationElements *iterator = fmt_pool_take(pool);
    if (iterator == NULL) {
        iterator = ucol_openElements(collator->collator, (const UChar *)text, length, &status);
    } else {
        ucol_setText(iterator, (const UChar *)text, length, &status);
    }
    if (U_FAILURE(status)) {
        if (iterator != NULL) ucol_closeElements(iterator);
        return -1;
    }
    int32_t count = 0;
    for (;;) {
        int32_t start = ucol_getOffset(iterator);
        int32_t element = ucol_next(iterator, &status);
        if (U_FAILURE(status)) {
            count = -1;
            break;
        }
        if (element == UCOL_NULLORDER) break;
        uint32_t primary = (uint32_t)element >> 16;
        if (primary == 0) {
            /* Ignorable at the primary level (a combining mark): it belongs to the weight before it. */
            if (count > 0 && count <= capacity) ends[count - 1] = ucol_getOffset(iterator);
            continue;
        }
        if (count < capacity) {
            primaries[count] = primary;
            starts[count] = start;
            ends[count] = ucol_getOffset(iterator);
        }
        count++;
    }
    if (!fmt_pool_give(pool, iterator)) ucol_closeElements(iterator);
    return count;
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

/* A formatter that keeps exactly `digits` fraction digits: "1.0" stays 1.0 (v = 1), which the default drops.
   The locale only reads the decimal string; the plural rules are the caller's. NULL when ICU cannot open it. */
static UNumberFormatter *open_decimal_formatter(int32_t digits) {
    UChar skeleton[FMT_DECIMAL_MAX_FRACTION_DIGITS + 18];
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
    if (U_FAILURE(status)) {
        unumf_close(formatter);
        return NULL;
    }
    return formatter;
}

fmt_decimal_formatters *fmt_decimal_formatters_open(void) {
    fmt_decimal_formatters *formatters = malloc(sizeof *formatters);
    if (formatters == NULL) return NULL;
    for (int32_t i = 0; i <= FMT_DECIMAL_MAX_FRACTION_DIGITS; i++) atomic_init(&formatters->by_digits[i], NULL);
    atomic_init(&formatters->opened, 0);
    return formatters;
}

void fmt_decimal_formatters_close(fmt_decimal_formatters *formatters) {
    if (formatters == NULL) return;
    for (int32_t i = 0; i <= FMT_DECIMAL_MAX_FRACTION_DIGITS; i++) {
        UNumberFormatter *formatter = atomic_load_explicit(&formatters->by_digits[i], memory_order_acquire);
        if (formatter != NULL) unumf_close(formatter);
    }
    free(formatters);
}

int32_t fmt_decimal_formatters_opened(const fmt_decimal_formatters *formatters) {
    if (formatters == NULL) return 0;
    return atomic_load_explicit(&((fmt_decimal_formatters *)formatters)->opened, memory_order_relaxed);
}

/* The shared formatter for `digits` fraction digits, opened by the first caller that needs it. Two threads may
   open one at once: the first published wins and the other closes its own. */
static UNumberFormatter *decimal_formatter(fmt_decimal_formatters *formatters, int32_t digits) {
    _Atomic(UNumberFormatter *) *slot = &formatters->by_digits[digits];
    UNumberFormatter *found = atomic_load_explicit(slot, memory_order_acquire);
    if (found != NULL) return found;
    UNumberFormatter *made = open_decimal_formatter(digits);
    if (made == NULL) return NULL;
    UNumberFormatter *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, made, memory_order_acq_rel, memory_order_acquire)) {
        atomic_fetch_add_explicit(&formatters->opened, 1, memory_order_relaxed);
        return made;
    }
    unumf_close(made);
    return expected;
}

int fmt_plural_select_decimal(const fmt_plural *plural, fmt_decimal_formatters *formatters, const char *decimal,
                              int32_t length, char *out, int32_t capacity) {
    if (length < 0 || length > FMT_DECIMAL_MAX_LENGTH) return -1;
    int32_t digits = fraction_digits(decimal, length);
    if (digits < 0 || digits > FMT_DECIMAL_MAX_FRACTION_DIGITS) return -1;
    /* Without a table (its allocation failed) a formatter is opened for this call alone. */
    UNumberFormatter *formatter =
        formatters != NULL ? decimal_formatter(formatters, digits) : open_decimal_formatter(digits);
    if (formatter == NULL) return -1;
    UErrorCode status = U_ZERO_ERROR;
    UFormattedNumber *result = unumf_openResult(&status);
    UChar keyword[32];
    int32_t n = -1;
    if (U_SUCCESS(status)) unumf_formatDecimal(formatter, decimal, length, result, &status);
    if (U_SUCCESS(status)) n = uplrules_selectFormatted(plural->rules, result, keyword, 32, &status);
    unumf_closeResult(result);
    if (formatters == NULL) unumf_close(formatter);
    if (U_FAILURE(status) || n <= 0 || n >= 32) return -1;
    return fmt_shim_utf16_to_utf8(keyword, n, out, capacity);
}

void fmt_names_free(void *pointer) { free(pointer); }
