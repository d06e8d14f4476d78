/* pns/search.c - what every search shares: leaves, the path, the limits. */
#include "search.h"
#include "../util/util.h"

#include <math.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Ctrl-C or another thread's answer, read without the clock: why the
 * search must end now, or NULL. */
static const char *signalled(const pns_search *S)
{
    if (S->o->stop && __atomic_load_n(S->o->stop, __ATOMIC_RELAXED))  /* set by a signal handler, read by every thread */
        return "interrupt";
    if (S->team && __atomic_load_n(&S->team->halt, __ATOMIC_ACQUIRE))
        return "another thread";
    return NULL;
}

/* The clock's limit reached at now ("time": --time, "proof time": the
 * writer's own), or NULL. */
static const char *out_of_time(const pns_search *S, double now)
{
    if (S->o->max_seconds > 0 && now - S->t0 >= S->o->max_seconds)
        return "time";
    return S->write_until > 0 && now >= S->write_until ? "proof time" : NULL;
}

/* A limit that ends the search now (Ctrl-C, another thread's answer,
 * --time), or NULL.  It only reads, so that each of the solver's threads
 * may ask it. */
static const char *limit_reached(const pns_search *S)
{
    const char *why = signalled(S);
    return why ? why : out_of_time(S, util_clock());
}

/* The solver's watch: one solve may take hours where the root is its. */
static int solver_watch(void *ctx)
{
    return limit_reached(ctx) != NULL;
}

int pns_search_init(pns_search *S, const game *g, const game_state *root, const pns_options *o, game_solver *share)
{
    memset(S, 0, sizeof *S);
    S->g = g;
    S->o = o;
    S->prover = o->prover >= 0 ? o->prover : game_prover(g, root);
    S->tb_ok = o->tb && game_has_tables(g) && o->question != PNS_SCORE;
    S->path = malloc(sizeof *S->path * PATH_MAX_DEPTH);
    S->path_prev = malloc(sizeof *S->path_prev * PATH_MAX_DEPTH);
    pns_path_clear(S);
    S->t0 = util_clock();
    S->next_progress = S->t0 + (o->progress_every > 0 ? o->progress_every : 2.0);
    S->root_pn = S->root_dn = 1;
    int solver = o->question == PNS_SCORE && o->exact_empties > 0 && game_has_solver(g);
    if (solver && share)
        S->solver = game_solver_share(g, share);
    if (solver && !S->solver) {
        /* the solver's table: an eighth of the search's memory, from 1 MB */
        size_t bytes = o->memory / 8 > (1 << 20) ? o->memory / 8 : 1 << 20;
        S->solver = game_solver_new(g, bytes);
        S->bytes += bytes;
    }
    if (S->solver)
        game_solver_watch(g, S->solver, solver_watch, S);
    S->next_checkpoint = S->t0 + (o->checkpoint_every > 0 ? o->checkpoint_every : 600.0);
    if (!S->path || !S->path_prev || (solver && !S->solver)) {
        pns_search_free(S);
        return -1;
    }
    return 0;
}

void pns_search_free(pns_search *S)
{
    free(S->path);
    free(S->path_prev);
    S->path = NULL;
    S->path_prev = NULL;
    if (S->solver)
        game_solver_free(S->g, S->solver);
    S->solver = NULL;
}

int pns_search_solve(pns_search *S, const game_state *s, int alpha, int beta, int *v)
{
    *v = game_solver_score(S->g, S->solver, s, alpha, beta, &S->endgame_nodes);
    if (*v != GAME_SOLVER_STOPPED)
        return 0;
    const char *why = limit_reached(S);
    S->stopped = 1;
    S->stopped_by = why ? why : "interrupt";
    return -1;
}

/* pn/dn of a leaf that proves the question or disproves it. */
static void leaf_numbers(int proven, uint32_t *pn, uint32_t *dn)
{
    *pn = proven ? 0 : PNS_INF;
    *dn = proven ? PNS_INF : 0;
}

int pns_search_exact(pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn, int *target)
{
    int t = S->o->score_target, mine = game_to_move(S->g, s) == S->prover, v;
    tb_value stored_value;
    int stored = S->o->scores && S->o->question == PNS_SCORE &&
                 tb_probe(S->o->scores, s, &stored_value, NULL, 0) == 1 && stored_value.scored;
    if (stored)
        v = stored_value.score;
    if (!stored && !pns_search_exact_region(S, s))
        return 0;
    /* a null window around the target: is the prover's score >= target? */
    if (!stored && pns_search_solve(S, s, mine ? t - 1 : -t, mine ? t : -t + 1, &v) != 0) {
        *pn = *dn = 1;  /* open: the caller sees S->stopped and keeps nothing */
        return 1;
    }
    v = mine ? v : -v;
    int proven = v >= t;
    leaf_numbers(proven, pn, dn);
    /* the fail-soft value answers every target it passes: "at least v"
     * proven, or "at least v + 1" disproven, so that later questions read
     * the leaf instead of solving it again */
    if (target)
        *target = proven ? v : v + 1;
    return 1;
}

