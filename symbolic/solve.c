/* symbolic/solve.c - van Dijk's algorithms 2 to 5: the states from which
 * each side can force a win, by retrograde analysis over BDDs (relation.c
 * gives the parts of the relation, their images and preimages).
 *
 * Side p's set grows from the states over and won by p: a state of p to
 * move joins when one successor is in it (preimage by p's parts), a state
 * of the other side when it has moves and all of them lead into it (the
 * "forall-exists" preimage: a successor in the set and none outside it,
 * the outside taken within the space considered).  Algorithm 2 iterates
 * over every state of the board until nothing joins; 3 first finds the
 * reachable states (algorithm 1) and keeps the set within them; 4 sweeps
 * the disc count down from the full board, holding one layer (a move adds
 * a disc, so a layer's states follow from the next layer's and its own
 * passes); 5 sweeps the reachable states, found layer by layer forward.
 * A pass has one successor, so either quantifier gives the same. */
#include "internal.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sym_sets {
    BDD won[2];   /* the states from which Black [0], White [1] can force a win */
    BDD space;    /* the states considered */
};

static int sides_of(int p) { return p ? SYM_WHITE : SYM_BLACK; }

static int mirror_off;

void sym_set_mirror(int on) { mirror_off = !on; }

static const char *save_path;
static double save_every;
static int save_slice;

void sym_set_save(const char *path, double every, int iterations)
{
    save_path = path, save_every = every, save_slice = iterations;
}

/* One run of sym_solve: its save, and when it was last written. */
typedef struct {
    sym_progress g;
    sym_result *out;
    BDD white_kept;  /* White's whole set, kept for queries while Black's is under way */
    int mirror;      /* Black's sets are White's with the colours exchanged (a space closed under it) */
    double last;
    int iterations;  /* done by this run */
    int failed;      /* a save could not be written, or the slice is done (err says why) */
    char err[300];
} run;

static int going(const run *u) { return !u->failed && !sym_bdd_failed(NULL, 0); }

/* After an iteration of side p: the run's state (a, b as sym_progress
 * says, step) saved when a save is due. */
static void checkpoint(run *u, int p, int step, BDD a, BDD b)
{
    int sliced = save_slice > 0 && ++u->iterations >= save_slice;
    /* an iteration cut short (the node limit, a signal) has sets that are
     * not the run's: the last save stays the one to go on from */
    if (!save_path || !going(u) || (!sliced && util_clock() - u->last < save_every))
        return;
    sym_progress *g = &u->g;
    g->side = p, g->step = step, g->start = u->out->start;
    g->series[0] = u->out->side[0], g->series[1] = u->out->side[1];
    g->nbdd = 3, g->bdd[0] = a, g->bdd[1] = b, g->bdd[2] = u->white_kept;
    u->failed = sym_progress_save(save_path, g, u->err, sizeof u->err) != 0;
    u->last = util_clock();
    if (sliced && !u->failed) {
        util_error(u->err, sizeof u->err, "stopped after %d iterations as asked; %s goes on from here", save_slice,
                   save_path);
        u->out->paused = u->failed = 1;
    }
}

/* With a mirrored run, White's set won as it stands after an iteration
 * gives Black's, the colours exchanged: its size joins Black's series
 * (each of Black's iterations would reach exactly that set, as every step
 * commutes with the exchange), its states added to Black's when sum.
 * Black's set, referenced. */
static BDD mirror_note(const sym_rel *r, run *u, BDD won, int sum)
{
    BDD black = sym_rel_swap(r, won);
    sym_note(&u->out->side[0], black);
    if (sum)
        u->out->side[0].states += bdd_satcountset(black, r->current);
    return black;
}

/* The states of the other side than p among candidates (each with a
 * successor in won) all of whose moves by the parts which selects lead
 * into won: a candidate escapes when one of its successors is outside, and
 * its successors are found by an image of the candidates alone, so the
 * cost follows the candidates, not the whole complement of won. */
static BDD forced(const sym_rel *r, BDD won, BDD candidates, int p, int which)
{
    BDD next = sym_rel_image(r, candidates, which | sides_of(!p));
    BDD outside = sym_join(next, bdd_addref(won), bddop_diff);
    BDD escape = sym_rel_preimage(r, outside, which | sides_of(!p));
    bdd_delref(outside);
    return sym_join(bdd_addref(candidates), escape, bddop_diff);
}

