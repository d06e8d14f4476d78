/* games/sindex.c - the sparse state index in memory: counted from the
 * game's rules, on every core.  tablebase/sindex.c keeps them in files. */
#include "game.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

uint64_t game_sindex_position(const game_sindex *ix, uint64_t state, uint64_t *first)
{
    uint64_t h = state >> GAME_SINDEX_HINT_SHIFT;
    uint64_t lo = ix->hint[h], hi = h + 1 < ix->hints ? (uint64_t)ix->hint[h + 1] + 1 : ix->lines;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        game_sindex_use(ix, mid);
        if (ix->line[mid].base <= state)
            lo = mid;
        else
            hi = mid;
    }
    game_sindex_use(ix, lo);
    uint64_t p = lo * GAME_SINDEX_LINE, at = ix->line[lo].base;
    while (at + game_sindex_count(ix, p) <= state)
        at += game_sindex_count(ix, p++);
    *first = at;
    return p;
}

typedef struct {
    const game *g;
    int mat;
    game_sindex_line *line;
} count_job;

static void count_states(void *arg, uint64_t lo, uint64_t hi)
{
    count_job *j = arg;
    for (uint64_t p = lo; p < hi; p++)
        j->line[p / GAME_SINDEX_LINE].count[p % GAME_SINDEX_LINE] =
            (uint8_t)j->g->ops->tb->position_states(j->g, j->mat, p);
}

static void drop_made(game_sindex *ix)
{
    free((void *)ix->line);
    free((void *)ix->hint);
    free(ix);
}

game_sindex *game_sindex_make(const game *g, int mat)
{
    game_sindex *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    ix->positions = g->ops->tb->positions(g, mat);
    ix->lines = ix->positions / GAME_SINDEX_LINE + 1;
    size_t lines = ix->lines * sizeof(game_sindex_line);
    game_sindex_line *line = aligned_alloc(sizeof(game_sindex_line), lines);
    if (!line) {
        free(ix);
        return NULL;
    }
    memset(line, 0, lines);
    /* Every process that opens a large table without its index file pays
     * this pass (45 s for the 5x5 (4,4) table on one core): every core. */
    count_job job = { g, mat, line };
    util_parallel(ix->positions < 100000 ? 1 : 0, ix->positions, 0, count_states, &job);
    uint64_t total = 0;
    for (uint64_t k = 0; k < ix->lines; k++) {
        line[k].base = total;
        total += game_sindex_sum(line[k].count, GAME_SINDEX_LINE);
    }
    ix->states = total;
    ix->hints = (total >> GAME_SINDEX_HINT_SHIFT) + 1;
    uint32_t *hint = malloc(ix->hints * sizeof *hint);
    if (!hint) {
        free(line);
        free(ix);
        return NULL;
    }
    uint64_t h = 0;
    for (uint64_t k = 0; k < ix->lines; k++) {
        uint64_t next = k + 1 < ix->lines ? line[k + 1].base : total;
        while (h < ix->hints && (h << GAME_SINDEX_HINT_SHIFT) < next)
            hint[h++] = (uint32_t)k;
    }
    while (h < ix->hints)
        hint[h++] = (uint32_t)(ix->lines - 1);
    ix->line = line;
    ix->hint = hint;
    ix->drop = drop_made;
    return ix;
}
