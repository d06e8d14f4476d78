/* tblayers/sweep.c - the states reachable from the start of a game whose
 * every move but a pass adds a piece (game_layer_ops), found forward a
 * layer at a time and kept as compact sets of ranks (Othello 5x5: 1.8e9
 * states in 1.1 GB), which layers.c then scores.
 *
 * The next layer is a bitmap over its ranks, filled from every state of
 * the current layer in as many passes (segments of ranks) as the memory
 * given needs; each segment's pass states (no move, the opponent has one)
 * bring their partner, the same board with the other side to move, which
 * is the rank beside them; then the segment becomes an Elias-Fano set
 * (util_efset: about 2 + log2(ranks / states) bits a state).  A finished
 * layer is saved (tbfile/sweep_file.c) and a later run resumes after the
 * last one saved.
 */
#include "tblayers.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef tb_sweep_set sweep_layer;  /* a layer (tbfile.h) */
typedef struct {
    const game *g;
    const util_efset *from;      /* a segment of the current layer */
    uint64_t from_base;
    int from_empties, empties;   /* of the current layer and of the next */
    uint64_t *bits, lo, hi;      /* the next layer's ranks [lo, hi) */
    volatile int *stop;
    tb_sweep_layer st;           /* counted by the scan */
} sweep_job;

/* Marks the children of the states whose unary bits lie in words [first, end) of from. */
static void fill_range(void *ctx, uint64_t first, uint64_t end)
{
    sweep_job *j = ctx;
    if (j->stop && *j->stop)
        return;
    const game *g = j->g;
    util_efset_walk w;
    util_efset_walk_start(&w, j->from, first, end);
    uint64_t v, i;
    while (util_efset_walk_next(&w, &v, &i)) {
        game_state s, c;
        game_layer_unrank(g, j->from_empties, j->from_base + v, &s);
        game_move mv[GAME_MAX_MOVES];
        int nm = game_moves(g, &s, mv), images;
        for (int k = 0; k < nm; k++) {
            if (tb_move_passes(g, &s, mv[k], &c))
                break;  /* a pass is a state's only move */
            uint64_t r = game_layer_rank(g, &c, &images);
            if (r < j->lo || r >= j->hi)
                continue;
            r -= j->lo;
            uint64_t bit = 1ULL << (r % 64), *word = &j->bits[r / 64];
            if (!(__atomic_load_n(word, __ATOMIC_RELAXED) & bit))
                __atomic_fetch_or(word, bit, __ATOMIC_RELAXED);
        }
    }
}

/* Counts the states of words [first, end) of the next layer's bitmap and
 * adds each pass state's partner (the rank beside it, in the same word). */
static void scan_range(void *ctx, uint64_t first, uint64_t end)
{
    sweep_job *j = ctx;
    const game *g = j->g;
    tb_sweep_layer st = { 0 };
    for (uint64_t w = first; w < end; w++) {
        uint64_t had = j->bits[w], add = 0;
        for (uint64_t b = had; b; b &= b - 1) {
            int at = __builtin_ctzll(b), images;
            game_state s, c;
            game_layer_unrank(g, j->empties, j->lo + w * 64 + (uint64_t)at, &s);
            game_layer_rank(g, &s, &images);
            game_move mv[GAME_MAX_MOVES];
            int nm = game_moves(g, &s, mv);
            if (nm == 0) {
                st.finished += (uint64_t)images;
            } else if (nm == 1 && tb_move_passes(g, &s, mv[0], &c)) {
                st.passing += (uint64_t)images;
                if (!(had >> (at ^ 1) & 1)) {  /* the partner moves: a pass leaves the opponent a move */
                    add |= 1ULL << (at ^ 1);
                    st.moving += (uint64_t)images;
                }
            } else {
                st.moving += (uint64_t)images;
            }
        }
        j->bits[w] = had | add;
        st.ranks += (uint64_t)__builtin_popcountll(had | add);
    }
    __atomic_fetch_add(&j->st.ranks, st.ranks, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.moving, st.moving, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.passing, st.passing, __ATOMIC_RELAXED);
    __atomic_fetch_add(&j->st.finished, st.finished, __ATOMIC_RELAXED);
}

/* The layer of e empties into next: from every state of layer from, or
 * (from NULL) holding the start alone.  0, 1 when stopped, or -1 with err. */
