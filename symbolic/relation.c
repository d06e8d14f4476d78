/* symbolic/relation.c - Othello's transition relation as BDDs, partitioned
 * by square (a disc put there by either side) plus the two passes, for van
 * Dijk's algorithms.  Variables per square, interleaved with their
 * next-state copies: occupied, occupied', white, white'; then the side to
 * move (1: White) and its copy.  A move on sq by the mover: sq empty and
 * closing a run in some direction, sq the mover's after it, each square a
 * run from sq can reach flipped when it lies in a closed run, else
 * unchanged, the side to move changed; the squares no run reaches are left
 * out of the part (images and preimages keep them as they are). */
#include "internal.h"
#include "../util/util.h"

#include <stdlib.h>

static int W, H, limit, hit_limit;
static volatile int *stop_flag;
static void (*tick_fn)(const sym_tick *t, void *ctx);
static void *tick_ctx;
static sym_tick ticked;
static double tick_last;

void sym_set_stop(volatile int *flag) { stop_flag = flag; }

void sym_set_progress(void (*fn)(const sym_tick *t, void *ctx), void *ctx)
{
    tick_fn = fn, tick_ctx = ctx;
    ticked = (sym_tick){ 0 };
    tick_last = 0;
}

void sym_tick_now(int set_nodes)
{
    if (set_nodes >= 0)
        ticked.iterations++, ticked.set_nodes = set_nodes;
    double t;
    if (!tick_fn || (t = util_clock()) - tick_last < 0.5)
        return;
    tick_last = t;
    ticked.table_nodes = bdd_getnodenum();
    tick_fn(&ticked, tick_ctx);
}

/* Whether a loop over the parts should give up: the node limit was
 * reached or a signal asked to stop (the caller sees which).  Between
 * parts, the progress hook's chance. */
static int cut_short(void)
{
    sym_tick_now(-1);
    return hit_limit || (stop_flag && __atomic_load_n(stop_flag, __ATOMIC_RELAXED));
}
static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 }, dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };

int sym_occ_var(int sq, int next) { return 4 * sq + next; }
int sym_white_var(int sq, int next) { return 4 * sq + 2 + next; }
int sym_turn_var(int next) { return 4 * W * H + next; }

BDD sym_join(BDD a, BDD b, int op)
{
    BDD r = bdd_addref(bdd_apply(a, b, op));
    bdd_delref(a);
    bdd_delref(b);
    return r;
}

BDD sym_disc(int sq, int p, int next)
{
    return bdd_addref(bdd_apply(bdd_ithvar(sym_occ_var(sq, next)),
                                p ? bdd_ithvar(sym_white_var(sq, next)) : bdd_nithvar(sym_white_var(sq, next)), bddop_and));
}

/* Square index of sq moved k steps in direction d, or -1 off the board. */
static int step(int sq, int d, int k)
{
    int r = sq / W + k * dr[d], c = sq % W + k * dc[d];
    return r >= 0 && r < H && c >= 0 && c < W ? r * W + c : -1;
}

/* From distance j + 1 on in direction d from sq: opponents, then a disc of
 * p (the run closes), referenced. */
static BDD closes_after(int sq, int d, int j, int p)
{
    BDD any = bdd_addref(bddfalse), run = bdd_addref(bddtrue);
    for (int k = j + 1; step(sq, d, k) >= 0; k++) {
        if (k >= 2)
            any = sym_join(any, sym_join(bdd_addref(run), sym_disc(step(sq, d, k), p, 0), bddop_and), bddop_or);
        run = sym_join(run, sym_disc(step(sq, d, k), !p, 0), bddop_and);
    }
    bdd_delref(run);
    return any;
}

/* An empty square (both its variables 0, as 3T holds them), referenced. */
static BDD empty_square(int sq)
{
    return bdd_addref(bdd_apply(bdd_nithvar(sym_occ_var(sq, 0)), bdd_nithvar(sym_white_var(sq, 0)), bddop_and));
}

/* A disc of p on sq would close a run in some direction, referenced. */
static BDD closes_a_run(int sq, int p)
{
    BDD any = bdd_addref(bddfalse);
    for (int d = 0; d < 8; d++)
        any = sym_join(any, closes_after(sq, d, 0, p), bddop_or);
    return any;
}