/* Algorithms 2 and 3: p's set over space by fixpoint; each round adds the
 * states of p with a successor among the states found in the round before
 * (the frontier), then those of the other side forced into the set.  From
 * the save's won set and frontier when resumed. */
static BDD fixpoint(const sym_rel *r, BDD space, int p, run *u, int resumed)
{
    const int moves = SYM_PLACES | SYM_PASSES;
    sym_series *s = &u->out->side[p];
    int round = resumed ? u->g.step : 0;
    BDD won = resumed ? u->g.bdd[0] : sym_join(sym_won(p), bdd_addref(space), bddop_and);
    BDD fresh = resumed ? u->g.bdd[1] : bdd_addref(won);
    while (fresh != bddfalse && going(u)) {
        BDD mine = sym_join(sym_rel_preimage(r, fresh, moves | sides_of(p)), bdd_addref(space), bddop_and);
        mine = sym_join(mine, bdd_addref(won), bddop_diff);
        won = sym_join(won, bdd_addref(mine), bddop_or);
        BDD reached = sym_join(fresh, bdd_addref(mine), bddop_or);
        BDD candidates = sym_join(sym_rel_preimage(r, reached, moves | sides_of(!p)), bdd_addref(space), bddop_and);
        bdd_delref(reached);
        candidates = sym_join(candidates, bdd_addref(won), bddop_diff);
        BDD theirs = forced(r, won, candidates, p, moves);
        bdd_delref(candidates);
        won = sym_join(won, bdd_addref(theirs), bddop_or);
        fresh = sym_join(mine, theirs, bddop_or);
        sym_note(s, won);
        if (u->mirror)
            bdd_delref(mirror_note(r, u, won, 0));
        checkpoint(u, p, ++round, won, fresh);
    }
    bdd_delref(fresh);
    return won;
}

/* The discs on board. */
static int discs_of(const int *board, int A)
{
    int n = 0;
    for (int i = 0; i < A; i++)
        n += board[i] >= 0;
    return n;
}

/* The reachable states of the next disc count: the start itself or the
 * moves of the layer below, with their own passes (a pass stays in its
 * layer); referenced. */
static BDD next_layer(const sym_rel *r, BDD below, int is_start)
{
    BDD layer = is_start ? bdd_addref(below) : sym_rel_image(r, below, SYM_PLACES | SYM_BLACK | SYM_WHITE);
    return sym_join(layer, sym_rel_image(r, layer, SYM_PASSES | SYM_BLACK | SYM_WHITE), bddop_or);
}

/* The reachable states of each disc count from the start's up (algorithm
 * 5's forward sweep), every layer kept. */
static void reach_layers(const sym_rel *r, BDD start, int first, BDD *layer, sym_series *s)
{
    int A = r->w * r->h;
    for (int n = 0; n <= A; n++)
        layer[n] = bddfalse;
    for (int n = first; n <= A && !sym_bdd_failed(NULL, 0); n++) {
        layer[n] = next_layer(r, n > first ? layer[n - 1] : start, n == first);
        sym_note(s, layer[n]);
    }
}

int sym_count_layers(int w, int h, const int *board, int white_to_move, int node_limit, double *states, sym_series *s,
                     char *err, size_t errlen)
{
    sym_rel r;
    if (sym_rel_open(&r, w, h, node_limit, err, errlen) != 0)
        return -1;
    int A = w * h, first = discs_of(board, A);
    for (int n = 0; n <= A; n++)
        states[n] = 0;
    *s = (sym_series){ 0 };
    BDD start = sym_rel_start(&r, board, white_to_move), layer = bdd_addref(start);
    for (int n = first; n <= A && !sym_bdd_failed(NULL, 0); n++) {  /* one layer held at a time */
        BDD next = next_layer(&r, layer, n == first);
        bdd_delref(layer);
        layer = next;
        states[n] = bdd_satcountset(layer, r.current);
        sym_note(s, layer);
    }
    bdd_delref(start);
    bdd_delref(layer);
    int rc = sym_bdd_failed(err, errlen);
    sym_rel_close(&r);
    return rc;
}

/* The states of layer n (space) from which p can force a win, given
 * above, those of layer n + 1 (space_above): p's states with a move into
 * above, the other side's (movers: those with a disc to put) with none out
 * of it (every move goes to the layer above), then the passes into either;
 * referenced. */
