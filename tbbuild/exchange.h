/* tbbuild/exchange.h - private to tbbuild/: a pass of the builder as
 * owners of index ranges that send each other updates.
 *
 * The index space is cut into blocks of 2^shift entries (TB_OWN_SHIFT
 * unless a test asks for fewer) dealt round-robin to the owners (balanced
 * whatever the frontier's shape, and a block's cells stay in one owner's
 * cache).  A pass runs in rounds: every
 * sender (one per owner) resolves frontier positions and puts the updates
 * they make (an index each) into one outbox per owner, until a box is
 * nearly full or it has nothing left; then every owner applies the updates
 * sent to it, alone in its range.  Owners are threads today, and senders
 * share the frontier; owners on several machines would each send from the
 * frontier they own and move the boxes between rounds, under the same two
 * calls (the algorithm in retro.c knows no transport).
 *
 * Across ranks (tb_ranks, tablebase.h) each rank plays `per` owners on as
 * many threads: rank r owns the owners r*per .. r*per + per - 1, so the
 * blocks it holds are tb_part_block(p, 0), tb_part_block(p, 1), ...;
 * between a round's sending and applying, the boxes for other ranks'
 * owners cross in one all-to-all.
 */
#ifndef PNSOLVE_TB_EXCHANGE_H
#define PNSOLVE_TB_EXCHANGE_H

#include <stdint.h>

#define TB_OWN_SHIFT 16
#define TB_MAX_OWNERS 256

/* One sender's boxes: box d (cap entries) holds its updates for owner d. */
typedef struct {
    int owners, shift;
    uint64_t mod;        /* the owner of block q is q % owners = mulhi(mod * q, owners) (Lemire's fastmod) */
    uint64_t cap, most;  /* most: the fullest box's length */
    uint64_t *box;
    uint64_t len[TB_MAX_OWNERS];
} tb_outbox;

/* Whether every box takes k more updates. */
static inline int tb_outbox_room(const tb_outbox *o, uint64_t k) { return o->most + k <= o->cap; }

/* Sends the n updates v to their owners (the caller checked the room).
 * The box pointers and lengths stay in registers through the loop (through
 * o they would be reloaded after every store). */
static inline void tb_outbox_put(tb_outbox *restrict o, const uint64_t *restrict v, int n)
{
    uint64_t *restrict box = o->box, cap = o->cap, most = o->most;
    if (o->owners == 1) {
        uint64_t at = o->len[0];
        for (int k = 0; k < n; k++)
            box[at + (uint64_t)k] = v[k];
        o->len[0] = o->most = at + (uint64_t)n;
        return;
    }
    /* A division per update cost 6% of a Jungle build; blocks number below
     * 2^32, where the multiply is exact. */
    uint64_t mod = o->mod, owners = (uint64_t)o->owners;
    int shift = o->shift;
    for (int k = 0; k < n; k++) {
        uint64_t low = mod * (uint32_t)(v[k] >> shift);
        uint64_t d = (uint64_t)(((unsigned __int128)low * owners) >> 64);
        uint64_t at = o->len[d]++;
        box[d * cap + at] = v[k];
        if (at + 1 > most)
            most = at + 1;
    }
    o->most = most;
}

/* The blocks of one rank: the table's n entries in blocks of 2^shift dealt
 * round-robin to ranks * per owners, rank `rank` owning per of them in a
 * row (one rank: every block, in order). */
typedef struct {
    int rank, ranks, per, shift;
    uint64_t n, blocks, owned;  /* blocks of the table, and of this rank */
} tb_part;

/* The part of rank `rank` of `ranks`, each with per owners. */
tb_part tb_part_of(uint64_t n, int shift, int rank, int ranks, int per);
/* The rank that owns entry i. */
static inline int tb_part_rank(const tb_part *p, uint64_t i)
{
    return (int)(((i >> p->shift) % ((uint64_t)p->ranks * (uint64_t)p->per)) / (uint64_t)p->per);
}
/* The k-th block this rank owns (k < p->owned), in increasing order. */
static inline uint64_t tb_part_block(const tb_part *p, uint64_t k)
{
    uint64_t per = (uint64_t)p->per;
    return k / per * (uint64_t)p->ranks * per + (uint64_t)p->rank * per + k % per;
}

typedef struct tb_exchange tb_exchange;
struct tb_ranks;

/* Boxes for the owners of a table of n entries in blocks of 2^shift (at
 * least 64), `owners` of them on this process, each box room for at least
 * `batch` updates (what one position may send); with ranks (NULL: this
 * process alone) every rank plays `owners` of ranks->size * owners.  NULL
 * when out of memory or past TB_MAX_OWNERS. */
tb_exchange *tb_exchange_new(int owners, const struct tb_ranks *ranks, int shift, uint64_t n, uint64_t batch);
void tb_exchange_free(tb_exchange *x);

/* One pass: rounds of send (local sender o fills out; returns 1 when it has
 * sent everything) then apply (local owner d gets the updates of one
 * sender's box for d at a time, once per sender of every rank), until every
 * sender of every rank has sent everything.  Across ranks every rank calls
 * it together; 0, or -1 when the transport failed (the pass is incomplete). */
int tb_exchange_pass(tb_exchange *x, int (*send)(void *ctx, int owner, tb_outbox *out),
                      void (*apply)(void *ctx, int owner, const uint64_t *upd, uint64_t n), void *ctx);

#endif
