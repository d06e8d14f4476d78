/* games/game_impl.h - private to games/: what the game files share. */
#ifndef PNSOLVE_GAME_IMPL_H
#define PNSOLVE_GAME_IMPL_H

#include "game.h"

/* Reads "WxH" with each side in [lo, hi] into *w, *h (args "" leaves the
 * defaults); -1 and a reason naming the game otherwise. */
int game_parse_size(const char *game_name, const char *args, int lo, int hi, int *w, int *h, char *err, size_t errlen);

/* Constructors of the registry.  args is the text after "name:" (or ""). */
game *jungle_open(const char *args, const char *variant, char *err, size_t errlen);
game *ostle_open(const char *args, const char *variant, char *err, size_t errlen);
game *othello_open(const char *args, const char *variant, char *err, size_t errlen);
game *graph_open(const char *args, const char *variant, char *err, size_t errlen);
game *tictactoe_open(const char *args, const char *variant, char *err, size_t errlen);

/* Othello's exact endgame solver (othello_solve.c), for game_ops. */
game_solver *othello_solver_new(const game *g, size_t bytes);
int othello_solver_score(game_solver *x, const game_state *s, int alpha, int beta, uint64_t *nodes);
game_solver *othello_solver_share(game_solver *x);
void othello_solver_free(game_solver *x);
int othello_solver_threads(game_solver *x, int n);
void othello_solver_watch(game_solver *x, int (*stop)(void *ctx), void *ctx);
int othello_solver_estimate(game_solver *x, const game_state *s);

/* Allocates a game object with the given ops and name; NULL on no memory. */
game *game_alloc(const game_ops *ops, const char *name);

#endif
