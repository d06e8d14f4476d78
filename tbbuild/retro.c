/* tbbuild/retro.c - frontier-based retrograde analysis of one table
 * (TECHNIQUES.md), in one byte per position.
 *
 * Init, one pass: each position's moves that leave the table (game ends,
 * captures into smaller tables, read from their files) are valued; a win
 * among them is written as the position's value at once (a shorter win
 * found later overwrites it), a draw marks the position as never lost, and
 * otherwise the byte counts the distinct same-table children not yet known
 * to be won for the opponent.  Ply k then resolves, in two passes with a
 * barrier between them:
 *   wins at k:   predecessors (un-moves) of the losses at k-1;
 *   losses at k: positions whose counter reaches 0 while un-moving from the
 *                wins at k-1, lost in max(k, their best move out of the
 *                table), which is worked out again then, not stored;
 * and a scan after both passes puts on the frontiers the positions whose
 * value was known before ply k reached them (a win out of the table in k, a
 * loss put off to k).  Each position is resolved once and only frontier
 * positions are expanded; what is never resolved is a draw.  Each pass is
 * an exchange between the owners of index ranges (exchange.h): senders
 * un-move the frontier positions and box each predecessor for its owner,
 * which alone updates that cell.  Values do not depend on the order in
 * which updates arrive, so the files are byte-identical for any thread
 * count.
 *
 * Across ranks (tb_ranks) a rank holds only its own blocks: its arrays are
 * mapped whole but touched only there (util_alloc_sparse), so an index
 * still names its cell with no translation in the hot loops.  It resolves
 * its part of each frontier and the exchange carries the updates to their
 * owners; the ply's counts, the longest pending distance and a stop are
 * agreed by the ranks between plies, and a twin asks its canonical entry's
 * owner for the value.
 *
 * Memory: the byte per position and three frontier bitmaps (the last ply's
 * wins and losses and the new wins; the new losses go where the last losses
 * were read) make 1.375 bytes per position.  A distance beyond short_max is
 * a LONG mark whose entry sits in a Judy array (the long tail is few).
 *
 * Index classes are whole symmetry orbits (game_tb_ops contract), so a
 * child's distinct predecessors and a parent's distinct children agree and
 * the counters meet zero exactly.  Twin indices (a position whose canonical
 * index is another) are skipped and get their twin's value at the end.
 */
#include "retro.h"
#include "tb_testing.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Cells: the codes of a position's byte. */
#define NCOUNT 32                          /* counters 0 .. NCOUNT-1 */
#define U(c) ((uint8_t)(c))                /* unresolved, c children left, no move out */
#define UL(c) ((uint8_t)(NCOUNT + (c)))    /* the same, every move out a loss */
#define UNCOUNTED 64                       /* U, children not counted yet */
#define UNCOUNTED_L 65                     /* UL, children not counted yet */
#define DRAWN 66                           /* unresolved, a move out draws: never lost */
#define LONG_WIN 67
#define LONG_LOSS 68
#define WIN_BASE 68                        /* WIN(d) = 68 + d, d = 1 .. SHORT_MAX */
#define LOSS_BASE (WIN_BASE + SHORT_MAX)   /* LOSS(d) = 161 + d */
#define SHORT_MAX 93
#define TWIN 255
_Static_assert(LOSS_BASE + SHORT_MAX < TWIN, "cell codes fit a byte");

#define EXT_DRAW 0xFFFF  /* as a tb_entry: a draw out of the table */

static int unresolved(uint8_t x) { return x <= DRAWN; }
static int is_win(uint8_t x) { return x == LONG_WIN || (x > WIN_BASE && x <= WIN_BASE + SHORT_MAX); }
static int is_loss(uint8_t x) { return x == LONG_LOSS || (x > LOSS_BASE && x <= LOSS_BASE + SHORT_MAX); }

static void fail(tb_builder *b, const char *msg)
{
    pthread_mutex_lock(&b->lock);
    if (!b->failed) {
        b->failed = 1;
        snprintf(b->err, sizeof b->err, "%s", msg);
    }
    pthread_mutex_unlock(&b->lock);
}

/* Whether a stop is asked for: by the caller, or by a test's knob. */
static int stop_asked(const tb_builder *b)
{
    const struct tb_testing *t = b->opt->testing;
    return (b->opt->stop && *b->opt->stop) ||
           (t && t->stop_at && t->stop_at == b->at && t->stop_in_ply == b->ply &&
            __atomic_load_n(&b->next_block, __ATOMIC_RELAXED) > t->stop_blocks);
}

/* Whether the passes end now.  Where the build saves (save_on_stop), a
 * stop is saved where the passes stopped: a ply of a seven-piece table
 * runs many minutes, the first pass longer, and Ctrl-C must not wait for
 * either. */
static int stopped(const tb_builder *b)
{
    return b->failed || b->halted || stop_asked(b) ||
           (b->opt->testing && b->opt->testing->stop_at_ply && b->ply >= b->opt->testing->stop_at_ply);
}

/* Across ranks: v[0..n) reduced by op over every rank (alone: unchanged). */
static void agree(tb_builder *b, uint64_t *v, int n, tb_reduce_op op)
{
    if (b->ranks && b->ranks->allreduce(b->ranks->ctx, v, n, op) != 0)
        fail(b, "the ranks cannot agree (transport failed)");
}

/* fn over this process's entries (unit 0) or frontier words (unit 6) on
 * b->threads threads: the whole table alone, else each owned block. */
