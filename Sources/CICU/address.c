#include "fmt_icu_address.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uloc.h>
#include <unicode/uregex.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>
#include <unicode/uregion.h>
#include <unicode/utext.h>

#include "shim_internal.h"

#include <pthread.h>

enum { POOL_SIZE = 16 };

/* The compiled pattern plus a small pool of clones ready to match, so a request rarely pays for a clone. */
struct fmt_address_pattern {
    URegularExpression *regex;
    pthread_mutex_t lock;
    int32_t pooled;
    URegularExpression *pool[POOL_SIZE];
};

/* A clone starts with ICU's defaults (no time limit, an 8 MB backtrack stack), so every clone gets the limits. */
static URegularExpression *take_matcher(fmt_address_pattern *pattern, UErrorCode *status) {
    URegularExpression *matcher = NULL;
    pthread_mutex_lock(&pattern->lock);
    if (pattern->pooled > 0) matcher = pattern->pool[--pattern->pooled];
    pthread_mutex_unlock(&pattern->lock);
    if (matcher != NULL) return matcher;
    matcher = uregex_clone(pattern->regex, status);
    if (U_FAILURE(*status) || matcher == NULL) return matcher;
    uregex_setTimeLimit(matcher, FMT_ADDRESS_MATCH_STEPS, status);
    uregex_setStackLimit(matcher, FMT_ADDRESS_MATCH_STACK_BYTES, status);
    if (U_FAILURE(*status)) {
        uregex_close(matcher);
        return NULL;
    }
    return matcher;
}

static void return_matcher(fmt_address_pattern *pattern, URegularExpression *matcher) {
    pthread_mutex_lock(&pattern->lock);
    if (pattern->pooled < POOL_SIZE) {
        pattern->pool[pattern->pooled++] = matcher;
        matcher = NULL;
    }
    pthread_mutex_unlock(&pattern->lock);
    if (matcher != NULL) uregex_close(matcher);
}

int fmt_icu_address_territory(const char *code, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const URegion *region = uregion_getRegionFromCode(code, &status);
    if (U_FAILURE(status) || region == NULL || uregion_getType(region) != URGN_TERRITORY) return 0;
    const char *canonical = uregion_getRegionCode(region);
    int32_t n = (int32_t)strlen(canonical);
    if (n != 2) return 0;
    if (n <= capacity) memcpy(out, canonical, (size_t)n);
    return n;
}

fmt_address_pattern *fmt_icu_address_pattern_open(const char *pattern, int32_t length, int32_t *error_offset) {
    UErrorCode status = U_ZERO_ERROR;
    UParseError parse_error;
    memset(&parse_error, 0, sizeof parse_error);
    *error_offset = -1;
    UChar source[512];
    int32_t source_length = fmt_shim_utf8_to_utf16(pattern, length, source, 512);
    if (source_length < 0 || source_length > 512) return NULL;
    /* uregex_open keeps its own copy of the pattern, so the stack buffer may go. */
    URegularExpression *regex = uregex_open(source, source_length, 0, &parse_error, &status);
    if (U_FAILURE(status) || regex == NULL) {
        *error_offset = parse_error.offset;
        if (regex != NULL) uregex_close(regex);
        return NULL;
    }
    fmt_address_pattern *result = (fmt_address_pattern *)malloc(sizeof *result);
    if (result == NULL) {
        uregex_close(regex);
        return NULL;
    }
    result->regex = regex;
    result->pooled = 0;
    pthread_mutex_init(&result->lock, NULL);
    return result;
}

void fmt_icu_address_pattern_close(fmt_address_pattern *pattern) {
    if (pattern == NULL) return;
    for (int32_t i = 0; i < pattern->pooled; i++) uregex_close(pattern->pool[i]);
    pthread_mutex_destroy(&pattern->lock);
    uregex_close(pattern->regex);
    free(pattern);
}

