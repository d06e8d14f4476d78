/* pns/score.h - private to pns/: the score search on top of df-pn. */
#ifndef PNSOLVE_PNS_SCORE_H
#define PNSOLVE_PNS_SCORE_H

#include "search.h"

/* pns_score's contract, on the caller's stack: the exact score in [lo, hi]
 * by "at least K?" questions to one df-pn table, each bound handed to
 * o->solved where set.  0, 1 found but the hook failed, -1 open. */
int pns_score_search(const game *g, const game_state *s, const pns_options *o, int lo, int hi, int *score,
                     pns_result *r);

#endif
