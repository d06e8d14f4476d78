/* tbbuild/census.c - a material's states counted by the game's census
 * classes (game_tb_ops.census) on every core: the reconciliation of a
 * table's size with a published count. */
#include "tbbuild.h"
#include "../util/util.h"

#include <string.h>

typedef struct {
    const game *g;
    int mat;
    volatile int *stop;
    int stopped;
    uint64_t counts[GAME_CENSUS_MAX];
} census_run;

static void census_range(void *ctx, uint64_t first, uint64_t end)
{
    census_run *c = ctx;
    if (c->stop && *c->stop) {
        __atomic_store_n(&c->stopped, 1, __ATOMIC_RELAXED);
        return;
    }
    uint64_t n[GAME_CENSUS_MAX] = { 0 };
    game_tb_build(game_tables(c->g))->census(c->g, c->mat, first, end, n);
    for (int k = 0; k < GAME_CENSUS_MAX; k++)
        __atomic_add_fetch(&c->counts[k], n[k], __ATOMIC_RELAXED);
}

int tb_census(const game *g, int mat, int threads, volatile int *stop, uint64_t counts[GAME_CENSUS_MAX])
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops || !game_tb_build(ops)->census)
        return -1;
    census_run c = { .g = g, .mat = mat, .stop = stop };
    /* pieces of a million positions: small enough to stop soon, large
     * enough that the fan-out costs nothing */
    util_parallel(threads, ops->positions(g, mat), 1 << 20, census_range, &c);
    memcpy(counts, c.counts, sizeof c.counts);
    return c.stopped;
}
