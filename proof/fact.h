/* proof/fact.h - private to proof/: a header made into the claim it states. */
#ifndef PNSOLVE_PROOF_FACT_H
#define PNSOLVE_PROOF_FACT_H

#include "proof.h"

/* The game and root of a complete header h: 0, or -1 with err (a line
 * missing, the game not opened or not the content named, the position not
 * one of the game). */
int proof_header_root(const proof_header *h, game **g, game_state *root, char *err, size_t errlen);

/* f filled from header h of a proof of root in g (nodes 0). */
void proof_fact_fill(proof_fact *f, const proof_header *h, const game *g, const game_state *root);

#endif
