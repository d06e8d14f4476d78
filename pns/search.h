/* pns/search.h - private to pns/: what every search shares: the search
 * context, leaf evaluation (game end, table probe, exact solver), the path
 * of positions from the root (for repetitions), proof-number arithmetic and
 * the limits. */
#ifndef PNSOLVE_PNS_SEARCH_H
#define PNSOLVE_PNS_SEARCH_H

#include "pns.h"

#define DEP_NONE UINT32_MAX    /* a solved result that does not depend on the path */
#define PATH_MAX_DEPTH PNS_MAX_DEPTH
#define PATH_HASH_LOG2 12  /* 16 KB of chain heads stays in cache (2^16, 256 KB, missed on every child looked up) */

/* What the threads of one search share beside their table (a df-pn team,
 * dfpn_team.c; the signals are here, because every search ticks). */
typedef struct {
    int halt;                  /* set when any member ends: the others stop (atomic) */
    int pause;                 /* the lead saves a checkpoint: the others wait (atomic) */
    int paused, active;        /* members waiting; members still searching */
    uint64_t nodes;            /* every member's nodes, counted in steps of 1024 */
} pns_team;

/* Waits while t->pause is set (a member's part of a checkpoint). */
void pns_team_wait(pns_team *t);
/* Sets t->pause and returns once every other member still searching waits. */
void pns_team_pause(pns_team *t);
/* Lets the waiting members go on. */
void pns_team_resume(pns_team *t);

typedef struct {
    const game *g;
    const pns_options *o;
    pns_team *team;            /* NULL: the only thread of its search */
    int prover;                /* player to move at the root */
    int tb_ok;                 /* the game has tables and o->tb is set */
    /* the positions on the path from the root, chained by hash so that "is
     * it on the path?" costs O(1) however deep the path (proof writing
     * follows lines thousands of plies long) */
    game_key *path;
    int32_t *path_prev;        /* per depth: the next shallower depth with the same hash, -1 none */
    int depth;
    int32_t path_head[1 << PATH_HASH_LOG2]; /* per hash: the deepest depth with it, -1 none */
    uint64_t nodes;
    double t0, next_check, next_progress;
    double write_until;         /* searches stop here (pns_dfpn_deadline; 0: no limit of this kind) */
    int stopped;
    const char *stopped_by;
    uint64_t path_dependent;
    game_solver *solver;        /* the game's exact endgame solver (PNS_SCORE), or NULL */
    uint64_t endgame_nodes;     /* positions of exact endgame searches */
    uint64_t endgame_checked;   /* endgame_nodes when the clock was last read */
    uint32_t root_pn, root_dn;  /* latest known, for progress reports */
    uint32_t sub_pn, sub_dn;    /* the same of the root's child being searched */
    int has_bounds, score_lo, score_hi;  /* pns_score's bounds so far, for progress reports */
    double fill;                /* table fill, for progress reports */
    size_t bytes, peak_bytes;   /* memory in use, kept by the search */
    double next_checkpoint;
    int checkpoint_due;         /* set by pns_search_tick; the search saves and clears it */
    uint64_t nodes_before;      /* nodes of the runs a resumed search continues */
    double seconds_before;
    char error[256];
} pns_search;

/* Sets up S for a search of g from the root, its endgame solver on share's
 * table where share is given and the game's solvers can share; 0, or -1
 * when out of memory (then nothing is left to free). */
int pns_search_init(pns_search *S, const game *g, const game_state *root, const pns_options *o, game_solver *share);
void pns_search_free(pns_search *S);

/* 1 when s is decided without search (game over or table hit), with the
 * final pn/dn for the prover in *pn, *dn; 0 otherwise.  A table error stops
 * the search (S->stopped, S->error) and answers 0. */
int pns_search_leaf(pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn);
/* Plays each child of s by moves mv[0..n) (at most GAME_MAX_MOVES) into
 * cs[i] and gives its pns_search_leaf: leaf[i] 1 with pn[i], dn[i] where
 * decided; the tables' probes made together, their misses overlapping. */
void pns_search_leaves(pns_search *S, const game_state *s, const game_move *mv, int n, game_state *cs, uint8_t *leaf,
                       uint32_t *pn, uint32_t *dn);

/* Goes on with r's line from s, where it reached a table leaf, along the
 * tables' best moves (tb_best_move): a win or loss to the game's end, a
 * draw for a few plies only (its line never ends).  s becomes the line's
 * last position.  A table error ends the line. */
void pns_search_table_line(pns_search *S, game_state *s, pns_result *r);

/* Is s, reached at path depth S->depth, for the game's exact solver?  Only
 * score questions below the --exact-empties line, and never the root (it
 * must get a best move). */
