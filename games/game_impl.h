/* games/game_impl.h - private to games/: what the game files share. */
#ifndef PNSOLVE_GAME_IMPL_H
#define PNSOLVE_GAME_IMPL_H

#include "game.h"

/* Writes a one-line reason into err (if err is not NULL); returns -1. */
int game_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Constructors of the registry.  args is the text after "name:" (or ""). */
game *jungle_open(const char *args, const char *variant, char *err, size_t errlen);
game *ostle_open(const char *args, const char *variant, char *err, size_t errlen);
game *othello_open(const char *args, const char *variant, char *err, size_t errlen);
game *graph_open(const char *args, const char *variant, char *err, size_t errlen);

/* Allocates a game object with the given ops and name; NULL on no memory. */
game *game_alloc(const game_ops *ops, const char *name);

#endif
