/* pns/tt.c - df-pn's transposition table (see tt.h). */
#include "tt.h"
#include "pns.h"
#include "../util/util.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(tt_entry) == 32, "a table entry is 32 bytes");

static inline int is_empty(const tt_entry *e) { return e->pn == 0 && e->dn == 0; }
static inline int is_solved(const tt_entry *e) { return e->pn == 0 || e->dn == 0; }

int pns_tt_init(tt_table *t, size_t bytes)
{
    /* any count of buckets (bucket_index() maps a hash onto them by a
     * multiply): a power of two wasted up to half of --memory, and 4.5, 6
     * and 7 GB all gave the same 2 GB table */
    size_t b = bytes / (TT_WAYS * sizeof(tt_entry)), start = TT_START_BYTES / (TT_WAYS * sizeof(tt_entry));
    t->buckets = b ? b : 1;
    t->doublings = 0;
    /* doubling from buckets >> k ends at (buckets >> k) << k, short of
     * buckets by under 2^k of them */
    while (t->buckets >> (t->doublings + 1) >= start)
        t->doublings++;
    t->used = 0;
    t->seq = NULL;
    t->kept = NULL;
    t->bytes = t->buckets * TT_WAYS * sizeof(tt_entry);
    t->buckets >>= t->doublings;
    t->e = util_alloc_big(t->bytes);
    if (!t->e)
        return -1;
    return 0;
}

struct tt_kept {
    tt_entry *e;
    size_t mask, used, limit;
    uint64_t dropped;
    size_t bytes;
    pthread_mutex_t lock;  /* the threads of a shared table evict at once */
    uint32_t seq;          /* odd while a put writes: searching threads read it without the lock */
    uint64_t *seen;        /* a bit per two slots, set for each key put: the search asks the keep
                            * of every child the table lacks, and a read of the keep for each
                            * cost five-piece Jungle proof searches 1.39x the CPU; these bits,
                            * 1/128 of the keep, stay in cache (1.05x, inside the noise) */
};

int pns_tt_keep_solved(tt_table *t, size_t bytes)
{
    size_t slots = 1024;
    while (slots * 2 * sizeof(tt_entry) <= bytes)
        slots *= 2;
    tt_kept *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    k->bytes = slots * sizeof(tt_entry);
    k->e = util_alloc_big(k->bytes);
    k->seen = calloc(slots / 32, sizeof *k->seen);
    if (!k->e || !k->seen) {
        if (k->e)
            util_free_big(k->e, k->bytes);
        free(k->seen);
        free(k);
        return -1;
    }
    k->mask = slots - 1;
    k->limit = slots / 10 * 7;
    pthread_mutex_init(&k->lock, NULL);
    t->kept = k;
    return 0;
}

