/* tbreach/reach.c - which states of the tables occur in games from a
 * start: breadth first over one bit per index of every material the start
 * leads to (the Ostle paper's Algorithm 9, with the forbidden move of each
 * state as the game's play() sets it).
 *
 * Three bitmaps per material: seen, this level's states, the next level's.
 * A level is expanded in segments of index ranges, each on every core; a
 * checkpoint (the bitmaps, the counts and the next segment) can be written
 * between segments, because a segment either has been expanded whole or
 * not at all, and expanding one again would change nothing.
 */
#include "tbreach.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SEGMENT_WORDS ((uint64_t)1 << 20)  /* 2^26 indices between chances to stop */
#define CHUNK_WORDS ((uint64_t)1 << 10)
#define REACH_MAGIC "PNSREACH"
#define REACH_VERSION 1

typedef struct {
    int mat;
    uint64_t size, words;
    uint64_t *seen, *cur, *next;
} reach_table;

typedef struct {
    const game *g;
    const game_tb_ops *ops;
    const game_tb_build_ops *fast;  /* game_tb_build(ops) */
    const game_tb_index *ix;  /* the state indices of every table it reaches */
    int n;
    reach_table t[TB_REACH_MATERIALS];
    int at;          /* the material being expanded */
    uint64_t base;   /* the segment's first word */
    uint64_t found, expanded;  /* this level so far */
    int lost_mat;    /* a child whose material has no bitmap (-1: none) */
} reach_run;

static int slot_of(const reach_run *r, int mat)
{
    for (int k = 0; k < r->n; k++)
        if (r->t[k].mat == mat)
            return k;
    return -1;
}

/* Marks index i of table t seen and in the next level, unless it was seen:
 * 1 if this call marked it. */
static int mark(reach_table *t, uint64_t i)
{
    uint64_t *w = &t->seen[i >> 6], bit = 1ULL << (i & 63);
    if (__atomic_load_n(w, __ATOMIC_RELAXED) & bit)
        return 0;  /* most children have been seen: a plain read, no locked write */
    /* the next level's bit first: whoever finds the state seen (acquire)
     * finds it in the next level too, never takes it for one expanded */
    __atomic_fetch_or(&t->next[i >> 6], bit, __ATOMIC_RELAXED);
    return !(__atomic_fetch_or(w, bit, __ATOMIC_RELEASE) & bit);
}

static int bit_of(const uint64_t *b, uint64_t i) { return (int)((b[i >> 6] >> (i & 63)) & 1); }

/* Whether state i of t was expanded in an earlier level: seen, and neither
 * in this level nor found during it. */
static int expanded_before(const reach_table *t, uint64_t i)
{
    return (__atomic_load_n(&t->seen[i >> 6], __ATOMIC_ACQUIRE) >> (i & 63) & 1) && !bit_of(t->cur, i) &&
           !(__atomic_load_n(&t->next[i >> 6], __ATOMIC_RELAXED) >> (i & 63) & 1);
}

/* Marks the children of s that have tables, but for the moves `known` also
 * has (whose children are seen): how many it marked first. */
static uint64_t expand_state(reach_run *r, const game_state *s, const game_state *known)
{
    const game *g = r->g;
    game_move mv[GAME_MAX_MOVES], old[GAME_MAX_MOVES];
    game_state kid[GAME_MAX_MOVES];
    uint64_t ix[GAME_MAX_MOVES], found = 0;
    int slot[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), n_old = known ? game_moves(g, known, old) : 0, k = 0;
    for (int j = 0; j < n; j++) {
        int had = 0;
        for (int q = 0; q < n_old && !had; q++)
            had = old[q] == mv[j];
        if (had)
            continue;
        kid[k] = *s;
        game_play(g, &kid[k], mv[j]);
        if (game_result_of(g, &kid[k]) != GAME_ONGOING)
            continue;  /* the game is over: no state of a table */
        int mat = r->ops->material_of(g, &kid[k]);
        slot[k] = slot_of(r, mat);
        if (slot[k] < 0) {
            __atomic_store_n(&r->lost_mat, mat, __ATOMIC_RELAXED);
            continue;
        }
        k++;
    }
    if (r->fast->index_many)
        r->fast->index_many(g, r->ix, kid, k, ix);
    else
        for (int j = 0; j < k; j++)
            ix[j] = r->ops->index(g, r->ix, &kid[j]);
    for (int j = 0; j < k; j++)
        __builtin_prefetch(&r->t[slot[j]].seen[ix[j] >> 6]);
    for (int j = 0; j < k; j++)
        found += (uint64_t)mark(&r->t[slot[j]], ix[j]);
    return found;
}