static BDD layer_won(const sym_rel *r, BDD above, BDD space, BDD space_above, BDD movers, int p)
{
    BDD mine = sym_rel_preimage(r, above, SYM_PLACES | sides_of(p));
    BDD outside = bdd_addref(bdd_apply(space_above, above, bddop_diff));
    BDD escape = sym_rel_preimage(r, outside, SYM_PLACES | sides_of(!p));
    bdd_delref(outside);
    BDD theirs = sym_join(bdd_addref(movers), escape, bddop_diff);
    BDD won = sym_join(sym_join(mine, theirs, bddop_or), bdd_addref(space), bddop_and);
    BDD passing = sym_rel_preimage(r, won, SYM_PASSES | SYM_BLACK | SYM_WHITE);
    return sym_join(won, sym_join(passing, bdd_addref(space), bddop_and), bddop_or);
}

/* Algorithms 4 and 5: p's set layer by layer from the full board down to
 * the start's disc count (from the save's layer when resumed), space[n]
 * the states of n discs considered; *start_won whether start is in it; all
 * (when wanted) their union. */
static void sweep(const sym_rel *r, BDD *space, int first, BDD start, int p, run *u, int resumed, int *start_won,
                  BDD *all)
{
    BDD movers = sym_join(sym_has_move(!p), bdd_addref(p ? bdd_nithvar(sym_turn_var(0)) : bdd_ithvar(sym_turn_var(0))),
                          bddop_and);  /* the other side to move, with a disc to put */
    sym_series *s = &u->out->side[p];
    int A = r->w * r->h, n = A;
    BDD over = sym_won(p);
    BDD above = bdd_addref(bddfalse);
    if (resumed) {
        n = u->g.step;
        bdd_delref(above);
        above = u->g.bdd[0];
        if (all)
            bdd_delref(*all), *all = u->g.bdd[1];
        else
            bdd_delref(u->g.bdd[1]);
    } else {
        s->states = 0;
    }
    for (; n >= first && going(u); n--) {
        BDD won = n < A ? layer_won(r, above, space[n], space[n + 1], movers, p) : bdd_addref(bddfalse);
        won = sym_join(won, sym_join(bdd_addref(over), bdd_addref(space[n]), bddop_and), bddop_or);
        bdd_delref(above);
        above = won;
        sym_note(s, won);
        s->states += bdd_satcountset(won, r->current);
        if (u->mirror) {
            BDD black = mirror_note(r, u, won, 1);
            if (n == first && bdd_apply(start, black, bddop_and) != bddfalse)
                u->out->start = -1;
            bdd_delref(black);
        }
        if (all)
            *all = sym_join(*all, bdd_addref(won), bddop_or);
        checkpoint(u, p, n - 1, above, all ? *all : bddfalse);
    }
    *start_won = bdd_apply(start, above, bddop_and) != bddfalse;
    bdd_delref(above);
    bdd_delref(over);
    bdd_delref(movers);
}

