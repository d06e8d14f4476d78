/* tbbuild/exchange.c - the rounds of a pass between owners: a team of
 * threads plays this process's owners, each round's sending and applying
 * ended by a barrier; across ranks, the boxes for other ranks' owners are
 * packed and cross in one all-to-all between the two. */
#include "exchange.h"
#include "tbbuild.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

struct tb_exchange {
    int owners;                /* on this process */
    int all_owners;            /* on every rank: the boxes of each sender */
    const tb_ranks *ranks;     /* NULL: this process alone */
    tb_outbox out[TB_MAX_OWNERS];
    uint8_t done[TB_MAX_OWNERS];
    /* across ranks: the packed boxes (for rank p: `owners` lengths, then
     * each of its owners' updates from every sender here), what came in */
    uint64_t *pack, *at, *recv, *from, recv_cap;
    int all_done, failed;
    /* the pass under way */
    int (*send)(void *ctx, int owner, tb_outbox *out);
    void (*apply)(void *ctx, int owner, const uint64_t *upd, uint64_t n);
    void *ctx;
};

/* A sender's boxes hold 1/256 of the table over the owners (at most 4 M
 * updates, 32 MB, between all senders), at least 2^18 (2 MB): few rounds
 * per ply (small rounds measured slower: each ends at a barrier where the
 * member with less to do waits), little beside the table's 1.375 bytes a
 * position (1/128 cost RrDdT 0.04 bytes a position more, 1.48 in all, for
 * 1.5% less CPU). */
#define ROUND_SHARE 256
#define ROUND_MAX ((uint64_t)1 << 22)
#define SENDER_MIN ((uint64_t)1 << 18)

tb_part tb_part_of(uint64_t n, int shift, int rank, int ranks, int per)
{
    tb_part p = { .rank = rank, .ranks = ranks, .per = per, .shift = shift, .n = n };
    p.blocks = (n + ((uint64_t)1 << shift) - 1) >> shift;
    uint64_t round = (uint64_t)ranks * (uint64_t)per, full = p.blocks / round, left = p.blocks % round;
    uint64_t first = (uint64_t)rank * (uint64_t)per;  /* of the last, partial round */
    p.owned = full * (uint64_t)per + (left > first ? (left - first < (uint64_t)per ? left - first : (uint64_t)per) : 0);
    return p;
}

/* The words of the packed boxes for every rank, lengths included. */
static uint64_t pack_words(const tb_exchange *x)
{
    return (uint64_t)x->owners * (x->out[0].cap * (uint64_t)x->all_owners + (uint64_t)x->ranks->size);
}

tb_exchange *tb_exchange_new(int owners, const tb_ranks *ranks, int shift, uint64_t n, uint64_t batch)
{
    int all = owners * (ranks ? ranks->size : 1);
    if (owners < 1 || all > TB_MAX_OWNERS || shift < 6 || shift > 40 || (n >> shift) >= (uint64_t)1 << 32)
        return NULL;
    tb_exchange *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->owners = owners;
    x->all_owners = all;
    x->ranks = ranks;
    uint64_t total = n / ROUND_SHARE < ROUND_MAX ? n / ROUND_SHARE : ROUND_MAX;
    uint64_t sender = total / (uint64_t)all > SENDER_MIN ? total / (uint64_t)all : SENDER_MIN;
    uint64_t cap = sender / (uint64_t)all;
    if (cap < 2 * batch)
        cap = 2 * batch;
    for (int o = 0; o < owners; o++) {
        x->out[o].owners = all;
        x->out[o].shift = shift;
        x->out[o].mod = UINT64_MAX / (uint64_t)all + 1;
        x->out[o].cap = cap;
        x->out[o].box = util_alloc_big(cap * (uint64_t)all * sizeof(uint64_t));
        if (!x->out[o].box) {
            tb_exchange_free(x);
            return NULL;
        }
    }
    if (ranks) {
        x->pack = util_alloc_big(pack_words(x) * sizeof(uint64_t));
        x->at = calloc((size_t)ranks->size + 1, sizeof *x->at);
        x->from = calloc((size_t)ranks->size + 1, sizeof *x->from);
        if (!x->pack || !x->at || !x->from) {
            tb_exchange_free(x);
            return NULL;
        }
    }
    return x;
}

