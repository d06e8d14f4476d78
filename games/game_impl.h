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

/* Othello's exact endgame solver (othello_solve.c), for game_ops. */
game_solver *othello_solver_new(const game *g, size_t bytes);
int othello_solver_score(game_solver *x, const game_state *s, int alpha, int beta, uint64_t *nodes);
void othello_solver_free(game_solver *x);

/* Ostle positions from which one move that removes no piece leads to s's
 * position (the forbidden move of s is ignored; theirs is none), into
 * out[GAME_MAX_MOVES], and that move into moves[] unless it is NULL; returns
 * the count. */
int ostle_unmoves(const game *g, const game_state *s, game_state *out, game_move *moves);

/* The moves that rule 8 can forbid in s's position: those some state with a
 * move into it leaves forbidden (the hole moved back; a chain pushed back
 * from its far end, which is the side to move's piece), into
 * out[GAME_MAX_MOVES]; returns the count.  The states of a position are it
 * with none or one of these forbidden: the index space of a rule-8 builder. */
int ostle_forbiddable(const game *g, const game_state *s, game_move *out);

/* Allocates a game object with the given ops and name; NULL on no memory. */
game *game_alloc(const game_ops *ops, const char *name);

#endif
