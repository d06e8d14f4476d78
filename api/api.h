/* api/api.h - private to api/: the handles and the helpers the API's
 * files share. */
#ifndef PNSOLVE_API_H
#define PNSOLVE_API_H

#include "pnsolve.h"
#include "../games/game.h"
#include "../tablebase/tablebase.h"

#include <stddef.h>

struct pnsolve_game {
    game *g;
};

struct pnsolve_tables {
    const game *g;
    tb_set *t;
};

/* Writes a reason to err (may be NULL) and returns code. */
pnsolve_status pnsolve_api_fail(pnsolve_status code, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The state of position (NULL: the start): PNSOLVE_OK, or EINVAL with err. */
pnsolve_status pnsolve_api_position(const game *g, const char *position, game_state *s, char *err, size_t errlen);
/* out cleared, with move m of s and the position it leads to as text. */
pnsolve_status pnsolve_api_move_value(const game *g, const game_state *s, game_move m, pnsolve_move_value *out,
                                      char *err, size_t errlen);
/* Sorts out[0..n) best first (wins fastest, draws, losses slowest, scores
 * highest, the unknown last; stable). */
void pnsolve_api_sort_moves(pnsolve_move_value *out, int n);

#endif
