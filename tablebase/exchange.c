/* tablebase/exchange.c - the rounds of a pass between owners, in one
 * process: a team of threads plays the owners, each round's sending and
 * applying ended by a barrier. */
#include "exchange.h"
#include "tb_internal.h"
#include "../util/util.h"

#include <stdlib.h>

struct tb_exchange {
    int owners;
    tb_outbox out[TB_MAX_OWNERS];
    uint8_t done[TB_MAX_OWNERS];
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

tb_exchange *tb_exchange_new(int owners, int shift, uint64_t n, uint64_t batch)
{
    if (owners < 1 || owners > TB_MAX_OWNERS || shift < 6 || shift > 40 || (n >> shift) >= (uint64_t)1 << 32)
        return NULL;
    tb_exchange *x = calloc(1, sizeof *x);
    if (!x)
        return NULL;
    x->owners = owners;
    uint64_t total = n / ROUND_SHARE < ROUND_MAX ? n / ROUND_SHARE : ROUND_MAX;
    uint64_t sender = total / (uint64_t)owners > SENDER_MIN ? total / (uint64_t)owners : SENDER_MIN;
    uint64_t cap = sender / (uint64_t)owners;
    if (cap < 2 * batch)
        cap = 2 * batch;
    for (int o = 0; o < owners; o++) {
        x->out[o].owners = owners;
        x->out[o].shift = shift;
        x->out[o].mod = UINT64_MAX / (uint64_t)owners + 1;
        x->out[o].cap = cap;
        x->out[o].box = util_alloc_big(cap * (uint64_t)owners * sizeof(uint64_t));
        if (!x->out[o].box) {
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
    for (int o = 0; o < x->owners; o++)
        util_free_big(x->out[o].box, x->out[o].cap * (uint64_t)x->owners * sizeof(uint64_t));
    free(x);
}

/* Sender o's part of a round's sending. */
static void send_one(tb_exchange *x, int o)
{
    tb_outbox *out = &x->out[o];
    for (int d = 0; d < x->owners; d++)
        out->len[d] = 0;
    out->most = 0;
    if (!x->done[o])
        x->done[o] = (uint8_t)x->send(x->ctx, o, out);
}

/* Owner d's part of a round's applying: every sender's box for d. */
static void apply_one(tb_exchange *x, int d)
{
    for (int s = 0; s < x->owners; s++)
        if (x->out[s].len[d])
            x->apply(x->ctx, d, x->out[s].box + (uint64_t)d * x->out[s].cap, x->out[s].len[d]);
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
        /* done[] stays still until the next round's sending, after the
         * second wait: every member reads the same verdict. */
        int all = 1;
        for (int o = 0; o < x->owners; o++)
            all &= x->done[o];
        for (int d = member; d < x->owners; d += size)
            apply_one(x, d);
        util_team_sync(t);
        if (all)
            return;
    }
}

void tb_exchange_pass(tb_exchange *x, int (*send)(void *ctx, int owner, tb_outbox *out),
                      void (*apply)(void *ctx, int owner, const uint64_t *upd, uint64_t n), void *ctx)
{
    x->send = send;
    x->apply = apply;
    x->ctx = ctx;
    for (int o = 0; o < x->owners; o++)
        x->done[o] = 0;
    util_team_run(x->owners, owner_rounds, x);
}
