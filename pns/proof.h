/* pns/proof.h - private to pns/: the proof writers (proof_write.c, the
 * tree; proof_closed.c, a closed set read off df-pn's table).  The format is
 * in docs/proof-format.md. */
#ifndef PNSOLVE_PNS_PROOF_H
#define PNSOLVE_PNS_PROOF_H

#include "dfpn.h"

/* pns_write_proof's contract, on the caller's stack. */
int pns_proof_write(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r);

/* Searches D's question from s (its tables first) and writes the solution
 * tree to out (pns_write_proof's contract), reusing whatever D knows. */
int pns_proof_write_dfpn(dfpn *D, const game_state *s, FILE *out, pns_result *r);

/* Writes the proof of claim c, which a draw supports (a win disproven, an
 * advantage proven, "at least K" proven for K <= 0 or disproven for K > 0),
 * header first, as a closed set read off D's table (proof_closed.c); 0, 1
 * when the table's positions do not hold the root (nothing written), -1
 * when out of memory, stopped, a table is bad or out cannot be written
 * (D->S.error).  Adds to *repaired the positions the table had lost that
 * it searched again. */
struct proof_claim;
int pns_proof_write_closed(dfpn *D, const game_state *root, const struct proof_claim *c, FILE *out, uint64_t *repaired);

#endif
