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

#define SYM_MAX_ITERATIONS 128

typedef struct {
    double states;          /* reachable states (board and side to move) */
    int nodes, peak_nodes;  /* the reached set's BDD at the end and at its largest */
    int iterations;         /* images until nothing new: the longest game in plies, passes counted, plus one */
    int nodes_at[SYM_MAX_ITERATIONS];  /* the reached set's nodes after each image */
} sym_reach;

/* Van Dijk's algorithm 1: the states reachable from the start (board[sq]
 * for sq = row * w + column: -1 empty, 0 Black, 1 White; the side to move)
 * by images under the transition relation partitioned by square and pass;
 * node_limit as for sym_immediate_wins.  0 with *out, or -1 with err. */
int sym_reachable(int w, int h, const int *board, int white_to_move, int node_limit, sym_reach *out, char *err,
                  size_t errlen);

#endif
