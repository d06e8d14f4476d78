/* campaign/answers.c - what is known of each position, and what an answer
 * implies: "at least k" proven answers every lower k, disproven every
 * higher one, and where the game ends only on some scores (an even Othello
 * board: even scores) a bound moves to the next score the game can end on. */
#include "internal.h"
#include "../proof/proof.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

int campaign_score_up(const campaign *c, int k)
{
    int bound = game_score_bound(c->g);
    while (c->scores && k < bound && !game_score_possible(c->g, k))
        k++;
    return k;
}

int campaign_score_below(const campaign *c, int k)
{
    int bound = game_score_bound(c->g), v = k - 1;
    while (c->scores && v > -bound && !game_score_possible(c->g, v))
        v--;
    return v;
}

void campaign_answers_add(campaign *c, cnode *n, int k, int proven, const char *file)
{
    char *f = strdup(file);
    if (!f)
        return;  /* the answer is lost to this run only: the journal has it */
    if (proven) {
        int b = campaign_score_up(c, k);
        if (n->has_lo && n->lo >= b)
            return free(f);
        free(n->lo_file);
        n->has_lo = 1, n->lo = b, n->lo_file = f;
    } else {
        int b = campaign_score_below(c, k) + 1;  /* disproven k: disproven one past the score below */
        if (n->has_hi && n->hi <= b)
            return free(f);
        free(n->hi_file);
        n->has_hi = 1, n->hi = b, n->hi_file = f;
    }
}

int campaign_answers_settled(const campaign *c, const cnode *n)
{
    if (c->spec.kind != CAMPAIGN_SCORE)
        return n->has_lo || n->has_hi;
    return n->has_lo && n->has_hi && campaign_score_up(c, n->lo + 1) >= n->hi;
}

void campaign_node_path(const campaign *c, const cnode *n, const char *sub, const char *tail, char *out, size_t len)
{
    snprintf(out, len, "%s/%s/%016llx%016llx.%s", c->dir, sub, (unsigned long long)n->key.hi, (unsigned long long)n->key.lo,
             tail);
}

void campaign_answers_path(const campaign *c, const cnode *n, int k, char *out, size_t len)
{
    char tail[32];
    snprintf(tail, sizeof tail, "%d.proof", k);
    campaign_node_path(c, n, "p", tail, out, len);
}

void campaign_trace_path(const campaign *c, const cnode *n, int k, char *out, size_t len)
{
    char tail[32];
    snprintf(tail, sizeof tail, "%d.csv", k);
    campaign_node_path(c, n, "t", tail, out, len);
}

int campaign_answers_claimed(const campaign *c, const cnode *n, int k, int proven, int implied, const char *path,
                             const proof_check_options *whole, char *err, size_t errlen)
{
    char why[1024];
    FILE *f = util_open_input(path, 0, why, sizeof why);
    if (!f)
        return snprintf(err, errlen, "%s", why), -1;
    proof_fact *fact = malloc(2 * sizeof *fact);
    int rc = -1, nf = 1;
    if (!fact)
        snprintf(err, errlen, "out of memory");
    else if ((whole ? proof_check(f, whole, fact, 2, &nf, why, sizeof why) : proof_claim_read(f, fact, why, sizeof why)) != 0)
        snprintf(err, errlen, "%s: %s", path, why);
    else if (nf != 1)
        snprintf(err, errlen, "%s: it holds %d proofs, not one", path, nf);
    else if (!proof_fact_matches(fact, c->g, &n->s, n->mover, c->scores, k, proven, implied, why, sizeof why))
        snprintf(err, errlen, "%s: %s", path, why);
    else
        rc = 0;
    free(fact);
    fclose(f);
    return rc;
}
