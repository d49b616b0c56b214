#include "fmt_icu_date.h"

#include <stdlib.h>
#include <string.h>
#include <unicode/ucal.h>
#include <unicode/udat.h>
#include <unicode/udatpg.h>
#include <unicode/uloc.h>
#include <unicode/ulocdata.h>
#include <unicode/uversion.h>

#include "shim_internal.h"

struct fmt_date_generator {
    UDateTimePatternGenerator *generator;
};

struct fmt_date_formatter {
    UDateFormat *format;
};

static const UChar utc_zone[] = {'U', 'T', 'C', 0};

/* Writes locale with @calendar=gregorian into out; returns 0 on failure. */
static int gregorian_locale(const char *locale, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = (int32_t)strlen(locale);
    if (n >= capacity) return 0;
    memcpy(out, locale, (size_t)n + 1);
    uloc_setKeywordValue("calendar", "gregorian", out, capacity, &status);
    return U_SUCCESS(status) && status != U_STRING_NOT_TERMINATED_WARNING;
}

fmt_date_generator *fmt_date_generator_open(const char *locale) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!gregorian_locale(locale, id, ULOC_FULLNAME_CAPACITY)) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UDateTimePatternGenerator *generator = udatpg_open(id, &status);
    if (U_FAILURE(status) || generator == NULL) return NULL;
    fmt_date_generator *handle = malloc(sizeof *handle);
    if (handle == NULL) {
        udatpg_close(generator);
        return NULL;
    }
    handle->generator = generator;
    return handle;
}

void fmt_date_generator_close(fmt_date_generator *generator) {
    if (generator == NULL) return;
    udatpg_close(generator->generator);
    free(generator);
}

int fmt_date_generator_best_pattern(fmt_date_generator *generator, const char *skeleton, char *out,
                                    int32_t capacity) {
    UChar skeleton16[64];
    int32_t skeletonLength = fmt_shim_utf8_to_utf16(skeleton, (int32_t)strlen(skeleton), skeleton16, 64);
    if (skeletonLength < 0 || skeletonLength >= 64) return -1;
    UChar pattern[256];
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = udatpg_getBestPattern(generator->generator, skeleton16, skeletonLength, pattern, 256, &status);
    if (U_FAILURE(status) || n <= 0 || n > 256) return -1;
    return fmt_shim_utf16_to_utf8(pattern, n, out, capacity);
}

fmt_date_formatter *fmt_date_formatter_open(const char *locale, const char *pattern) {
    char id[ULOC_FULLNAME_CAPACITY];
    if (!gregorian_locale(locale, id, ULOC_FULLNAME_CAPACITY)) return NULL;
    UChar pattern16[256];
    int32_t patternLength = fmt_shim_utf8_to_utf16(pattern, (int32_t)strlen(pattern), pattern16, 256);
    if (patternLength <= 0 || patternLength >= 256) return NULL;

    UErrorCode status = U_ZERO_ERROR;
    UDateFormat *format = udat_open(UDAT_PATTERN, UDAT_PATTERN, id, utc_zone, -1, pattern16, patternLength, &status);
    if (U_FAILURE(status) || format == NULL) return NULL;

    /* Proleptic Gregorian: without this, dates before 1582-10-15 would be computed on the Julian calendar. */
    UCalendar *calendar = ucal_open(utc_zone, -1, id, UCAL_GREGORIAN, &status);
    if (U_SUCCESS(status)) ucal_setGregorianChange(calendar, -8.64e15, &status);
    if (U_SUCCESS(status)) udat_setCalendar(format, calendar);
    if (calendar != NULL) ucal_close(calendar);
    fmt_date_formatter *handle = U_SUCCESS(status) ? malloc(sizeof *handle) : NULL;
    if (handle == NULL) {
        udat_close(format);
        return NULL;
    }
    handle->format = format;
    return handle;
}

void fmt_date_formatter_close(fmt_date_formatter *formatter) {
    if (formatter == NULL) return;
    udat_close(formatter->format);
    free(formatter);
}

/* Days from 1970-01-01 to a proleptic Gregorian date, counting in 400-year eras of 146097 days. */
static int64_t days_from_civil(int64_t year, int64_t month, int64_t day) {
    year -= month <= 2;
    int64_t era = (year >= 0 ? year : year - 399) / 400;
    int64_t yearOfEra = year - era * 400;
    int64_t dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    int64_t dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    return era * 146097 + dayOfEra - 719468;
}

int fmt_date_formatter_format(const fmt_date_formatter *formatter, int32_t year, int32_t month, int32_t day,
                              char *out, int32_t capacity) {
    if (month < 1 || month > 12 || day < 1 || day > 31) return -1;
    UDate instant = (UDate)days_from_civil(year, month, day) * 86400000.0;
    UChar text[256];
    UErrorCode status = U_ZERO_ERROR;
    int32_t n = udat_format(formatter->format, instant, text, 256, NULL, &status);
    if (U_FAILURE(status) || n <= 0 || n > 256) return -1;
    return fmt_shim_utf16_to_utf8(text, n, out, capacity);
}

int fmt_icu_cldr_version(char *out, int32_t capacity) {
    UVersionInfo info;
    UErrorCode status = U_ZERO_ERROR;
    ulocdata_getCLDRVersion(info, &status);
    if (U_FAILURE(status)) return -1;
    char text[U_MAX_VERSION_STRING_LENGTH];
    u_versionToString(info, text);
    int32_t n = (int32_t)strlen(text);
    if (n <= capacity) memcpy(out, text, (size_t)n);
    return n;
}