/* pn/dn of a leaf whose outcome for the prover is +1 win, 0 draw, -1 loss. */
static void outcome_numbers(const pns_search *S, int outcome, uint32_t *pn, uint32_t *dn)
{
    leaf_numbers(outcome > 0 || (outcome == 0 && S->o->question == PNS_ADVANTAGE), pn, dn);
}

/* pns_search_leaf for a game that has ended: 1 with pn/dn, else 0. */
static int ended(const pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn)
{
    const game *g = S->g;
    game_result res = game_result_of(g, s);
    if (res == GAME_ONGOING)
        return 0;
    if (S->o->question == PNS_SCORE) {
        int sc = game_score(g, s);
        leaf_numbers((S->prover ? -sc : sc) >= S->o->score_target, pn, dn);
    } else {
        outcome_numbers(S, game_outcome_for(res, S->prover), pn, dn);
    }
    return 1;
}

/* The table's value v of live s as pn/dn for the prover. */
static void table_numbers(const pns_search *S, const game_state *s, tb_value v, uint32_t *pn, uint32_t *dn)
{
    outcome_numbers(S, game_to_move(S->g, s) == S->prover ? (int)v.wdl : -(int)v.wdl, pn, dn);
}

static void table_error(pns_search *S)
{
    S->stopped = 1;
    S->stopped_by = "table error";
}

int pns_search_leaf(pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn)
{
    if (ended(S, s, pn, dn))
        return 1;
    if (!S->tb_ok)
        return 0;
    tb_value v;
    int found = tb_probe(S->o->tb, s, &v, S->error, sizeof S->error);
    if (found < 0)
        table_error(S);
    if (found <= 0)
        return 0;
    table_numbers(S, s, v, pn, dn);
    return 1;
}

void pns_search_leaves(pns_search *S, const game_state *s, const game_move *mv, int n, game_state *cs, uint8_t *leaf,
                       uint32_t *pn, uint32_t *dn)
{
    game_state live[GAME_MAX_MOVES];
    int from[GAME_MAX_MOVES], m = 0;
    for (int i = 0; i < n; i++) {
        cs[i] = *s;
        game_play(S->g, &cs[i], mv[i]);
        leaf[i] = (uint8_t)ended(S, &cs[i], &pn[i], &dn[i]);
        if (!leaf[i] && S->tb_ok)
            live[m] = cs[i], from[m++] = i;
    }
    if (m == 0)
        return;
    tb_value v[GAME_MAX_MOVES];
    int found[GAME_MAX_MOVES];
    if (tb_probe_each(S->o->tb, live, m, v, found, S->error, sizeof S->error) != 0) {
        table_error(S);
        return;
    }
    for (int j = 0; j < m; j++)
        if (found[j]) {
            leaf[from[j]] = 1;
            table_numbers(S, &live[j], v[j], &pn[from[j]], &dn[from[j]]);
        }
}

#define DRAW_LINE_PLIES 8

void pns_search_table_line(pns_search *S, game_state *s, pns_result *r)
{
    if (!S->tb_ok)
        return;
    char err[256];
    int draw_left = DRAW_LINE_PLIES;
    while (r->pv_len < PNS_MAX_PV && game_result_of(S->g, s) == GAME_ONGOING) {
        game_move m;
        tb_value v;
        if (tb_best_move(S->o->tb, s, &m, &v, err, sizeof err) != 1 || (v.wdl == TB_DRAW && draw_left-- == 0))
            return;
        r->pv[r->pv_len++] = m;
        game_play(S->g, s, m);
    }
}

static inline uint32_t path_hash(game_key key) { return (uint32_t)(game_key_hash(key) >> (64 - PATH_HASH_LOG2)); }

int pns_path_find(const pns_search *S, game_key key)
{
    for (int d = S->path_head[path_hash(key)]; d >= 0; d = S->path_prev[d])
        if (game_key_equal(S->path[d], key))
            return d;
    return -1;
}

void pns_path_clear(pns_search *S)
{
    S->depth = 0;
    memset(S->path_head, 0xFF, sizeof S->path_head);
}

int pns_path_push(pns_search *S, game_key key)
{
    if (S->depth >= PATH_MAX_DEPTH) {
        S->stopped = 1;
        S->stopped_by = "depth";
        return -1;
    }
    int32_t *head = &S->path_head[path_hash(key)];
    S->path_prev[S->depth] = *head;
    *head = S->depth;
    S->path[S->depth++] = key;
    return 0;
}

void pns_path_pop(pns_search *S)
{
    game_key key = S->path[--S->depth];
    S->path_head[path_hash(key)] = S->path_prev[S->depth];
}

