/* tablebase/build.c - frontier-based retrograde analysis (TECHNIQUES.md).
 *
 * Per position (one 3-byte cell): ext, the best value among moves that
 * leave the table (game ends and captures into smaller tables, read from
 * their files), and cnt, the number of distinct same-table children not yet
 * known to be won for the opponent (counted when a loss pass first needs
 * it).  Ply k resolves, in two passes separated by a barrier:
 *   wins at k:   predecessors (un-moves) of the losses at k-1, and positions
 *                whose ext is a win in k;
 *   losses at k: positions whose cnt reaches 0 while un-moving from the wins
 *                at k-1, or whose cnt is 0 and ext is a loss in k, provided
 *                no move leaves for a win or a draw.
 * Each position is resolved once, and only frontier positions are expanded.
 * What is never resolved is a draw.  Values do not depend on the order in
 * which threads work, so the files are byte-identical for any thread count.
 *
 * Memory decides which tables can be built at all (Ostle's nine pieces:
 * 4.7 G states on 24 GB), so a value takes one byte: the entry itself for
 * distances up to 126, else a mark whose entry sits in a Judy array (the
 * long tail is a few positions).  The frontiers are bitmaps in index order
 * (n/8 bytes each, where lists of indices took 8 bytes per resolved
 * position, half the table on Ostle's first ply).
 *
 * Index classes are whole symmetry orbits (game_tb_ops contract), so a
 * child's distinct predecessors and a parent's distinct children agree and
 * the counters meet zero exactly.  Twin indices (a position whose canonical
 * index is another) are skipped and get their twin's value at the end.
 */
#include "tb_internal.h"

#include <Judy.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Cell bytes: val and ext hold a tb_entry below LONG; LONG means "in the
 * Judy array"; ext DRAW is a draw outside.  cnt TWIN and UNCOUNTED are
 * marks, anything else a count. */
#define LONG 254
#define DRAW 255
#define TWIN 255
#define UNCOUNTED 254
#define EXT_DRAW 0xFFFF  /* as a tb_entry: a draw outside the table */
#define SMALL_TABLE ((uint64_t)1 << 25)  /* built side by side, one per thread */

typedef struct {
    uint8_t val;  /* the result, 0 until resolved */
    uint8_t ext;  /* best value among moves that leave the table */
    uint8_t cnt;  /* distinct same-table children not known won; TWIN */
} cell;

typedef struct {
    const game *g;
    const game_tb_ops *ops;
    int mat, threads, ply;
    uint64_t n, words;
    tb_entry long_code;          /* entries from here on are LONG in a byte */
    cell *c;
    Pvoid_t val_long, ext_long;  /* JudyL: index -> tb_entry of a LONG cell */
    /* The indices with ext distance d (d < 127), in order, at
     * ext_list[ext_start[d] .. ext_start[d + 1]) (tables under 2^32
     * positions): a ply's ext pass reads its own positions instead of
     * scanning the table. */
    uint32_t *ext_list;
    uint64_t ext_start[128];
    uint8_t *ext_at;         /* ext_at[d]: 1 win, 2 loss, 3 both: some ext at distance d */
    int max_ext;
    tb_set *smaller;
    /* Frontier bitmaps: the pass reads `in` (clearing it) and sets `out`. */
    uint64_t *in, *out;
    uint64_t resolved;       /* positions set in out by the pass */
    pthread_mutex_t lock;
    int failed;
    char err[512];
    /* progress */
    const tb_build_options *opt;
    tb_progress prog;
    uint64_t done;
    double t0, last_report;
    double t_init, t_plies;        /* seconds in each phase of the last table */
    double run_total, run_before;  /* positions in the whole run, before this table */
} builder;

static void fail(builder *b, const char *msg)
{
    pthread_mutex_lock(&b->lock);
    if (!b->failed) {
        b->failed = 1;
        snprintf(b->err, sizeof b->err, "%s", msg);
    }
    pthread_mutex_unlock(&b->lock);
}

static int stopped(const builder *b) { return b->failed || (b->opt->stop && *b->opt->stop); }

