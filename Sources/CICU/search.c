#include "fmt_icu_search.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>
#include <unicode/utrans.h>

#include "shim_internal.h"

_Static_assert(USCRIPT_COMMON == FMT_SCRIPT_COMMON && USCRIPT_INHERITED == FMT_SCRIPT_INHERITED &&
                   USCRIPT_LATIN == FMT_SCRIPT_LATIN,
               "ICU's script codes");

struct fmt_transform {
    /* Never transliterates: only cloned, which reads it. */
    UTransliterator *prototype;
    fmt_pool clones;
    atomic_int cloned;
};

fmt_transform *fmt_transform_open(const char *id) {
    UChar utf16[256];
    int32_t length = fmt_shim_utf8_to_utf16(id, (int32_t)strlen(id), utf16, 256);
    if (length < 0 || length >= 256) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UTransliterator *prototype = utrans_openU(utf16, length, UTRANS_FORWARD, NULL, 0, NULL, &status);
    if (U_FAILURE(status)) return NULL;
    fmt_transform *result = malloc(sizeof *result);
    if (result == NULL) {
        utrans_close(prototype);
        return NULL;
    }
    result->prototype = prototype;
    fmt_pool_init(&result->clones);
    atomic_init(&result->cloned, 0);
    /* ICU builds each script's transliterator the first time text of that script meets one, Han-Latin in about
       100 ms (then kept by ICU for the process): done here, at load, on a first clone left in the pool, rather
       than by the first request with Han or kana in it. */
    static const UChar sample[] = u"山Иαمאやア한ก";
    uint16_t form[128];
    fmt_search_form(result, sample, (int32_t)(sizeof sample / sizeof sample[0]) - 1, form, 128);
    return result;
}

static void close_transliterator(void *transliterator) { utrans_close(transliterator); }

void fmt_transform_close(fmt_transform *transform) {
    if (transform == NULL) return;
    fmt_pool_drain(&transform->clones, close_transliterator);
    utrans_close(transform->prototype);
    free(transform);
}

int32_t fmt_transform_clones(const fmt_transform *transform) {
    return atomic_load_explicit(&((fmt_transform *)transform)->cloned, memory_order_relaxed);
}

static int is_word_character(UChar32 c) {
    return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK)) != 0;
}

/* Rewrites text[0..<length] in place: every run of non-word characters as one space, none at either end. */
static int32_t collapse_separators(UChar *text, int32_t length) {
    int32_t read = 0, written = 0;
    int pending = 0;
    while (read < length) {
        int32_t start = read;
        UChar32 c;
        U16_NEXT(text, read, length, c);
        if (!is_word_character(c)) {
            pending = written > 0;
            continue;
        }
        if (pending) {
            text[written++] = u' ';
            pending = 0;
        }
        while (start < read) text[written++] = text[start++];
    }
    return written;
}

int32_t fmt_search_form(fmt_transform *transform, const uint16_t *text, int32_t length, uint16_t *out,
                        int32_t capacity) {
    if (length < 0 || capacity < 0) return -1;
    if (length == 0) return 0;
    /* The transform works in place, so it runs in a buffer of its own that grows until the result fits. */
    /* Han-Latin writes up to 7 units a character (a syllable and a space): room for that, so the transform
       runs once. */
    int32_t room = length * 8 + 16;
    for (int attempt = 0; attempt < 4; attempt++) {
        UChar *buffer = malloc(sizeof(UChar) * (size_t)room);
        if (buffer == NULL) return -1;
        memcpy(buffer, text, sizeof(UChar) * (size_t)length);
        UErrorCode status = U_ZERO_ERROR;
        UTransliterator *transliterator = fmt_pool_take(&transform->clones);
        if (transliterator == NULL) {
            transliterator = utrans_clone(transform->prototype, &status);
            if (U_FAILURE(status)) {
                free(buffer);
                return -1;
            }
            atomic_fetch_add_explicit(&transform->cloned, 1, memory_order_relaxed);
        }
        int32_t used = length, limit = length;
        utrans_transUChars(transliterator, buffer, &used, room, 0, &limit, &status);
        if (!fmt_pool_give(&transform->clones, transliterator)) utrans_close(transliterator);
        if (status == U_BUFFER_OVERFLOW_ERROR || (U_SUCCESS(status) && used > room)) {
            free(buffer);
            room = (used > room ? used : room) * 2;
            continue;
        }
        if (U_FAILURE(status) && status != U_STRING_NOT_TERMINATED_WARNING) {
            free(buffer);
            return -1;
        }
        int32_t formed = collapse_separators(buffer, used);
        if (formed <= capacity) memcpy(out, buffer, sizeof(UChar) * (size_t)formed);
        free(buffer);
        return formed;
    }
    return -1;
}

int32_t fmt_search_words(const uint16_t *text, int32_t length, int32_t *words, int32_t capacity) {
    int32_t count = 0;
    int32_t index = 0;
    while (index < length) {
        int32_t start = index;
        UChar32 c;
        U16_NEXT(text, index, length, c);
        if (!is_word_character(c)) continue;
        int32_t script = USCRIPT_COMMON;
        int32_t end = index;
        for (;;) {
            if (script == USCRIPT_COMMON) {
                UErrorCode status = U_ZERO_ERROR;
                UScriptCode found = uscript_getScript(c, &status);
                if (U_SUCCESS(status) && found != USCRIPT_COMMON && found != USCRIPT_INHERITED) script = found;
            }
            end = index;
            if (index >= length) break;
            U16_NEXT(text, index, length, c);
            if (!is_word_character(c)) break;
        }
        if (count < capacity) {
            words[3 * count] = start;
            words[3 * count + 1] = end;
            words[3 * count + 2] = script;
        }
        count++;
    }
    return count;
}

int32_t fmt_search_form_cost(const uint16_t *text, int32_t length) {
    int32_t cost = 0;
    int32_t index = 0;
    int han = 0;
    while (index < length) {
        int32_t start = index;
        UChar32 c;
        U16_NEXT(text, index, length, c);
        UErrorCode status = U_ZERO_ERROR;
        if (uscript_getScript(c, &status) == USCRIPT_HAN) {
            cost += 16;
            han = 1;
        } else {
            cost += index - start;
        }
    }
    return cost + (han ? 48 : 0);
}