typedef struct {
    tb_builder *b;
    int unit;
    void (*fn)(void *ctx, uint64_t first, uint64_t end);
} owned_walk;

static void owned_blocks(void *ctx, uint64_t lo, uint64_t hi)
{
    owned_walk *w = ctx;
    const tb_part *p = &w->b->part;
    uint64_t end = w->unit ? w->b->words : w->b->n;
    for (uint64_t k = lo; k < hi; k++) {
        uint64_t q = tb_part_block(p, k), first = (q << p->shift) >> w->unit, last = ((q + 1) << p->shift) >> w->unit;
        w->fn(w->b, first, last < end ? last : end);
    }
}

static void each_owned(tb_builder *b, int unit, void (*fn)(void *ctx, uint64_t first, uint64_t end))
{
    if (!b->ranks) {
        util_parallel(b->threads, unit ? b->words : b->n, 0, fn, b);
        return;
    }
    owned_walk w = { b, unit, fn };
    util_parallel(b->threads, b->part.owned, 1, owned_blocks, &w);
}

/* Calls the progress hook at most twice a second, from whichever thread. */
static void report(tb_builder *b, uint64_t add)
{
    uint64_t done = __atomic_add_fetch(&b->done, add, __ATOMIC_RELAXED);
    if (!b->opt->progress)
        return;
    if (b->ranks)
        done *= (uint64_t)b->ranks->size;  /* this rank's share stands for every rank's */
    double t = util_clock();
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

/* The entry of a LONG cell (under b->lock when other threads may write). */
static tb_entry long_entry(const tb_builder *b, uint64_t i)
{
    PWord_t v = (PWord_t)JudyLGet(b->val_long, (Word_t)i, PJE0);
    return v ? (tb_entry)*v : 0;
}

/* Stores e as index i's long entry; the caller holds b->lock.  0 when out
 * of memory. */
static int long_store(tb_builder *b, uint64_t i, tb_entry e)
{
    PWord_t v = (PWord_t)JudyLIns(&b->val_long, (Word_t)i, PJE0);
    if (v)
        *v = e;
    return v != NULL;
}

/* Notes that a value at distance d is waiting for ply d (kind 1 win, 2 loss). */
static void note_pending(tb_builder *b, int d, int kind)
{
    __atomic_or_fetch(&b->pending[d], (uint8_t)kind, __ATOMIC_RELAXED);
    int cur = __atomic_load_n(&b->max_pending, __ATOMIC_RELAXED);
    while (d > cur && !__atomic_compare_exchange_n(&b->max_pending, &cur, d, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Writes the final value e (win or loss) of an unresolved or not yet final
 * cell owned by this thread; 0 when out of memory. */
static int set_final(tb_builder *b, uint64_t i, tb_entry e)
{
    int d = e >> 1, win = e & 1;
    if (d <= b->short_max) {
        __atomic_store_n(&b->c[i], (uint8_t)((win ? WIN_BASE : LOSS_BASE) + d), __ATOMIC_RELAXED);
        return 1;
    }
    pthread_mutex_lock(&b->lock);
    int ok = long_store(b, i, e);
    __atomic_store_n(&b->c[i], win ? LONG_WIN : LONG_LOSS, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&b->lock);
    return ok;
}

/* Orders a move's value for the mover: win (sooner better) > draw > loss
 * (later better) > no move at all. */
static long ext_rank(tb_entry e)
{
    if (e == 0) return 0;
    if (e == EXT_DRAW) return 2000000;
    return (e & 1) ? 3000000 - (e >> 1) : (e >> 1);
}

/* The values of the last position's moves out of the table, by the state
 * they lead to: a game whose index holds several states of one position
 * (Ostle's forbidden moves) lists them one after the other, and their
 * moves out lead to the same states, probed once instead of per state. */
#define MEMO_CAP 32
typedef struct {
    int n[2], cur;
    game_state child[2][MEMO_CAP];
    tb_entry value[2][MEMO_CAP];
} exit_memo;

static int memo_find(const exit_memo *m, const game_state *t, tb_entry *value)
{
    int last = !m->cur;
    for (int i = 0; i < m->n[last]; i++)
        if (m->child[last][i].w[0] == t->w[0] && memcmp(&m->child[last][i], t, sizeof *t) == 0) {
            *value = m->value[last][i];
            return 1;
        }
    return 0;
}

static void memo_keep(exit_memo *m, const game_state *t, tb_entry value)
{
    int c = m->cur;
    if (m->n[c] < MEMO_CAP) {
        m->child[c][m->n[c]] = *t;
        m->value[c][m->n[c]++] = value;
    }
}

/* The best value among the moves of s that leave the table (0: none, or
 * EXT_DRAW), and in *stays the number of its staying moves: distinct ones
 * when the game counts them, -1 for "some, uncounted".  memo (or NULL)
 * holds the previous state's moves out.  -1 on failure. */
static long outside_value(tb_builder *b, const game_state *sp, int *stays, exit_memo *memo)
{
    const game *g = b->g;
    game_state s = *sp;
    game_move moves[GAME_MAX_MOVES];
    char err[300];
    int nc = 0, mover = game_to_move(g, &s);
    int n = b->fast->exits ? b->fast->exits(g, &s, moves, &nc) : game_moves(g, &s, moves);
    tb_entry best = 0;
    if (memo) {
        memo->cur = !memo->cur;
        memo->n[memo->cur] = 0;
    }
    /* Captures are probed together at the end: their lookups' misses
     * overlap (most of the ten-piece Ostle init is these misses). */
    game_state kids[GAME_MAX_MOVES];
    int nk = 0;
    for (int m = 0; m < n; m++) {
        game_state t = s;
        game_play(g, &t, moves[m]);
        tb_entry opt;
        if (memo && memo_find(memo, &t, &opt)) {
            memo_keep(memo, &t, opt);
            if (ext_rank(opt) > ext_rank(best))
                best = opt;
            continue;
        }
        int cm = b->ops->material_of(g, &t);
        if (cm == b->mat) {
            nc++;
            continue;
        } else if (cm >= 0) {
            kids[nk++] = t;
            continue;
        }
        game_result r = game_result_of(g, &t);
        if (r == GAME_ONGOING) {
            fail(b, "a live position has no table material");
            return -1;
        }
        int o = game_outcome_for(r, mover);
        opt = o == 0 ? EXT_DRAW : o > 0 ? TB_WIN_IN(1) : TB_LOSS_IN(1);
        if (memo)
            memo_keep(memo, &t, opt);
        if (ext_rank(opt) > ext_rank(best))
            best = opt;
    }
    tb_value v[GAME_MAX_MOVES];
    int bad = 0, rc = tb_probe_many(b->smaller, kids, nk, v, &bad, err, sizeof err);
    if (rc != 1) {
        char name[32], msg[400];
        b->ops->material_name(g, b->ops->material_of(g, &kids[bad]), name, sizeof name);
        snprintf(msg, sizeof msg, rc < 0 ? "%s" : "table %s is missing (needed by captures)", rc < 0 ? err : name);
        fail(b, msg);
        return -1;
    }
    for (int k = 0; k < nk; k++) {
        tb_entry opt = v[k].wdl == TB_DRAW ? EXT_DRAW
                       : v[k].wdl == TB_WIN ? TB_LOSS_IN(v[k].distance + 1) : TB_WIN_IN(v[k].distance + 1);
        if (memo)
            memo_keep(memo, &kids[k], opt);
        if (ext_rank(opt) > ext_rank(best))
            best = opt;
    }
    if (best && best != EXT_DRAW && (best >> 1) > TB_MAX_DISTANCE - 2) {
        fail(b, "distance out of range");
        return -1;
    }
    /* Without the game's count, playing the moves counted each staying one,
     * not the distinct children: counted later, when a loss pass needs it. */
    *stays = b->fast->exits ? nc : nc ? -1 : 0;
    return best;
}

/* Per init chunk: which pending distances occur (an atomic write per
 * position to the shared flags would bounce their cache line between cores). */
typedef struct {
    tb_builder *b;
    int local_max;
    uint8_t seen[TB_MAX_DISTANCE + 1];
    exit_memo memo;
} init_chunk;

static void init_position(void *ctx, uint64_t i, const game_state *s, int twin)
{
    init_chunk *ic = ctx;
    tb_builder *b = ic->b;
    if (b->failed)
        return;
    if (twin) {
        b->c[i] = TWIN;
        return;
    }
    int nc;
    /* the memo serves the states of one position (state_group), which come
     * one after the other; other games' neighbours share no exit */
    long best = outside_value(b, s, &nc, b->fast->state_group ? &ic->memo : NULL);
    if (best < 0)
        return;
    if (nc >= NCOUNT) {
        fail(b, "more distinct moves than the builder counts");
        return;
    }
    uint8_t x;
    if (best == EXT_DRAW) {
        x = DRAWN;
    } else if (best && ((best & 1) || nc == 0)) {
        /* A win out of the table, or a loss with no move that stays: known
         * now, put on the frontier at its own ply. */
        int d = (int)(best >> 1);
        ic->seen[d] |= (best & 1) ? 1 : 2;
        if (d > ic->local_max)
            ic->local_max = d;
        if (!set_final(b, i, (tb_entry)best))
            fail(b, "out of memory (long distances)");
        return;
    } else if (best) {
        x = nc < 0 ? UNCOUNTED_L : UL(nc);
    } else {
        x = nc < 0 ? UNCOUNTED : U(nc);
    }
    b->c[i] = x;
}

/* The first pass over positions [first, end). */
static void init_piece(tb_builder *b, uint64_t first, uint64_t end)
{
    init_chunk *ic = calloc(1, sizeof *ic);
    if (!ic) {
        fail(b, "out of memory");
        return;
    }
    ic->b = b;
    if (b->fast->each) {
        b->fast->each(b->g, b->ix, b->mat, first, end, init_position, ic);
    } else {
        for (uint64_t i = first; i < end; i++) {
            game_state s;
            b->ops->unindex(b->g, b->ix, b->mat, i, &s);
            init_position(ic, i, &s, b->ops->index(b->g, b->ix, &s) != i);
        }
    }
    for (int d = 0; d <= ic->local_max; d++)
        if (ic->seen[d])
            note_pending(b, d, ic->seen[d]);
    free(ic);
    report(b, end - first);
}

/* The first pass over [first, end), from b->init_from on, in pieces with a
 * stop looked for between them; a stop notes the first index left undone
 * (init_end).  The pieces are dealt in order (util_parallel), and a piece
 * done twice gets the same values, so everything below init_end is done. */
static void init_range(void *ctx, uint64_t first, uint64_t end)
{
    tb_builder *b = ctx;
    uint64_t piece = (uint64_t)1 << (b->opt->testing && b->opt->testing->owner_block_log2 ? b->opt->testing->owner_block_log2 : 16);
    for (uint64_t at = first > b->init_from ? first : b->init_from; at < end; at += piece) {
        if (stopped(b)) {
            for (uint64_t e = __atomic_load_n(&b->init_end, __ATOMIC_RELAXED);
                 at < e && !__atomic_compare_exchange_n(&b->init_end, &e, at, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);)
                ;
            return;
        }
        init_piece(b, at, end - at > piece ? at + piece : end);
        __atomic_add_fetch(&b->next_block, 1, __ATOMIC_RELAXED);
    }
}

/* Puts position i, which this owner holds, on the frontier `out` (its word
 * lies in the owner's block). */
static void frontier_add(tb_builder *b, uint64_t i) { b->out[i >> 6] |= 1ULL << (i & 63); }

/* Makes position i a win in k unless it is resolved at k or sooner (a win
 * out of the table waits as a longer win); 1 if this call did.  The owner
 * of i calls it: the cell is its alone. */
static int claim_win(tb_builder *b, uint64_t i, int k)
{
    uint8_t x = b->c[i];
    if (k <= b->short_max) {
        uint8_t w = (uint8_t)(WIN_BASE + k);
        if (!(unresolved(x) || x == LONG_WIN || (x > w && x <= WIN_BASE + SHORT_MAX)))
            return 0;
        b->c[i] = w;
    } else {
        /* Past the byte's distances (rare): the Judy array is shared. */
        if (!unresolved(x) && x != LONG_WIN)
            return 0;
        pthread_mutex_lock(&b->lock);
        int take = unresolved(x) || (long_entry(b, i) >> 1) > k;
        int stored = !take || long_store(b, i, TB_WIN_IN(k));
        pthread_mutex_unlock(&b->lock);
        if (!stored)
            fail(b, "out of memory (long distances)");
        if (!take)
            return 0;
        b->c[i] = LONG_WIN;
    }
    frontier_add(b, i);
    return 1;
}

/* Un-moves of frontier position j. */
static int predecessors(tb_builder *b, uint64_t j, uint64_t *pred)
{
    if (b->fast->unmoves_index)
        return b->fast->unmoves_index(b->g, b->ix, b->mat, j, pred);
    game_state s;
    b->ops->unindex(b->g, b->ix, b->mat, j, &s);
    return b->ops->unmoves(b->g, b->ix, &s, pred);
}

/* The send half of a pass for sender o: the predecessors of the frontier
 * positions (in `in`), a block of the frontier at a time, each block claimed
 * by whichever sender is free (the owners' blocks balance the applying, not
 * the sending); from where its last round stopped, each position's bit
 * cleared once its updates are in the boxes.  1 when none are left. */
static int send_predecessors(void *ctx, int o, tb_outbox *out)
{
    tb_builder *b = ctx;
    const uint64_t block = (uint64_t)1 << (out->shift - 6);
    uint64_t pred[GAME_MAX_PREDECESSORS];
    for (;;) {
        uint64_t w = b->cursor[o], end = b->cursor_end[o];
        if (w >= end) {
            uint64_t k = __atomic_fetch_add(&b->next_block, 1, __ATOMIC_RELAXED);
            if (k >= b->part.owned)
                return 1;
            w = tb_part_block(&b->part, k) * block;
            end = w + block < b->words ? w + block : b->words;
            b->cursor_end[o] = end;
        }
        /* Late plies of a long table have a few positions in a bitmap of
         * gigabytes: an empty word costs one load, not a stop check and a
         * store (which were most of those plies). */
        for (; w < end; w++) {
            uint64_t x = b->in[w];
            if (!x)
                continue;
            if (stopped(b))
                return 1;
            for (; x; x &= x - 1) {
                if (!tb_outbox_room(out, GAME_MAX_PREDECESSORS)) {
                    b->in[w] = x;
                    b->cursor[o] = w;
                    return 0;
                }
                tb_outbox_put(out, pred, predecessors(b, w * 64 + (uint64_t)__builtin_ctzll(x), pred));
            }
            b->in[w] = 0;
        }
        b->cursor[o] = w;
    }
}

/* The apply half: fn on each update, the cells a few updates ahead
 * prefetched (the updates are known, so their misses overlap).  Inlined
 * with each fn: no indirect call per update. */
#define APPLY_AHEAD 16
__attribute__((always_inline)) static inline void apply_each(tb_builder *b, const uint64_t *upd, uint64_t n,
                                                           int (*fn)(tb_builder *, uint64_t, int))
{
    uint64_t resolved = 0;
    for (uint64_t u = 0; u < n && u < APPLY_AHEAD; u++)
        __builtin_prefetch(&b->c[upd[u]], 1);
    for (uint64_t u = 0; u < n; u++) {
        if (u + APPLY_AHEAD < n)
            __builtin_prefetch(&b->c[upd[u + APPLY_AHEAD]], 1);
        resolved += (uint64_t)fn(b, upd[u], b->ply);
    }
    __atomic_add_fetch(&b->resolved, resolved, __ATOMIC_RELAXED);
    report(b, resolved);
}

/* Wins at ply k from the losses at k-1. */
static void apply_wins(void *ctx, int owner, const uint64_t *upd, uint64_t n)
{
    (void)owner;
    apply_each(ctx, upd, n, claim_win);
}

/* Distinct same-table children of position i. */
static int count_children(tb_builder *b, uint64_t i)
{
    uint64_t child[GAME_MAX_MOVES];
    if (b->fast->successors_index)
        return b->fast->successors_index(b->g, b->ix, b->mat, i, child);
    game_state s;
    b->ops->unindex(b->g, b->ix, b->mat, i, &s);
    return b->fast->count_successors ? b->fast->count_successors(b->g, &s) : b->ops->successors(b->g, b->ix, &s, child);
}

/* The loss distance of position i, every child won by ply k-1: k, or
 * later when its best move out of the table loses later. */
static int loss_distance(tb_builder *b, uint64_t i, int k)
{
    game_state s;
    int nc;
    b->ops->unindex(b->g, b->ix, b->mat, i, &s);
    long best = outside_value(b, &s, &nc, NULL);
    int d = best > 0 && best != EXT_DRAW && !(best & 1) ? (int)(best >> 1) : 0;
    return d > k ? d : k;
}

/* One more child of position i is won: counts it down, and makes i lost
 * when it was the last; 1 if i is lost at ply k. */
static int child_won(tb_builder *b, uint64_t i, int k)
{
    uint8_t x = b->c[i];
    if (x == UNCOUNTED || x == UNCOUNTED_L) {
        int count = count_children(b, i);
        if (count >= NCOUNT || count < 1) {
            fail(b, count < 1 ? "a won child that its parent does not have" : "more distinct moves than the builder counts");
            return 0;
        }
        x = x == UNCOUNTED ? U(count) : UL(count);
        b->c[i] = x;
    }
    if (x >= 2 * NCOUNT || x == U(0) || x == UL(0))
        return 0;  /* resolved, never lost, or a twin */
    if (x != U(1) && x != UL(1)) {
        b->c[i] = (uint8_t)(x - 1);
        return 0;
    }
    int d = x == UL(1) ? loss_distance(b, i, k) : k;
    if (d > TB_MAX_DISTANCE - 2) {
        fail(b, "distance out of range");
        return 0;
    }
    if (!set_final(b, i, TB_LOSS_IN(d)))
        fail(b, "out of memory (long distances)");
    if (d > k) {
        note_pending(b, d, 2);
        return 0;
    }
    frontier_add(b, i);
    return 1;
}

/* Losses at ply k from the wins at k-1. */
static void apply_losses(void *ctx, int owner, const uint64_t *upd, uint64_t n)
{
    (void)owner;
    apply_each(ctx, upd, n, child_won);
}

/* Bit j of the result: byte 64*word + j equals code. */
static uint64_t match_word(const uint8_t *c, uint8_t code)
{
    uint64_t m = 0;
#ifdef __SSE2__
    __m128i k = _mm_set1_epi8((char)code);
    for (int q = 0; q < 4; q++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(c + 16 * q));
        m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, k)) << (16 * q);
    }
#else
    for (int j = 0; j < 64; j++)
        m |= (uint64_t)(c[j] == code) << j;
#endif
    return m;
}

/* Puts the positions whose value was known before ply k on the frontiers
 * of ply k: the wins in k on `in` (the new wins), the losses in k on `out`
 * (the new losses); words [first, end) of the cells. */
static void scan_pending(void *ctx, uint64_t first, uint64_t end)
{
    tb_builder *b = ctx;
    int k = b->ply, kinds = b->pending[k];
    uint64_t added = 0, full = b->n / 64;
    for (uint64_t w = first; w < end; w++) {
        const uint8_t *c = b->c + 64 * w;
        uint64_t win = 0, loss = 0;
        if (w < full) {
            if (kinds & 1) win = match_word(c, (uint8_t)(WIN_BASE + k));
            if (kinds & 2) loss = match_word(c, (uint8_t)(LOSS_BASE + k));
        } else {
            for (uint64_t j = 0; 64 * w + j < b->n; j++) {
                win |= (uint64_t)((kinds & 1) && c[j] == WIN_BASE + k) << j;
                loss |= (uint64_t)((kinds & 2) && c[j] == LOSS_BASE + k) << j;
            }
        }
        added += (uint64_t)__builtin_popcountll(win & ~b->in[w]) + (uint64_t)__builtin_popcountll(loss & ~b->out[w]);
        b->in[w] |= win;
        b->out[w] |= loss;
    }
    __atomic_add_fetch(&b->resolved, added, __ATOMIC_RELAXED);
}

/* As scan_pending for a ply past the byte's distances: the long entries. */
static uint64_t scan_pending_long(tb_builder *b, uint64_t *wins, uint64_t *losses)
{
    uint64_t added = 0;
    tb_entry w = TB_WIN_IN(b->ply), l = TB_LOSS_IN(b->ply);
    Word_t i = 0;
    for (PWord_t v = (PWord_t)JudyLFirst(b->val_long, &i, PJE0); v; v = (PWord_t)JudyLNext(b->val_long, &i, PJE0)) {
        uint8_t x = b->c[i];
        uint64_t *f = x == LONG_WIN && *v == w ? wins : x == LONG_LOSS && *v == l ? losses : NULL;
        if (f && !(f[i >> 6] >> (i & 63) & 1)) {
            f[i >> 6] |= 1ULL << (i & 63);
            added++;
        }
    }
    return added;
}

static void copy_twins(void *ctx, uint64_t first, uint64_t end)
{
    tb_builder *b = ctx;
    for (uint64_t i = first; i < end; i++)
        if (b->c[i] == TWIN) {
            game_state s;
            b->ops->unindex(b->g, b->ix, b->mat, i, &s);
            uint64_t j = b->ops->index(b->g, b->ix, &s);
            uint8_t x = b->c[j];
            if (x == LONG_WIN || x == LONG_LOSS) {
                pthread_mutex_lock(&b->lock);
                int stored = long_store(b, i, long_entry(b, j));
                pthread_mutex_unlock(&b->lock);
                if (!stored)
                    fail(b, "out of memory (long distances)");
            }
            b->c[i] = x;
        }
}

/* Across ranks, the twins of this rank in batches: each asks the owner of
 * its canonical entry for the value, in one all-to-all there and one back,
 * until no rank has twins left.  0, or -1 (the builder failed). */
#define TWIN_BATCH ((uint64_t)1 << 20)

typedef struct {
    uint64_t k, i;            /* the walk: owned block k, entry i */
    uint64_t *twin, *ask, *got, *at, *from, *from2, cap, cap2;
    int *dest;
} twin_walk;

/* The next batch of this rank's twins: their count. */
static uint64_t next_twins(tb_builder *b, twin_walk *w)
{
    uint64_t m = 0, size = (uint64_t)1 << b->part.shift;
    while (m < TWIN_BATCH && w->k < b->part.owned) {
        uint64_t lo = tb_part_block(&b->part, w->k) * size, hi = lo + size < b->n ? lo + size : b->n;
        if (w->i < lo)
            w->i = lo;
        for (; w->i < hi && m < TWIN_BATCH; w->i++)
            if (b->c[w->i] == TWIN)
                w->twin[m++] = w->i;
        if (w->i >= hi)
            w->k++;
    }
    return m;
}

/* One batch of m twins: canonical entries asked of their owners, answers
 * given for the entries asked here, the twins set. */
static int twin_batch(tb_builder *b, twin_walk *w, uint64_t m, uint64_t *slot)
{
    const tb_ranks *r = b->ranks;
    for (int p = 0; p <= r->size; p++)
        w->at[p] = 0;
    for (uint64_t j = 0; j < m; j++) {
        game_state s;
        b->ops->unindex(b->g, b->ix, b->mat, w->twin[j], &s);
        uint64_t canon = b->ops->index(b->g, b->ix, &s);
        w->dest[j] = tb_part_rank(&b->part, canon);
        w->got[j] = canon;
        w->at[w->dest[j] + 1]++;
    }
    for (int p = 0; p < r->size; p++)
        w->at[p + 1] += w->at[p];
    for (int p = 0; p < r->size; p++)
        slot[p] = w->at[p];
    for (uint64_t j = 0; j < m; j++)
        w->ask[slot[w->dest[j]]++] = w->got[j];
    if (r->alltoall(r->ctx, w->ask, w->at, &w->got, &w->cap, w->from) != 0)
        return -1;
    for (uint64_t a = 0; a < w->from[r->size]; a++)
        w->got[a] = tb_retro_value(b, w->got[a]);
    uint64_t *answers = NULL;
    if (r->alltoall(r->ctx, w->got, w->from, &answers, &w->cap2, w->from2) != 0)
        return free(answers), -1;
    for (int p = 0; p < r->size; p++)
        slot[p] = w->at[p];
    for (uint64_t j = 0; j < m; j++) {
        tb_entry e = (tb_entry)answers[slot[w->dest[j]]++];
        if (e == 0)
            b->c[w->twin[j]] = DRAWN;
        else if (!set_final(b, w->twin[j], e))
            fail(b, "out of memory (long distances)");
    }
    free(answers);
    return 0;
}

static void copy_twins_ranked(tb_builder *b)
{
    int size = b->ranks->size;
    twin_walk w = { .twin = malloc(TWIN_BATCH * 8), .ask = malloc(TWIN_BATCH * 8),
                    .got = malloc(TWIN_BATCH * 8), .cap = TWIN_BATCH, .dest = malloc(TWIN_BATCH * sizeof(int)),
                    .at = calloc((size_t)size + 1, 8), .from = calloc((size_t)size + 1, 8),
                    .from2 = calloc((size_t)size + 1, 8) };
    uint64_t *slot = calloc((size_t)size + 1, 8);
    uint64_t more = 1, ok = w.twin && w.ask && w.got && w.dest && w.at && w.from && w.from2 && slot;
    while (more) {
        uint64_t m = ok ? next_twins(b, &w) : 0;
        /* every rank goes round as long as one has twins left */
        uint64_t v[2] = { m > 0 || w.k < b->part.owned, !ok };
        agree(b, v, 2, TB_MAX);
        if (v[1] || b->failed) {
            fail(b, "out of memory (twins)");
            break;
        }
        more = v[0];
        if (more && twin_batch(b, &w, m, slot) != 0) {
            fail(b, "the ranks cannot agree (transport failed)");
            break;
        }
    }
    free(w.twin), free(w.ask), free(w.got), free(w.dest), free(w.at), free(w.from), free(w.from2), free(slot);
}

tb_entry tb_retro_value(const void *ctx, uint64_t i)
{
    const tb_builder *b = ctx;
    uint8_t x = b->c[i];
    if (x == LONG_WIN || x == LONG_LOSS)
        return long_entry(b, i);
    if (is_win(x))
        return TB_WIN_IN(x - WIN_BASE);
    if (is_loss(x))
        return TB_LOSS_IN(x - LOSS_BASE);
    return 0;
}

/* One pass of ply k: the predecessors of the frontier `in` (left clear)
 * updated by apply, the positions it resolves set in `out`.  Returns how
 * many. */
static uint64_t pass(tb_builder *b, uint64_t *in, uint64_t *out,
                     void (*apply)(void *ctx, int owner, const uint64_t *upd, uint64_t n))
{
    b->in = in;
    b->out = out;
    b->resolved = 0;
    b->next_block = 0;
    for (int o = 0; o < b->owners; o++)
        b->cursor[o] = b->cursor_end[o] = 0;
    if (tb_exchange_pass(b->ex, send_predecessors, apply, b) != 0)
        fail(b, "the ranks cannot agree (transport failed)");
    return b->resolved;
}

/* The pending values of ply k put on its frontiers; returns how many were
 * not there yet. */
static uint64_t pending_pass(tb_builder *b, uint64_t *wins, uint64_t *losses)
{
    if (b->ply > b->max_pending || !b->pending[b->ply])
        return 0;
    if (b->ply > b->short_max)
        return scan_pending_long(b, wins, losses);
    b->in = wins;
    b->out = losses;
    b->resolved = 0;
    each_owned(b, 6, scan_pending);
    return b->resolved;
}

/* Saves the build where its passes are (b->at in ply b->ply).  A save
 * that fails costs only the chance to resume: the build goes on (or
 * stops), and says so. */
static void save_now(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins)
{
    double t = util_clock();
    char err[600], where[sizeof b->saved_at];
    tb_retro_where(b, where, sizeof where);
    int rc = b->ranks ? tb_retro_save_ranked(b, wins, losses, new_wins, b->save_path, err, sizeof err)
                      : tb_retro_save(b, wins, losses, new_wins, b->save_path, err, sizeof err);
    if (rc == 0) {
        snprintf(b->saved_at, sizeof b->saved_at, "%s", where);
        if (b->opt->log) {
            fprintf(b->opt->log, "%s: saved %s in %.0f s\n", b->prog.material, where, util_clock() - t);
            fflush(b->opt->log);
        }
    } else if (b->opt->log) {
        fprintf(b->opt->log, "%s: not saved %s: %s\n", b->prog.material, where, err);
        fflush(b->opt->log);
    }
    b->last_save = util_clock();
}

/* At a ply's end: saves when save_every seconds have passed since the
 * last save (or the table's start); across ranks, when they have on any
 * rank (every rank saves, or none). */
static void save_if_due(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins)
{
    if (!b->save_path || b->opt->save_every <= 0)
        return;
    uint64_t due = !stopped(b) && util_clock() - b->last_save >= b->opt->save_every;
    agree(b, &due, 1, TB_MAX);
    if (due && !b->failed)
        save_now(b, wins, losses, new_wins);
}

/* After a pass: a stop asked for is saved here, where the build saves;
 * `found` is what the ply resolved so far.  Across ranks, a stop on any
 * rank stops them all here, each rank's frontier holding what it has not
 * sent.  1 if the build stops so. */
static int stop_saved(tb_builder *b, uint64_t found, uint64_t *wins, uint64_t *losses, uint64_t *new_wins)
{
    if (!b->save_on_stop)
        return 0;
    uint64_t v[2] = { (uint64_t)stop_asked(b), (uint64_t)b->failed };
    agree(b, v, 2, TB_MAX);
    if (!v[0] || v[1] || b->failed)
        return 0;
    b->halted = b->ranks != NULL;  /* a rank the stop did not reach stops too */
    b->ply_found = found;
    save_now(b, wins, losses, new_wins);
    return 1;
}

/* Whether the build stops here: agreed by every rank (a failure or stop
 * on one stops all, so that none waits for the others in a pass), with the
 * longest distance pending anywhere. */
static int halt_agreed(tb_builder *b)
{
    uint64_t most[2] = { (uint64_t)b->max_pending, (uint64_t)(b->failed ? 2 : stopped(b) ? 1 : 0) };
    agree(b, most, 2, TB_MAX);
    b->max_pending = (int)most[0];
    if (most[1] == 2 && !b->failed)
        fail(b, "stopped: another rank failed (its message says why)");
    else if (most[1] == 1)
        b->halted = 1;
    return most[1] != 0;
}

/* Whether the ply loop ends after ply b->ply resolved `found` positions
 * here (across ranks: the finds of every rank). */
static int last_ply(tb_builder *b, uint64_t found)
{
    agree(b, &found, 1, TB_SUM);
    return halt_agreed(b) || (!found && b->ply >= b->max_pending);
}

/* The arrays of a build: 0, or -1 when out of memory.  Across ranks, only
 * the pages of this rank's blocks are ever touched. */
static int alloc_build(tb_builder *b, uint64_t **wins, uint64_t **losses, uint64_t **new_wins)
{
    void *(*alloc)(size_t) = b->ranks ? util_alloc_sparse : util_alloc_big;
    b->words = (b->n + 63) / 64;
    b->c = alloc(b->n);
    b->pending = calloc(TB_MAX_DISTANCE + 1, 1);
    b->max_pending = 0;
    /* Three frontiers: the wins and losses of the last ply and the new
     * wins; the new losses go where the last losses were read. */
    *wins = alloc(b->words * 8), *losses = alloc(b->words * 8), *new_wins = alloc(b->words * 8);
    int size = b->ranks ? b->ranks->size : 1, rank = b->ranks ? b->ranks->rank : 0;
    b->owners = b->threads < TB_MAX_OWNERS / size ? b->threads : TB_MAX_OWNERS / size;
    int asked = b->opt->testing ? b->opt->testing->owner_block_log2 : 0;
    int own_shift = asked >= 6 ? asked : TB_OWN_SHIFT;
    b->part = tb_part_of(b->n, own_shift, rank, size, b->owners);
    b->ex = tb_exchange_new(b->owners, b->ranks, own_shift, b->n, GAME_MAX_PREDECESSORS);
    return b->c && b->pending && *wins && *losses && *new_wins && b->ex ? 0 : -1;
}

/* The build's save, if it has one, read into the arrays (saying so in the
 * log): 1 read, 0 none, -1 with err. */
static int load_save(tb_builder *b, uint64_t *wins, uint64_t *losses, uint64_t *new_wins, char *err, size_t errlen)
{
    b->saved_at[0] = 0;
    b->save_gen = 0;
    b->save_on_stop = b->save_path != NULL;
    b->at = RETRO_PLY_END;
    b->ply_found = b->init_from = 0;
    b->last_save = util_clock();
    int loaded = !b->save_path ? 0
                 : b->ranks ? tb_retro_load_ranked(b, wins, losses, new_wins, b->save_path, err, errlen)
                            : tb_retro_load(b, wins, losses, new_wins, b->save_path, err, errlen);
    if (loaded > 0) {
        tb_retro_where(b, b->saved_at, sizeof b->saved_at);
        if (b->opt->log) {
            fprintf(b->opt->log, "%s: going on from its build saved %s\n", b->prog.material, b->saved_at);
            fflush(b->opt->log);
        }
    }
    return loaded;
}

int tb_retro_build(tb_builder *b, char *err, size_t errlen)
{
    uint64_t n = b->n, *wins, *losses, *new_wins;
    if (b->short_max <= 0 || b->short_max > SHORT_MAX)
        b->short_max = SHORT_MAX;
    int rc = -1;
    uint64_t no_memory = alloc_build(b, &wins, &losses, &new_wins) != 0;
    agree(b, &no_memory, 1, TB_MAX);
    if (no_memory) {
        util_error(err, errlen, "%s: out of memory (%llu positions)", b->prog.material, (unsigned long long)n);
        goto out;
    }
    int loaded = load_save(b, wins, losses, new_wins, err, errlen);
    if (loaded < 0)
        goto out;
    double t = util_clock();
    if (!loaded || b->at == RETRO_INIT) {
        b->prog.phase = "init";
        if (!loaded)
            b->ply = 0, b->t_init = 0, b->done = 0;
        b->at = RETRO_INIT;
        b->init_end = n;
        b->next_block = 0;
        each_owned(b, 0, init_range);
        b->t_init += util_clock() - t;
        b->init_from = b->init_end;
        if (!stop_saved(b, 0, wins, losses, new_wins)) {
            b->at = RETRO_PLY_END;
            t = util_clock();
            b->t_plies = 0;
            b->done = 0;
            save_if_due(b, wins, losses, new_wins);
        }
    } else {
        t -= b->t_plies;
    }
    b->prog.phase = "plies";
    int halt = halt_agreed(b);
    /* a save made inside a ply goes on with that ply, from the pass it names */
    for (b->ply += b->at == RETRO_PLY_END; !halt; b->ply++) {
        if (b->ply > TB_MAX_DISTANCE - 2) {
            fail(b, "distance out of range");
            break;
        }
        uint64_t found = b->at == RETRO_PLY_END ? 0 : b->ply_found;
        if (b->at != RETRO_LOSSES) {
            b->at = RETRO_WINS;
            found += pass(b, losses, new_wins, apply_wins);
            b->t_plies = util_clock() - t;
            if (stop_saved(b, found, wins, losses, new_wins))
                break;
        }
        b->at = RETRO_LOSSES;
        found += pass(b, wins, losses, apply_losses);
        b->t_plies = util_clock() - t;
        if (stop_saved(b, found, wins, losses, new_wins))
            break;
        found += pending_pass(b, new_wins, losses);
        uint64_t *last = wins;
        wins = new_wins;
        new_wins = last;  /* cleared by the pass that read it */
        b->at = RETRO_PLY_END;
        b->t_plies = util_clock() - t;
        if (stop_saved(b, 0, wins, losses, new_wins))  /* a stop since the last pass: the whole ply saved */
            break;
        if (last_ply(b, found))
            break;
        save_if_due(b, wins, losses, new_wins);
    }
    if (b->failed) {
        util_error(err, errlen, "%s: %s", b->prog.material, b->err);
        goto out;
    }
    if (stopped(b)) {
        rc = 1;  /* interrupted: nothing is written */
        goto out;
    }
    if (b->ranks)
        copy_twins_ranked(b);
    else
        util_parallel(b->threads, n, 0, copy_twins, b);
    b->t_plies = util_clock() - t;
    rc = b->failed ? util_error(err, errlen, "%s: %s", b->prog.material, b->err) : 0;
out:
    util_free_big(wins, b->words * 8);
    util_free_big(losses, b->words * 8);
    util_free_big(new_wins, b->words * 8);
    tb_exchange_free(b->ex);
    b->ex = NULL;
    free(b->pending);
    b->pending = NULL;
    return rc;
}

void tb_retro_free(tb_builder *b)
{
    JudyLFreeArray(&b->val_long, PJE0);
    util_free_big(b->c, b->n);
    b->c = NULL;
}
