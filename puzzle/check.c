/* puzzle/check.c - a mate-in-N problem, checked as a composer would: the key,
 * its uniqueness, the main line with the longest defence, the duals of the
 * attacker's later moves, the tries and what refutes them, the motifs and
 * a score.  Every value comes from pns_mate (tables where they reach, the
 * depth-bounded search elsewhere) or, for strict uniqueness beyond the
 * tables, from df-pn. */
#include "puzzle.h"
#include "../util/util.h"

#include <string.h>

typedef struct {
    pns_mate *m;
    const game *g;
    char *err;
    size_t errlen;
} checker;

static int failed(checker *c)
{
    const char *why = pns_mate_error(c->m);
    return util_error(c->err, c->errlen, "%s", why ? why : "search failed");
}

/* Plies to the attacker's win through move mv of s (the attacker to move)
 * when it is at most limit: 1 + the defence's longest loss; 0 if none. */
static int win_via(checker *c, const game_state *s, game_move mv, int limit)
{
    game_state t = *s;
    game_play(c->g, &t, mv);
    game_result r = game_result_of(c->g, &t);
    if (r != GAME_ONGOING)
        return game_outcome_for(r, game_to_move(c->g, s)) > 0;
    if (limit < 2)
        return 0;
    int d = pns_mate_loss_distance(c->m, &t, limit - 1);
    return d <= 0 ? d : d + 1;
}

/* Does the attacker win at all after mv?  1 yes, 0 no, 2 undecided, -1. */
static int wins_at_all(checker *c, const game_state *s, game_move mv, const pns_options *o)
{
    game_state t = *s;
    game_play(c->g, &t, mv);
    tb_value v;
    int known = pns_mate_value(c->m, &t, &v);
    if (known < 0)
        return -1;
    if (known)
        return v.wdl == TB_LOSS;  /* the defender's value */
    if (!o)
        return 2;
    pns_options q = *o;
    q.question = PNS_WIN;
    q.prover = game_to_move(c->g, s);
    pns_result r;
    pns_solve(c->g, &t, &q, &r);
    return r.status == PNS_PROVEN ? 1 : r.status == PNS_DISPROVEN ? 0 : 2;
}

/* How good a defence is for the defender, higher better: the attacker
 * loses, draws, fails in time, or wins slowly (later is better). */
static long defence_rank(puzzle_try_outcome o, int distance)
{
    return o == PUZZLE_TRY_LOSS ? 4000 : o == PUZZLE_TRY_DRAW ? 3000 : o == PUZZLE_TRY_NO_WIN_IN_TIME ? 2000 : distance;
}

/* Fills t->outcome and the refutation of try t from s within n plies. */
static int refute(checker *c, const game_state *s, int n, puzzle_try *t)
{
    const game *g = c->g;
    int attacker = game_to_move(g, s);
    game_state a = *s;
    game_play(g, &a, t->move);
    game_result r = game_result_of(g, &a);
    if (r != GAME_ONGOING) {
        t->outcome = game_outcome_for(r, attacker) < 0 ? PUZZLE_TRY_LOSS : PUZZLE_TRY_DRAW;
        return 0;
    }
    game_move reply[GAME_MAX_MOVES];
    int nr = game_moves(g, &a, reply);
    long best = -1;
    for (int i = 0; i < nr; i++) {
        game_state b = a;
        game_play(g, &b, reply[i]);
        puzzle_try_outcome o;
        int dist = 0;
        tb_value v;
        int known = pns_mate_value(c->m, &b, &v);
        if (known < 0)
            return failed(c);
        if (known) {
            int for_attacker = game_to_move(g, &b) == attacker ? (int)v.wdl : -(int)v.wdl;
            if (for_attacker < 0)
                o = PUZZLE_TRY_LOSS;
            else if (for_attacker == 0)
                o = PUZZLE_TRY_DRAW;
            else if ((dist = 2 + v.distance) > n)
                o = PUZZLE_TRY_SLOWER;
            else
                continue;  /* the attacker still wins in time */
        } else {
            int w = pns_mate_win(c->m, &b, n - 2);
            if (w < 0)
                return failed(c);
            if (w)
                continue;
            o = PUZZLE_TRY_NO_WIN_IN_TIME;
        }
        long rank = defence_rank(o, dist);
        if (rank > best) {
            best = rank;
            t->outcome = o;
            t->distance = dist;
            t->refutation = reply[i];
            t->has_refutation = 1;
        }
    }
    return 0;
}

