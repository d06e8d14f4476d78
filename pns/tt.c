/* pns/tt.c - df-pn's transposition table (see tt.h). */
#include "tt.h"
#include "pns.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Static_assert(sizeof(tt_entry) == 32, "a table entry is 32 bytes");

int pns_tt_init(tt_table *t, size_t bytes)
{
    size_t b = 1;
    while (b * 2 * TT_WAYS * sizeof(tt_entry) <= bytes)
        b *= 2;
    t->buckets = b;
    t->used = 0;
    t->locks = NULL;
    /* fresh anonymous pages are zero (empty) and cost nothing until touched;
     * 2 MB alignment lets the kernel back the table with huge pages, without
     * which every probe is a TLB miss as well as a cache miss */
    size_t len = b * TT_WAYS * sizeof(tt_entry), huge = (size_t)2 << 20;
    t->map_len = len + huge;
    t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t->map == MAP_FAILED) {
        t->map = NULL;
        t->e = NULL;
        return -1;
    }
    t->e = (tt_entry *)(((uintptr_t)t->map + huge - 1) & ~(uintptr_t)(huge - 1));
    madvise(t->e, len, MADV_HUGEPAGE);
    return 0;
}

int pns_tt_share(tt_table *t)
{
    if (!t->locks)
        t->locks = calloc(TT_LOCK_STRIPES, 1);
    return t->locks ? 0 : -1;
}

/* The stripe lock of key's bucket, or NULL for a table of one thread. */
static inline uint8_t *lock_of(const tt_table *t, game_key key)
{
    return t->locks ? &t->locks[game_key_hash(key) & (t->buckets - 1) & (TT_LOCK_STRIPES - 1)] : NULL;
}

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* This thread's locks taken and found held: the contention of the
 * scaling model (docs/search.md), at the cost of two thread-local adds. */
static _Thread_local uint64_t locks_taken, locks_waited;

void pns_tt_lock_counts(uint64_t *taken, uint64_t *waited)
{
    *taken += locks_taken;
    *waited += locks_waited;
    locks_taken = locks_waited = 0;
}

/* A lock is held for one bucket's reads or writes, so spinning is short;
 * but with more threads than cores its holder may have lost its core, so a
 * waiter that spun a while gives its own up. */
static inline void lock(uint8_t *l)
{
    if (!l)
        return;
    locks_taken++;
    if (__builtin_expect(__atomic_load_n(l, __ATOMIC_RELAXED), 0))
        locks_waited++;
    for (int spins = 0; __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE);)
        while (__atomic_load_n(l, __ATOMIC_RELAXED))
            if (++spins % 64)
                spin_pause();
            else
                sched_yield();
}

static inline void unlock(uint8_t *l)
{
    if (l)
        __atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

void pns_tt_free(tt_table *t)
{
    free(t->locks);
    t->locks = NULL;
    if (t->map)
        munmap(t->map, t->map_len);
    t->map = NULL;
    t->e = NULL;
}

void pns_tt_clear(tt_table *t)
{
    memset(t->e, 0, t->buckets * TT_WAYS * sizeof(tt_entry));
    t->used = 0;
}

static inline tt_entry *bucket_of(const tt_table *t, game_key key)
{
    return t->e + (game_key_hash(key) & (t->buckets - 1)) * TT_WAYS;
}

void pns_tt_prefetch(const tt_table *t, game_key key)
{
    const tt_entry *b = bucket_of(t, key);
    __builtin_prefetch(b);
    __builtin_prefetch((const char *)b + 64);
}

static inline int is_empty(const tt_entry *e) { return e->pn == 0 && e->dn == 0; }
static inline int is_solved(const tt_entry *e) { return e->pn == 0 || e->dn == 0; }

int pns_tt_get(const tt_table *t, game_key key, tt_entry *out)
{
    uint8_t *l = lock_of(t, key);
    lock(l);
    const tt_entry *e = pns_tt_lookup(t, key);
    if (e)
        *out = *e;
    unlock(l);
    return e != NULL;
}

const tt_entry *pns_tt_lookup(const tt_table *t, game_key key)
{
    const tt_entry *b = bucket_of(t, key);
    for (int i = 0; i < TT_WAYS; i++)
        if (b[i].lo == key.lo && b[i].hi == key.hi && !is_empty(&b[i]))
            return &b[i];
    return NULL;
}

/* Solved entries are worth more than unsolved ones of the same work: they
 * end a search where an unsolved one only guides it. */
static uint64_t worth(const tt_entry *e) { return (uint64_t)e->work * (is_solved(e) ? 4 : 1); }

static tt_entry *store(tt_table *t, game_key key, uint32_t pn, uint32_t dn, uint32_t work, int best, int tag)
{
    tt_entry *b = bucket_of(t, key), *victim = NULL;
    uint64_t total = work;
    for (int i = 0; i < TT_WAYS; i++) {
        if (b[i].lo == key.lo && b[i].hi == key.hi && !is_empty(&b[i])) {
            victim = &b[i];
            total += victim->work;  /* the work below a position adds up over its searches */
            break;
        }
        if (is_empty(&b[i])) {
            if (!victim || !is_empty(victim))
                victim = &b[i];
        } else if (!victim || (!is_empty(victim) && worth(&b[i]) < worth(victim))) {
            victim = &b[i];
        }
    }
    if (is_empty(victim))
        __atomic_add_fetch(&t->used, 1, __ATOMIC_RELAXED);
    if (victim->lo != key.lo || victim->hi != key.hi || is_empty(victim))
        victim->flags = 0;
    victim->lo = key.lo;
    victim->hi = key.hi;
    victim->pn = pn;
    victim->dn = dn;
    victim->work = total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
    victim->best = (uint8_t)best;
    victim->tag = (int16_t)tag;
    return victim;
}

tt_entry *pns_tt_store(tt_table *t, game_key key, uint32_t pn, uint32_t dn, uint32_t work, int best, int tag)
{
    uint8_t *l = lock_of(t, key);
    lock(l);
    tt_entry *e = store(t, key, pn, dn, work, best, tag);
    unlock(l);
    return e;
}

void pns_tt_flag(tt_table *t, game_key key, uint8_t flag)
{
    uint8_t *l = lock_of(t, key);
    lock(l);
    tt_entry *e = (tt_entry *)pns_tt_lookup(t, key);
    if (!e)
        e = store(t, key, 1, 1, 0, 0, 0);
    e->flags |= flag;
    unlock(l);
}
