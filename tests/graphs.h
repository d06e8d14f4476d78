/* tests/graphs.h - game graphs for the tests (tests/graphs.c). */
#ifndef PNSOLVE_TEST_GRAPHS_H
#define PNSOLVE_TEST_GRAPHS_H

#include <stddef.h>
#include <stdint.h>

#include "../games/game.h"

/* Value for player 0 (+1 win, 0 draw, -1 loss) of s with path[0..depth)
 * before it, every path searched: a repetition of the path is a draw. */
int path_value(const game *g, const game_state *s, uint64_t *path, int depth);
/* path_value of g's root with an empty path. */
int graph_truth(const game *g);
/* Opens a graph written to a temporary file; the file stays until unlink_graph. */
game *graph_keep(const char *text);
void unlink_graph(const game *g);
/* graph_keep, the file removed at once. */
game *graph_from_text(const char *text);
/* A random graph of 2..9 nodes with cycles, terminals and dead ends. */
void random_graph(unsigned *seed, char *buf, size_t len);
/* n OR and n AND nodes, w random moves each, an exit to a win from about a
 * third of the AND nodes: cycles everywhere, so summed proof numbers count
 * up around them to saturation. */
void dense_graph(unsigned seed, int n, int w, char *buf, size_t len);
/* A ladder of n OR and n AND nodes: O_i (the prover's) steps down to
 * A_{i-1} or jumps to a random AND node; A_i must allow O_{i-1} and, for
 * each of jumps tries with chance 1/3, a random OR node; A_0 reaches the
 * win.  Win proofs whose lines can come back to a position above them. */
void ladder_graph(unsigned seed, int n, int jumps, char *buf, size_t len);

#endif