static int build_layer(const game *g, const tb_sweep_options *o, const sweep_layer *from, int empties,
                       sweep_layer *next, char *err, size_t errlen)
{
    uint64_t size = game_layer_size(g, empties), words = (size + 63) / 64;
    uint64_t cap = o->memory / 8 ? o->memory / 8 : 1, span_words = words < cap ? words : cap;
    memset(next, 0, sizeof *next);
    memcpy(next->h.magic, TB_SWEEP_MAGIC, 8);
    snprintf(next->h.game, sizeof next->h.game, "%s", g->name);
    next->h.empties = empties;
    next->h.span = span_words * 64;
    next->h.segments = (int)((words + span_words - 1) / span_words);
    next->h.st.empties = empties;
    uint64_t *bits = util_alloc_big(span_words * 8);
    next->seg = calloc((size_t)next->h.segments, sizeof *next->seg);
    if (!bits || !next->seg) {
        util_free_big(bits, span_words * 8);
        free(next->seg);
        next->seg = NULL;
        return util_error(err, errlen, "out of memory (a bitmap of %llu MB)",
                          (unsigned long long)(span_words * 8 >> 20));
    }
    int rc = 0;
    for (int k = 0; k < next->h.segments && rc == 0; k++) {
        sweep_job j = { .g = g, .empties = empties, .bits = bits, .stop = o->stop };
        j.lo = (uint64_t)k * next->h.span;
        j.hi = size - j.lo < next->h.span ? size : j.lo + next->h.span;
        if (k)
            memset(bits, 0, span_words * 8);
        if (!from) {
            game_state s;
            int images;
            game_start(g, &s);
            uint64_t r = game_layer_rank(g, &s, &images);
            if (r >= j.lo && r < j.hi)
                bits[(r - j.lo) / 64] |= 1ULL << ((r - j.lo) % 64);
        }
        for (int f = 0; from && f < from->h.segments; f++) {
            j.from = &from->seg[f];
            j.from_base = (uint64_t)f * from->h.span;
            j.from_empties = from->h.empties;
            util_parallel(o->threads, j.from->high_words, 1024, fill_range, &j);
        }
        if (o->stop && *o->stop) {
            rc = 1;
            break;
        }
        util_parallel(o->threads, (j.hi - j.lo + 63) / 64, 4096, scan_range, &j);
        if (util_efset_init(&next->seg[k], j.st.ranks, j.hi - j.lo) != 0) {
            rc = util_error(err, errlen, "out of memory (a set of %llu states)", (unsigned long long)j.st.ranks);
            break;
        }
        uint64_t i = 0;
        for (uint64_t w = 0; w < (j.hi - j.lo + 63) / 64; w++)
            for (uint64_t b = bits[w]; b; b &= b - 1)
                util_efset_put(&next->seg[k], i++, w * 64 + (uint64_t)__builtin_ctzll(b));
        if (util_efset_seal(&next->seg[k]) != 0) {
            rc = util_error(err, errlen, "out of memory (a set of %llu states)", (unsigned long long)j.st.ranks);
            break;
        }
        next->h.st.ranks += j.st.ranks;
        next->h.st.moving += j.st.moving;
        next->h.st.passing += j.st.passing;
        next->h.st.finished += j.st.finished;
    }
    next->h.st.states = next->h.st.moving + next->h.st.passing + next->h.st.finished;
    util_free_big(bits, span_words * 8);
    if (rc == 0 && tb_sweep_index(next) != 0)
        rc = util_error(err, errlen, "out of memory");
    if (rc)
        tb_sweep_free(next);
    return rc;
}

static void log_layer(const game *g, const tb_sweep_options *o, const tb_sweep_layer *st, const char *how,
                      double seconds)
{
    if (o->log)
        fprintf(o->log, "%s: %2d empty: %llu states (%llu up to symmetry): %llu moving, %llu passing, "
                        "%llu finished; %s in %.1f s\n", g->name, st->empties, (unsigned long long)st->states,
                (unsigned long long)st->ranks, (unsigned long long)st->moving, (unsigned long long)st->passing,
                (unsigned long long)st->finished, how, seconds);
}

int tb_sweep(const game *g, const char *dir, const tb_sweep_options *o, tb_sweep_layer *out, int cap, int *layers,
             char *err, size_t errlen)
{
    *layers = 0;
    if (!game_has_layers(g))
        return util_error(err, errlen, "%s has no layer ranks (games whose every move adds a piece, up to 40 squares)",
                          g->name);
    game_state s;
    game_start(g, &s);
    int e = game_empties(g, &s), rc = 0;
    sweep_layer cur = { 0 }, next;
    const sweep_layer *from = NULL;
    for (;; e--) {
        double t0 = util_clock();
        int got = tb_sweep_load(g, dir, e, &next, err, errlen);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got == 0) {
            if ((rc = build_layer(g, o, from, e, &next, err, errlen)) != 0)
                break;
            if (tb_sweep_save(g, dir, &next, err, errlen) != 0) {
                tb_sweep_free(&next);
                rc = -1;
                break;
            }
        }
        log_layer(g, o, &next.h.st, got ? "read" : "found", util_clock() - t0);
        uint64_t bytes = tb_sweep_bytes(&next) + (from ? tb_sweep_bytes(from) : 0);
        if (o->max_sets && bytes > o->max_sets) {
            util_error(err, errlen, "%s: the layers of %d and %d empty squares take %.2f GB, past the %.2f GB "
                       "allowed", g->name, e + 1, e, bytes / 1e9, o->max_sets / 1e9);
            tb_sweep_free(&next);
            rc = -1;
            break;
        }
        if (*layers < cap)
            out[*layers] = next.h.st;
        ++*layers;
        tb_sweep_free(&cur);
        cur = next;
        from = &cur;
        if (e == 0 || cur.h.st.moving == 0)
            break;
    }
    tb_sweep_free(&cur);
    return rc;
}
