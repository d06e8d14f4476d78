/* proof/exact.h - private to proof/: the checker's own search of an
 * 'exact' leaf (a plain alpha-beta over the rules, independent of the
 * game's solver), run on the reading thread or by a pool of threads while
 * the reader goes on (check.c). */
#ifndef PNSOLVE_PROOF_EXACT_H
#define PNSOLVE_PROOF_EXACT_H

#include "proof.h"

/* Whether the final score of s for the prover is at least target (g a
 * game that cannot cycle). */
int proof_exact_at_least(const game *g, const game_state *s, int prover, int target);

typedef struct exact_pool exact_pool;

/* n threads that check leaves against "the prover's score is at least
 * target" answered proven (yes) or not: NULL when they cannot start. */
exact_pool *proof_exact_pool_new(const game *g, int n, int prover, int target, int proven);
/* Queues the leaf s of the file's line (waits while the queue is full): 0,
 * or the line of a leaf already found not to support the claim. */
long proof_exact_pool_add(exact_pool *p, const game_state *s, long line);
/* Waits until every queued leaf is checked: 0, or the least line of a leaf
 * that does not support the claim (the one a reader in order stops at). */
long proof_exact_pool_wait(exact_pool *p);
/* Stops the threads; NULL is allowed. */
void proof_exact_pool_free(exact_pool *p);

#endif