/* Opponents of p at distances 1..j from sq in direction d, referenced. */
static BDD opponents_to(int sq, int d, int j, int p)
{
    BDD run = bdd_addref(bddtrue);
    for (int i = 1; i <= j; i++)
        run = sym_join(run, sym_disc(step(sq, d, i), !p, 0), bddop_and);
    return run;
}

/* Square s the same in the next state, referenced. */
static BDD unchanged(int s)
{
    return bdd_addref(bdd_apply(bdd_biimp(bdd_ithvar(sym_occ_var(s, 0)), bdd_ithvar(sym_occ_var(s, 1))),
                                bdd_biimp(bdd_ithvar(sym_white_var(s, 0)), bdd_ithvar(sym_white_var(s, 1))), bddop_and));
}

/* Square s (unchanged or flipped to p) in the next state, given flip. */
static BDD next_square(int s, int p, BDD flip)
{
    BDD same = unchanged(s);
    BDD mine = sym_disc(s, p, 1), r = bdd_addref(bdd_ite(flip, mine, same));
    bdd_delref(same);
    bdd_delref(mine);
    return r;
}

/* Whether sq + k * d (k >= 1) can flip: a square beyond it on the board. */
static int can_flip(int sq, int d, int k) { return step(sq, d, k) >= 0 && step(sq, d, k + 1) >= 0; }

/* The side to move p before, !p after. */
static BDD turn_change(int p)
{
    return bdd_addref(bdd_apply(p ? bdd_ithvar(sym_turn_var(0)) : bdd_nithvar(sym_turn_var(0)),
                                p ? bdd_nithvar(sym_turn_var(1)) : bdd_ithvar(sym_turn_var(1)), bddop_and));
}

/* The move of player p on sq over the squares it can change (sq, those a
 * run from it can flip) and the side to move; the other squares appear
 * only as the current state's guard (a disc closing a run), so an image or
 * preimage quantifies and renames the changed variables alone (van Dijk's
 * H_ij): a part a fraction of the whole board's size.  Referenced. */
static BDD move_on(int sq, int p)
{
    BDD t = sym_join(empty_square(sq), closes_a_run(sq, p), bddop_and);
    t = sym_join(t, sym_disc(sq, p, 1), bddop_and);
    for (int d = 0; d < 8; d++)
        for (int j = 1; can_flip(sq, d, j); j++) {
            BDD flip = sym_join(opponents_to(sq, d, j, p), closes_after(sq, d, j, p), bddop_and);
            BDD keep = next_square(step(sq, d, j), p, flip);
            bdd_delref(flip);
            t = sym_join(t, keep, bddop_and);
        }
    return sym_join(t, turn_change(p), bddop_and);
}

/* The variables a part changes, current and next: sq and the squares it
 * can flip (sq < 0: none, a pass), the side to move. */
static void changed_vars(int sq, int *cur, int *nxt, int *n)
{
    *n = 0;
    if (sq >= 0) {
        int sqs[64], k = 0;
        sqs[k++] = sq;
        for (int d = 0; d < 8; d++)
            for (int j = 1; can_flip(sq, d, j); j++)
                sqs[k++] = step(sq, d, j);
        for (int i = 0; i < k; i++) {
            cur[*n] = sym_occ_var(sqs[i], 0), nxt[(*n)++] = sym_occ_var(sqs[i], 1);
            cur[*n] = sym_white_var(sqs[i], 0), nxt[(*n)++] = sym_white_var(sqs[i], 1);
        }
    }
    cur[*n] = sym_turn_var(0), nxt[(*n)++] = sym_turn_var(1);
}

BDD sym_has_move(int p)
{
    BDD any = bdd_addref(bddfalse);
    for (int sq = 0; sq < W * H; sq++)
        any = sym_join(any, sym_join(bdd_addref(bdd_nithvar(sym_occ_var(sq, 0))), closes_a_run(sq, p), bddop_and),
                       bddop_or);
    return any;
}

/* Player p passes: no move of its own, one of the other side's (a guard on
 * the board, which stays); the side to move changed.  Referenced. */
static BDD pass_of(int p)
{
    BDD mine = sym_has_move(p), none = bdd_addref(bdd_not(mine));
    bdd_delref(mine);
    BDD t = sym_join(none, sym_has_move(!p), bddop_and);
    return sym_join(t, turn_change(p), bddop_and);
}