/* Expands state i of the level, or the group of states of its position
 * from i on [*covered is then the group's end]: a state of a position has
 * the moves of the position's first state but the one it forbids, so two of
 * them have every move between them.  Moves that a state of the position
 * expanded in an earlier level has are left out: their children are seen.
 * On 5x5 about half of a level's states share their position with another
 * of the level. */
static uint64_t expand_group(reach_run *r, const reach_table *t, uint64_t i, uint64_t *covered)
{
    const game *g = r->g;
    uint64_t first, end, at = i, before = 0, n_before = 0;
    r->fast->state_group(g, r->ix, t->mat, i, &first, &end);
    int several = i == first;
    for (uint64_t j = i + 1; j < end && !several; j++)
        several = bit_of(t->cur, j);
    if (several)
        at = first, *covered = end;
    for (uint64_t j = first; j < end && n_before < 2; j++)
        if (expanded_before(t, j))
            before = j, n_before++;
    if (n_before == 2 || (n_before == 1 && before == first))
        return 0;  /* every move of the position was expanded before */
    game_state s, known;
    r->ops->unindex(g, r->ix, t->mat, at, &s);
    if (n_before)
        r->ops->unindex(g, r->ix, t->mat, before, &known);
    return expand_state(r, &s, n_before ? &known : NULL);
}

static void expand_words(void *ctx, uint64_t first, uint64_t end)
{
    reach_run *r = ctx;
    reach_table *t = &r->t[r->at];
    uint64_t found = 0, expanded = 0, covered = 0;  /* indices below covered: expanded with their group */
    for (uint64_t w = r->base + first; w < r->base + end && w < t->words; w++)
        for (uint64_t bits = t->cur[w]; bits; bits &= bits - 1) {
            uint64_t i = w * 64 + (uint64_t)__builtin_ctzll(bits);
            expanded++;
            if (i < covered)
                continue;
            if (r->fast->state_group) {
                found += expand_group(r, t, i, &covered);
                continue;
            }
            game_state s;
            r->ops->unindex(r->g, r->ix, t->mat, i, &s);
            found += expand_state(r, &s, NULL);
        }
    __atomic_add_fetch(&r->found, found, __ATOMIC_RELAXED);
    __atomic_add_fetch(&r->expanded, expanded, __ATOMIC_RELAXED);
}

/* --- checkpoints ---------------------------------------------------------- */

typedef struct {
    char magic[8];
    uint32_t version, materials;
    char game[64];
    uint64_t start_lo, start_hi;
    uint64_t level, at_material, at_word, found, expanded;
    uint64_t checksum;     /* of everything after the header */
    double seconds;
    uint64_t reserved[6];
} reach_header;

/* What a checkpoint of r holds besides its header, piece by piece (every
 * piece a whole number of words, for the streamed checksum). */
static int pieces(const reach_run *r, tb_reach_result *res, uint64_t *mats, void **p, size_t *len)
{
    int n = 0;
    p[n] = res->at_level, len[n++] = sizeof res->at_level;
    p[n] = mats, len[n++] = 2 * sizeof(uint64_t) * (size_t)r->n;
    for (int k = 0; k < r->n; k++) {
        size_t b = r->t[k].words * sizeof(uint64_t);
        p[n] = r->t[k].seen, len[n++] = b;
        p[n] = r->t[k].cur, len[n++] = b;
        p[n] = r->t[k].next, len[n++] = b;
    }
    return n;
}