void tb_exchange_free(tb_exchange *x)
{
    if (!x)
        return;
    if (x->ranks)
        util_free_big(x->pack, pack_words(x) * sizeof(uint64_t));
    for (int o = 0; o < x->owners; o++)
        util_free_big(x->out[o].box, x->out[o].cap * (uint64_t)x->all_owners * sizeof(uint64_t));
    free(x->at);
    free(x->from);
    free(x->recv);
    free(x);
}

/* Sender o's part of a round's sending. */
static void send_one(tb_exchange *x, int o)
{
    tb_outbox *out = &x->out[o];
    for (int d = 0; d < x->all_owners; d++)
        out->len[d] = 0;
    out->most = 0;
    if (!x->done[o])
        x->done[o] = (uint8_t)x->send(x->ctx, o, out);
}

/* Local owner d's part of a round's applying: every sender's box for d,
 * here and (across ranks) on every other rank. */
static void apply_one(tb_exchange *x, int d)
{
    int me = x->ranks ? x->ranks->rank : 0, global = me * x->owners + d;
    for (int s = 0; s < x->owners; s++)
        if (x->out[s].len[global])
            x->apply(x->ctx, d, x->out[s].box + (uint64_t)global * x->out[s].cap, x->out[s].len[global]);
    if (!x->ranks || x->failed)
        return;
    for (int p = 0; p < x->ranks->size; p++) {
        if (p == me || x->from[p + 1] == x->from[p])
            continue;
        const uint64_t *in = x->recv + x->from[p], *upd = in + x->owners;
        for (int e = 0; e < d; e++)
            upd += in[e];
        if (in[d])
            x->apply(x->ctx, d, upd, in[d]);
    }
}

/* Across ranks, between a round's sending and applying: the boxes for each
 * other rank's owners packed and exchanged, and whether every sender of
 * every rank is done. */
static void cross_ranks(tb_exchange *x)
{
    const tb_ranks *r = x->ranks;
    uint64_t w = 0;
    for (int p = 0; p < r->size; p++) {
        x->at[p] = w;
        if (p == r->rank)
            continue;
        uint64_t *len = x->pack + w;
        w += (uint64_t)x->owners;
        for (int e = 0; e < x->owners; e++) {
            int d = p * x->owners + e;
            len[e] = 0;
            for (int s = 0; s < x->owners; s++) {
                memcpy(x->pack + w, x->out[s].box + (uint64_t)d * x->out[s].cap, x->out[s].len[d] * sizeof(uint64_t));
                w += x->out[s].len[d];
                len[e] += x->out[s].len[d];
            }
        }
    }
    x->at[r->size] = w;
    uint64_t all = 1;
    for (int o = 0; o < x->owners; o++)
        all &= x->done[o];
    if (x->failed || r->alltoall(r->ctx, x->pack, x->at, &x->recv, &x->recv_cap, x->from) != 0 ||
        r->allreduce(r->ctx, &all, 1, TB_MIN) != 0)
        x->failed = 1, all = 1;
    x->all_done = (int)all;
}

/* A member of the team plays owners member, member + size, ... through
 * every round of the pass; the rounds' two halves meet at barriers, so a
 * round costs two waits, not two thread starts. */
static void owner_rounds(void *arg, util_team *t, int member)
{
    tb_exchange *x = arg;
    int size = util_team_size(t);
    for (;;) {
        for (int o = member; o < x->owners; o += size)
            send_one(x, o);
        util_team_sync(t);
        int all = 1;
        if (x->ranks) {
            if (member == 0)
                cross_ranks(x);
            util_team_sync(t);
            all = x->all_done;
        } else {
            /* done[] stays still until the next round's sending, after the
             * second wait: every member reads the same verdict. */
            for (int o = 0; o < x->owners; o++)
                all &= x->done[o];
        }
        for (int d = member; d < x->owners; d += size)
            apply_one(x, d);
        util_team_sync(t);
        if (all)
            return;
    }
}

int tb_exchange_pass(tb_exchange *x, int (*send)(void *ctx, int owner, tb_outbox *out),
                     void (*apply)(void *ctx, int owner, const uint64_t *upd, uint64_t n), void *ctx)
{
    x->send = send;
    x->apply = apply;
    x->ctx = ctx;
    x->failed = 0;
    for (int o = 0; o < x->owners; o++)
        x->done[o] = 0;
    util_team_run(x->owners, owner_rounds, x);
    return x->failed ? -1 : 0;
}