int sym_solve(int w, int h, const int *board, int white_to_move, int algo, int node_limit, sym_result *out,
              sym_sets **keep, char *err, size_t errlen)
{
    sym_rel r;
    if (keep)
        *keep = NULL;
    if (sym_rel_open(&r, w, h, node_limit, err, errlen) != 0)
        return -1;
    int A = w * h, first = discs_of(board, A);
    *out = (sym_result){ .algo = algo, .relation_nodes = sym_rel_nodes(&r) };
    BDD start = sym_rel_start(&r, board, white_to_move);
    BDD valid = algo == 2 || algo == 4 ? sym_valid_states() : bddfalse;  /* the space of 2 and 4 */
    BDD space = bddfalse, layer[65] = { 0 }, won[2] = { bddfalse, bddfalse };
    if (algo == 1 || algo == 3) {
        space = sym_reachable_set(&r, start, &out->reach);
    } else if (algo == 2) {
        space = bdd_addref(valid);
    } else {
        if (algo == 5)
            reach_layers(&r, start, first, layer, &out->reach);
        else
            for (int n = 0; n <= A; n++)
                layer[n] = sym_join(sym_discs_exactly(n), bdd_addref(valid), bddop_and);
        space = bdd_addref(bddfalse);
        for (int n = first; n <= A; n++)
            space = sym_join(space, bdd_addref(layer[n]), bddop_or);
    }
    out->space = bdd_satcountset(space, r.current);
    out->reach.states = algo == 1 || algo == 3 || algo == 5 ? out->space : 0;
    /* every state (2, 4) is a space closed under exchanging the colours */
    run u = { .out = out, .white_kept = bddfalse, .mirror = (algo == 2 || algo == 4) && !mirror_off, .last = util_clock() };
    u.g = (sym_progress){ .w = w, .h = h, .algo = algo, .keep = keep != NULL, .white = white_to_move };
    memcpy(u.g.board, board, (size_t)A * sizeof *board);
    int resumed = save_path && algo > 1 ? sym_progress_load(save_path, &u.g, u.err, sizeof u.err) : 0;
    u.failed = resumed < 0;
    if (resumed == 1) {
        out->resumed = 1;
        out->side[0] = u.g.series[0], out->side[1] = u.g.series[1], out->start = u.g.start;
        if (u.g.side == 0 && keep)
            won[1] = u.white_kept = u.g.bdd[2];
        else
            bdd_delref(u.g.bdd[2]);
    }
    for (int p = resumed == 1 ? u.g.side : 1; algo > 1 && p >= 0 && going(&u); p--) {
        int in_start = 0, from_save = resumed == 1 && p == u.g.side;
        if (p == 0 && u.mirror) {  /* Black's sets came with White's */
            if (algo == 2 || keep) {
                won[0] = sym_rel_swap(&r, won[1]);
                if (algo == 2) {
                    out->side[0].states = bdd_satcountset(won[0], r.current);
                    if (bdd_apply(start, won[0], bddop_and) != bddfalse)
                        out->start = -1;
                }
            }
            break;
        }
        if (algo <= 3) {
            won[p] = fixpoint(&r, space, p, &u, from_save);
            out->side[p].states = bdd_satcountset(won[p], r.current);
            in_start = bdd_apply(start, won[p], bddop_and) != bddfalse;
        } else {
            if (keep)
                won[p] = bdd_addref(bddfalse);
            sweep(&r, layer, first, start, p, &u, from_save, &in_start, keep ? &won[p] : NULL);
        }
        if (in_start)
            out->start = p ? 1 : -1;
        if (p == 1 && keep)
            u.white_kept = won[1];
    }
    out->draws = algo > 1 ? out->space - out->side[0].states - out->side[1].states : 0;
    int rc = u.failed ? util_error(err, errlen, "%s", u.err) : sym_bdd_failed(err, errlen);
    if (rc == 0 && save_path && algo > 1)
        remove(save_path);  /* the run is complete: its save has served */
    for (int n = 0; n <= A; n++)
        if (layer[n] != bddfalse)
            bdd_delref(layer[n]);
    bdd_delref(start);
    bdd_delref(valid);
    if (rc == 0 && keep && algo > 1) {
        sym_sets *k = malloc(sizeof *k);
        if (k) {
            *k = (sym_sets){ { won[0], won[1] }, space };
            /* BuDDy stays open for the sets; sym_sets_free ends it */
            free(r.part);
            *keep = k;
            return 0;
        }
        rc = util_error(err, errlen, "out of memory");
    }
    for (int p = 0; p < 2; p++)
        if (won[p] != bddfalse)
            bdd_delref(won[p]);
    bdd_delref(space);
    sym_rel_close(&r);
    return rc;
}

/* Whether the state (board, side) satisfies f: one path down the BDD. */
static int holds(BDD f, int w, int h, const int *board, int white_to_move)
{
    while (f != bddtrue && f != bddfalse) {
        int v = bdd_var(f), on;
        if (v >= 4 * w * h)
            on = white_to_move;
        else if (v % 4 == 0)
            on = board[v / 4] >= 0;
        else
            on = board[v / 4] == 1;
        f = on ? bdd_high(f) : bdd_low(f);
    }
    return f == bddtrue;
}

int sym_sets_outcome(const sym_sets *k, int w, int h, const int *board, int white_to_move)
{
    if (!holds(k->space, w, h, board, white_to_move))
        return -2;
    return holds(k->won[1], w, h, board, white_to_move) ? 1 : holds(k->won[0], w, h, board, white_to_move) ? -1 : 0;
}

void sym_sets_free(sym_sets *k)
{
    if (!k)
        return;
    bdd_done();
    free(k);
}
