/* pns/tt.h - private to pns/: df-pn's transposition table.
 *
 * Entries are 32 bytes, four to a bucket (two cache lines), identified by
 * the game's exact 128-bit key: a hit is never a hash coincidence.  When a
 * bucket is full the entry with the least work below it goes, an unsolved
 * one before a solved one.
 *
 * The table grows: its memory is reserved at its full size but it starts at
 * a few megabytes and doubles when half full (pns_tt_grow), so that a
 * small search never touches the rest.  A hash spreads entries over every
 * page of a table, and a first touch costs a page fault: 6-10 s a
 * gigabyte on the 2-core VMs here, more than a short search itself. */
#ifndef PNSOLVE_PNS_TT_H
#define PNSOLVE_PNS_TT_H

#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"
#include "../util/util.h"

typedef struct {
    uint64_t lo, hi;     /* exact key */
    uint32_t pn, dn;     /* pn == dn == 0: empty slot */
    uint32_t work;       /* nodes searched below, saturating */
    uint8_t best;        /* index of the best move */
    uint8_t flags;       /* TT_COND: df-pn solved it on some path (the value may be in its second table);
                          * TT_MARK: its user marked it (pns_dfpn_mark), a mark that goes with the entry */
    int16_t tag;         /* the score target of a score question (0 otherwise) */
} tt_entry;

#define TT_COND 1
#define TT_MARK 2

/* keep_solved: the solved entries the table evicts, and those solved on
 * some path (TT_COND), kept apart (open addressing, exact keys, never
 * evicted; full at 70%), so that the search reads them where the table has
 * lost them and does not solve them again by another way, and what it
 * found stays findable by whoever reads the table after it. */
typedef struct tt_kept tt_kept;

typedef struct {
    tt_entry *e;
    size_t buckets;      /* in use now; any count: bucket_index() scales onto them */
    int doublings;       /* left before the table reaches its reserved size */
    tt_kept *kept;       /* NULL: evicted entries are lost */
    size_t bytes;        /* of e as reserved (util_alloc_big) */
    uint32_t *seq;       /* shared by threads: each bucket's sequence number, odd while a store
                          * writes it (a seqlock); NULL: one thread */
    /* apart from the fields every probe reads: a store that fills a slot
     * writes it, and in their cache line it would cost the other threads
     * a miss on each probe */
    char apart[64];
    size_t used;
    char apart_after[64 - sizeof(size_t)];
} tt_table;

/* 1 when e's value answers the question of tag: its own, or, under a score
 * question, one it implies (a proof of "at least t" proves every lower
 * target, a disproof every higher one). */
static inline int pns_tt_answers(const tt_entry *e, int tag)
{
    return e->tag == tag || (e->pn == 0 && e->tag >= tag) || (e->dn == 0 && e->tag <= tag);
}

#define TT_WAYS 4
#define TT_START_BYTES ((size_t)16 << 20)

/* Reserves a table of at most bytes (at least one bucket), in use from
 * TT_START_BYTES or all of it if less; 0, or -1 when out of memory. */
int pns_tt_init(tt_table *t, size_t bytes);
void pns_tt_free(tt_table *t);
void pns_tt_clear(tt_table *t);
/* 1 when t is half full and may still double. */
int pns_tt_wants_room(const tt_table *t);
/* Doubles the buckets in use, every entry kept; only while no other thread
 * uses t and nobody holds a pointer into it. */
void pns_tt_grow(tt_table *t);
/* The bytes of entries in use (what the table has touched at most). */
static inline size_t pns_tt_bytes_used(const tt_table *t) { return t->buckets * TT_WAYS * sizeof(tt_entry); }
/* Lets several threads use t at once: stores then lock the key's bucket,
 * and pns_tt_get reads it without writing (it reads again if a store was
 * under way).  0, or -1 when out of memory. */
int pns_tt_share(tt_table *t);
/* Adds the calling thread's shared-table bucket accesses, and those that
 * met a store under way, since the last call to *accesses and *met. */
void pns_tt_access_counts(uint64_t *accesses, uint64_t *met);
/* The entry of key, or NULL; only while no other thread stores (a shared
 * table's entry may change under the pointer: use pns_tt_get). */
const tt_entry *pns_tt_lookup(const tt_table *t, game_key key);
/* Keeps the solved entries (TT_COND ones too) that stores evict from now
 * on, in up to bytes more (pages taken as used); 0, or -1 when out of
 * memory. */
int pns_tt_keep_solved(tt_table *t, size_t bytes);
/* Solved entries kept, those dropped when the keep was full, and the bytes
 * it has touched (its whole size once it holds anything: the slots are
 * spread over every page). */
void pns_tt_kept_counts(const tt_table *t, uint64_t *kept, uint64_t *dropped, size_t *bytes);
/* As pns_tt_lookup, and where the table has no solved entry of key, a kept
 * one; only while no other thread stores. */
const tt_entry *pns_tt_lookup_kept(const tt_table *t, game_key key);
/* Copies the entry of key into *out (where the table has none, a solved
 * one the keep holds): 1, or 0 when there is none. */
int pns_tt_get(const tt_table *t, game_key key, tt_entry *out);
/* Sets flag bits on key's entry (made unsolved 1/1 if key has none) and,
 * where best >= 0 and the entry is unsolved, its best move: a TT_COND
 * entry's stays while later stores leave it unsolved. */
void pns_tt_flag(tt_table *t, game_key key, uint8_t flag, int best);
/* Starts loading key's bucket into the cache. */
void pns_tt_prefetch(const tt_table *t, game_key key);
/* Stores or updates the entry of key (work adds to an existing entry's;
 * open numbers leave a solved value that answers their tag as it is);
 * returns the entry. */
tt_entry *pns_tt_store(tt_table *t, game_key key, uint32_t pn, uint32_t dn, uint32_t work, int best, int tag);
static inline double pns_tt_fill(const tt_table *t)
{
    /* of the reserved size: what the table may still grow to is room too */
    return (double)__atomic_load_n(&t->used, __ATOMIC_RELAXED) / (double)((t->buckets << t->doublings) * TT_WAYS);
}

#endif