static void describe(const reach_run *r, const game_state *start, reach_header *h, uint64_t *mats)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, REACH_MAGIC, 8);
    h->version = REACH_VERSION;
    h->materials = (uint32_t)r->n;
    snprintf(h->game, sizeof h->game, "%.63s", r->g->name);
    game_key k = game_key_of(r->g, start);
    h->start_lo = k.lo;
    h->start_hi = k.hi;
    for (int i = 0; i < r->n; i++) {
        mats[2 * i] = (uint64_t)r->t[i].mat;
        mats[2 * i + 1] = r->t[i].size;
    }
}

static int save(const reach_run *r, const game_state *start, tb_reach_result *res, uint64_t level, uint64_t at_material,
                uint64_t at_word, double seconds, const char *path, char *err, size_t errlen)
{
    reach_header h;
    uint64_t mats[2 * TB_REACH_MATERIALS];
    void *p[2 + 3 * TB_REACH_MATERIALS];
    size_t len[2 + 3 * TB_REACH_MATERIALS];
    describe(r, start, &h, mats);
    h.level = level;
    h.at_material = at_material;
    h.at_word = at_word;
    h.found = r->found;
    h.expanded = r->expanded;
    h.seconds = seconds;
    int n = pieces(r, res, mats, p, len);
    util_file out;
    if (util_file_create(&out, path, "wb", err, errlen) != 0)
        return -1;
    /* the header goes first with its checksum still 0, then again at the end */
    uint64_t sum = TB_CHECKSUM_SEED;
    int ok = fwrite(&h, sizeof h, 1, out.f) == 1;
    for (int i = 0; ok && i < n; i++)
        ok = tb_stream_put(out.f, p[i], len[i], &sum) == 0;
    h.checksum = sum;
    ok = ok && fseek(out.f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, out.f) == 1;
    if (util_file_commit(&out, ok, err, errlen) != 0 || !ok)
        return util_error(err, errlen, "cannot write checkpoint '%s'", path);
    return 0;
}

/* Reads a checkpoint into r: 1 read, 0 there is none, -1 with err. */
static int load(reach_run *r, const game_state *start, tb_reach_result *res, reach_header *got, const char *path,
                char *err, size_t errlen)
{
    FILE *f = util_fopen_regular(path);
    if (!f)
        return errno == ENOENT ? 0 : util_error(err, errlen, "%s: %s", path, util_open_why(errno));
    reach_header want;
    uint64_t mats[2 * TB_REACH_MATERIALS], want_mats[2 * TB_REACH_MATERIALS];
    void *p[2 + 3 * TB_REACH_MATERIALS];
    size_t len[2 + 3 * TB_REACH_MATERIALS];
    describe(r, start, &want, want_mats);
    int ok = fread(got, sizeof *got, 1, f) == 1;
    if (!ok || memcmp(got->magic, REACH_MAGIC, 8) != 0 || got->version != REACH_VERSION) {
        fclose(f);
        return util_error(err, errlen, "'%s' is not a pnsolve reachability checkpoint", path);
    }
    if (strcmp(got->game, want.game) != 0 || got->start_lo != want.start_lo || got->start_hi != want.start_hi ||
        got->materials != want.materials) {
        fclose(f);
        return util_error(err, errlen, "checkpoint '%s' is for another game or start", path);
    }
    int n = pieces(r, res, mats, p, len);
    uint64_t sum = TB_CHECKSUM_SEED;
    for (int i = 0; ok && i < n; i++)
        ok = tb_stream_get(f, p[i], len[i], &sum) == 0;
    ok = ok && fgetc(f) == EOF;
    fclose(f);
    if (!ok)
        return util_error(err, errlen, "checkpoint '%s' is truncated", path);
    if (sum != got->checksum)
        return util_error(err, errlen, "checkpoint '%s' is damaged (checksum)", path);
    if (memcmp(mats, want_mats, 2 * sizeof(uint64_t) * (size_t)r->n) != 0)
        return util_error(err, errlen, "checkpoint '%s' is for other tables", path);
    if (got->level >= TB_REACH_LEVELS || got->at_material > (uint64_t)r->n)
        return util_error(err, errlen, "checkpoint '%s' is damaged (its level)", path);
    return 1;
}

/* --- the search ---------------------------------------------------------- */