/* Calls the progress hook at most twice a second, from whichever thread. */
static void report(builder *b, uint64_t add)
{
    uint64_t done = __atomic_add_fetch(&b->done, add, __ATOMIC_RELAXED);
    if (!b->opt->progress)
        return;
    double t = game_clock();
    if (t - b->last_report < 0.5 || pthread_mutex_trylock(&b->lock) != 0)
        return;
    if (t - b->last_report >= 0.5) {
        b->last_report = t;
        b->prog.done = done;
        b->prog.ply = b->ply;
        b->prog.seconds = t - b->t0;
        /* Initialising a table costs about as much as resolving it. */
        double frac = (b->run_before + (b->ply ? 0.5 + 0.5 * (double)done / (double)b->n
                                                : 0.5 * (double)done / (double)b->n) * (double)b->n) / b->run_total;
        b->prog.eta = frac > 0.01 ? b->prog.seconds * (1 - frac) / frac : -1;
        b->opt->progress(&b->prog, b->opt->ctx);
    }
    pthread_mutex_unlock(&b->lock);
}

/* The entry a LONG byte of index i stands for, in map m. */
static tb_entry long_entry(Pvoid_t m, uint64_t i)
{
    PWord_t v = (PWord_t)JudyLGet(m, (Word_t)i, PJE0);
    return v ? (tb_entry)*v : 0;
}

/* Stores entry e for index i in *m (any thread); 0 when out of memory. */
static int long_store(builder *b, Pvoid_t *m, uint64_t i, tb_entry e)
{
    pthread_mutex_lock(&b->lock);
    PWord_t v = (PWord_t)JudyLIns(m, (Word_t)i, PJE0);
    if (v)
        *v = e;
    pthread_mutex_unlock(&b->lock);
    return v != NULL;
}

static tb_entry ext_of(builder *b, uint64_t i)
{
    uint8_t e = b->c[i].ext;
    return e == DRAW ? EXT_DRAW : e == LONG ? long_entry(b->ext_long, i) : e;
}

static tb_entry val_of(const void *ctx, uint64_t i)
{
    builder *b = (builder *)ctx;
    uint8_t v = b->c[i].val;
    return v == LONG ? long_entry(b->val_long, i) : v;
}

/* Orders a move's value for the mover: win (sooner better) > draw > loss
 * (later better) > no move at all. */
static long ext_rank(tb_entry e)
{
    if (e == 0) return 0;
    if (e == EXT_DRAW) return 2000000;
    return (e & 1) ? 3000000 - (e >> 1) : (e >> 1);
}

/* What one init chunk gathers besides the cells. */
typedef struct {
    builder *b;
    int local_max;
    /* Which outside distances occur, gathered per chunk: an atomic write per
     * position to the shared flags would bounce their cache line between cores. */
    uint8_t seen[256];
} init_chunk;

/* The best value among the moves of index i that leave the table, and
 * whether it has moves that stay. */