/* Does move i give the state of the key or of an earlier move? */
static int same_as_earlier(const game_key *after, int i, int key)
{
    for (int j = 0; j < i; j++)
        if (game_key_equal(after[j], after[i]))
            return 1;
    return game_key_equal(after[key], after[i]);
}

/* The main line from the key: the defender picks the longest resistance,
 * the attacker the shortest win; every other attacking move that also wins
 * in time is a dual. */
static int main_line(checker *c, const game_state *s, puzzle_problem *p)
{
    const game *g = c->g;
    game_state t = *s;
    game_play(g, &t, p->key);
    p->line[p->line_len++] = p->key;
    int rem = p->distance - 1;
    while (game_result_of(g, &t) == GAME_ONGOING && p->line_len + 2 <= PNS_MAX_PV) {
        game_move mv[GAME_MAX_MOVES];
        int n = game_moves(g, &t, mv), pick = -1, longest = -1;
        for (int i = 0; i < n; i++) {
            game_state u = t;
            game_play(g, &u, mv[i]);
            int d = 0;
            if (game_result_of(g, &u) == GAME_ONGOING && (d = pns_mate_distance(c->m, &u, rem - 1)) < 0)
                return failed(c);
            if (d > longest) {
                longest = d;
                pick = i;
            }
        }
        game_play(g, &t, mv[pick]);
        p->line[p->line_len++] = mv[pick];
        if (game_result_of(g, &t) != GAME_ONGOING)
            break;
        rem = longest;
        n = game_moves(g, &t, mv);
        int dist[GAME_MAX_MOVES], best = 0;
        for (int i = 0; i < n; i++) {
            if ((dist[i] = win_via(c, &t, mv[i], rem)) < 0)
                return failed(c);
            if (dist[i] > 0 && (best == 0 || dist[i] < dist[best - 1]))
                best = i + 1;
        }
        if (!best)
            return util_error(c->err, c->errlen, "the main line lost the win (inconsistent search)");
        game_key after[GAME_MAX_MOVES];
        for (int i = 0; i < n; i++) {
            game_state u = t;
            game_play(g, &u, mv[i]);
            after[i] = game_key_of(g, &u);
        }
        for (int i = 0; i < n; i++)
            if (dist[i] > 0 && i != best - 1 && !same_as_earlier(after, i, best - 1) &&
                p->nduals < PUZZLE_MAX_DUALS)
                p->duals[p->nduals++] = (puzzle_dual){ p->line_len, mv[i] };
        game_play(g, &t, mv[best - 1]);
        p->line[p->line_len++] = mv[best - 1];
        rem = dist[best - 1] - 1;
    }
    return 0;
}

/* Rule 8 matters when a defender on the main line, freed of its forbidden
 * move, would no longer lose in the plies that are left. */
static int depends_on_ko(checker *c, const game_state *s, const puzzle_problem *p)
{
    const game *g = c->g;
    game_state t = *s;
    for (int i = 0; i < p->line_len; i++) {
        game_play(g, &t, p->line[i]);
        game_state u;
        if (i % 2 == 0 && game_result_of(g, &t) == GAME_ONGOING && game_unrestricted(g, &t, &u)) {
            int r = pns_mate_loss(c->m, &u, p->distance - i - 1);
            if (r < 0)
                return failed(c);
            if (r == 0)
                return 1;
        }
    }
    return 0;
}

static int min_int(int a, int b) { return a < b ? a : b; }


