/* symbolic/immediate.c - the states immediately won by White as a BDD:
 * valid boards (an empty square's colour held at 0) with no legal move for
 * either side and more white discs than black.  A legal move is an empty
 * square, then one or more discs of the opponent in a line, then one of the
 * mover's: an OR over squares, directions and run lengths.  "More white
 * than black" is built square by square from the last variable up, one BDD
 * per difference of the discs still to come (a comparator, no adder). */
#include "symbolic.h"
#include "../util/util.h"

#include <bdd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int W, H, hit_limit;

/* BuDDy frees at a garbage collection, which any operation may start, every
 * node no reference holds, an operation's own operands included: so every
 * result here is referenced before it is used again (the variables'
 * nodes are permanent). */
static BDD occupied(int sq) { return bdd_ithvar(2 * sq); }
static BDD white(int sq) { return bdd_ithvar(2 * sq + 1); }
static BDD empty(int sq) { return bdd_nithvar(2 * sq); }

/* A disc of player p (0 Black, 1 White) on sq, referenced. */
static BDD disc(int sq, int p)
{
    return bdd_addref(bdd_apply(occupied(sq), p ? white(sq) : bdd_nithvar(2 * sq + 1), bddop_and));
}

/* a op b, referenced; a and b released. */
static BDD join(BDD a, BDD b, int op)
{
    BDD r = bdd_addref(bdd_apply(a, b, op));
    bdd_delref(a);
    bdd_delref(b);
    return r;
}

/* Whether player p has a legal move. */
static BDD has_move(int p)
{
    static const int dr[8] = { -1, -1, -1, 0, 0, 1, 1, 1 }, dc[8] = { -1, 0, 1, -1, 1, -1, 0, 1 };
    BDD any = bdd_addref(bddfalse);
    for (int sq = 0; sq < W * H; sq++)
        for (int d = 0; d < 8; d++) {
            int r = sq / W + dr[d], c = sq % W + dc[d];
            BDD run = bdd_addref(empty(sq));  /* empty here, then opponents so far */
            for (int k = 1; r >= 0 && r < H && c >= 0 && c < W; k++, r += dr[d], c += dc[d]) {
                if (k >= 2) {  /* a disc of p closes the run */
                    BDD closed = join(bdd_addref(run), disc(r * W + c, p), bddop_and);
                    any = join(any, closed, bddop_or);
                }
                run = join(run, disc(r * W + c, !p), bddop_and);
            }
            bdd_delref(run);
        }
    return any;  /* referenced */
}

/* White has more discs than Black: from the last square up, more[d + A] is
 * "the squares from here on make the difference so far, d, positive". */
static BDD white_more(void)
{
    int A = W * H;
    BDD *more = calloc((size_t)(2 * A + 3), sizeof *more), *next = calloc((size_t)(2 * A + 3), sizeof *next);
    if (!more || !next) {
        free(more), free(next);
        return bddfalse;
    }
    for (int d = -A - 1; d <= A + 1; d++)
        more[d + A + 1] = bdd_addref(d > 0 ? bddtrue : bddfalse);
    for (int sq = A - 1; sq >= 0; sq--) {
        for (int d = -sq; d <= sq; d++) {  /* differences reachable over squares 0 .. sq - 1 */
            BDD wdisc = bdd_addref(bdd_ite(white(sq), more[d + 1 + A + 1], more[d - 1 + A + 1]));
            next[d + A + 1] = bdd_addref(bdd_ite(occupied(sq), wdisc, more[d + A + 1]));
            bdd_delref(wdisc);
        }
        for (int d = -A - 1; d <= A + 1; d++)
            bdd_delref(more[d + A + 1]);
        for (int d = -A - 1; d <= A + 1; d++)
            more[d + A + 1] = (d >= -sq && d <= sq) ? next[d + A + 1] : bdd_addref(bddfalse);
    }
    BDD r = more[A + 1];  /* difference 0 before the first square */
    for (int d = -A - 1; d <= A + 1; d++)
        if (d != 0)
            bdd_delref(more[d + A + 1]);
    free(more), free(next);
    return r;  /* referenced */
}

static void on_error(int code)
{
    if (code == BDD_NODENUM || code == BDD_NODES || code == BDD_MEMORY)
        hit_limit = 1;
}

int sym_immediate_wins(int w, int h, int node_limit, sym_count *c, char *err, size_t errlen)
{
    if (w < 3 || h < 3 || w > 8 || h > 8 || w * h > 40)
        return util_error(err, errlen, "a %dx%d board: 3 to 8 a side, at most 40 squares", w, h);
    W = w, H = h, hit_limit = 0;
    int limit = node_limit > 0 ? node_limit : 50000000;
    if (bdd_init(1000000, 100000) != 0)
        return util_error(err, errlen, "BuDDy did not start (out of memory)");
    bdd_error_hook(on_error);
    bdd_gbc_hook(NULL);  /* no line per garbage collection */
    bdd_setmaxnodenum(limit);
    bdd_setvarnum(2 * w * h + 1);  /* the last: the side to move, left free */
    BDD valid = bdd_addref(bddtrue);
    for (int sq = 0; sq < w * h; sq++)  /* an empty square's colour held at 0 */
        valid = join(valid, bdd_addref(bdd_apply(white(sq), occupied(sq), bddop_imp)), bddop_and);
    BDD moves = join(has_move(0), has_move(1), bddop_or);
    BDD over = bdd_addref(bdd_not(moves));
    bdd_delref(moves);
    BDD won = join(join(valid, over, bddop_and), white_more(), bddop_and);
    int rc = 0;
    if (hit_limit) {
        rc = util_error(err, errlen, "%dx%d: BuDDy's table reached its limit of %d nodes (--nodes raises it)", w, h,
                        limit);
    } else {
        c->states = bdd_satcount(won);
        c->nodes = bdd_nodecount(won);
        c->table_nodes = bdd_getnodenum();
    }
    bdd_done();
    return rc;
}
