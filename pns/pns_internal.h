/* pns/pns_internal.h - private to pns/: what both searches share: the
 * search context, leaf evaluation (game end, table probe), the path of
 * positions from the root (for repetitions) and the limits. */
#ifndef PNSOLVE_PNS_INTERNAL_H
#define PNSOLVE_PNS_INTERNAL_H

#include "pns.h"

#define DEP_NONE UINT32_MAX    /* a solved result that does not depend on the path */
#define PATH_MAX_DEPTH 65536

typedef struct {
    const game *g;
    const pns_options *o;
    int prover;                /* player to move at the root */
    int tb_ok;                 /* the game has tables and o->tb is set */
    /* the positions on the path from the root; filter counts keys by hash so
     * that most "is it on the path?" questions end without a scan */
    game_key *path;
    int depth;
    uint8_t filter[1 << 16];
    uint64_t nodes;
    double t0, next_check, next_progress;
    int stopped;
    const char *stopped_by;
    uint64_t path_dependent;
    uint64_t endgame_nodes;     /* positions of exact endgame searches */
    uint32_t root_pn, root_dn;  /* latest known, for progress reports */
    double fill;                /* table fill, for progress reports */
    size_t bytes, peak_bytes;   /* memory in use, kept by the search */
    double next_checkpoint;
    int checkpoint_due;         /* set by search_tick; the search saves and clears it */
    uint64_t nodes_before;      /* nodes of the runs a resumed search continues */
    double seconds_before;
    char error[256];
} pns_search;

/* Sets up S for a search of g from the root; 0, or -1 when out of memory. */
int search_init(pns_search *S, const game *g, const game_state *root, const pns_options *o);
void search_free(pns_search *S);

/* 1 when s is decided without search (game over or table hit), with the
 * final pn/dn for the prover in *pn, *dn; 0 otherwise.  A table error stops
 * the search (S->stopped, S->error) and answers 0. */
int search_leaf(pns_search *S, const game_state *s, uint32_t *pn, uint32_t *dn);

/* pn/dn of a repetition for the question asked (a draw). */
static inline void search_repetition(const pns_search *S, uint32_t *pn, uint32_t *dn)
{
    int draw_wins = S->o->question == PNS_ADVANTAGE;
    *pn = draw_wins ? 0 : PNS_INF;
    *dn = draw_wins ? PNS_INF : 0;
}

/* Depth of key on the path, or -1. */
int path_find(const pns_search *S, game_key key);
/* Pushes key; -1 when the path is too deep (the search stops). */
int path_push(pns_search *S, game_key key);
void path_pop(pns_search *S);

/* Counts a node and checks the limits every few thousand nodes (nodes,
 * time, stop flag, progress callback); returns S->stopped. */
int search_tick(pns_search *S);
/* Fills the common fields of r from S. */
void search_report(const pns_search *S, pns_result *r);
double search_clock(void);

/* Saturating sums for proof numbers. */
static inline uint32_t pn_add(uint32_t a, uint32_t b)
{
    if (a >= PNS_INF || b >= PNS_INF)
        return PNS_INF;
    uint32_t s = a + b;
    return s >= PNS_INF ? PNS_INF - 1 : s;
}

/* A search run on a thread with a stack for PATH_MAX_DEPTH plies. */
typedef struct search_job {
    void (*run)(struct search_job *j);
    const game *g;
    const game_state *s;
    const pns_options *o;
    pns_result *r;
    FILE *out;
    int rc;
    int lo, hi, score;  /* pns_score */
} search_job;
void search_on_big_stack(search_job *j);

/* The searches behind pns_solve. */
void dfpn_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r);
void bfpns_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r);

#endif
