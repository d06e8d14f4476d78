/* pns/bfpns.h - private to pns/: best-first proof-number search (the
 * thesis's PNS with a tree in memory), behind pns_solve's PNS_BEST_FIRST. */
#ifndef PNSOLVE_PNS_BFPNS_H
#define PNSOLVE_PNS_BFPNS_H

#include "search.h"

/* Searches s until solved or stopped; fills r (pns_solve's contract). */
void pns_bfpns_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r);

#endif