static void on_error(int code)
{
    if (code == BDD_NODENUM || code == BDD_NODES || code == BDD_MEMORY)
        hit_limit = 1;
}

int sym_bdd_start(int w, int h, int node_limit, char *err, size_t errlen)
{
    if (w < 3 || h < 3 || w > 8 || h > 8 || w * h > 40)
        return util_error(err, errlen, "a %dx%d board: 3 to 8 a side, at most 40 squares", w, h);
    W = w, H = h, hit_limit = 0;
    limit = node_limit > 0 ? node_limit : 50000000;
    /* A table that may grow by up to 16M nodes a step and operation caches
     * a quarter of it: BuDDy's defaults (50,000 nodes a step, a fixed cache)
     * spend most of a 4x5 run collecting and missing the cache.  Its six
     * caches take 24 bytes an entry, so at a quarter they weigh 36 bytes a
     * node beside the node's 20; past 100 million nodes an eighth (18) lets
     * the nodes have more of the memory. */
    if (bdd_init(limit < 1 << 18 ? limit : 1 << 18, 1 << 16) != 0)  /* a smaller limit is one */
        return util_error(err, errlen, "BuDDy did not start (out of memory)");
    bdd_setmaxincrease(1 << 24);
    bdd_setminfreenodes(25);
    bdd_setcacheratio(limit > 100000000 ? 8 : 4);
    bdd_error_hook(on_error);
    bdd_gbc_hook(NULL);  /* no line per garbage collection */
    bdd_setmaxnodenum(limit);
    bdd_setvarnum(4 * w * h + 2);
    return 0;
}

int sym_bdd_failed(char *err, size_t errlen)
{
    if (stop_flag && __atomic_load_n(stop_flag, __ATOMIC_RELAXED))
        return util_error(err, errlen, "%dx%d: stopped by a signal", W, H);
    return hit_limit ? util_error(err, errlen, "%dx%d: BuDDy's table reached its limit of %d nodes (--nodes raises it)",
                                  W, H, limit)
                     : 0;
}

BDD sym_current_vars(void)
{
    int A = W * H, vars[2 * 8 * 8 + 1];
    for (int s = 0; s < A; s++)
        vars[2 * s] = sym_occ_var(s, 0), vars[2 * s + 1] = sym_white_var(s, 0);
    vars[2 * A] = sym_turn_var(0);
    return bdd_addref(bdd_makeset(vars, 2 * A + 1));
}

BDD sym_valid_states(void)
{
    BDD v = bdd_addref(bddtrue);
    for (int s = 0; s < W * H; s++)  /* an empty square's colour held at 0 */
        v = sym_join(v, bdd_addref(bdd_apply(bdd_ithvar(sym_white_var(s, 0)), bdd_ithvar(sym_occ_var(s, 0)), bddop_imp)),
                     bddop_and);
    return v;
}

/* The part over every square: rel, each square it does not change kept
 * as it is; a pass, its guard (the current state) alone. */
static BDD whole_part(const sym_part *pt, int A)
{
    if (pt->pass)
        return bdd_addref(bdd_exist(pt->rel, pt->next));
    BDD t = bdd_addref(pt->rel);
    for (int s = 0; s < A; s++)
        if (bdd_exist(pt->next, bdd_ithvar(sym_occ_var(s, 1))) == pt->next)  /* not among the changed */
            t = sym_join(t, unchanged(s), bddop_and);
    return t;
}

/* The renaming of a state's variables into their next-state copies. */
static void rename_all(sym_rel *r)
{
    int A = r->w * r->h, cur[2 * 64 + 1], nxt[2 * 64 + 1], n = 0;
    for (int s = 0; s < A; s++) {
        cur[n] = sym_occ_var(s, 0), nxt[n++] = sym_occ_var(s, 1);
        cur[n] = sym_white_var(s, 0), nxt[n++] = sym_white_var(s, 1);
    }
    cur[n] = sym_turn_var(0), nxt[n++] = sym_turn_var(1);
    r->next = bdd_addref(bdd_makeset(nxt, n));
    r->to_next = bdd_newpair();
    bdd_setpairs(r->to_next, cur, nxt, n);
}

/* The substitution exchanging the colours: white := occupied xor white (a
 * disc's colour turns, an empty square stays 0 and a state outside 3T
 * stays outside, so it is its own inverse over every assignment), the side
 * to move negated. */
