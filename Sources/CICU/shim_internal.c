#include "shim_internal.h"

#include <pthread.h>
#include <stdint.h>
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

/* The slot a thread tries first: its pthread id mixed (ids are addresses a stack apart). */
static int pool_start(void) {
    uint64_t id = (uint64_t)(uintptr_t)pthread_self();
    return (int)((id * 0x9E3779B97F4A7C15ull) >> 61) % FMT_POOL_SLOTS;
}

void fmt_pool_init(fmt_pool *pool) {
    for (int i = 0; i < FMT_POOL_SLOTS; i++) atomic_init(&pool->slots[i].object, NULL);
}

void *fmt_pool_take(fmt_pool *pool) {
    int start = pool_start();
    for (int i = 0; i < FMT_POOL_SLOTS; i++) {
        int slot = (start + i) % FMT_POOL_SLOTS;
        if (atomic_load_explicit(&pool->slots[slot].object, memory_order_relaxed) == NULL) continue;
        void *object = atomic_exchange_explicit(&pool->slots[slot].object, NULL, memory_order_acq_rel);
        if (object != NULL) return object;
    }
    return NULL;
}

int fmt_pool_give(fmt_pool *pool, void *object) {
    int start = pool_start();
    for (int i = 0; i < FMT_POOL_SLOTS; i++) {
        int slot = (start + i) % FMT_POOL_SLOTS;
        void *expected = NULL;
        if (atomic_compare_exchange_strong_explicit(&pool->slots[slot].object, &expected, object,
                                                    memory_order_acq_rel, memory_order_relaxed))
            return 1;
    }
    return 0;
}

void fmt_pool_drain(fmt_pool *pool, void (*close)(void *)) {
    for (int i = 0; i < FMT_POOL_SLOTS; i++) {
        void *object = atomic_exchange_explicit(&pool->slots[i].object, NULL, memory_order_acq_rel);
        if (object != NULL) close(object);
    }
}