int pns_search_tick(pns_search *S)
{
    const pns_options *o = S->o;
    S->nodes++;
    if (o->max_nodes && S->nodes >= o->max_nodes && !S->stopped) {
        S->stopped = 1;
        S->stopped_by = "nodes";
    }
    const char *why = signalled(S);
    if (why && !S->stopped) {
        S->stopped = 1;
        S->stopped_by = why;
    }
    if (S->team) {
        if ((S->nodes & 1023) == 0 && __atomic_add_fetch(&S->team->nodes, 1024, __ATOMIC_RELAXED) >= o->max_nodes &&
            o->max_nodes && !S->stopped) {
            S->stopped = 1;
            S->stopped_by = "nodes";
        }
        if (__atomic_load_n(&S->team->pause, __ATOMIC_ACQUIRE))
            pns_team_wait(S->team);
    }
    /* the clock every 1024 nodes, or sooner when the endgame solver is busy */
    if ((S->nodes & 1023) == 0 || S->endgame_nodes - S->endgame_checked > (1u << 22)) {
        S->endgame_checked = S->endgame_nodes;
        double now = util_clock();
        const char *late = out_of_time(S, now);
        if (late && !S->stopped) {
            S->stopped = 1;
            S->stopped_by = late;
        }
        if (o->checkpoint && now >= S->next_checkpoint) {
            S->next_checkpoint = now + (o->checkpoint_every > 0 ? o->checkpoint_every : 600.0);
            S->checkpoint_due = 1;
        }
        if (o->progress && now >= S->next_progress) {
            S->next_progress = now + (o->progress_every > 0 ? o->progress_every : 2.0);
            uint64_t nodes = S->team ? __atomic_load_n(&S->team->nodes, __ATOMIC_RELAXED) : S->nodes;
            pns_progress p = { S->nodes_before + nodes, S->seconds_before + now - S->t0, S->root_pn, S->root_dn,
                               S->fill, S->bytes, o->score_target, S->sub_pn, S->sub_dn, S->has_bounds,
                               S->score_lo, S->score_hi };
            o->progress(&p, o->ctx);
        }
    }
    if (S->bytes > S->peak_bytes)
        S->peak_bytes = S->bytes;
    return S->stopped;
}

void pns_search_report(const pns_search *S, pns_result *r)
{
    r->stopped_by = r->status == PNS_UNKNOWN ? S->stopped_by : NULL;
    r->nodes = S->nodes_before + S->nodes;
    r->endgame_nodes = S->endgame_nodes;
    r->seconds = S->seconds_before + util_clock() - S->t0;
    r->peak_bytes = S->peak_bytes > S->bytes ? S->peak_bytes : S->bytes;
    r->path_dependent = S->path_dependent;
    strcpy(r->error, S->error);
}

/* --- the signals between the threads of one search --- */

static void nap(void)
{
    struct timespec ts = { 0, 200000 };
    nanosleep(&ts, NULL);
}

void pns_team_wait(pns_team *t)
{
    __atomic_add_fetch(&t->paused, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&t->pause, __ATOMIC_ACQUIRE))
        nap();
    __atomic_sub_fetch(&t->paused, 1, __ATOMIC_ACQ_REL);
}

void pns_team_pause(pns_team *t)
{
    __atomic_store_n(&t->pause, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&t->paused, __ATOMIC_ACQUIRE) < __atomic_load_n(&t->active, __ATOMIC_ACQUIRE) - 1)
        nap();
}

void pns_team_resume(pns_team *t) { __atomic_store_n(&t->pause, 0, __ATOMIC_RELEASE); }

/* EF-PN's scaling: the mobility numbers times 2^(-d/SIGMA) for pn and
 * 2^(d/SIGMA) for dn, d the estimate's margin over the target in the
 * prover's favour (d/SIGMA capped at 3), all times EVAL_SCALE so that a
 * favourable margin can lower them below the mobility numbers.  Chosen on
 * 5x6 and 6x5 by solver nodes (docs/othello.md). */
#define EVAL_SIGMA 12.0
#define EVAL_SCALE 8.0

void pns_search_scale_by_estimate(const pns_search *S, const game_state *s, int or_node, uint32_t *pn, uint32_t *dn)
{
    int v;
    if (!game_solver_estimate(S->g, S->solver, s, &v))
        return;
    double x = ((or_node ? v : -v) - S->o->score_target) / EVAL_SIGMA;
    x = x > 3 ? 3 : x < -3 ? -3 : x;
    double p = *pn * EVAL_SCALE * exp2(-x), d = *dn * EVAL_SCALE * exp2(x);
    *pn = p < 1 ? 1 : (uint32_t)(p + 0.5);
    *dn = d < 1 ? 1 : (uint32_t)(d + 0.5);
}
