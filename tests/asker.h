/* tests/asker.h - a campaign's questions answered by prove's search in the
 * tests (test_campaign.c, test_campaign_trust.c). */
#ifndef PNSOLVE_TESTS_ASKER_H
#define PNSOLVE_TESTS_ASKER_H

#include "../campaign/campaign.h"

typedef struct {
    const game *g;
    int refuse_above;          /* Othello: refuse positions with more empties (-1: none) */
    volatile int *stop;        /* set after stop_after answers (NULL: never) */
    int stop_after, answers;
} test_asker;

/* campaign_answer_fn over a test_asker: df-pn with a 16 MB table, its proof
 * written at the question's path. */
void test_asker_answer(void *ctx, int worker, const campaign_question *q, campaign_answer *a);
/* A new directory under /tmp (the caller frees the name). */
char *test_asker_dir(void);

#endif