static inline int pns_search_exact_region(const pns_search *S, const game_state *s)
{
    return S->solver && S->depth > 0 && game_empties(S->g, s) <= S->o->exact_empties;
}
/* 1 with the final pn/dn when the solver decides s (pns_search_exact_region),
 * and in *target (if not NULL) the furthest target that answer holds for
 * (proven: "at least *target"; disproven: "at least *target" disproven);
 * costly, so searches call it when they would expand s, not when they meet
 * it: an OR node's first proven child spares its siblings the solver. */
int pns_search_exact(pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn, int *target);

/* The solver's score of s in (alpha, beta), fail-soft, in *v: 0, or -1 with
 * S stopped when a limit (Ctrl-C, --time) ended the solve first. */
int pns_search_solve(pns_search *S, const game_state *s, int alpha, int beta, int *v);

/* Scales the initial *pn and *dn of s by the solver's estimate against the
 * score target (PNS_INIT_EVAL; nothing where the game has no estimate). */
void pns_search_scale_by_estimate(const pns_search *S, const game_state *s, int or_node, uint32_t *pn, uint32_t *dn);
/* pn/dn of a position met for the first time (pns_init). */
static inline void pns_search_initial(const pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn)
{
    if (S->o->init == PNS_INIT_ONE) {
        *pn = *dn = 1;
        return;
    }
    uint32_t m = (uint32_t)game_count(S->g, s);
    int or_node = game_to_move(S->g, s) == S->prover;
    *pn = or_node ? 1 : m;
    *dn = or_node ? m : 1;
    if (S->o->init == PNS_INIT_EVAL && S->solver)
        pns_search_scale_by_estimate(S, s, or_node, pn, dn);
}

/* Does a draw answer the question asked with yes?  The invariant that the
 * search and the proof checker (proof_check.c, written apart) both keep: a
 * repetition is a draw, score 0, so it proves "at least K" exactly when
 * K <= 0 and disproves it exactly when K > 0; it proves "avoid losing" and
 * disproves "force a win". */
static inline int pns_search_draw_proves(const pns_options *o)
{
    return o->question == PNS_ADVANTAGE || (o->question == PNS_SCORE && o->score_target <= 0);
}

/* pn/dn of a repetition for the question asked (a draw). */
static inline void pns_search_repetition(const pns_search *S, uint32_t *pn, uint32_t *dn)
{
    int draw_wins = pns_search_draw_proves(S->o);
    *pn = draw_wins ? 0 : PNS_INF;
    *dn = draw_wins ? PNS_INF : 0;
}

/* Depth of key on the path, or -1. */
int pns_path_find(const pns_search *S, game_key key);
/* Empties the path. */
void pns_path_clear(pns_search *S);
/* Pushes key; -1 when the path is too deep (the search stops). */
int pns_path_push(pns_search *S, game_key key);
void pns_path_pop(pns_search *S);

/* Counts a node and checks the limits every few thousand nodes (nodes,
 * time, stop flag, progress callback); returns S->stopped. */
int pns_search_tick(pns_search *S);
/* Fills the common fields of r from S. */
void pns_search_report(const pns_search *S, pns_result *r);

/* Saturating sums for proof numbers. */
static inline uint32_t pn_add(uint32_t a, uint32_t b)
{
    if (a >= PNS_INF || b >= PNS_INF)
        return PNS_INF;
    uint32_t s = a + b;
    return s >= PNS_INF ? PNS_INF - 1 : s;
}

/* A node's pn/dn folded from its children's, one child at a time: the
 * smallest of one number (pn at OR nodes, dn at AND nodes) and the sum of
 * the other.  weak: weak proof-number search (Ueda et al. 2008) sums as the
 * largest child's number plus one per other open child, which stops
 * transpositions and cycles from counting a subtree many times over. */
typedef struct { uint32_t mn, sum, mx, open; } pn_fold;

static inline pn_fold pn_fold_start(void) { return (pn_fold){ PNS_INF, 0, 0, 0 }; }

static inline void pn_fold_child(pn_fold *f, int or_node, uint32_t pn, uint32_t dn)
{
    uint32_t a = or_node ? pn : dn, b = or_node ? dn : pn;
    if (a < f->mn)
        f->mn = a;
    f->sum = pn_add(f->sum, b);
    if (b > f->mx)
        f->mx = b;
    f->open += b != 0;
}

static inline void pn_fold_end(const pn_fold *f, int or_node, int weak, uint32_t *pn, uint32_t *dn)
{
    uint32_t sum = weak && f->open ? pn_add(f->mx, f->open - 1) : f->sum;
    if (f->mn == 0)
        sum = PNS_INF;
    *pn = or_node ? f->mn : sum;
    *dn = or_node ? sum : f->mn;
}

#endif
