/* pwrite/pwrite.h - proof writers: a solved question's proof in the format
 * of docs/proof-format.md, read off what df-pn solved (pns.h's o->solved
 * hook and its pns_dfpn_* view), searching again only where the table has
 * lost a value.  Between the search (pns/), which knows nothing of proofs,
 * and the format and its checker (proof/), which knows nothing of search. */
#ifndef PNSOLVE_PWRITE_H
#define PNSOLVE_PWRITE_H

#include <stdio.h>

#include "../games/game.h"
#include "../pns/pns.h"
#include "../proof/proof.h"

/* Searches o->question by df-pn and, if it is solved, writes the solution
 * tree to out (every defence of the losing side, one winning move of the
 * winner, the reason at each leaf; where a draw supports the claim, a
 * closed set of positions); 0, or -1 with r set when the question stayed
 * open or the proof was not written (r->status is the search's answer
 * either way, r->proof what the writer did). */
int pwrite_proof(const game *g, const game_state *s, const pns_options *o, FILE *out, pns_result *r);

/* pns_score, with the proofs of the two bounds ("at least the score"
 * proven, "at least the next possible score" disproven) written to out
 * from the same table (out NULL: none, pns_score alone): 0 with *score, 1
 * found but a proof not written (r->error), -1 open. */
int pwrite_score(const game *g, const game_state *s, const pns_options *o, int lo, int hi, int *score, pns_result *r,
                 FILE *out);

#endif
