/* pns/pns.c - the public entry points of the searches (pns.h): each picks
 * a search and runs it on a thread with a stack deep enough for it. */
#include "bfpns.h"
#include "dfpn.h"
#include "score.h"

#include <pthread.h>
#include <string.h>

void pns_defaults(pns_options *o)
{
    memset(o, 0, sizeof *o);
    o->algo = PNS_DFPN;
    o->question = PNS_WIN;
    o->ghi = PNS_GHI_SAFE;
    o->prover = -1;
    o->memory = (size_t)256 << 20;
    o->epsilon = 0.25;
    o->progress_every = 2.0;
}

void pns_score_defaults(pns_options *o)
{
    o->exact_empties = 14;       /* 5x6: 11.1 s at 10, 5.1 s at 14, 9.0 s at 16 (docs/othello.md) */
    o->proof_exact_empties = 12; /* 5x6: 48,200 lines, 6.1 s + 4.1 s to verify; at 8: 590,781, 13.6 s + 1.7 s */
    o->init = PNS_INIT_EVAL;     /* 6x6, one thread: 1.40 G solver nodes against 4.69 G by mobility (docs/othello.md) */
}

/* A search to run on the big stack. */
typedef struct job {
    void (*run)(struct job *j);
    const game *g;
    const game_state *s;
    const pns_options *o;
    pns_result *r;
    int rc;
    int lo, hi, score;  /* pns_score */
} job;

/* df-pn and the o->solved hook (a proof writer) recurse once per ply, and a path in a cyclic
 * game can be thousands of plies long: they run on a thread whose stack is
 * big enough for PATH_MAX_DEPTH plies (reserved, not committed). */
#define SEARCH_STACK ((size_t)1 << 30)

static void *trampoline(void *arg)
{
    job *j = arg;
    j->run(j);
    return NULL;
}

static void run_on_big_stack(job *j)
{
    pthread_attr_t a;
    pthread_t t;
    if (pthread_attr_init(&a) == 0 && pthread_attr_setstacksize(&a, SEARCH_STACK) == 0 &&
        pthread_create(&t, &a, trampoline, j) == 0) {
        pthread_join(t, NULL);
        pthread_attr_destroy(&a);
        return;
    }
    j->run(j);  /* no thread: run here, with the stack we have */
}

static void solve_job(job *j)
{
    if (j->o->algo == PNS_BEST_FIRST)
        pns_bfpns_solve(j->g, j->s, j->o, j->r);
    else
        pns_dfpn_solve(j->g, j->s, j->o, j->r);
}

void pns_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r)
{
    memset(r, 0, sizeof *r);
    job j = { solve_job, g, s, o, r, 0, 0, 0, 0 };
    run_on_big_stack(&j);
}

int pns_value(const game *g, const game_state *s, const pns_options *o, pns_result *win, pns_result *adv)
{
    pns_options q = *o;
    pns_result w, a;
    memset(&a, 0, sizeof a);
    q.question = PNS_WIN;
    pns_solve(g, s, &q, &w);
    int value = 2;
    if (w.status == PNS_PROVEN) {
        value = 1;
    } else if (w.status == PNS_DISPROVEN) {
        q.question = PNS_ADVANTAGE;
        pns_solve(g, s, &q, &a);
        value = a.status == PNS_PROVEN ? 0 : a.status == PNS_DISPROVEN ? -1 : 2;
    }
    if (win)
        *win = w;
    if (adv)
        *adv = a;
    return value;
}

static void score_job(job *j) { j->rc = pns_score_search(j->g, j->s, j->o, j->lo, j->hi, &j->score, j->r); }

int pns_score(const game *g, const game_state *s, const pns_options *o, int lo, int hi, int *score, pns_result *r)
{
    memset(r, 0, sizeof *r);
    job j = { score_job, g, s, o, r, -1, lo, hi, lo };
    run_on_big_stack(&j);
    *score = j.score;
    return j.rc;
}
