/* pns/dfpn_team.c - df-pn on one thread, or on several over one shared
 * table (pns_dfpn_solve and the score search run teams; a proof writer reads the lead's table).
 *
 * A team is a lead search (the caller's dfpn: it reports, saves checkpoints
 * and writes proofs) and helpers, each with a path, frames and a table of
 * path-dependent results of its own: a result that holds only given
 * positions of one member's path never leaves that member (GHI).  They share
 * the transposition table, whose entries hold only path-free values (a seqlock
 * per bucket, tt.c).  Members spread over the tree by virtual loss (dfpn.c: a
 * child another member is below looks worse), the scheme of the parallel
 * df-pn solvers with a shared table (Kaneko 2010; Pawlewicz and Hayward's
 * SPDFPN 2013).  The first member to end (root solved, a limit, Ctrl-C)
 * stops the others; the root's value is read from whichever member solved
 * it.
 */
#include "dfpn.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MEMBER_STACK ((size_t)1 << 30)  /* df-pn recurses once per ply (pns.c) */
#define BUSY_STRIPES (1u << 22)

typedef struct {
    dfpn *D;           /* the lead's, or own */
    dfpn own;
    pns_options o;     /* a helper's: the lead's, without reports, saves or resumes */
    const game_state *s;
    child_t root;
    pns_team *shared;
    int first;         /* this member ended first: its reason is the search's */
    uint64_t tt_accesses, tt_contended;
} member;

struct dfpn_team {
    int n;             /* members, the lead m[0] included */
    member *m;
    pns_team shared;
    uint8_t *busy;
};

dfpn_team *pns_dfpn_team_new(dfpn *lead, const game_state *root, int threads)
{
    dfpn_team *T = calloc(1, sizeof *T);
    if (!T || !(T->m = calloc((size_t)threads, sizeof *T->m)) || !(T->busy = calloc(BUSY_STRIPES, 1)) ||
        pns_tt_share(lead->tt) != 0) {
        if (T)
            free(T->m), free(T->busy);
        free(T);
        return NULL;
    }
    T->m[0].D = lead;
    T->n = 1;
    /* each helper's own tables are its share of what the lead has */
    size_t cond_bytes = lead->cond_buckets * 2 * sizeof(cond_entry) / (size_t)threads;
    for (int i = 1; i < threads; i++) {
        member *m = &T->m[i];
        m->o = *lead->S.o;
        m->o.memory /= (size_t)threads;
        m->o.progress = NULL;
        m->o.checkpoint = NULL;
        m->o.resume = NULL;
        if (pns_dfpn_init_shared(&m->own, lead->S.g, root, &m->o, lead->tt, cond_bytes, lead->S.solver) != 0)
            break;
        m->D = &m->own;
        T->n++;
    }
    for (int i = 0; i < T->n; i++) {
        T->m[i].D->S.team = &T->shared;
        T->m[i].D->busy = T->busy;
        T->m[i].D->busy_mask = BUSY_STRIPES - 1;
        T->m[i].shared = &T->shared;
    }
    return T;
}

void pns_dfpn_team_free(dfpn_team *T)
{
    if (!T)
        return;
    T->m[0].D->S.team = NULL;
    T->m[0].D->busy = NULL;
    for (int i = 1; i < T->n; i++)
        pns_dfpn_free(&T->m[i].own);
    free(T->m);
    free(T->busy);
    free(T);
}

