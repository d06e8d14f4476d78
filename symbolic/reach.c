/* symbolic/reach.c - van Dijk's algorithm 1: the states reachable from the
 * start, by images under a transition relation partitioned by square (a
 * disc put there) plus the pass, until nothing new is found.  Variables per
 * square, interleaved with their next-state copies: occupied, occupied',
 * white, white'; then the side to move (1: White) and its copy.  A move
 * on sq by the mover: sq empty and closing a run in some direction, sq
 * the mover's after it, every other square flipped when it lies in a
 * closed run from sq, else unchanged, the side to move changed. */
#include "symbolic.h"
#include "../util/util.h"

#include <bdd.h>
#include <stdlib.h>

static int W, H, hit_limit;
static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 }, dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };

static int occ_var(int sq, int next) { return 4 * sq + next; }
static int white_var(int sq, int next) { return 4 * sq + 2 + next; }
static int turn_var(int next) { return 4 * W * H + next; }

/* As in immediate.c: every result referenced before it is used again. */
static BDD join(BDD a, BDD b, int op)
{
    BDD r = bdd_addref(bdd_apply(a, b, op));
    bdd_delref(a);
    bdd_delref(b);
    return r;
}

/* A disc of player p on sq (next: in the next state), referenced. */
static BDD disc(int sq, int p, int next)
{
    return bdd_addref(bdd_apply(bdd_ithvar(occ_var(sq, next)),
                                p ? bdd_ithvar(white_var(sq, next)) : bdd_nithvar(white_var(sq, next)), bddop_and));
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
            any = join(any, join(bdd_addref(run), disc(step(sq, d, k), p, 0), bddop_and), bddop_or);
        run = join(run, disc(step(sq, d, k), !p, 0), bddop_and);
    }
    bdd_delref(run);
    return any;
}

/* Opponents of p at distances 1..j from sq in direction d, referenced. */
static BDD opponents_to(int sq, int d, int j, int p)
{
    BDD run = bdd_addref(bddtrue);
    for (int i = 1; i <= j; i++)
        run = join(run, disc(step(sq, d, i), !p, 0), bddop_and);
    return run;
}

/* Square s (unchanged or flipped to p) in the next state, given flip. */
static BDD next_square(int s, int p, BDD flip)
{
    BDD same = bdd_addref(bdd_apply(bdd_biimp(bdd_ithvar(occ_var(s, 0)), bdd_ithvar(occ_var(s, 1))),
                                    bdd_biimp(bdd_ithvar(white_var(s, 0)), bdd_ithvar(white_var(s, 1))), bddop_and));
    BDD mine = disc(s, p, 1), r = bdd_addref(bdd_ite(flip, mine, same));
    bdd_delref(same);
    bdd_delref(mine);
    return r;
}

/* The move of player p on sq, referenced. */
static BDD move_on(int sq, int p)
{
    BDD legal = bdd_addref(bddfalse);
    for (int d = 0; d < 8; d++)
        legal = join(legal, closes_after(sq, d, 0, p), bddop_or);
    BDD t = join(bdd_addref(bdd_nithvar(occ_var(sq, 0))), legal, bddop_and);
    t = join(t, disc(sq, p, 1), bddop_and);
    for (int s = 0; s < W * H; s++) {
        if (s == sq)
            continue;
        BDD flip = bdd_addref(bddfalse);
        for (int d = 0; d < 8; d++)
            for (int j = 1; step(sq, d, j) >= 0; j++)
                if (step(sq, d, j) == s)
                    flip = join(flip, join(opponents_to(sq, d, j, p), closes_after(sq, d, j, p), bddop_and), bddop_or);
        BDD keep = next_square(s, p, flip);
        bdd_delref(flip);
        t = join(t, keep, bddop_and);
    }
    BDD turn = bdd_addref(bdd_apply(p ? bdd_ithvar(turn_var(0)) : bdd_nithvar(turn_var(0)),
                                    p ? bdd_nithvar(turn_var(1)) : bdd_ithvar(turn_var(1)), bddop_and));
    return join(t, turn, bddop_and);
}

/* Whether player p has a move anywhere, referenced. */
static BDD has_legal(int p)
{
    BDD any = bdd_addref(bddfalse);
    for (int sq = 0; sq < W * H; sq++) {
        BDD here = bdd_addref(bddfalse);
        for (int d = 0; d < 8; d++)
            here = join(here, closes_after(sq, d, 0, p), bddop_or);
        any = join(any, join(bdd_addref(bdd_nithvar(occ_var(sq, 0))), here, bddop_and), bddop_or);
    }
    return any;
}

/* Player p passes: no move of its own, one of the other side's; the board
 * unchanged, the side to move changed; referenced. */