static void colour_swap(sym_rel *r)
{
    int A = r->w * r->h;
    r->swap = bdd_newpair();
    for (int s = 0; s < A; s++)
        bdd_setbddpair(r->swap, sym_white_var(s, 0),
                       bdd_apply(bdd_ithvar(sym_occ_var(s, 0)), bdd_ithvar(sym_white_var(s, 0)), bddop_xor));
    bdd_setbddpair(r->swap, sym_turn_var(0), bdd_nithvar(sym_turn_var(0)));
}

BDD sym_rel_swap(const sym_rel *r, BDD set) { return bdd_addref(bdd_veccompose(set, r->swap)); }

int sym_rel_open(sym_rel *r, int w, int h, int node_limit, char *err, size_t errlen)
{
    if (sym_bdd_start(w, h, node_limit, err, errlen) != 0)
        return -1;
    int A = w * h;
    *r = (sym_rel){ .w = w, .h = h, .parts = 2 * A + 2 };
    r->part = calloc((size_t)r->parts, sizeof *r->part);
    if (!r->part) {
        bdd_done();
        return util_error(err, errlen, "out of memory");
    }
    for (int k = 0; k < r->parts; k++) {
        sym_part *pt = &r->part[k];
        int sq = k < 2 * A ? k % A : -1, cur[2 * 64 + 1], nxt[2 * 64 + 1], n;
        pt->player = k < 2 * A ? k / A : k - 2 * A;
        pt->pass = sq < 0;
        pt->rel = pt->pass ? pass_of(pt->player) : move_on(sq, pt->player);
        changed_vars(sq, cur, nxt, &n);
        pt->cur = bdd_addref(bdd_makeset(cur, n));
        pt->next = bdd_addref(bdd_makeset(nxt, n));
        pt->to_cur = bdd_newpair();
        bdd_setpairs(pt->to_cur, nxt, cur, n);
        pt->whole = whole_part(pt, A);
    }
    r->current = sym_current_vars();
    rename_all(r);
    colour_swap(r);
    if (sym_bdd_failed(err, errlen) != 0) {
        sym_rel_close(r);
        return -1;
    }
    return 0;
}

void sym_rel_close(sym_rel *r)
{
    for (int k = 0; k < r->parts; k++)
        if (r->part[k].to_cur)
            bdd_freepair(r->part[k].to_cur);
    if (r->to_next)
        bdd_freepair(r->to_next);
    if (r->swap)
        bdd_freepair(r->swap);
    free(r->part);
    bdd_done();
}

int sym_rel_nodes(const sym_rel *r)
{
    BDD *all = malloc((size_t)r->parts * sizeof *all);
    int n = 0;
    if (all) {
        for (int k = 0; k < r->parts; k++)
            all[k] = r->part[k].rel;
        n = bdd_anodecount(all, r->parts);
    }
    free(all);
    return n;
}

BDD sym_rel_start(const sym_rel *r, const int *board, int white_to_move)
{
    BDD start = bdd_addref(white_to_move ? bdd_ithvar(sym_turn_var(0)) : bdd_nithvar(sym_turn_var(0)));
    for (int s = 0; s < r->w * r->h; s++) {
        BDD sq = board[s] < 0 ? empty_square(s) : sym_disc(s, board[s], 0);
        start = sym_join(start, sq, bddop_and);
    }
    return start;
}

/* Whether part k is among those selected. */
static int selected(const sym_part *pt, int which)
{
    return (which & (pt->pass ? SYM_PASSES : SYM_PLACES)) && (which & (pt->player ? SYM_WHITE : SYM_BLACK));
}

BDD sym_rel_image(const sym_rel *r, BDD set, int which)
{
    BDD image = bdd_addref(bddfalse);
    for (int k = 0; k < r->parts && !cut_short(); k++) {
        const sym_part *pt = &r->part[k];
        if (!selected(pt, which))
            continue;
        BDD next = bdd_addref(bdd_relprod(set, pt->rel, pt->cur));
        BDD here = bdd_addref(bdd_replace(next, pt->to_cur));
        bdd_delref(next);
        image = sym_join(image, here, bddop_or);
    }
    return image;
}

/* The states of player q to move with a successor in set by q's parts
 * which selects.  Only the set's states of the other side to move can
 * follow q's move or pass, so the set is cut to them first (the side to
 * move is the last variable: both halves share the diagram's every
 * level).  A move's preimage renames that half once and joins it with
 * each whole part; a pass, which keeps the board, is its guard and the
 * half with the side to move fixed, no relation needed. */
