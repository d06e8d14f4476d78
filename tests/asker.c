/* tests/asker.c - a campaign's questions answered by prove's search. */
#include "asker.h"
#include "suites.h"
#include "../pns/pns.h"
#include "../pwrite/pwrite.h"
#include "../util/util.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

void test_asker_answer(void *ctx, int worker, const campaign_question *q, campaign_answer *a)
{
    (void)worker;
    test_asker *t = ctx;
    memset(a, 0, sizeof *a);
    game_state s = test_parse(t->g, q->position);
    if (t->refuse_above >= 0 && game_empties(t->g, &s) > t->refuse_above) {
        snprintf(a->why, sizeof a->why, "refused: too many empties");
        return;
    }
    pns_options o;
    pns_defaults(&o);
    if (q->scores) {
        pns_score_defaults(&o);
        o.question = PNS_SCORE, o.score_target = q->k;
    } else {
        o.question = q->k > 0 ? PNS_WIN : PNS_ADVANTAGE;
    }
    o.memory = (size_t)16 << 20;
    o.prover = game_to_move(t->g, &s);
    util_file f;
    char err[512];
    if (util_file_create(&f, q->proof, "w", err, sizeof err) != 0)
        return;
    pns_result r;
    int rc = pwrite_proof(t->g, &s, &o, f.f, &r);
    a->answered = util_file_commit(&f, rc == 0, err, sizeof err) == 0 && rc == 0;
    a->proven = r.status == PNS_PROVEN;
    a->nodes = r.nodes;
    if (t->stop && __atomic_add_fetch(&t->answers, 1, __ATOMIC_SEQ_CST) >= t->stop_after)
        __atomic_store_n(t->stop, 1, __ATOMIC_RELAXED);
}

char *test_asker_dir(void)
{
    char *d = strdup("/tmp/pnsolve-campaign-XXXXXX");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(d));
    return d;
}
