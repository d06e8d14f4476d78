/* campaign/verify.c - `campaign verify`: every proof the campaign rests on
 * checked whole, and what it proves compared with the claim the campaign
 * re-derives for it from its question: the root's from the decision, each
 * answer's from its journal line. */
#include "internal.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The answers' proofs in node order: (node, side 0 lower / 1 upper). */
typedef struct {
    int node, side;
} answer_ref;

static long answers_list(const campaign *c, answer_ref **out)
{
    long n = 0;
    for (int j = 0; j < c->n; j++)
        n += (c->node[j]->lo_file != NULL) + (c->node[j]->hi_file != NULL);
    answer_ref *a = malloc(sizeof *a * (size_t)(n ? n : 1));
    if (!a)
        return -1;
    long i = 0;
    for (int j = 0; j < c->n; j++) {
        if (c->node[j]->lo_file)
            a[i++] = (answer_ref){ j, 0 };
        if (c->node[j]->hi_file)
            a[i++] = (answer_ref){ j, 1 };
    }
    *out = a;
    return n;
}

int campaign_verify(campaign *c, long sample, const char *tb_dir, void (*report)(void *ctx, const char *line), void *ctx,
                    campaign_checked *out, char *err, size_t errlen)
{
    campaign_state st;
    memset(out, 0, sizeof *out);
    if (campaign_status(c, &st, err, errlen) != 0)
        return -1;
    proof_check_options co = { .tb_dir = tb_dir };
    char why[CAMPAIGN_PATH_MAX + 2400], path[CAMPAIGN_PATH_MAX + 32];
    const cnode *root = c->node[0];
    /* the root's proofs: what the decision says they prove */
    /* must: the decision needs it; may: what the journal knows lets it be there */
    int one = c->spec.kind != CAMPAIGN_SCORE, score = !one;
    struct { const char *name; int k, proven, must, may; } roots[3] = {
        { "result.proof", c->spec.kind == CAMPAIGN_WIN ? 1 : c->spec.kind == CAMPAIGN_ADVANTAGE ? 0 : c->spec.k, st.proven,
          one && st.decided, one && st.decided },
        { "lower.proof", st.lower, 1, score && st.decided, score && st.has_lower },
        { "upper.proof", st.upper, 0, score && st.decided, score && st.decided },
    };
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", c->dir, roots[i].name);
        int there = access(path, F_OK) == 0;
        if (!there && !roots[i].must)
            continue;
        out->roots++;
        int bad = 0;
        if (!roots[i].may)
            bad = (snprintf(why, sizeof why, "%s: a root proof where the journal decides no such claim", path), 1);
        else if (!there)
            bad = (snprintf(why, sizeof why, "%s is missing: the journal decides the campaign (run it again to join it)",
                            path), 1);
        else
            bad = campaign_answers_claimed(c, root, roots[i].k, roots[i].proven, 1, path, &co, why, sizeof why) != 0;
        if (bad) {
            out->roots_bad++;
            report(ctx, why);
        }
    }
    answer_ref *a;
    long n = answers_list(c, &a);
    if (n < 0)
        return snprintf(err, errlen, "out of memory"), -1;
    out->answers = n;
    long want = sample < 0 || sample > n ? n : sample;
    for (long j = 0; j < want; j++) {
        /* spread evenly, the first and the last among them */
        long i = want == 1 ? 0 : (long)((double)j * (double)(n - 1) / (double)(want - 1) + 0.5);
        const cnode *node = c->node[a[i].node];
        const char *file = a[i].side ? node->hi_file : node->lo_file;
        int k = a[i].side ? node->hi : node->lo;
        out->checked++;
        if (campaign_answers_claimed(c, node, k, !a[i].side, 0, file, &co, why, sizeof why) != 0) {
            out->bad++;
            report(ctx, why);
        }
    }
    free(a);
    return 0;
}