static void init_position(void *ctx, uint64_t i, const game_state *sp, int twin)
{
    init_chunk *ic = ctx;
    builder *b = ic->b;
    const game *g = b->g;
    if (b->failed)
        return;
    if (twin) {
        b->c[i].cnt = TWIN;
        return;
    }
    game_state s = *sp;
    game_move moves[GAME_MAX_MOVES];
    char err[300];
    int nc = 0, mover = game_to_move(g, &s);
    int n = b->ops->exits ? b->ops->exits(g, &s, moves, &nc) : game_moves(g, &s, moves);
    tb_entry best = 0;
    for (int m = 0; m < n; m++) {
        game_state t = s;
        game_play(g, &t, moves[m]);
        int cm = b->ops->material_of(g, &t);
        tb_entry opt;
        if (cm == b->mat) {
            nc++;
            continue;
        } else if (cm < 0) {
            game_result r = game_result_of(g, &t);
            if (r == GAME_ONGOING) {
                fail(b, "a live position has no table material");
                return;
            }
            int o = game_outcome_for(r, mover);
            opt = o == 0 ? EXT_DRAW : o > 0 ? TB_WIN_IN(1) : TB_LOSS_IN(1);
        } else {
            tb_value v;
            int rc = tb_probe(b->smaller, &t, &v, err, sizeof err);
            if (rc != 1) {
                char name[32], msg[400];
                b->ops->material_name(g, cm, name, sizeof name);
                snprintf(msg, sizeof msg, rc < 0 ? "%s" : "table %s is missing (needed by captures)", rc < 0 ? err : name);
                fail(b, msg);
                return;
            }
            opt = v.wdl == TB_DRAW ? EXT_DRAW : v.wdl == TB_WIN ? TB_LOSS_IN(v.distance + 1) : TB_WIN_IN(v.distance + 1);
        }
        if (ext_rank(opt) > ext_rank(best))
            best = opt;
    }
    if (nc >= UNCOUNTED) {
        fail(b, "more distinct moves than the builder counts");
        return;
    }
    /* Without the game's count, counting distinct children costs an index
     * each; it is put off until a loss pass needs it (positions that win
     * first never pay).  With a win or a draw outside the table the counter
     * is never read. */
    b->c[i].cnt = b->ops->exits && nc >= 0 ? (uint8_t)nc : nc ? UNCOUNTED : 0;
    if (best == EXT_DRAW) {
        b->c[i].ext = DRAW;
    } else if (best) {
        int d = best >> 1, kind = (best & 1) ? 1 : 2;
        if (d > TB_MAX_DISTANCE - 2) {
            fail(b, "distance out of range");
            return;
        }
        b->c[i].ext = best < b->long_code ? (uint8_t)best : LONG;
        if (best >= b->long_code && !long_store(b, &b->ext_long, i, best)) {
            fail(b, "out of memory (long distances)");
            return;
        }
        if (d < 255)
            ic->seen[d] |= (uint8_t)kind;
        else
            __atomic_or_fetch(&b->ext_at[d], kind, __ATOMIC_RELAXED);
        if (d > ic->local_max)
            ic->local_max = d;
    }
}

