/* util/sindex.c - the sparse index of counts, made in memory on every core. */
#include "util.h"

#include <stdlib.h>
#include <string.h>

uint64_t util_sindex_position(const util_sindex *ix, uint64_t m, uint64_t *first)
{
    uint64_t h = m >> UTIL_SINDEX_HINT_SHIFT;
    uint64_t lo = ix->hint[h], hi = h + 1 < ix->hints ? (uint64_t)ix->hint[h + 1] + 1 : ix->lines;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        util_sindex_use(ix, mid);
        if (ix->line[mid].base <= m)
            lo = mid;
        else
            hi = mid;
    }
    util_sindex_use(ix, lo);
    uint64_t p = lo * UTIL_SINDEX_LINE, at = ix->line[lo].base;
    while (at + util_sindex_count(ix, p) <= m)
        at += util_sindex_count(ix, p++);
    *first = at;
    return p;
}

void util_sindex_stamp(util_sindex *ix)
{
    static uint64_t made;
    ix->serial = __atomic_add_fetch(&made, 1, __ATOMIC_RELAXED);
}

typedef struct {
    int (*count)(void *ctx, uint64_t p);
    void *ctx;
    util_sindex_line *line;
} count_job;

static void count_range(void *arg, uint64_t lo, uint64_t hi)
{
    count_job *j = arg;
    for (uint64_t p = lo; p < hi; p++)
        j->line[p / UTIL_SINDEX_LINE].count[p % UTIL_SINDEX_LINE] = (uint8_t)j->count(j->ctx, p);
}

static void drop_made(util_sindex *ix)
{
    free((void *)ix->line);
    free((void *)ix->hint);
    free(ix);
}

void util_sindex_hints(const util_sindex_line *line, uint64_t lines, uint64_t states, uint32_t *hint, uint64_t hints)
{
    uint64_t h = 0;
    for (uint64_t k = 0; k < lines; k++) {
        uint64_t next = k + 1 < lines ? line[k + 1].base : states;
        while (h < hints && (h << UTIL_SINDEX_HINT_SHIFT) < next)
            hint[h++] = (uint32_t)k;
    }
    while (h < hints)
        hint[h++] = (uint32_t)(lines - 1);
}

util_sindex *util_sindex_make(uint64_t n, int (*count)(void *ctx, uint64_t p), void *ctx)
{
    util_sindex *ix = calloc(1, sizeof *ix);
    if (!ix)
        return NULL;
    ix->positions = n;
    ix->lines = n / UTIL_SINDEX_LINE + 1;
    size_t lines = ix->lines * sizeof(util_sindex_line);
    util_sindex_line *line = aligned_alloc(sizeof(util_sindex_line), lines);
    if (!line) {
        free(ix);
        return NULL;
    }
    memset(line, 0, lines);
    /* Every user that has no saved copy of the index pays this pass (45 s
     * for 1.6e8 items on one core): every core. */
    count_job job = { count, ctx, line };
    util_parallel(n < 100000 ? 1 : 0, n, 0, count_range, &job);
    uint64_t total = 0;
    for (uint64_t k = 0; k < ix->lines; k++) {
        line[k].base = total;
        total += util_sindex_sum(line[k].count, UTIL_SINDEX_LINE);
    }
    ix->states = total;
    ix->hints = (total >> UTIL_SINDEX_HINT_SHIFT) + 1;
    uint32_t *hint = malloc(ix->hints * sizeof *hint);
    if (!hint) {
        free(line);
        free(ix);
        return NULL;
    }
    util_sindex_hints(line, ix->lines, total, hint, ix->hints);
    ix->line = line;
    ix->hint = hint;
    ix->drop = drop_made;
    util_sindex_stamp(ix);
    return ix;
}