static BDD preimage_of(const sym_rel *r, BDD set, int q, int which)
{
    BDD pre = bdd_addref(bddfalse);
    BDD other = q ? bdd_nithvar(sym_turn_var(0)) : bdd_ithvar(sym_turn_var(0));
    BDD after = bdd_addref(bdd_apply(set, other, bddop_and));
    BDD renamed = which & SYM_PLACES ? bdd_addref(bdd_replace(after, r->to_next)) : bddfalse;
    for (int k = 0; k < r->parts && !cut_short(); k++) {
        const sym_part *pt = &r->part[k];
        if (pt->player != q || !selected(pt, which))
            continue;
        BDD here = pt->pass ? sym_join(bdd_addref(pt->whole), bdd_addref(bdd_restrict(after, other)), bddop_and)
                            : bdd_addref(bdd_relprod(renamed, pt->whole, r->next));
        pre = sym_join(pre, here, bddop_or);
    }
    bdd_delref(renamed);
    bdd_delref(after);
    return pre;
}

BDD sym_rel_preimage(const sym_rel *r, BDD set, int which)
{
    BDD pre = bdd_addref(bddfalse);
    for (int q = 0; q < 2; q++)
        if (which & (q ? SYM_WHITE : SYM_BLACK))
            pre = sym_join(pre, preimage_of(r, set, q, which), bddop_or);
    return pre;
}

BDD sym_discs_exactly(int n)
{
    int A = W * H;
    /* need[c]: the squares from here on hold exactly c discs */
    BDD need[65];
    for (int c = 0; c <= A; c++)
        need[c] = bdd_addref(c == 0 ? bddtrue : bddfalse);
    for (int sq = A - 1; sq >= 0; sq--)
        for (int c = A; c >= 0; c--) {
            BDD with = c > 0 ? need[c - 1] : bddfalse;
            BDD r = bdd_addref(bdd_ite(bdd_ithvar(sym_occ_var(sq, 0)), with, need[c]));
            bdd_delref(need[c]);
            need[c] = r;
        }
    for (int c = 0; c <= A; c++)
        if (c != n)
            bdd_delref(need[c]);
    return n >= 0 && n <= A ? need[n] : bdd_addref(bddfalse);
}

/* "More discs of p than of the other" is a comparator built square by square from the
 * last variable up, one BDD per difference of the discs still to come
 * (more[d]: the squares from here on make the difference so far, d,
 * positive): no adder. */
BDD sym_won(int p)
{
    int A = W * H;
    BDD *more = calloc((size_t)(2 * A + 3), sizeof *more), *next = calloc((size_t)(2 * A + 3), sizeof *next);
    if (!more || !next) {
        free(more), free(next);
        return bdd_addref(bddfalse);
    }
    for (int d = -A - 1; d <= A + 1; d++)
        more[d + A + 1] = bdd_addref(d > 0 ? bddtrue : bddfalse);
    for (int sq = A - 1; sq >= 0; sq--) {
        for (int d = -sq; d <= sq; d++) {
            BDD wdisc = bdd_addref(bdd_ite(bdd_ithvar(sym_white_var(sq, 0)), more[d + (p ? 1 : -1) + A + 1],
                                                    more[d - (p ? 1 : -1) + A + 1]));
            next[d + A + 1] = bdd_addref(bdd_ite(bdd_ithvar(sym_occ_var(sq, 0)), wdisc, more[d + A + 1]));
            bdd_delref(wdisc);
        }
        for (int d = -A - 1; d <= A + 1; d++)
            bdd_delref(more[d + A + 1]);
        for (int d = -A - 1; d <= A + 1; d++)
            more[d + A + 1] = (d >= -sq && d <= sq) ? next[d + A + 1] : bdd_addref(bddfalse);
    }
    BDD ahead = more[A + 1];
    for (int d = -A - 1; d <= A + 1; d++)
        if (d != 0)
            bdd_delref(more[d + A + 1]);
    free(more), free(next);
    BDD moves = sym_join(sym_has_move(0), sym_has_move(1), bddop_or);
    BDD over = bdd_addref(bdd_not(moves));
    bdd_delref(moves);
    return sym_join(over, ahead, bddop_and);
}