int puzzle_check(pns_mate *m, const game_state *s, int n, puzzle_unique unique, const pns_options *o,
                     puzzle_problem *p, char *err, size_t errlen)
{
    checker c = { m, pns_mate_game(m), err, errlen };
    const game *g = c.g;
    memset(p, 0, sizeof *p);
    p->n = n;
    p->unique = unique;
    if (game_result_of(g, s) != GAME_ONGOING)
        return 0;
    game_move mv[GAME_MAX_MOVES];
    int nm = game_moves(g, s, mv), dist[GAME_MAX_MOVES], best = -1;
    for (int i = 0; i < nm; i++) {
        if ((dist[i] = win_via(&c, s, mv[i], n)) < 0)
            return failed(&c);
        if (dist[i] > 0 && (best < 0 || dist[i] < dist[best]))
            best = i;
    }
    if (best < 0)
        return 0;  /* no win within n: not a problem at all */
    p->distance = dist[best];
    p->key = mv[best];
    /* Moves that give the same state as an earlier one (Ostle: a1D and a1L
     * both push a1 off) are one move to a solver: only the first counts. */
    game_key after[GAME_MAX_MOVES];
    for (int i = 0; i < nm; i++) {
        game_state t = *s;
        game_play(g, &t, mv[i]);
        after[i] = game_key_of(g, &t);
    }
    int undecided = 0;
    for (int i = 0; i < nm; i++) {
        if (i == best || same_as_earlier(after, i, best))
            continue;
        int cook = dist[i] > 0;
        if (!cook && unique == PUZZLE_UNIQUE_STRICT) {
            int w = wins_at_all(&c, s, mv[i], o);
            if (w < 0)
                return failed(&c);
            undecided |= w == 2;
            cook = w == 1;
        }
        if (cook && p->ncooks < PUZZLE_MAX_COOKS)
            p->cooks[p->ncooks++] = mv[i];
    }
    p->sound = p->distance == n && p->ncooks == 0 ? (undecided ? -1 : 1) : 0;
    if (main_line(&c, s, p) != 0)
        return -1;
    /* Tries: natural first moves (captures, den approaches) that do not win
     * in time, with what beats each. */
    for (int i = 0; i < nm && p->ntries < PUZZLE_MAX_TRIES; i++) {
        if (i == best || dist[i] > 0 || same_as_earlier(after, i, best))
            continue;
        unsigned f = game_has_motifs(g) ? game_move_motifs(g, s, mv[i]) : GAME_MOTIF_CAPTURE;
        if (!(f & (GAME_MOTIF_CAPTURE | GAME_MOTIF_APPROACH)))
            continue;
        puzzle_try *t_ = &p->tries[p->ntries++];
        t_->move = mv[i];
        t_->motifs = f;
        if (refute(&c, s, n, t_) != 0)
            return -1;
    }
    p->motifs = game_move_motifs(g, s, p->key);
    int ko = depends_on_ko(&c, s, p);
    if (ko < 0)
        return -1;
    if (ko)
        p->motifs |= PUZZLE_MOTIF_KO;
    if (p->motifs & (GAME_MOTIF_OFFER | GAME_MOTIF_SELF_PUSH))
        p->motifs |= PUZZLE_MOTIF_SACRIFICE;
    if (!(p->motifs & (GAME_MOTIF_CAPTURE | GAME_MOTIF_APPROACH)))
        p->motifs |= PUZZLE_MOTIF_QUIET;
    /* The score of docs/puzzles.md: length, then a sacrifice, a quiet or a
     * retreating key, a hole move and a rule-8 point add; tries add (a few);
     * duals take away. */
    unsigned f = p->motifs;
    p->score = p->distance + 4 * !!(f & PUZZLE_MOTIF_SACRIFICE) + 3 * !!(f & PUZZLE_MOTIF_QUIET)
             + 2 * !!(f & GAME_MOTIF_RETREAT) + 2 * !!(f & GAME_MOTIF_HOLE) + 4 * !!(f & PUZZLE_MOTIF_KO)
             + min_int(p->ntries, 4) - min_int(p->nduals, 6);
    return 0;
}
