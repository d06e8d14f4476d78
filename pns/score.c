/* pns/score.c - the score search: "at least K ahead?" questions to df-pn,
 * one table for all of them, until the score is pinned, then (o->solved) the bounds handed to the hook. */
#include "dfpn.h"
#include "score.h"

#include <limits.h>
#include <string.h>

enum { LINEAR_STEPS = 5 };

/* Continues the principal line to the game's end where the solver decides:
 * the end's exact score first (the root's, by the walk above; computed, as
 * the solver's own answer), then at each position the first move that
 * keeps it. */
static void solver_line(dfpn *D, const game_state *root, pns_result *r)
{
    pns_search *S = &D->S;
    const game *g = S->g;
    game_state s = *root;
    for (int i = 0; i < r->pv_len; i++)
        game_play(g, &s, r->pv[i]);
    if (game_empties(g, &s) > S->o->exact_empties)
        return;
    int v;  /* for the side to move in s */
    if (pns_search_solve(S, &s, -1000, 1000, &v) != 0)
        return;
    while (r->pv_len < PNS_MAX_PV && game_empties(g, &s) <= S->o->exact_empties) {
        game_move mv[GAME_MAX_MOVES];
        int n = game_moves(g, &s, mv), i = 0, w = 0;
        for (; i < n; i++) {
            game_state c = s;
            game_play(g, &c, mv[i]);
            w = game_to_move(g, &c) == game_to_move(g, &s) ? v : -v;  /* what c must be worth */
            int u;
            if (pns_search_solve(S, &c, w - 1, w + 1, &u) != 0)
                return;
            if (u == w)
                break;
        }
        if (i == n)
            break;  /* the game is over (or the score was wrong: no move keeps it) */
        r->pv[r->pv_len++] = mv[i];
        game_play(g, &s, mv[i]);
        v = w;
    }
}

/* Makes D ask "at least target ahead?" next (entries keep their own target). */
static void score_question(dfpn *D, pns_options *q, int target)
{
    q->score_target = target;
    D->tag = target;
    pns_dfpn_cond_clear(D);
    pns_path_clear(&D->S);
}

/* The principal line from root down to the solver's region, the prover's
 * score v pinned and next the next possible one (INT_MAX: none): where the
 * prover moves, a child that still proves "at least v"; where the other
 * side does, one that disproves "at least next".  So both sides play best,
 * where a bound's proof names the best moves of one side only.  The table's
 * best move is asked first: the bounds' proofs mostly answered it already.
 * Only where positions cannot recur (a game with a solver): a child asked
 * alone has no path above it.  The line ends early where a question stays
 * open (a limit). */
static void principal_line(dfpn *D, dfpn_team *T, pns_options *q, const game_state *root, int v, int next,
                           pns_result *r)
{
    pns_search *S = &D->S;
    const game *g = S->g;
    game_state s = *root;
    r->pv_len = 0;
    while (r->pv_len < PNS_MAX_PV && game_empties(g, &s) > S->o->exact_empties) {
        game_move mv[GAME_MAX_MOVES];
        int n = game_moves(g, &s, mv), mine = game_to_move(g, &s) == S->prover, pick = -1;
        if (n == 0)
            return;
        int target = mine ? v : next;
        if (target == INT_MAX)
            pick = 0;  /* the top score: every reply keeps it */
        if (pick < 0 && q->score_target != target)
            score_question(D, q, target);
        const tt_entry *e = pns_dfpn_lookup(D, game_key_of(g, &s));
        int first = e && e->best < n ? e->best : 0;
        for (int k = 0; k < n && pick < 0; k++) {
            int i = k == 0 ? first : k <= first ? k - 1 : k;  /* first, then the rest in order */
            game_state c = s;
            game_play(g, &c, mv[i]);
            child_t a = { 0 };
            pns_path_clear(S);
            pns_dfpn_go(D, T, &c, &a);
            if (a.pn != 0 && a.dn != 0)
                return;
            if (mine ? a.pn == 0 : a.dn == 0)
                pick = i;
        }
        if (pick < 0)
            return;  /* no child keeps the score: it was not the score */
        r->pv[r->pv_len++] = mv[pick];
        game_play(g, &s, mv[pick]);
    }
}

/* Where the root is the solver's: MTD(f) over the solver's fail-soft
 * bounds, from 0, pins the score in fewer windows than the questions'
 * steps (a null window's answer beyond it moves the next one there).
 * Narrows the prover's bounds [*lo, *hi] to the score (0), or as far as
 * the windows got when the search stopped (-1). */