int32_t fmt_icu_address_pattern_groups(const fmt_address_pattern *pattern) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t count = uregex_groupCount(pattern->regex, &status);
    return U_FAILURE(status) ? 0 : count;
}

int32_t fmt_icu_address_pattern_match(
    fmt_address_pattern *pattern, const char *text, int32_t length,
    int32_t *starts, int32_t *ends, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    URegularExpression *regex = take_matcher(pattern, &status);
    if (U_FAILURE(status) || regex == NULL) return -2;
    UText *input = utext_openUTF8(NULL, text, length, &status);
    uregex_setUText(regex, input, &status);
    UBool matched = U_SUCCESS(status) ? uregex_matches64(regex, 0, &status) : 0;
    int32_t result = -2;
    if (status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW) {
        result = -3;
    } else if (U_SUCCESS(status)) {
        if (!matched) {
            result = -1;
        } else {
            int32_t groups = uregex_groupCount(regex, &status);
            for (int32_t i = 0; i <= groups && i < capacity && U_SUCCESS(status); i++) {
                starts[i] = (int32_t)uregex_start64(regex, i, &status);
                ends[i] = (int32_t)uregex_end64(regex, i, &status);
            }
            result = U_SUCCESS(status) ? groups : -2;
        }
    }
    /* Detach the caller's text before the matcher goes back to the pool. */
    UErrorCode reset = U_ZERO_ERROR;
    uregex_setText(regex, u"", 0, &reset);
    utext_close(input);
    if (U_SUCCESS(reset)) {
        return_matcher(pattern, regex);
    } else {
        uregex_close(regex);
    }
    return result;
}

int32_t fmt_icu_address_script_code(const char *name) {
    int32_t code = u_getPropertyValueEnum(UCHAR_SCRIPT, name);
    return code == UCHAR_INVALID_CODE ? -1 : code;
}

int32_t fmt_icu_address_first_letter_in(const char *text, int32_t length, const int32_t *scripts, int32_t count) {
    int32_t offset = 0;
    while (offset < length) {
        UChar32 c;
        U8_NEXT(text, offset, length, c);
        if (c < 0) return -1;
        UErrorCode status = U_ZERO_ERROR;
        UScriptCode script = uscript_getScript(c, &status);
        if (U_FAILURE(status) || script == USCRIPT_COMMON || script == USCRIPT_INHERITED) continue;
        for (int32_t i = 0; i < count; i++) {
            if (uscript_hasScript(c, (UScriptCode)scripts[i])) return 1;
        }
        return 0;
    }
    return -1;
}

int32_t fmt_icu_address_likely_script(const char *language, const char *region, char *out, int32_t capacity) {
    size_t language_length = strlen(language);
    size_t region_length = region == NULL ? 0 : strlen(region);
    if (language_length < 2 || language_length > 8 || region_length > 3) return 0;
    /* An ICU locale ID ("pa_PK") goes to uloc_addLikelySubtags as it is, without uloc_forLanguageTag's parse. */
    char locale[16];
    memcpy(locale, language, language_length);
    locale[language_length] = 0;
    if (region_length > 0) {
        locale[language_length] = '_';
        memcpy(locale + language_length + 1, region, region_length);
        locale[language_length + 1 + region_length] = 0;
    }
    UErrorCode status = U_ZERO_ERROR;
    char likely[ULOC_FULLNAME_CAPACITY];
    uloc_addLikelySubtags(locale, likely, ULOC_FULLNAME_CAPACITY, &status);
    if (U_FAILURE(status) || status == U_STRING_NOT_TERMINATED_WARNING) return 0;
    char script[ULOC_SCRIPT_CAPACITY];
    int32_t n = uloc_getScript(likely, script, ULOC_SCRIPT_CAPACITY, &status);
    if (U_FAILURE(status) || n <= 0 || n >= ULOC_SCRIPT_CAPACITY) return 0;
    if (n <= capacity) memcpy(out, script, (size_t)n);
    return n;
}
