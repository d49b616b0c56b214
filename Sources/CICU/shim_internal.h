#ifndef FMTD_SHIM_INTERNAL_H
#define FMTD_SHIM_INTERNAL_H

#include <stdatomic.h>
#include <unicode/utypes.h>

/* UTF-16 -> UTF-8 into out; returns the UTF-8 length (which may exceed capacity: nothing useful is
   written then), or -1 on malformed input. Shared by every shim file. */
int fmt_shim_utf16_to_utf8(const UChar *text, int32_t length, char *out, int32_t capacity);

/* UTF-8 -> UTF-16; returns the UTF-16 length, or -1 on malformed input or overflow. */
int32_t fmt_shim_utf8_to_utf16(const char *text, int32_t length, UChar *out, int32_t capacity);

/* A few ICU objects that are not thread-safe (transliterators, collation element iterators), each lent to one
   thread at a time: fmt_pool_take hands out the object in one of the slots (starting at the calling thread's
   own, so two threads rarely meet at one) or NULL when every slot is empty, and fmt_pool_give puts one back,
   returning 0 when every slot is full (the caller closes it then). Slots are a cache line each. At most
   FMT_POOL_SLOTS objects stay open, plus one per thread using the pool at that moment. */
#define FMT_POOL_SLOTS 8

typedef struct fmt_pool {
    struct {
        _Atomic(void *) object;
        char padding[64 - sizeof(void *)];
    } slots[FMT_POOL_SLOTS];
} fmt_pool;

void fmt_pool_init(fmt_pool *pool);
void *fmt_pool_take(fmt_pool *pool);
int fmt_pool_give(fmt_pool *pool, void *object);
/* Empties the pool, calling close on every object in it (when nothing else uses the pool). */
void fmt_pool_drain(fmt_pool *pool, void (*close)(void *));

#endif