static void init_range(void *ctx, uint64_t first, uint64_t end)
{
    builder *b = ctx;
    if (stopped(b))
        return;
    init_chunk ic = { .b = b };
    if (b->ops->each) {
        b->ops->each(b->g, b->mat, first, end, init_position, &ic);
    } else {
        for (uint64_t i = first; i < end; i++) {
            game_state s;
            b->ops->unindex(b->g, b->mat, i, &s);
            init_position(&ic, i, &s, b->ops->index(b->g, &s) != i);
        }
    }
    for (int d = 0; d < 255; d++)
        if (ic.seen[d])
            __atomic_or_fetch(&b->ext_at[d], ic.seen[d], __ATOMIC_RELAXED);
    int cur = __atomic_load_n(&b->max_ext, __ATOMIC_RELAXED);
    while (ic.local_max > cur &&
           !__atomic_compare_exchange_n(&b->max_ext, &cur, ic.local_max, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    report(b, end - first);
}

/* Resolves index i with value e (unless a thread did first) and puts it on
 * the next frontier; 1 if this call did. */
static int claim(builder *b, uint64_t i, tb_entry e)
{
    uint8_t zero = 0;
    if (!__atomic_compare_exchange_n(&b->c[i].val, &zero, e < b->long_code ? (uint8_t)e : LONG, 0, __ATOMIC_RELAXED,
                                     __ATOMIC_RELAXED))
        return 0;
    if (e >= b->long_code && !long_store(b, &b->val_long, i, e))
        fail(b, "out of memory (long distances)");
    __atomic_or_fetch(&b->out[i >> 6], 1ULL << (i & 63), __ATOMIC_RELAXED);
    return 1;
}

/* Un-moves of frontier position j, their cells prefetched while the rest
 * are generated.  (Batching several frontier positions measured no faster.) */
static int predecessors(builder *b, uint64_t j, uint64_t *pred)
{
    int np;
    if (b->ops->unmoves_index) {
        np = b->ops->unmoves_index(b->g, b->mat, j, pred);
    } else {
        game_state s;
        b->ops->unindex(b->g, b->mat, j, &s);
        np = b->ops->unmoves(b->g, &s, pred);
    }
    for (int p = 0; p < np; p++)
        __builtin_prefetch(&b->c[pred[p]], 1);
    return np;
}

/* Wins at ply k from the losses at k-1 (frontier words [first, end)). */
static void win_from_losses(void *ctx, uint64_t first, uint64_t end)
{
    builder *b = ctx;
    uint64_t pred[GAME_MAX_PREDECESSORS], resolved = 0;
    tb_entry w = TB_WIN_IN(b->ply);
    for (uint64_t word = first; word < end; word++) {
        for (uint64_t x = b->in[word]; x; x &= x - 1) {
            int np = predecessors(b, word * 64 + (uint64_t)__builtin_ctzll(x), pred);
            for (int p = 0; p < np; p++)
                if (__atomic_load_n(&b->c[pred[p]].val, __ATOMIC_RELAXED) == 0 && claim(b, pred[p], w))
                    resolved++;
        }
        b->in[word] = 0;
    }
    __atomic_add_fetch(&b->resolved, resolved, __ATOMIC_RELAXED);
    report(b, resolved);
}

/* Distinct same-table children of position i. */
static int count_children(builder *b, uint64_t i)
{
    uint64_t child[GAME_MAX_MOVES];
    if (b->ops->successors_index)
        return b->ops->successors_index(b->g, b->mat, i, child);
    game_state s;
    b->ops->unindex(b->g, b->mat, i, &s);
    return b->ops->successors(b->g, &s, child);
}

/* Losses at ply k from the wins at k-1 (frontier words [first, end)). */
static void loss_from_wins(void *ctx, uint64_t first, uint64_t end)
{
    builder *b = ctx;
    uint64_t pred[GAME_MAX_PREDECESSORS], resolved = 0;
    int k = b->ply;
    for (uint64_t word = first; word < end; word++) {
        for (uint64_t x = b->in[word]; x; x &= x - 1) {
            int np = predecessors(b, word * 64 + (uint64_t)__builtin_ctzll(x), pred);
            for (int p = 0; p < np; p++) {
                uint64_t i = pred[p];
                uint8_t e = b->c[i].ext;
                tb_entry ext = e == LONG ? ext_of(b, i) : e;
                if (e == DRAW || (ext & 1))
                    continue;  /* a draw or a win leaves the table: never lost */
                if (__atomic_load_n(&b->c[i].val, __ATOMIC_RELAXED) != 0)
                    continue;
                uint8_t expect = UNCOUNTED;
                if (__atomic_load_n(&b->c[i].cnt, __ATOMIC_RELAXED) == UNCOUNTED) {
                    /* Racing threads compute the same count; one CAS wins. */
                    int count = count_children(b, i);
                    if (count >= UNCOUNTED)
                        fail(b, "more distinct moves than the builder counts");
                    __atomic_compare_exchange_n(&b->c[i].cnt, &expect, (uint8_t)count, 0, __ATOMIC_RELAXED,
                                                __ATOMIC_RELAXED);
                }
                if (__atomic_sub_fetch(&b->c[i].cnt, 1, __ATOMIC_RELAXED) != 0)
                    continue;
                if (ext != 0 && (ext >> 1) > k)
                    continue;  /* a longer loss outside: resolved at its own ply */
                if (claim(b, i, TB_LOSS_IN(k)))
                    resolved++;
            }
        }
        b->in[word] = 0;
    }
    __atomic_add_fetch(&b->resolved, resolved, __ATOMIC_RELAXED);
    report(b, resolved);
}

/* Resolves position i, whose ext is e, at ply k by e alone if it can be. */
static int ext_one(builder *b, uint64_t i, tb_entry e, tb_entry w, tb_entry l)
{
    if (e != w && e != l)
        return 0;
    if (b->c[i].cnt == TWIN || (e == l && __atomic_load_n(&b->c[i].cnt, __ATOMIC_RELAXED) != 0))
        return 0;
    return claim(b, i, e);
}

/* Positions resolved at ply k by ext alone (no frontier reaches them): from
 * the ply's list, the Judy array of long distances, or a scan of the cells. */
static void ext_scan(void *ctx, uint64_t first, uint64_t end)
{
    builder *b = ctx;
    uint64_t resolved = 0;
    int k = b->ply;
    tb_entry w = TB_WIN_IN(k), l = TB_LOSS_IN(k);
    if (w >= b->long_code) {
        Word_t i = (Word_t)first;
        for (PWord_t v = (PWord_t)JudyLFirst(b->ext_long, &i, PJE0); v && i < end;
             v = (PWord_t)JudyLNext(b->ext_long, &i, PJE0))
            resolved += (uint64_t)ext_one(b, i, (tb_entry)*v, w, l);
    } else if (b->ext_list) {
        for (uint64_t j = b->ext_start[k] + first; j < b->ext_start[k] + end; j++)
            resolved += (uint64_t)ext_one(b, b->ext_list[j], b->c[b->ext_list[j]].ext, w, l);
    } else {
        for (uint64_t i = first; i < end; i++) {
            uint8_t e = b->c[i].ext;
            if (e == w || e == l)
                resolved += (uint64_t)ext_one(b, i, e, w, l);
        }
    }
    __atomic_add_fetch(&b->resolved, resolved, __ATOMIC_RELAXED);
}

/* Buckets the positions by ext distance below 127 (a counting sort, in
 * index order); without the memory the passes scan instead. */
static void ext_lists(builder *b)
{
    if (b->n >= (1ULL << 32))
        return;
    uint64_t count[128] = { 0 };
    for (uint64_t i = 0; i < b->n; i++) {
        uint8_t e = b->c[i].ext;
        if (e < LONG)
            count[e >> 1]++;
    }
    uint64_t total = 0;
    for (int d = 1; d < 127; d++) {
        b->ext_start[d] = total;
        total += count[d];
    }
    b->ext_start[127] = total;
    if (!(b->ext_list = malloc((total ? total : 1) * sizeof *b->ext_list)))
        return;
    uint64_t at[128];
    memcpy(at, b->ext_start, sizeof at);
    for (uint64_t i = 0; i < b->n; i++) {
        uint8_t e = b->c[i].ext;
        if (e && e < LONG)
            b->ext_list[at[e >> 1]++] = (uint32_t)i;
    }
}

static void copy_twins(void *ctx, uint64_t first, uint64_t end)
{
    builder *b = ctx;
    for (uint64_t i = first; i < end; i++)
        if (b->c[i].cnt == TWIN) {
            game_state s;
            b->ops->unindex(b->g, b->mat, i, &s);
            uint64_t j = b->ops->index(b->g, &s);
            b->c[i].val = b->c[j].val;
            if (b->c[j].val == LONG) {
                pthread_mutex_lock(&b->lock);
                tb_entry e = long_entry(b->val_long, j);
                pthread_mutex_unlock(&b->lock);
                if (!long_store(b, &b->val_long, i, e))
                    fail(b, "out of memory (long distances)");
            }
        }
}

/* One pass of ply k: run fn over the frontier `in` (left clear), then the
 * ext scan if any ext lands on this ply with this kind; the positions it
 * resolves are set in `out`.  Returns how many. */
static uint64_t pass(builder *b, uint64_t *in, uint64_t *out, void (*fn)(void *, uint64_t, uint64_t), int kind)
{
    b->in = in;
    b->out = out;
    b->resolved = 0;
    game_parallel(b->threads, b->words, 0, fn, b);
    if (b->ply <= b->max_ext && (b->ext_at[b->ply] & kind)) {
        int listed = b->ext_list && TB_WIN_IN(b->ply) < b->long_code;
        game_parallel(b->threads, listed ? b->ext_start[b->ply + 1] - b->ext_start[b->ply] : b->n, 0, ext_scan, b);
    }
    return b->resolved;
}

static int build_one(builder *b, char *err, size_t errlen)
{
    uint64_t n = b->n;
    b->words = (n + 63) / 64;
    b->c = tb_alloc_big(n * sizeof *b->c);
    b->ext_at = calloc(TB_MAX_DISTANCE + 1, 1);
    /* Three frontiers: the wins and losses of the last ply and the new
     * wins; the new losses go where the last losses were read. */
    uint64_t *wins = tb_alloc_big(b->words * 8), *losses = tb_alloc_big(b->words * 8);
    uint64_t *new_wins = tb_alloc_big(b->words * 8);
    int rc = -1;
    if (!b->c || !b->ext_at || !wins || !losses || !new_wins) {
        game_error(err, errlen, "%s: out of memory (%llu positions)", b->prog.material, (unsigned long long)n);
        goto out;
    }
    b->prog.phase = "init";
    b->ply = 0;
    double t = game_clock();
    game_parallel(b->threads, n, 0, init_range, b);
    ext_lists(b);
    b->t_init = game_clock() - t;
    t = game_clock();
    b->prog.phase = "plies";
    b->done = 0;
    for (b->ply = 1; !stopped(b); b->ply++) {
        if (b->ply > TB_MAX_DISTANCE - 2) {
            fail(b, "distance out of range");
            break;
        }
        uint64_t won = pass(b, losses, new_wins, win_from_losses, 1);
        uint64_t lost = pass(b, wins, losses, loss_from_wins, 2);
        uint64_t *last = wins;
        wins = new_wins;
        new_wins = last;  /* cleared by the pass that read it */
        if (!won && !lost && b->ply >= b->max_ext)
            break;
    }
    if (b->failed) {
        game_error(err, errlen, "%s: %s", b->prog.material, b->err);
        goto out;
    }
    if (stopped(b)) {
        rc = 1;  /* interrupted: nothing is written */
        goto out;
    }
    game_parallel(b->threads, n, 0, copy_twins, b);
    b->t_plies = game_clock() - t;
    rc = b->failed ? game_error(err, errlen, "%s: %s", b->prog.material, b->err) : 0;
out:
    tb_free_big(wins, b->words * 8);
    tb_free_big(losses, b->words * 8);
    tb_free_big(new_wins, b->words * 8);
    free(b->ext_at);
    free(b->ext_list);
    b->ext_at = NULL;
    b->ext_list = NULL;
    return rc;
}

/* Frees the cells and the long distances of the table just built. */
static void drop_cells(builder *b)
{
    JudyLFreeArray(&b->val_long, PJE0);
    JudyLFreeArray(&b->ext_long, PJE0);
    tb_free_big(b->c, b->n * sizeof *b->c);
    b->c = NULL;
}

static int make_dir(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; ; p++) {
        char c = *p;
        if (c == '/' || c == 0) {
            *p = 0;
            if (mkdir(path, 0777) != 0 && errno != EEXIST)
                return game_error(err, errlen, "%s: %s", path, strerror(errno));
            *p = c;
        }
        if (!c)
            return 0;
    }
}

static tb_entry file_entry(const void *f, uint64_t i) { return tb_file_entry(f, i); }

/* Writes mat's table from the same table of another variant when the game
 * says their values agree and dir holds that file (its checksums checked):
 * 1 copied, 0 nothing to copy from, -1 with err. */
static int copy_same_table(const game *g, const char *dir, int mat, const char *path, char *err, size_t errlen)
{
    const char *other_name = game_tables(g)->same_table_as ? game_tables(g)->same_table_as(g, mat) : NULL;
    if (!other_name)
        return 0;
    game *other = game_open(other_name, NULL, err, errlen);
    if (!other)
        return -1;
    char from[4200];
    tb_file f;
    tb_path(other, dir, mat, from, sizeof from);
    int rc = tb_file_open(other, from, mat, 1, &f, err, errlen);
    if (rc == 0 && f.map) {
        rc = tb_file_write(g, path, mat, file_entry, &f, f.h.entries, err, errlen) == 0 ? 1 : -1;
        tb_file_close(&f);
    }
    game_close(other);
    return rc;
}

/* Builds (or copies) the table of material mat, number no of the run's
 * `tables`, with builder b: 0, 1 when stopped, -1 with err. */
static int make_table(builder *b, const char *dir, int mat, int no, int tables, char *err, size_t errlen)
{
    const game *g = b->g;
    const tb_build_options *o = b->opt;
    char name[32], path[4200];
    b->ops->material_name(g, mat, name, sizeof name);
    tb_path(g, dir, mat, path, sizeof path);
    b->mat = mat;
    b->n = b->ops->size(g, mat);
    b->max_ext = 0;
    b->done = 0;
    b->prog = (tb_progress){ .material = name, .table_no = no, .tables = tables, .size = b->n };
    double t = game_clock(), t_write = 0;
    int rc = copy_same_table(g, dir, mat, path, err, errlen);
    if (rc > 0 && o->log) {
        fprintf(o->log, "copied %s: %llu positions, the same table as in %s, %.2f s\n", name,
                (unsigned long long)b->n, b->ops->same_table_as(g, mat), game_clock() - t);
        fflush(o->log);
    }
    if (rc == 0) {
        rc = build_one(b, err, errlen);
        if (rc == 0 && o->stop && *o->stop)
            rc = 1;
        if (rc == 0) {
            b->prog.phase = "write";
            t_write = game_clock();
            rc = tb_file_write(g, path, mat, val_of, b, b->n, err, errlen);
            t_write = game_clock() - t_write;
        }
        drop_cells(b);
        if (rc == 0 && o->log) {
            fprintf(o->log, "built %s: %llu positions, %d plies, %.2f s (init %.2f, plies %.2f, write %.2f)\n",
                    name, (unsigned long long)b->n, b->ply, game_clock() - t, b->t_init, b->t_plies, t_write);
            fflush(o->log);
        }
    } else if (rc > 0) {
        rc = 0;
    }
    b->run_before += (double)b->n;
    return rc;
}

/* Tables todo[first, end) built side by side, each by one thread. */
typedef struct {
    const builder *proto;
    const char *dir;
    const int *todo;
    int first, tables;
    pthread_mutex_t lock;
    int rc;
    char err[512];
} table_group;

/* Builds tables todo[first + i] for i in [lo, hi), each on this thread. */
static void group_tables(void *arg, uint64_t lo, uint64_t hi)
{
    table_group *gr = arg;
    for (uint64_t k = lo; k < hi; k++) {
        int i = gr->first + (int)k;
        pthread_mutex_lock(&gr->lock);
        int go = gr->rc == 0;
        pthread_mutex_unlock(&gr->lock);
        if (!go)
            return;
        builder b = *gr->proto;
        tb_build_options quiet = *b.opt;
        quiet.progress = NULL;  /* one bar per finished table, below */
        b.opt = &quiet;
        b.threads = 1;
        pthread_mutex_init(&b.lock, NULL);
        char err[512], name[32];
        int rc = make_table(&b, gr->dir, gr->todo[i], i + 1, gr->tables, err, sizeof err);
        pthread_mutex_lock(&gr->lock);
        if (rc != 0 && gr->rc == 0) {
            gr->rc = rc;
            snprintf(gr->err, sizeof gr->err, "%s", rc < 0 ? err : "");
        } else if (rc == 0 && gr->proto->opt->progress) {
            b.ops->material_name(b.g, gr->todo[i], name, sizeof name);
            tb_progress p = { .material = name, .table_no = i + 1, .tables = gr->tables, .phase = "write",
                              .done = b.n, .size = b.n, .seconds = game_clock() - b.t0, .eta = -1 };
            gr->proto->opt->progress(&p, gr->proto->opt->ctx);
        }
        pthread_mutex_unlock(&gr->lock);
        pthread_mutex_destroy(&b.lock);
    }
}

static int make_group(builder *b, const char *dir, const int *todo, int first, int end, int tables, char *err,
                      size_t errlen)
{
    table_group gr = { .proto = b, .dir = dir, .todo = todo, .first = first, .tables = tables };
    pthread_mutex_init(&gr.lock, NULL);
    game_parallel(b->threads, (uint64_t)(end - first), 1, group_tables, &gr);
    pthread_mutex_destroy(&gr.lock);
    for (int i = first; i < end; i++)
        b->run_before += (double)b->ops->size(b->g, todo[i]);
    if (gr.rc < 0)
        snprintf(err, errlen, "%s", gr.err);
    return gr.rc;
}

static int build_locked(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err,
                        size_t errlen);

int tb_build(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err, size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    if (!ops)
        return game_error(err, errlen, "%s has no endgame tables", g->name);
    if (make_dir(dir, err, errlen) != 0)
        return -1;
    /* One build per directory at a time: two would write the same
     * temporary files.  The lock goes with the process, however it ends. */
    char lock_path[4200];
    snprintf(lock_path, sizeof lock_path, "%s/.pnsolve-build.lock", dir);
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock < 0)
        return game_error(err, errlen, "%s: %s", lock_path, strerror(errno));
    if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
        close(lock);
        return game_error(err, errlen, "another build is running in %s (it holds %s)", dir, lock_path);
    }
    int rc = build_locked(g, dir, max_pieces, o, err, errlen);
    close(lock);
    return rc;
}

