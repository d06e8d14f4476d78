/* tbbuild/gather.c - a table built across ranks written by rank 0: each
 * rank counts its own entries for the header and the ranks sum the counts,
 * so that the writer reads the entries once, in index order, and every read
 * that leaves the blocks in hand fetches the next round of blocks, one from
 * each owner, in one all-to-all: each block crosses once.  The
 * other ranks only send theirs, round after round; the number of rounds
 * follows from the table's size, so every rank knows it and none waits for
 * a round that never comes (rank 0 sends nothing, and drains the rounds its
 * writer did not read when it failed). */
#include "retro.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

#define WRITER_PASSES 1  /* tb_file_write_counted reads every entry once */

typedef struct {
    const tb_builder *b;
    uint64_t rounds, fetched;  /* rounds per pass; rounds fetched so far */
    uint64_t first, end;       /* the entries in hand */
    uint64_t *send, *at, *recv, *from, cap;
    int failed;
} gather;

/* Entries per round: one block of every owner of every rank. */
static uint64_t round_entries(const tb_part *p)
{
    return ((uint64_t)p->ranks * (uint64_t)p->per) << p->shift;
}

/* Fetches round g->fetched % g->rounds: this rank's blocks of it sent to
 * rank 0, four entries to a word. */
static void fetch_round(gather *g)
{
    const tb_builder *b = g->b;
    const tb_part *p = &b->part;
    const tb_ranks *r = b->ranks;
    uint64_t round = g->fetched % g->rounds, size = (uint64_t)1 << p->shift, w = 0;
    for (uint64_t k = round * (uint64_t)p->per; k < (round + 1) * (uint64_t)p->per && k < p->owned; k++) {
        uint64_t lo = tb_part_block(p, k) * size, hi = lo + size < b->n ? lo + size : b->n;
        uint16_t *e = (uint16_t *)(g->send + w);
        for (uint64_t i = lo; i < hi; i++)
            e[i - lo] = tb_retro_value(b, i);
        w += (hi - lo + 3) / 4;
    }
    for (int q = 0; q <= r->size; q++)
        g->at[q] = q == 0 ? 0 : w;  /* all of it for rank 0 */
    if (r->alltoall(r->ctx, g->send, g->at, &g->recv, &g->cap, g->from) != 0)
        g->failed = 1;
    g->first = round * round_entries(p);
    g->end = g->first + round_entries(p) < b->n ? g->first + round_entries(p) : b->n;
    g->fetched++;
}

/* The writer's reader on rank 0: entry i, fetching rounds as it goes (the
 * writer's reader takes a const context; this one is ours to change). */
static tb_entry gathered(const void *ctx, uint64_t i)
{
    gather *g = (gather *)ctx;
    while ((i < g->first || i >= g->end) && g->fetched < WRITER_PASSES * g->rounds && !g->failed)
        fetch_round(g);
    if (g->failed || i < g->first || i >= g->end)
        return 0;  /* the transport failed: the write is thrown away */
    return ((const uint16_t *)g->recv)[i - g->first];
}

int tb_retro_write_ranked(const tb_builder *b, const char *path, int compress, char *err, size_t errlen)
{
    const tb_ranks *r = b->ranks;
    const tb_part *p = &b->part;
    gather g = { .b = b, .rounds = (b->n + round_entries(p) - 1) / round_entries(p), .first = 1, .end = 0 };
    uint64_t words = ((uint64_t)p->per << p->shift) / 4 + (uint64_t)p->per;
    g.send = malloc(words * sizeof *g.send);
    g.at = calloc((size_t)r->size + 1, sizeof *g.at);
    g.from = calloc((size_t)r->size + 1, sizeof *g.from);
    uint64_t bad = !g.send || !g.at || !g.from;
    if (r->allreduce(r->ctx, &bad, 1, TB_MAX) != 0 || bad) {
        free(g.send), free(g.at), free(g.from);
        return util_error(err, errlen, "%s: out of memory (writing)", path);
    }
    /* the header's counts: each rank's own blocks, summed by the ranks */
    tb_counts c = { 0 };
    for (uint64_t k = 0; k < p->owned; k++) {
        uint64_t lo = tb_part_block(p, k) << p->shift, hi = lo + ((uint64_t)1 << p->shift);
        tb_counts_add(&c, tb_retro_value, b, lo, hi < b->n ? hi : b->n);
    }
    uint64_t sums[3] = { c.wins, c.losses, c.draws }, most = c.max_distance;
    if (r->allreduce(r->ctx, sums, 3, TB_SUM) != 0 || r->allreduce(r->ctx, &most, 1, TB_MAX) != 0)
        g.failed = 1;
    c = (tb_counts){ sums[0], sums[1], sums[2], (uint32_t)most };
    uint64_t rc = 0;
    if (r->rank == 0 && !g.failed)
        rc = tb_file_write_counted(b->g, path, b->mat, gathered, &g, b->n, compress, &c, err, errlen) != 0;
    while (g.fetched < WRITER_PASSES * g.rounds && !g.failed)
        fetch_round(&g);
    free(g.send), free(g.at), free(g.from), free(g.recv);
    rc |= (uint64_t)g.failed << 1;
    if (r->allreduce(r->ctx, &rc, 1, TB_MAX) != 0)
        rc |= 2;
    if (rc & 2)
        return util_error(err, errlen, "%s: the ranks cannot send their blocks (transport failed)", path);
    if (rc && r->rank != 0)
        return util_error(err, errlen, "%s: rank 0 could not write the table (its message says why)", path);
    return rc ? -1 : 0;  /* rank 0: err from tb_file_write */
}
