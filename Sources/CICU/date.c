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

/* A pattern of day, month and year fields and literal text, compiled once so a date is written without
   ICU: the fields' digits and ICU's own month names for the formatter's locale. It is used only after it
   wrote the same text as udat_format for every month, every day of a month and years of every length
   (check_plan), so anything ICU would write differently (other digits, a calendar's own names, a pattern
   letter it does not know) keeps the formatter on udat_format. */
enum { PLAN_STEPS = 24, PLAN_TEXT = 1536, PLAN_TABLES = 2 };

enum plan_kind { STEP_TEXT, STEP_DAY, STEP_MONTH_NUMBER, STEP_MONTH_NAME, STEP_YEAR, STEP_YEAR_TWO_DIGITS };

typedef struct {
    uint8_t kind;
    /* The fewest digits (numbers), or the month-name table (STEP_MONTH_NAME). */
    uint8_t width;
    /* A literal's bytes in text. */
    uint16_t offset, length;
} plan_step;

typedef struct {
    int steps_count;
    plan_step steps[PLAN_STEPS];
    /* Month names of up to two symbol kinds, as offsets and lengths into text. */
    int tables_count;
    UDateFormatSymbolType table_kinds[PLAN_TABLES];
    uint16_t month_offset[PLAN_TABLES][12], month_length[PLAN_TABLES][12];
    int text_used;
    char text[PLAN_TEXT];
} date_plan;

