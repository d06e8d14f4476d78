/* tests/mutate.h - mutants of proof files (tests/mutate.c). */
#ifndef PNSOLVE_TEST_MUTATE_H
#define PNSOLVE_TEST_MUTATE_H

/* A proof's lines; reused from one mutant to the next (free line at the end). */
typedef struct {
    char **line;
    int n, cap;
} proof_lines;

/* text with one random change drawn from rng (a header field, a line
 * dropped, doubled, swapped, cut, its depth, move, kind, id or table value
 * changed, a table hash altered, a header line renamed or said twice, or
 * two of these); the caller frees it. */
char *proof_mutant(const char *text, proof_lines *L, unsigned long long *rng);

/* text with the root's forbidden-move field (Ostle on a w x h board)
 * changed to any square and direction or '-', and a third of the time one
 * more change as proof_mutant makes: the claim is then about another root,
 * which the caller must judge. */
char *proof_root_mutant(const char *text, int w, int h, proof_lines *L, unsigned long long *rng);

/* Does every proof in text claim something true of its root, whose value
 * for player 0 is value0 (a final score: +1/0/-1 for a win, draw, loss)?
 * The claim read from each header: "can PROVER force a win / avoid losing /
 * finish at least K ahead?", proven or disproven. */
int proof_claims_hold(const char *text, int value0);

#endif
