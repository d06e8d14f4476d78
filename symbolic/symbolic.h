/* symbolic/symbolic.h - Othello's positions as Binary Decision Diagrams
 * (BuDDy), after van Dijk's "Solving Othello using BDDs" (2019): a square
 * is two variables, occupied and white (the "3T" encoding: an empty
 * square's colour variable is held at 0, so a satisfying assignment is a
 * state), one variable for the side to move; the rules as BDDs over them.
 * Module of its own: BuDDy keeps one table per process, so calls here are
 * not for several threads at once. */
#ifndef PNSOLVE_SYMBOLIC_H
#define PNSOLVE_SYMBOLIC_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    double states;          /* satisfying states (exact below 2^53) */
    int nodes;              /* BDD nodes of the set */
    int table_nodes;        /* nodes in use in BuDDy's table when the set was built */
} sym_count;

/* The states of a W x H Othello board (3 <= W, H <= 8, W * H <= 40) that
 * are over (neither side has a move) and won by White, any board of discs
 * (reachable or not), either side to move, as van Dijk's Table 7.3 counts
 * them; node_limit bounds BuDDy's table (0: 50 million nodes).  0 with
 * *c, or -1 with err (the node limit reached: says so and which option
 * raises it; out of memory). */
int sym_immediate_wins(int w, int h, int node_limit, sym_count *c, char *err, size_t errlen);

/* Runs stop between steps (failing with "stopped by a signal") once *flag
 * is set (NULL: never); a step of a large board can take minutes. */
void sym_set_stop(volatile int *flag);

/* Where a run stands, for a progress hook. */
typedef struct {
    int iterations;   /* iterations done so far by every series of the run */
    int set_nodes;    /* the nodes of the set after the last of them */
    int table_nodes;  /* nodes in use in BuDDy's table now */
} sym_tick;

/* Calls fn(t, ctx) at most twice a second while a run goes, between the
 * parts of a step and after each iteration (NULL: never); a step of a
 * large board takes minutes, an iteration longer. */
void sym_set_progress(void (*fn)(const sym_tick *t, void *ctx), void *ctx);

/* Algorithms 2-5 save their state to path after an iteration once every
 * seconds have passed since the run began or last saved, and a run of the
 * same board, start and algorithm given that path goes on from the save;
 * the save is removed when the run completes (NULL: no saves).  With
 * iterations > 0 a run saves and stops (failing with "stopped after N
 * iterations as asked") after that many of its own: a slice of a long run. */
void sym_set_save(const char *path, double every, int iterations);

/* Algorithms 2 and 4, whose space (every state) is closed under
 * exchanging the colours, take Black's sets as White's exchanged (on, the
 * default: half the time) or find them by a run of their own (off: the
 * check of the first). */
void sym_set_mirror(int on);

#define SYM_MAX_ITERATIONS 128

/* A set's size in BDD nodes as an algorithm goes. */
typedef struct {
    int iterations;                    /* images (algorithm 1), rounds of both quantifiers (2, 3), layers (4, 5) */
    int nodes_at[SYM_MAX_ITERATIONS];  /* the set's nodes after each */
    int peak_nodes;                    /* the largest of them */
    double states;                     /* the set's states at the end (4, 5: summed over the layers) */
} sym_series;

typedef struct {
    int algo;
    int relation_nodes;   /* the partitioned relation's nodes, all parts together */
    double space;         /* the states considered: reachable (1, 3, 5), every state (2), every state of at least the start's discs (4) */
    sym_series reach;     /* the reachable states (1, 3: whole, per image; 5: per layer of the disc count) */
    sym_series side[2];   /* the states from which Black [0], White [1] can force a win (2-5) */
    double draws;         /* the states of the space in neither */
    int start;            /* the start: 1 White can force a win, -1 Black can, 0 neither (2-5) */
    int resumed;          /* 1: the run went on from a save (sym_set_save) */
    int paused;           /* 1: it stopped, saved, after the iterations asked (sym_set_save) */
} sym_result;

/* The sets of a solution kept for queries; BuDDy stays open meanwhile. */
typedef struct sym_sets sym_sets;

/* Van Dijk's algorithm algo (1-5; his numbering: 1 the states reachable
 * from the start by images under the relation partitioned by square and
 * pass; 2 the backward fixpoint of each side's winning states over every
 * state; 3 the same within the reachable states; 4 a sweep down the disc
 * count over every state; 5 the same over the reachable states) for the
 * start board (board[sq] for sq = row * w + column: -1 empty, 0 Black,
 * 1 White; the side to move); node_limit as for sym_immediate_wins; keep
 * (NULL: not wanted) gets the winning sets for sym_sets_outcome (2-5).
 * 0 with *out, or -1 with err. */
int sym_solve(int w, int h, const int *board, int white_to_move, int algo, int node_limit, sym_result *out,
              sym_sets **keep, char *err, size_t errlen);
/* The states reachable from the start (as for sym_solve) per disc count,
 * states[n] for n = 0..w*h, by a forward sweep holding one layer at a time
 * (a move adds a disc, a pass stays in its layer): the count that sizes an
 * explicit build before it starts; s gets each layer's nodes.  0, or -1
 * with err. */
int sym_count_layers(int w, int h, const int *board, int white_to_move, int node_limit, double *states, sym_series *s,
                     char *err, size_t errlen);
/* The outcome of a state under kept sets: 1 White can force a win, -1
 * Black can, 0 neither, -2 not among the states considered. */
int sym_sets_outcome(const sym_sets *k, int w, int h, const int *board, int white_to_move);
/* Frees the sets and stops BuDDy (NULL allowed). */
void sym_sets_free(sym_sets *k);

#endif