static void kept_free(tt_kept *k)
{
    if (!k)
        return;
    util_free_big(k->e, k->bytes);
    free(k->seen);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

static tt_entry *kept_slot(const tt_kept *k, game_key key)
{
    for (size_t i = game_key_hash(key) & k->mask;; i = (i + 1) & k->mask) {
        tt_entry *e = &k->e[i];
        if (is_empty(e) || (e->lo == key.lo && e->hi == key.hi))
            return e;
    }
}

/* *s = *e for readers that do not lock (kept_get): release stores, the
 * key last, so that a reader that sees it sees the rest (or a changed seq). */
static void kept_write(tt_entry *s, const tt_entry *e)
{
    __atomic_store_n(&s->pn, e->pn, __ATOMIC_RELEASE);
    __atomic_store_n(&s->dn, e->dn, __ATOMIC_RELEASE);
    __atomic_store_n(&s->work, e->work, __ATOMIC_RELEASE);
    __atomic_store_n(&s->best, e->best, __ATOMIC_RELEASE);
    __atomic_store_n(&s->flags, e->flags, __ATOMIC_RELEASE);
    __atomic_store_n(&s->tag, e->tag, __ATOMIC_RELEASE);
    __atomic_store_n(&s->lo, e->lo, __ATOMIC_RELEASE);
    __atomic_store_n(&s->hi, e->hi, __ATOMIC_RELEASE);
}

/* The bit of k->seen for key: its word, and the bit in it. */
static inline uint64_t *seen_word(const tt_kept *k, game_key key, uint64_t *bit)
{
    size_t i = game_key_hash(key) & (2 * k->mask + 1);
    *bit = (uint64_t)1 << (i & 63);
    return &k->seen[i >> 6];
}

static void kept_put(tt_kept *k, const tt_entry *e)
{
    pthread_mutex_lock(&k->lock);
    tt_entry *s = kept_slot(k, (game_key){ e->lo, e->hi });
    int put = !is_empty(s) ? is_solved(e) || !is_solved(s)  /* solved again, perhaps for another score target */
                           : k->used < k->limit;
    if (put) {
        uint64_t bit, *word = seen_word(k, (game_key){ e->lo, e->hi }, &bit);
        __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
        __atomic_store_n(&k->seq, k->seq + 1, __ATOMIC_RELEASE);
        if (is_empty(s))
            __atomic_store_n(&k->used, k->used + 1, __ATOMIC_RELEASE);
        kept_write(s, e);
        __atomic_store_n(&k->seq, k->seq + 1, __ATOMIC_RELEASE);
    } else {
        k->dropped++;
    }
    pthread_mutex_unlock(&k->lock);
}

void pns_tt_kept_counts(const tt_table *t, uint64_t *kept, uint64_t *dropped, size_t *bytes)
{
    *kept = t->kept ? t->kept->used : 0;
    *dropped = t->kept ? t->kept->dropped : 0;
    *bytes = *kept ? t->kept->bytes : 0;
}

/* the sequence numbers of every bucket the table may grow to */
static size_t seq_bytes(const tt_table *t) { return (t->buckets << t->doublings) * sizeof *t->seq; }

int pns_tt_share(tt_table *t)
{
    if (!t->seq)
        t->seq = util_alloc_big(seq_bytes(t));
    return t->seq ? 0 : -1;
}

/* This thread's bucket accesses and those that met a store under way: the
 * contention of the scaling model (docs/search.md), at the cost of two
 * thread-local adds. */
static _Thread_local uint64_t accesses, met;

void pns_tt_access_counts(uint64_t *acc, uint64_t *m)
{
    *acc += accesses;
    *m += met;
    accesses = met = 0;
}

static inline void spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* A store holds a bucket for a few writes, so waiting is short; but with
 * more threads than cores its holder may have lost its core, so a waiter
 * that spun a while gives its own up. */
static inline void wait_a_little(int *spins)
{
    if (++*spins % 64)
        spin_pause();
    else
        sched_yield();
}

/* Locks a bucket for a store: its number made odd.  Readers of a shared
 * table never write, so that a bucket's line moves between cores only when
 * one of them stores into it (a lock byte written by every read made the
 * lock lines cross between cores on almost every probe). */
static inline uint32_t *lock(const tt_table *t, size_t bucket)
{
    if (!t->seq)
        return NULL;
    uint32_t *q = &t->seq[bucket];
    accesses++;
    int spins = 0;
    for (uint32_t v = __atomic_load_n(q, __ATOMIC_RELAXED);; v = __atomic_load_n(q, __ATOMIC_RELAXED)) {
        if (!(v & 1) && __atomic_compare_exchange_n(q, &v, v + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            return q;
        if (!spins)
            met++;
        wait_a_little(&spins);
    }
}

static inline void unlock(uint32_t *q)
{
    if (q)
        __atomic_store_n(q, __atomic_load_n(q, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
}

void pns_tt_free(tt_table *t)
{
    if (t->seq)
        util_free_big(t->seq, seq_bytes(t));
    t->seq = NULL;
    kept_free(t->kept);
    t->kept = NULL;
    util_free_big(t->e, t->bytes);
    t->e = NULL;
}

void pns_tt_clear(tt_table *t)
{
    memset(t->e, 0, pns_tt_bytes_used(t));
    t->used = 0;
    if (t->kept) {
        memset(t->kept->e, 0, t->kept->bytes);
        memset(t->kept->seen, 0, (t->kept->mask + 1) / 32 * sizeof *t->kept->seen);
        t->kept->used = 0;
        t->kept->dropped = 0;
    }
}

/* The hash's high bits scaled onto the buckets (Lemire's multiply-shift). */
static inline size_t bucket_index(const tt_table *t, game_key key)
{
    return (size_t)(((unsigned __int128)game_key_hash(key) * t->buckets) >> 64);
}

static inline tt_entry *bucket_of(const tt_table *t, game_key key) { return t->e + bucket_index(t, key) * TT_WAYS; }

int pns_tt_wants_room(const tt_table *t)
{
    return t->doublings > 0 && __atomic_load_n(&t->used, __ATOMIC_RELAXED) * 2 >= t->buckets * TT_WAYS;
}

/* In place, from the top: bucket_index() keeps the order of the hashes, so
 * the entries of bucket i go to 2i or 2i + 1, and those are empty when i
 * is moved (new, or moved from already, being above i).  No entry is lost:
 * a new bucket takes at most the four of an old one. */
void pns_tt_grow(tt_table *t)
{
    if (t->doublings == 0)
        return;
    t->buckets *= 2;
    t->doublings--;
    for (size_t i = t->buckets / 2; i-- > 0;) {
        tt_entry old[TT_WAYS], *b = t->e + i * TT_WAYS;
        memcpy(old, b, sizeof old);
        memset(b, 0, sizeof old);
        for (int w = 0; w < TT_WAYS; w++) {
            if (is_empty(&old[w]))
                continue;
            tt_entry *to = bucket_of(t, (game_key){ old[w].lo, old[w].hi });
            while (!is_empty(to))
                to++;
            *to = old[w];
        }
    }
}

void pns_tt_prefetch(const tt_table *t, game_key key)
{
    const tt_entry *b = bucket_of(t, key);
    __builtin_prefetch(b);
    __builtin_prefetch((const char *)b + 64);
    if (t->seq)
        __builtin_prefetch(&t->seq[bucket_index(t, key)]);
}

/* An entry copied field by field: a store may be writing it, and the
 * sequence number tells the copy to be thrown away.  Acquire loads of
 * fields written by release stores (SET) order the seqlock without fences
 * (ThreadSanitizer does not model fences); on x86 all are plain moves. */
static void copy_racing(tt_entry *to, const tt_entry *e)
{
    to->lo = __atomic_load_n(&e->lo, __ATOMIC_ACQUIRE);
    to->hi = __atomic_load_n(&e->hi, __ATOMIC_ACQUIRE);
    to->pn = __atomic_load_n(&e->pn, __ATOMIC_ACQUIRE);
    to->dn = __atomic_load_n(&e->dn, __ATOMIC_ACQUIRE);
    to->work = __atomic_load_n(&e->work, __ATOMIC_ACQUIRE);
    to->best = __atomic_load_n(&e->best, __ATOMIC_ACQUIRE);
    to->flags = __atomic_load_n(&e->flags, __ATOMIC_ACQUIRE);
    to->tag = __atomic_load_n(&e->tag, __ATOMIC_ACQUIRE);
}

/* The solved entry of key the keep holds into *out: 1, or 0 when none.
 * Beside threads that put: a copy made while a put wrote is made again. */
static int kept_get(const tt_kept *k, game_key key, tt_entry *out)
{
    uint64_t bit;
    if (!(__atomic_load_n(seen_word(k, key, &bit), __ATOMIC_RELAXED) & bit))
        return 0;  /* never put (or being put now: as if a moment later) */
    for (;;) {
        uint32_t v = __atomic_load_n(&k->seq, __ATOMIC_ACQUIRE);
        int found = 0;
        if (!(v & 1)) {
            /* at most 70% full: the probe meets an empty slot */
            for (size_t i = game_key_hash(key) & k->mask;; i = (i + 1) & k->mask) {
                copy_racing(out, &k->e[i]);
                if (is_empty(out))
                    break;
                if (out->lo == key.lo && out->hi == key.hi) {
                    found = is_solved(out);
                    break;
                }
            }
            if (__atomic_load_n(&k->seq, __ATOMIC_RELAXED) == v)
                return found;
        }
    }
}

static int get_main(const tt_table *t, game_key key, tt_entry *out)
{
    if (!t->seq) {
        const tt_entry *e = pns_tt_lookup(t, key);
        if (e)
            *out = *e;
        return e != NULL;
    }
    /* the seqlock read: the copy counts only if the bucket's number was
     * even before it and the same after it (no store began or ended) */
    size_t b = bucket_index(t, key);
    const uint32_t *q = &t->seq[b];
    const tt_entry *e = t->e + b * TT_WAYS;
    accesses++;
    for (int spins = 0;; wait_a_little(&spins)) {
        uint32_t v = __atomic_load_n(q, __ATOMIC_ACQUIRE);
        int found = 0;
        if (!(v & 1)) {
            for (int i = 0; i < TT_WAYS && !found; i++) {
                copy_racing(out, &e[i]);
                found = out->lo == key.lo && out->hi == key.hi && !is_empty(out);
            }
            if (__atomic_load_n(q, __ATOMIC_RELAXED) == v)
                return found;
        }
        if (!spins)
            met++;
    }
}

int pns_tt_get(const tt_table *t, game_key key, tt_entry *out)
{
    /* where the table has no entry, a solved one it evicted: a search that
     * solved it again could name another move there, and a proof writer
     * reading both could follow a cycle of best moves (entries solved
     * through each other) instead of a proof */
    if (!get_main(t, key, out))
        return t->kept ? kept_get(t->kept, key, out) : 0;
    return 1;
}

const tt_entry *pns_tt_lookup(const tt_table *t, game_key key)
{
    const tt_entry *b = bucket_of(t, key);
    for (int i = 0; i < TT_WAYS; i++)
        if (b[i].lo == key.lo && b[i].hi == key.hi && !is_empty(&b[i]))
            return &b[i];
    return NULL;
}

const tt_entry *pns_tt_lookup_kept(const tt_table *t, game_key key)
{
    const tt_entry *e = pns_tt_lookup(t, key);
    if ((e && is_solved(e)) || !t->kept)
        return e;
    const tt_entry *k = kept_slot(t->kept, key);
    return is_empty(k) ? e : k;
}

/* Solved entries are worth more than unsolved ones of the same work: they
 * end a search where an unsolved one only guides it. */
static uint64_t worth(const tt_entry *e) { return (uint64_t)e->work * (is_solved(e) ? 4 : 1); }

/* Writes with release stores: a reader of a shared table may be copying
 * the entry (copy_racing); one that sees a field written here also sees the
 * bucket's odd number, and throws its copy away. */
#define SET(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELEASE)

static tt_entry *store(tt_table *t, game_key key, uint32_t pn, uint32_t dn, uint32_t work, int best, int tag)
{
    tt_entry *b = bucket_of(t, key), *victim = NULL;
    uint64_t total = work;
    for (int i = 0; i < TT_WAYS; i++) {
        if (b[i].lo == key.lo && b[i].hi == key.hi && !is_empty(&b[i])) {
            victim = &b[i];
            total += victim->work;  /* the work below a position adds up over its searches */
            /* a team member that stops when another solved the root stores
             * its stale numbers on the way up: they must not hide that
             * proof (nor any other a member found meanwhile) */
            if (is_solved(victim) && pn != 0 && dn != 0 && pns_tt_answers(victim, tag)) {
                SET(victim->work, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
                return victim;
            }
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
    else if (t->kept && (is_solved(victim) || (victim->flags & TT_COND)) && (victim->lo != key.lo || victim->hi != key.hi))
        kept_put(t->kept, victim);  /* a path-dependent result too: its best move is a writer's way through */
    if (victim->lo != key.lo || victim->hi != key.hi || is_empty(victim))
        SET(victim->flags, 0);
    SET(victim->lo, key.lo);
    SET(victim->hi, key.hi);
    SET(victim->pn, pn);
    SET(victim->dn, dn);
    SET(victim->work, total > UINT32_MAX ? UINT32_MAX : (uint32_t)total);
    /* the move a path-dependent result chose is what a proof writer reads
     * there (proof_closed.c); an open store's best move only guided */
    if (!(victim->flags & TT_COND) || pn == 0 || dn == 0)
        SET(victim->best, (uint8_t)best);
    SET(victim->tag, (int16_t)tag);
    return victim;
}

tt_entry *pns_tt_store(tt_table *t, game_key key, uint32_t pn, uint32_t dn, uint32_t work, int best, int tag)
{
    uint32_t *q = lock(t, bucket_index(t, key));
    tt_entry *e = store(t, key, pn, dn, work, best, tag);
    unlock(q);
    return e;
}

void pns_tt_flag(tt_table *t, game_key key, uint8_t flag, int best)
{
    uint32_t *q = lock(t, bucket_index(t, key));
    tt_entry *e = (tt_entry *)pns_tt_lookup(t, key);
    if (!e)
        e = store(t, key, 1, 1, 0, 0, 0);
    SET(e->flags, (uint8_t)(e->flags | flag));
    if (best >= 0 && !is_solved(e))
        SET(e->best, (uint8_t)best);
    unlock(q);
}
