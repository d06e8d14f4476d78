/* ranking/ostle_rank.c - the combinatorial index of Ostle positions.
 *
 * A position is the hole square, the set of the side to move's pieces and
 * the set of the other side's pieces (no colour: values are for the side to
 * move).  index = (class * C(N, m) + r1) * C(N - m, o) + r2 with N the
 * squares other than the hole, class the hole's orbit under the board's
 * symmetries (6 on 5x5: the paper's six hole squares), r1 the colex rank of
 * the mover's set among the N squares, r2 that of the other's set among the
 * N - m squares left.  Positions are mapped so that the hole is on its
 * orbit's least square; when that leaves a choice of symmetries (the hole on
 * an axis), the least index wins, and the other placements are twins. */
#include "ranking.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static uint64_t binom[26][26];

static void binom_fill(void)
{
    for (int n = 0; n < 26; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            binom[n][k] = binom[n - 1][k - 1] + (k < n ? binom[n - 1][k] : 0);
    }
}

static uint64_t choose(int n, int k) { return k < 0 || k > n ? 0 : binom[n][k]; }

int rank_ostle_init(rank_ostle *r, int w, int h)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, binom_fill);
    if (w < 3 || w > 5 || h < 3 || h > 5)
        return -1;
    memset(r, 0, sizeof *r);
    r->w = w;
    r->h = h;
    r->cells = w * h;
    r->nsym = w == h ? 8 : 4;
    for (int k = 0; k < r->nsym; k++)
        for (int sq = 0; sq < r->cells; sq++) {
            int row = sq / w, col = sq % w;
            if (k & 1) col = w - 1 - col;
            if (k & 2) row = h - 1 - row;
            r->map[k][sq] = (uint8_t)(k & 4 ? col * w + row : row * w + col);
        }
    for (int k = 0; k < r->nsym; k++)
        for (int b = 0; b < 4; b++)
            for (unsigned x = 0; x < 256; x++) {
                uint32_t out = 0;
                for (int i = 0; i < 8; i++)
                    if ((x >> i & 1) && 8 * b + i < r->cells)
                        out |= 1u << r->map[k][8 * b + i];
                r->image[k][b][x] = out;
            }
    memset(r->cls, -1, sizeof r->cls);
    for (int sq = 0; sq < r->cells; sq++) {
        if (r->cls[sq] >= 0)
            continue;  /* the least square of each orbit comes first */
        for (int k = 0; k < r->nsym; k++)
            r->cls[r->map[k][sq]] = (int8_t)r->nclass;
        r->rep[r->nclass++] = (uint8_t)sq;
    }
    return 0;
}

uint64_t rank_ostle_size(const rank_ostle *r, int mover, int other)
{
    int n = r->cells - 1;
    return (uint64_t)r->nclass * choose(n, mover) * choose(n - mover, other);
}

/* Colex rank of the set's squares, counted among the squares of allowed. */
static uint64_t colex(uint32_t set, uint32_t allowed)
{
    uint64_t rank = 0;
    int j = 1;
    for (; set; set &= set - 1, j++) {
        uint32_t below = allowed & ((set & (0u - set)) - 1);
        rank += choose(__builtin_popcount(below), j);
    }
    return rank;
}

/* The k-element set of colex rank rank, as squares of allowed. */
static uint32_t uncolex(uint64_t rank, int k, uint32_t allowed)
{
    int pos[32], np = 0;
    for (uint32_t a = allowed; a; a &= a - 1)
        pos[np++] = __builtin_ctz(a);
    uint32_t set = 0;
    int top = np - 1;
    for (int j = k; j >= 1; j--) {
        while (choose(top, j) > rank)
            top--;
        rank -= choose(top, j);
        set |= 1u << pos[top];
        top--;
    }
    return set;
}

/* The index orders by the mover's rank first, so the other side's set is
 * ranked only under the symmetries that tie on it (usually one). */
uint64_t rank_ostle_canonical(const rank_ostle *r, unsigned hole, uint32_t mover, uint32_t other, uint32_t c[3],
                              unsigned *syms)
{
    int cls = r->cls[hole], n = r->cells - 1;
    uint32_t free1 = ((1u << r->cells) - 1) & ~(1u << r->rep[cls]), image[8];
    uint64_t best1 = UINT64_MAX, best2 = UINT64_MAX;
    unsigned tied = 0;
    for (int k = 0; k < r->nsym; k++) {
        if (r->map[k][hole] != r->rep[cls])
            continue;
        image[k] = rank_ostle_image(r, k, mover);
        uint64_t r1 = colex(image[k], free1);
        if (r1 < best1) {
            best1 = r1;
            tied = 0;
        }
        if (r1 == best1)
            tied |= 1u << k;
    }
    for (; tied; tied &= tied - 1) {
        int k = __builtin_ctz(tied);
        uint32_t o = rank_ostle_image(r, k, other);
        uint64_t r2 = colex(o, free1 & ~image[k]);
        if (r2 < best2) {
            best2 = r2;
            c[1] = image[k];
            c[2] = o;
            *syms = 0;
        }
        if (r2 == best2)
            *syms |= 1u << k;
    }
    c[0] = r->rep[cls];
    int m = __builtin_popcount(mover), o = __builtin_popcount(other);
    return ((uint64_t)cls * choose(n, m) + best1) * choose(n - m, o) + best2;
}

uint64_t rank_ostle_index(const rank_ostle *r, unsigned hole, uint32_t mover, uint32_t other)
{
    uint32_t c[3];
    unsigned syms;
    return rank_ostle_canonical(r, hole, mover, other, c, &syms);
}

void rank_ostle_unindex(const rank_ostle *r, int mover, int other, uint64_t index, unsigned *hole, uint32_t *mover_set,
                        uint32_t *other_set)
{
    int n = r->cells - 1;
    uint64_t c2 = choose(n - mover, other), c1 = choose(n, mover);
    uint64_t r2 = index % c2, t = index / c2, r1 = t % c1;
    int cls = (int)(t / c1);
    uint32_t all = (1u << r->cells) - 1, free1 = all & ~(1u << r->rep[cls]);
    *hole = r->rep[cls];
    *mover_set = uncolex(r1, mover, free1);
    *other_set = uncolex(r2, other, free1 & ~*mover_set);
}