static void *member_run(void *arg)
{
    member *m = arg;
    pns_dfpn_run(m->D, m->s, &m->root);
    pns_tt_access_counts(&m->tt_accesses, &m->tt_contended);
    int no = 0;
    if (__atomic_compare_exchange_n(&m->shared->halt, &no, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        m->first = 1;
    __atomic_sub_fetch(&m->shared->active, 1, __ATOMIC_ACQ_REL);
    return NULL;
}

/* A helper asks the lead's question: the score search changes the target
 * (and so the tag) between runs, and path-dependent results of another
 * target do not answer this one. */
static void follow_lead(member *m, const dfpn *lead)
{
    pns_search *S = &m->D->S;
    m->o.question = lead->S.o->question;
    m->o.score_target = lead->S.o->score_target;
    if (m->D->tag != lead->tag) {
        m->D->tag = lead->tag;
        pns_dfpn_cond_clear(m->D);
    }
    pns_path_clear(S);
    S->stopped = 0;
    S->stopped_by = NULL;
}

int pns_dfpn_team_run(dfpn_team *T, const game_state *s, child_t *root)
{
    dfpn *lead = T->m[0].D;
    __atomic_store_n(&T->shared.halt, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&T->shared.active, T->n, __ATOMIC_RELEASE);
    for (int i = 0; i < T->n; i++) {
        member *m = &T->m[i];
        m->s = s;
        m->first = 0;
        memset(&m->root, 0, sizeof m->root);
        if (i > 0)
            follow_lead(m, lead);
    }
    pthread_t *tid = calloc((size_t)T->n, sizeof *tid);
    int *started = calloc((size_t)T->n, sizeof *started);
    pthread_attr_t a;
    int attr = tid && started && pthread_attr_init(&a) == 0;
    if (attr)
        pthread_attr_setstacksize(&a, MEMBER_STACK);
    for (int i = 1; i < T->n; i++)
        if (!attr || !(started[i] = pthread_create(&tid[i], &a, member_run, &T->m[i]) == 0))
            __atomic_sub_fetch(&T->shared.active, 1, __ATOMIC_ACQ_REL);
    if (attr)
        pthread_attr_destroy(&a);
    member_run(&T->m[0]);  /* this thread's stack is already a search's (pns.c) */
    for (int i = 1; i < T->n; i++)
        if (started && started[i])
            pthread_join(tid[i], NULL);
    /* the root as the member that solved it saw it; else the lead's, with
     * the reason of the member that stopped first */
    *root = T->m[0].root;
    const char *why = NULL;
    for (int i = 0; i < T->n; i++) {
        if (i > 0 && !(started && started[i]))
            continue;
        if (T->m[i].root.pn == 0 || T->m[i].root.dn == 0)
            *root = T->m[i].root;
        if (T->m[i].first)
            why = T->m[i].D->S.stopped_by;
    }
    free(tid);
    free(started);
    int solved = root->pn == 0 || root->dn == 0;
    lead->S.stopped = !solved && why;
    lead->S.stopped_by = solved ? NULL : why;
    return solved;
}

void pns_dfpn_team_report(const dfpn_team *T, pns_result *r)
{
    for (int i = 0; T && i < T->n; i++) {
        r->tt_accesses += T->m[i].tt_accesses;
        r->tt_contended += T->m[i].tt_contended;
    }
    for (int i = 1; T && i < T->n; i++) {
        const pns_search *S = &T->m[i].D->S;
        r->nodes += S->nodes;
        r->endgame_nodes += S->endgame_nodes;
        r->path_dependent += S->path_dependent;
        r->peak_bytes += S->peak_bytes;
        if (S->error[0] && !r->error[0])
            snprintf(r->error, sizeof r->error, "%s", S->error);
    }
}

void pns_dfpn_team_add(pns_result *r, const pns_result *helpers)
{
    r->nodes += helpers->nodes;
    r->endgame_nodes += helpers->endgame_nodes;
    r->path_dependent += helpers->path_dependent;
    r->peak_bytes += helpers->peak_bytes;
    r->tt_accesses = helpers->tt_accesses;
    r->tt_contended = helpers->tt_contended;
    if (!r->error[0] && helpers->error[0])
        snprintf(r->error, sizeof r->error, "%s", helpers->error);
}

int pns_dfpn_go(dfpn *D, dfpn_team *T, const game_state *s, child_t *root)
{
    return T ? pns_dfpn_team_run(T, s, root) : pns_dfpn_run(D, s, root);
}

/* The answer handed to o->solved, the lead alone searching the root again
 * after the helpers (only what their own path-dependent tables held), and
 * the helpers' counts added to what the hook reports; the checkpoint after
 * it, as the hook's searches change the table. */
static void hand_on(dfpn *D, dfpn_team *T, const game_state *s, child_t *root, pns_result *r)
{
    pns_result helpers;
    memset(&helpers, 0, sizeof helpers);
    if (T) {
        pns_dfpn_team_report(T, &helpers);
        pns_dfpn_team_free(T);
        pns_dfpn_run(D, s, root);
    }
    const pns_options *o = D->S.o;
    o->solved(D, s, root, r, o->solved_ctx);
    pns_dfpn_team_add(r, &helpers);
    if (pns_dfpn_checkpoint(D, s) != 0)
        snprintf(r->error, sizeof r->error, "%s", D->S.error);
}

void pns_dfpn_solve(const game *g, const game_state *s, const pns_options *o, pns_result *r)
{
    pns_options q = *o;
    q.keep_solved |= o->solved != NULL;  /* what the search finds stays findable for the hook */
    o = &q;
    dfpn D;
    if (pns_dfpn_init(&D, g, s, o) != 0) {
        r->status = PNS_UNKNOWN;
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory for a %zu-byte table", o->memory);
        return;
    }
    child_t root;
    if (pns_dfpn_start(&D, s) != 0) {
        r->status = PNS_UNKNOWN;
        r->stopped_by = "resume";
        pns_search_report(&D.S, r);
        pns_dfpn_free(&D);
        return;
    }
    /* without the memory for more threads, one searches */
    dfpn_team *T = o->threads > 1 ? pns_dfpn_team_new(&D, s, o->threads) : NULL;
    pns_dfpn_go(&D, T, s, &root);
    if (o->solved) {
        hand_on(&D, T, s, &root, r);
        pns_dfpn_free(&D);
        return;
    }
    pns_dfpn_checkpoint(&D, s);
    r->status = root.pn == 0 ? PNS_PROVEN : root.dn == 0 ? PNS_DISPROVEN : PNS_UNKNOWN;
    r->pn = root.pn;
    r->dn = root.dn;
    pns_search_report(&D.S, r);
    pns_dfpn_team_report(T, r);
    pns_dfpn_team_free(T);
    if (r->status != PNS_UNKNOWN)
        pns_dfpn_line(&D, s, r);
    pns_dfpn_free(&D);
}