static uint64_t count_bits(const uint64_t *b, uint64_t words)
{
    uint64_t c = 0;
    for (uint64_t w = 0; w < words; w++)
        c += (uint64_t)__builtin_popcountll(b[w]);
    return c;
}

/* Per material: what was reached, and the unseen indices that are states
 * (not twins: index(unindex(i)) == i), the first of them as witnesses. */
static void summarise(const reach_run *r, FILE *list, tb_reach_result *res)
{
    uint64_t *pred = malloc(sizeof *pred * GAME_MAX_PREDECESSORS);
    res->materials = r->n;
    for (int k = 0; k < r->n; k++) {
        const reach_table *t = &r->t[k];
        tb_reach_material *m = &res->mat[k];
        m->mat = t->mat;
        m->reached = count_bits(t->seen, t->words);
        m->unreached = 0;
        m->n_witness = 0;
        for (uint64_t i = 0; i < t->size; i++) {
            if ((t->seen[i >> 6] >> (i & 63)) & 1) {
                if (!~t->seen[i >> 6] && (i & 63) == 0)
                    i += 63;  /* a whole word seen */
                continue;
            }
            game_state s;
            r->ops->unindex(r->g, r->ix, t->mat, i, &s);
            if (r->ops->index(r->g, r->ix, &s) != i)
                continue;  /* a twin: its state is another index's */
            if (m->n_witness < TB_REACH_WITNESSES)
                m->witness[m->n_witness++] = i;
            m->unreached++;
            int n = pred && r->ops->unmoves ? r->ops->unmoves(r->g, r->ix, &s, pred) : 0, fed = 0;
            for (int j = 0; j < n && !fed; j++)
                fed = bit_of(t->seen, pred[j]);
            m->fed += (uint64_t)fed;
            if (list) {
                char text[GAME_TEXT_MAX];
                game_format(r->g, &s, text, sizeof text);
                fprintf(list, "%s\n", text);
            }
        }
        for (uint64_t w = 0; w < t->words && !res->far_set; w++)
            if (t->cur[w]) {
                res->far_mat = t->mat;
                res->far_index = w * 64 + (uint64_t)__builtin_ctzll(t->cur[w]);
                res->far_set = 1;
            }
    }
    free(pred);
}

static void free_run(reach_run *r)
{
    for (int k = 0; k < r->n; k++) {
        size_t b = r->t[k].words * sizeof(uint64_t);
        util_free_big(r->t[k].seen, b);
        util_free_big(r->t[k].cur, b);
        util_free_big(r->t[k].next, b);
    }
}

static int run_levels(reach_run *r, const game_state *start, const tb_reach_options *o, tb_reach_result *res,
                      const reach_header *from, char *err, size_t errlen)
{
    double t0 = util_clock() - (from ? from->seconds : 0), last_save = util_clock();
    uint64_t d = from ? from->level : 0, at_m = from ? from->at_material : 0, at_w = from ? from->at_word : 0;
    r->found = from ? from->found : 0;
    r->expanded = from ? from->expanded : 0;
    for (;;) {
        for (uint64_t m = at_m; m < (uint64_t)r->n; m++, at_w = 0)
            for (uint64_t w = at_w; w < r->t[m].words; w += SEGMENT_WORDS) {
                r->at = (int)m;
                r->base = w;
                uint64_t seg = r->t[m].words - w < SEGMENT_WORDS ? r->t[m].words - w : SEGMENT_WORDS;
                util_parallel(o->threads, seg, CHUNK_WORDS, expand_words, r);
                if (r->lost_mat >= 0)
                    return util_error(err, errlen, "a move leads to material %d, which the start does not lead to",
                                      r->lost_mat);
                double now = util_clock();
                if (o->progress) {
                    tb_reach_progress p = { (int)d, res->at_level[d], r->expanded, r->found, now - t0 };
                    for (uint64_t l = 0; l <= d; l++)
                        p.reached += res->at_level[l];
                    o->progress(&p, o->ctx);
                }
                int stop = o->stop && *o->stop;
                if (o->checkpoint && (stop || now - last_save >= o->checkpoint_seconds)) {
                    uint64_t nm = m, nw = w + SEGMENT_WORDS;
                    if (nw >= r->t[m].words)
                        nm++, nw = 0;
                    if (save(r, start, res, d, nm, nw, now - t0, o->checkpoint, err, errlen) != 0)
                        return -1;
                    last_save = util_clock();
                    if (o->log)  /* a log without the progress line still shows the run going */
                        fprintf(o->log, "level %llu: %llu of %llu states expanded, %.0f s, saved\n", (unsigned long long)d,
                                (unsigned long long)r->expanded, (unsigned long long)res->at_level[d], now - t0);
                }
                if (stop)
                    return 1;
            }
        if (!r->found)
            break;  /* level d was the last: its states stay in cur */
        if (d + 1 >= TB_REACH_LEVELS)
            return util_error(err, errlen, "more than %d levels", TB_REACH_LEVELS - 1);
        res->at_level[++d] = r->found;
        for (int k = 0; k < r->n; k++) {
            uint64_t *c = r->t[k].cur;
            r->t[k].cur = r->t[k].next;
            r->t[k].next = c;
            memset(c, 0, r->t[k].words * sizeof(uint64_t));
        }
        r->found = r->expanded = 0;
        at_m = at_w = 0;
        if (o->log)
            fprintf(o->log, "level %llu: %llu states, %.0f s\n", (unsigned long long)d,
                    (unsigned long long)res->at_level[d], util_clock() - t0);
    }
    res->levels = (int)d;
    res->seconds = util_clock() - t0;
    return 0;
}