static int solver_score(dfpn *D, const game_state *s, int *lo_io, int *hi_io)
{
    pns_search *S = &D->S;
    const game *g = S->g;
    int sign = game_to_move(g, s) == S->prover ? 1 : -1, guess = 0;
    int lo = sign > 0 ? *lo_io : -*hi_io, hi = sign > 0 ? *hi_io : -*lo_io, rc = 0;  /* the mover's */
    while (lo < hi) {
        int b = guess <= lo ? lo + 1 : guess > hi ? hi : guess;  /* is the score at least b? */
        int v;
        if (pns_search_solve(S, s, b - 1, b, &v) != 0) {
            rc = -1;
            break;
        }
        if (v < b)
            hi = v;
        else
            lo = v;
        guess = v;
        if (lo < hi && pns_search_tick(S)) {
            rc = -1;
            break;
        }
    }
    *lo_io = sign > 0 ? lo : -hi;
    *hi_io = sign > 0 ? hi : -lo;
    return rc;
}

/* The scores a search may end at: those the game can end with in [lo, hi],
 * and what the answers so far show of them.  Invariant: the score is one of
 * cand[a..b]; the last proof proves cand[a] (have), so that its line is a
 * line to at least that. */
typedef struct {
    int cand[512], nc;
    int a, b, have, at, open;
    child_t root;             /* the last question's answer at the root */
    pns_result best;          /* the line of the last proven bound */
} score_bounds;

/* Readies D for the score questions (resumed from a checkpoint where asked,
 * the solver's threads where it owns the root): whether the endgame solver
 * owns the root (1 or 0), or -1 with r's error. */
static int score_start(dfpn *D, const game *g, const game_state *s, const pns_options *q, pns_result *r)
{
    if (pns_dfpn_init(D, g, s, q) != 0) {
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory for a %zu-byte table", q->memory);
        return -1;
    }
    /* Checkpoints: entries keep their targets, so a resumed search asks its
     * questions again and finds the answers known. */
    if (pns_dfpn_start(D, s) != 0) {
        r->stopped_by = "resume";
        pns_search_report(&D->S, r);
        pns_dfpn_free(D);
        return -1;
    }
    /* the threads ask every question together; the proofs are the lead's.
     * Where the root is the endgame solver's, its threads are the solver's */
    int solver_root = D->S.solver && game_empties(g, s) <= q->exact_empties;
    if (solver_root && q->threads > 1 && game_solver_threads(g, D->S.solver, q->threads) != 0) {
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory for the solver's threads");
        pns_dfpn_free(D);
        return -1;
    }
    return solver_root;
}

/* The candidates of [lo, hi], the first question at the one nearest 0, then
 * narrowed to the solver's own bounds where it owns the root. */
static void bounds_init(score_bounds *B, dfpn *D, const game *g, const game_state *s, int lo_score, int hi_score,
                        int solver_root, int proof)
{
    memset(B, 0, sizeof *B);
    for (int v = lo_score; v <= hi_score && B->nc < 512; v++)
        if (game_score_possible(g, v))
            B->cand[B->nc++] = v;
    B->b = B->nc - 1;
    while (B->at + 1 < B->nc && B->cand[B->at] < 0)
        B->at++;
    if (!solver_root || B->nc == 0)
        return;
    /* the solver's score; with a proof to write, one question at it then
     * gives the line (and the writer checks the score with both of its
     * proofs); without, the line is the solver's (solver_line), and the
     * question would cost about a tenth more solver nodes (FFO #40-44) for
     * a line alone */
    int lo = B->cand[0], hi = B->cand[B->nc - 1], done = solver_score(D, s, &lo, &hi) == 0;
    while (B->a < B->b && B->cand[B->a] < lo)
        B->a++;
    while (B->b > B->a && B->cand[B->b] > hi)
        B->b--;
    B->at = B->a;
    if (done && B->cand[B->a] == lo && B->a == B->b && !proof) {
        B->have = 1;
        B->root.pn = 0;  /* at least cand[a]: the solver's answer */
        B->root.dn = PNS_INF;
    }
}

/* Asks "at least cand[at]?" until one candidate is left or a question stays
 * open.  The first question asks about the candidate nearest 0, then steps
 * of 1, 2, 4 ... candidates go the way the answers point until an answer
 * turns (close scores cost few questions, and the hard questions, next to
 * the score, come once), and bisection finishes.  The first LINEAR_STEPS
 * steps are of one candidate: an answer far from the score is cheap, and
 * one past it is the costliest kind (6x6: 0 no, -2 no, -4 yes, where
 * doubling asked -6 too, a quarter of the search; 5x6: 20% fewer solver
 * nodes; random 6x6 positions of 19-22 empties: 6% fewer). */