struct fmt_date_formatter {
    UDateFormat *format;
    /* Whether plan writes what udat_format writes. */
    int compiled;
    date_plan plan;
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

/* Appends UTF-16 text to the plan's text as UTF-8; 0 when it does not fit. */
static int plan_add_text(date_plan *plan, const UChar *text, int32_t length, uint16_t *offset, uint16_t *bytes) {
    int n = fmt_shim_utf16_to_utf8(text, length, plan->text + plan->text_used, PLAN_TEXT - plan->text_used);
    if (n < 0 || n > PLAN_TEXT - plan->text_used) return 0;
    *offset = (uint16_t)plan->text_used;
    *bytes = (uint16_t)n;
    plan->text_used += n;
    return 1;
}

static int plan_add_step(date_plan *plan, plan_step step) {
    if (plan->steps_count == PLAN_STEPS) return 0;
    plan->steps[plan->steps_count++] = step;
    return 1;
}

/* The month-name table of one symbol kind, read from the formatter once; -1 when ICU has none. */
static int plan_month_table(date_plan *plan, const UDateFormat *format, UDateFormatSymbolType kind) {
    for (int index = 0; index < plan->tables_count; index++) {
        if (plan->table_kinds[index] == kind) return index;
    }
    if (plan->tables_count == PLAN_TABLES) return -1;
    int table = plan->tables_count;
    for (int month = 0; month < 12; month++) {
        UChar name[64];
        UErrorCode status = U_ZERO_ERROR;
        int32_t n = udat_getSymbols(format, kind, month, name, 64, &status);
        if (U_FAILURE(status) || n <= 0 || n >= 64) return -1;
        if (!plan_add_text(plan, name, n, &plan->month_offset[table][month], &plan->month_length[table][month])) {
            return -1;
        }
    }
    plan->table_kinds[table] = kind;
    plan->tables_count++;
    return table;
}

/* Compiles a pattern of d, M, L and y fields and literal text (quoted or not); 0 for anything else. */
static int compile_plan(const UDateFormat *format, const UChar *pattern, int32_t length, date_plan *plan) {
    memset(plan, 0, sizeof *plan);
    UChar literal[256];
    int32_t literalLength = 0;
    int quoted = 0;
    for (int32_t i = 0; i < length;) {
        UChar c = pattern[i];
        if (c == '\'') {
            if (i + 1 < length && pattern[i + 1] == '\'') {
                literal[literalLength++] = '\'';
                i += 2;
            } else {
                quoted = !quoted;
                i += 1;
            }
            continue;
        }
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (quoted || !letter) {
            literal[literalLength++] = c;
            i += 1;
            continue;
        }
        int32_t count = 1;
        while (i + count < length && pattern[i + count] == c) count++;
        i += count;
        if (literalLength > 0) {
            plan_step step = {STEP_TEXT, 0, 0, 0};
            if (!plan_add_text(plan, literal, literalLength, &step.offset, &step.length)) return 0;
            if (!plan_add_step(plan, step)) return 0;
            literalLength = 0;
        }
        plan_step step = {STEP_TEXT, 0, 0, 0};
        if (count > 9) return 0;
        if (c == 'd') {
            step.kind = STEP_DAY;
            step.width = (uint8_t)count;
        } else if ((c == 'M' || c == 'L') && count <= 2) {
            step.kind = STEP_MONTH_NUMBER;
            step.width = (uint8_t)count;
        } else if ((c == 'M' || c == 'L') && count <= 4) {
            UDateFormatSymbolType kind = c == 'M' ? (count == 3 ? UDAT_SHORT_MONTHS : UDAT_MONTHS)
                                                  : (count == 3 ? UDAT_STANDALONE_SHORT_MONTHS : UDAT_STANDALONE_MONTHS);
            int table = plan_month_table(plan, format, kind);
            if (table < 0) return 0;
            step.kind = STEP_MONTH_NAME;
            step.width = (uint8_t)table;
        } else if (c == 'y') {
            step.kind = count == 2 ? STEP_YEAR_TWO_DIGITS : STEP_YEAR;
            step.width = (uint8_t)count;
        } else {
            return 0;
        }
        if (!plan_add_step(plan, step)) return 0;
    }
    if (quoted) return 0;
    if (literalLength > 0) {
        plan_step step = {STEP_TEXT, 0, 0, 0};
        if (!plan_add_text(plan, literal, literalLength, &step.offset, &step.length)) return 0;
        if (!plan_add_step(plan, step)) return 0;
    }
    return plan->steps_count > 0;
}

/* Counts value's ASCII digits (at least width) into *used, writing them while they fit. */
static void plan_number(int32_t value, int width, char *out, int32_t capacity, int32_t *used) {
    char digits[12];
    int count = 0;
    do {
        digits[count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (count < width) digits[count++] = '0';
    for (int index = count - 1; index >= 0; index--) {
        if (*used < capacity) out[*used] = digits[index];
        *used += 1;
    }
}

/* Counts length bytes into *used, writing them when they all fit. */
static void plan_bytes(const char *bytes, int32_t length, char *out, int32_t capacity, int32_t *used) {
    if (*used + length <= capacity) memcpy(out + *used, bytes, (size_t)length);
    *used += length;
}

/* The date's text by the plan, as fmt_date_formatter_format returns it. */
static int plan_format(const date_plan *plan, int32_t year, int32_t month, int32_t day, char *out,
                       int32_t capacity) {
    int32_t used = 0;
    for (int index = 0; index < plan->steps_count; index++) {
        const plan_step *step = &plan->steps[index];
        switch (step->kind) {
        case STEP_TEXT:
            plan_bytes(plan->text + step->offset, step->length, out, capacity, &used);
            break;
        case STEP_DAY:
            plan_number(day, step->width, out, capacity, &used);
            break;
        case STEP_MONTH_NUMBER:
            plan_number(month, step->width, out, capacity, &used);
            break;
        case STEP_MONTH_NAME:
            plan_bytes(plan->text + plan->month_offset[step->width][month - 1],
                       plan->month_length[step->width][month - 1], out, capacity, &used);
            break;
        case STEP_YEAR:
            plan_number(year, step->width, out, capacity, &used);
            break;
        case STEP_YEAR_TWO_DIGITS:
            plan_number(year % 100, 2, out, capacity, &used);
            break;
        }
    }
    return used;
}

/* Whether the plan writes what udat_format writes for every month, every day of January and years of one
   to four digits, each field value the plan handles in at least one date. */
static int check_plan(const fmt_date_formatter *formatter) {
    static const int32_t years[] = {1, 5, 10, 99, 100, 999, 1000, 1582, 1999, 2000, 2024, 9999};
    int32_t dates[12 + 31 + sizeof years / sizeof years[0]][3];
    int count = 0;
    for (int32_t month = 1; month <= 12; month++) {
        dates[count][0] = 2000, dates[count][1] = month, dates[count][2] = 17, count++;
    }
    for (int32_t day = 1; day <= 31; day++) {
        dates[count][0] = 1990, dates[count][1] = 1, dates[count][2] = day, count++;
    }
    for (size_t index = 0; index < sizeof years / sizeof years[0]; index++) {
        dates[count][0] = years[index], dates[count][1] = 11, dates[count][2] = 3, count++;
    }
    for (int index = 0; index < count; index++) {
        char fast[768], icu[768];
        int a = plan_format(&formatter->plan, dates[index][0], dates[index][1], dates[index][2], fast, 768);
        int b = fmt_date_formatter_format_icu(formatter, dates[index][0], dates[index][1], dates[index][2], icu, 768);
        if (a <= 0 || a > 768 || a != b || memcmp(fast, icu, (size_t)a) != 0) return 0;
    }
    return 1;
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
    handle->compiled = compile_plan(format, pattern16, patternLength, &handle->plan) && check_plan(handle);
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
    if (formatter->compiled && year >= 1 && year <= 9999) {
        return plan_format(&formatter->plan, year, month, day, out, capacity);
    }
    return fmt_date_formatter_format_icu(formatter, year, month, day, out, capacity);
}

int fmt_date_formatter_is_compiled(const fmt_date_formatter *formatter) { return formatter->compiled; }

int fmt_date_formatter_format_icu(const fmt_date_formatter *formatter, int32_t year, int32_t month, int32_t day,
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