int tb_reach(const game *g, const char *dir, const game_state *start, const tb_reach_options *o,
             tb_reach_result *res, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    memset(res, 0, sizeof *res);
    if (!ops)
        return util_error(err, errlen, "%s has no tables", g->name);
    int start_mat = game_result_of(g, start) == GAME_ONGOING ? ops->material_of(g, start) : -1;
    if (start_mat < 0)
        return util_error(err, errlen, "the start is not a state of any table");
    static reach_run zero;
    reach_run *r = malloc(sizeof *r);
    tb_index *x = tb_index_open(g, dir);
    if (!r || !x) {
        free(r);
        tb_index_close(x);
        return util_error(err, errlen, "out of memory");
    }
    *r = zero;
    r->g = g;
    r->ops = ops;
    r->fast = game_tb_build(ops);
    r->lost_mat = -1;
    int mats[TB_REACH_MATERIALS];
    r->n = tb_materials_with_deps(g, &start_mat, 1, mats, TB_REACH_MATERIALS);
    r->ix = tb_index_needs(x, mats, r->n);
    int rc = r->ix ? 0 : util_error(err, errlen, "out of memory for the state indices");
    for (int k = 0; k < r->n && rc == 0; k++) {
        reach_table *t = &r->t[k];
        t->mat = mats[k];
        t->size = ops->size(g, r->ix, mats[k]);
        t->words = (t->size + 63) / 64;
        size_t b = t->words * sizeof(uint64_t);
        t->seen = util_alloc_big(b);
        t->cur = util_alloc_big(b);
        t->next = util_alloc_big(b);
        if (!t->seen || !t->cur || !t->next)
            rc = util_error(err, errlen, "out of memory for the bitmaps of %llu states", (unsigned long long)t->size);
    }
    reach_header from;
    int resumed = rc == 0 && o->checkpoint ? load(r, start, res, &from, o->checkpoint, err, errlen) : 0;
    if (resumed < 0)
        rc = -1;
    if (rc == 0 && !resumed) {
        reach_table *t = &r->t[slot_of(r, start_mat)];
        uint64_t i = ops->index(g, r->ix, start);
        t->seen[i >> 6] |= 1ULL << (i & 63);
        t->cur[i >> 6] |= 1ULL << (i & 63);
        res->at_level[0] = 1;
    }
    if (rc == 0)
        rc = run_levels(r, start, o, res, resumed ? &from : NULL, err, errlen);
    if (rc == 0)
        summarise(r, o->unreached, res);
    free_run(r);
    free(r);
    tb_index_close(x);
    return rc;
}