static BDD pass_of(int p)
{
    BDD mine = has_legal(p), none = bdd_addref(bdd_not(mine));
    bdd_delref(mine);
    BDD t = join(none, has_legal(!p), bddop_and);
    for (int s = 0; s < W * H; s++) {
        BDD same = bdd_addref(bdd_apply(bdd_biimp(bdd_ithvar(occ_var(s, 0)), bdd_ithvar(occ_var(s, 1))),
                                        bdd_biimp(bdd_ithvar(white_var(s, 0)), bdd_ithvar(white_var(s, 1))),
                                        bddop_and));
        t = join(t, same, bddop_and);
    }
    BDD turn = bdd_addref(bdd_apply(p ? bdd_ithvar(turn_var(0)) : bdd_nithvar(turn_var(0)),
                                    p ? bdd_nithvar(turn_var(1)) : bdd_ithvar(turn_var(1)), bddop_and));
    return join(t, turn, bddop_and);
}

static void on_error(int code)
{
    if (code == BDD_NODENUM || code == BDD_NODES || code == BDD_MEMORY)
        hit_limit = 1;
}

int sym_reachable(int w, int h, const int *board, int white_to_move, int node_limit, sym_reach *out, char *err,
                  size_t errlen)
{
    if (w < 3 || h < 3 || w > 8 || h > 8 || w * h > 40)
        return util_error(err, errlen, "a %dx%d board: 3 to 8 a side, at most 40 squares", w, h);
    W = w, H = h, hit_limit = 0;
    int A = w * h, limit = node_limit > 0 ? node_limit : 50000000, rc = 0;
    if (bdd_init(1000000, 100000) != 0)
        return util_error(err, errlen, "BuDDy did not start (out of memory)");
    bdd_error_hook(on_error);
    bdd_gbc_hook(NULL);
    bdd_setmaxnodenum(limit);
    bdd_setvarnum(4 * A + 2);
    /* the relation's parts: a move on each square by each side, and the passes */
    int parts = 2 * A + 2;
    BDD *part = malloc((size_t)parts * sizeof *part);
    int *cur = malloc((size_t)(2 * A + 1) * sizeof *cur), *nxt = malloc((size_t)(2 * A + 1) * sizeof *nxt);
    if (!part || !cur || !nxt) {
        free(part), free(cur), free(nxt);
        bdd_done();
        return util_error(err, errlen, "out of memory");
    }
    for (int p = 0; p < 2; p++) {
        for (int sq = 0; sq < A; sq++)
            part[p * A + sq] = move_on(sq, p);
        part[2 * A + p] = pass_of(p);
    }
    for (int s = 0; s < A; s++) {
        cur[2 * s] = occ_var(s, 0), cur[2 * s + 1] = white_var(s, 0);
        nxt[2 * s] = occ_var(s, 1), nxt[2 * s + 1] = white_var(s, 1);
    }
    cur[2 * A] = turn_var(0), nxt[2 * A] = turn_var(1);
    BDD current = bdd_addref(bdd_makeset(cur, 2 * A + 1));
    bddPair *rename = bdd_newpair();
    bdd_setpairs(rename, nxt, cur, 2 * A + 1);
    /* the start */
    BDD start = bdd_addref(white_to_move ? bdd_ithvar(turn_var(0)) : bdd_nithvar(turn_var(0)));
    for (int s = 0; s < A; s++) {
        BDD sq = board[s] < 0 ? bdd_addref(bdd_apply(bdd_nithvar(occ_var(s, 0)), bdd_nithvar(white_var(s, 0)), bddop_and))
                              : disc(s, board[s], 0);
        start = join(start, sq, bddop_and);
    }
    BDD reached = bdd_addref(start), frontier = start;
    out->iterations = 0;
    out->peak_nodes = 0;
    while (!hit_limit && frontier != bddfalse) {
        BDD image = bdd_addref(bddfalse);
        for (int k = 0; k < parts && !hit_limit; k++) {
            BDD step_next = bdd_addref(bdd_relprod(frontier, part[k], current));
            BDD here = bdd_addref(bdd_replace(step_next, rename));
            bdd_delref(step_next);
            image = join(image, here, bddop_or);
        }
        BDD fresh = join(image, bdd_addref(bdd_not(reached)), bddop_and);
        reached = join(reached, bdd_addref(fresh), bddop_or);
        bdd_delref(frontier);
        frontier = fresh;
        int nodes = bdd_nodecount(reached);
        if (out->iterations < SYM_MAX_ITERATIONS)
            out->nodes_at[out->iterations] = nodes;
        out->iterations++;
        if (nodes > out->peak_nodes)
            out->peak_nodes = nodes;
    }
    if (hit_limit)
        rc = util_error(err, errlen, "%dx%d: BuDDy's table reached its limit of %d nodes (--nodes raises it)", w, h,
                        limit);
    else {
        out->states = bdd_satcountset(reached, current);
        out->nodes = bdd_nodecount(reached);
    }
    bdd_freepair(rename);
    free(part), free(cur), free(nxt);
    bdd_done();
    return rc;
}
