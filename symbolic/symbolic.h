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

#endif