static int build_locked(const game *g, const char *dir, int max_pieces, const tb_build_options *o, char *err,
                        size_t errlen)
{
    const game_tb_ops *ops = game_tables(g);
    /* Opened first: it tells the game where its index files go, and the
     * sizes below make the indices. */
    tb_set *smaller = tb_open(g, dir);
    if (!smaller)
        return game_error(err, errlen, "out of memory");
    int mats[4096];
    int count = ops->materials(g, max_pieces, mats, 4096);
    /* Work out what is missing first, so progress can count it. */
    int todo[4096], ntodo = 0;
    double total = 0;
    for (int i = 0; i < count; i++) {
        char path[4200];
        tb_file f;
        tb_path(g, dir, mats[i], path, sizeof path);
        /* a table kept is checked whole: the ones built next read it */
        int rc = tb_file_open(g, path, mats[i], 1, &f, err, errlen);
        if (rc < 0) {
            tb_close(smaller);
            size_t at = strlen(err);
            snprintf(err + at, errlen - at, " (remove it to build it again)");
            return -1;
        }
        if (f.map) {
            tb_file_close(&f);
            continue;
        }
        uint64_t size = ops->size(g, mats[i]);
        if (size == 0) {
            char name[32];
            ops->material_name(g, mats[i], name, sizeof name);
            tb_close(smaller);
            return game_error(err, errlen, "table %s cannot be indexed here (too large)", name);
        }
        todo[ntodo++] = mats[i];
        total += (double)size;
    }
    builder b;
    memset(&b, 0, sizeof b);
    b.g = g;
    b.ops = ops;
    b.threads = o->threads > 0 ? o->threads : game_default_threads();
    b.smaller = smaller;
    b.opt = o;
    b.long_code = o->long_from > 0 && o->long_from < 127 ? TB_LOSS_IN(o->long_from) : LONG;
    b.t0 = game_clock();
    b.run_total = total > 0 ? total : 1;
    pthread_mutex_init(&b.lock, NULL);
    int rc = 0;
    for (int i = 0; i < ntodo && rc == 0 && !(o->stop && *o->stop);) {
        /* Small tables with as many pieces never read each other: they are
         * built side by side, one per thread (no thread waits at a ply's
         * barrier on a short frontier, no write contends). */
        int j = i + 1;
        if (b.threads > 1 && ops->size(g, todo[i]) <= SMALL_TABLE)
            while (j < ntodo && ops->size(g, todo[j]) <= SMALL_TABLE &&
                   ops->material_pieces(g, todo[j]) == ops->material_pieces(g, todo[i]))
                j++;
        rc = j - i > 1 ? make_group(&b, dir, todo, i, j, ntodo, err, errlen)
                       : make_table(&b, dir, todo[i], i + 1, ntodo, err, errlen);
        i = j;
    }
    pthread_mutex_destroy(&b.lock);
    tb_close(smaller);
    return rc < 0 ? -1 : (o->stop && *o->stop) ? 1 : 0;
}