static void bounds_search(score_bounds *B, dfpn *D, dfpn_team *T, pns_options *q, const game_state *s)
{
    int step = 1, dir0 = 0, same = 0;
    while (B->nc > 0 && (B->a < B->b || !B->have)) {
        D->S.has_bounds = 1;  /* what the watcher of a long run sees */
        D->S.score_lo = B->have ? B->cand[B->a] : B->cand[0];
        D->S.score_hi = B->cand[B->b];
        score_question(D, q, B->cand[B->at]);
        pns_dfpn_go(D, T, s, &B->root);
        if ((B->open = B->root.pn != 0 && B->root.dn != 0))
            break;
        int dir = B->root.pn == 0 ? 1 : -1;
        if (dir > 0) {
            B->a = B->at;
            B->have = 1;
            B->best.pv_len = 0;
            pns_dfpn_line(D, s, &B->best);
        } else if ((B->b = B->at - 1) < B->a) {
            break;  /* even the lowest bound failed: lo was no bound */
        }
        if (dir0 == 0)
            dir0 = dir;
        if (dir == dir0) {  /* galloping on */
            B->at += dir * step;
            if (++same > LINEAR_STEPS)
                step *= 2;
            B->at = B->at < B->a ? B->a : B->at > B->b ? B->b : B->at;
        } else {
            dir0 = 2;
            B->at = B->a == B->b ? B->a : B->a + (B->b - B->a + 1) / 2;
        }
    }
}

/* The two bounds handed to q->solved from the same table, each question set
 * and its root searched: at least the score proven, at least the next
 * possible score disproven.  1 done, 0 with r's error. */
static int bounds_hand_on(const score_bounds *B, dfpn *D, pns_options *q, const game_state *s, pns_result *r)
{
    pns_status want[2] = { PNS_PROVEN, PNS_DISPROVEN };
    for (int i = 0; i < (B->a + 1 < B->nc ? 2 : 1); i++) {
        pns_result pr;
        memset(&pr, 0, sizeof pr);
        score_question(D, q, B->cand[B->a + i]);
        child_t root;
        pns_dfpn_run(D, s, &root);
        if (q->solved(D, s, &root, &pr, q->solved_ctx) != 0 || pr.status != want[i]) {
            snprintf(r->error, sizeof r->error, "%s", pr.error[0] ? pr.error : "writing a proof failed");
            return 0;
        }
    }
    return 1;
}

/* r from the lead's search, the helpers' counts added; the first error of
 * the writer, the lead or a helper kept. */
static void score_report(dfpn *D, const score_bounds *B, const pns_result *helpers, pns_result *r)
{
    r->status = B->root.pn == 0 ? PNS_PROVEN : B->root.dn == 0 ? PNS_DISPROVEN : PNS_UNKNOWN;
    r->pn = B->root.pn;
    r->dn = B->root.dn;
    char error[sizeof r->error];
    memcpy(error, r->error, sizeof error);
    pns_search_report(&D->S, r);
    if (error[0])
        memcpy(r->error, error, sizeof error);  /* the bounds' own error first */
    pns_dfpn_team_add(r, helpers);
}

int pns_score_search(const game *g, const game_state *s, const pns_options *o, int lo_score, int hi_score, int *score,
                     pns_result *r)
{
    pns_options q = *o;  /* the prover as asked: a graph's is its OR player */
    q.question = PNS_SCORE;
    q.keep_solved = o->solved != NULL;
    dfpn D;
    int solver_root = score_start(&D, g, s, &q, r);
    if (solver_root < 0)
        return -1;
    score_bounds B;
    bounds_init(&B, &D, g, s, lo_score, hi_score, solver_root, o->solved != NULL);
    dfpn_team *T = q.threads > 1 && !solver_root ? pns_dfpn_team_new(&D, s, q.threads) : NULL;
    bounds_search(&B, &D, T, &q, s);
    if (pns_dfpn_checkpoint(&D, s) != 0)
        B.open = 1;
    pns_result helpers;
    memset(&helpers, 0, sizeof helpers);
    pns_dfpn_team_report(T, &helpers);
    pns_dfpn_team_free(T);
    if (B.nc > 0 && B.a <= B.b) {  /* what the answers so far show, also where the search stopped */
        r->score_lo = B.cand[B.a];
        r->score_hi = B.cand[B.b];
    }
    int found = B.have && B.a == B.b && !B.open;
    int solved = found && (!o->solved || bounds_hand_on(&B, &D, &q, s, r));
    /* the line after the hook: its questions would change the table the
     * hook reads (a writer's closed sets) */
    r->pv_len = B.best.pv_len;
    memcpy(r->pv, B.best.pv, sizeof r->pv);
    if (found && game_has_solver(g)) {
        T = q.threads > 1 && !solver_root ? pns_dfpn_team_new(&D, s, q.threads) : NULL;
        principal_line(&D, T, &q, s, B.cand[B.a], B.a + 1 < B.nc ? B.cand[B.a + 1] : INT_MAX, r);
        pns_dfpn_team_report(T, &helpers);
        pns_dfpn_team_free(T);
        if (D.S.solver)
            solver_line(&D, s, r);
    }
    score_report(&D, &B, &helpers, r);
    *score = B.have ? B.cand[B.a] : 0;
    pns_dfpn_free(&D);
    return solved ? 0 : found ? 1 : -1;
}
