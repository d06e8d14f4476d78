/* pns/dfpn_par.c - df-pn on several threads over one shared table.
 *
 * Every member searches from the root with a path, frames and a table of
 * path-dependent results of its own (GHI: a result that holds only given
 * positions of one member's path never leaves that member), and they share
 * the transposition table, whose entries hold only path-free values (stripe
 * locks, tt.c).  Members spread over the tree by virtual loss (dfpn.c:
 * a child another member is below looks worse), the scheme of the parallel
 * df-pn solvers with a shared table (Kaneko 2010; Pawlewicz and Hayward's
 * SPDFPN 2013).  The first member to end (root solved, a limit, Ctrl-C)
 * stops the others; the root's value is read from whichever member solved
 * it.  Only the first member reports progress and saves checkpoints (the
 * others wait while it writes the table).
 */
#include "dfpn.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MEMBER_STACK ((size_t)1 << 30)  /* df-pn recurses once per ply (pns.c) */
#define BUSY_STRIPES (1u << 16)

static void nap(void)
{
    struct timespec ts = { 0, 200000 };
    nanosleep(&ts, NULL);
}

void pns_team_wait(pns_team *t)
{
    __atomic_add_fetch(&t->paused, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&t->pause, __ATOMIC_ACQUIRE))
        nap();
    __atomic_sub_fetch(&t->paused, 1, __ATOMIC_ACQ_REL);
}

void pns_team_pause(pns_team *t)
{
    __atomic_store_n(&t->pause, 1, __ATOMIC_RELEASE);
    while (__atomic_load_n(&t->paused, __ATOMIC_ACQUIRE) < __atomic_load_n(&t->active, __ATOMIC_ACQUIRE) - 1)
        nap();
}

void pns_team_resume(pns_team *t) { __atomic_store_n(&t->pause, 0, __ATOMIC_RELEASE); }

typedef struct {
    dfpn D;
    pns_options o;
    const game_state *s;
    child_t root;
    pns_team *team;
    int started, first;  /* first: this member ended first (its reason is the search's) */
} member;

static void *member_run(void *arg)
{
    member *m = arg;
    pns_dfpn_run(&m->D, m->s, &m->root);
    int no = 0;
    if (__atomic_compare_exchange_n(&m->team->halt, &no, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        m->first = 1;
    __atomic_sub_fetch(&m->team->active, 1, __ATOMIC_ACQ_REL);
    return NULL;
}

void pns_dfpn_solve_team(const game *g, const game_state *s, const pns_options *o, pns_result *r)
{
    int n = o->threads;
    member *m = calloc((size_t)n, sizeof *m);
    pns_team team = { 0 };
    uint8_t *busy = calloc(BUSY_STRIPES, 1);
    pthread_t *tid = calloc((size_t)n, sizeof *tid);
    size_t mem = o->memory ? o->memory : (size_t)256 << 20;
    int ok = m && busy && tid && pns_dfpn_init(&m[0].D, g, s, o) == 0;
    if (!ok || pns_tt_share(m[0].D.tt) != 0) {
        if (ok)
            pns_dfpn_free(&m[0].D);
        r->status = PNS_UNKNOWN;
        r->stopped_by = "memory";
        snprintf(r->error, sizeof r->error, "out of memory for a %zu-byte table", o->memory);
        free(m), free(busy), free(tid);
        return;
    }
    int members = 1;
    for (int i = 1; i < n; i++) {
        /* the others neither report, save nor resume: the first does */
        m[i].o = *o;
        m[i].o.progress = NULL;
        m[i].o.checkpoint = NULL;
        m[i].o.resume = NULL;
        if (pns_dfpn_init_shared(&m[i].D, g, s, &m[i].o, m[0].D.tt, mem / 8 / (size_t)n) != 0)
            break;
        members++;
    }
    if (pns_dfpn_start(&m[0].D, s) != 0) {
        r->status = PNS_UNKNOWN;
        r->stopped_by = "resume";
        pns_search_report(&m[0].D.S, r);
        for (int i = 0; i < members; i++)
            pns_dfpn_free(&m[i].D);
        free(m), free(busy), free(tid);
        return;
    }
    team.active = members;
    for (int i = 0; i < members; i++) {
        m[i].s = s;
        m[i].team = &team;
        m[i].D.S.team = &team;
        m[i].D.busy = busy;
        m[i].D.busy_mask = BUSY_STRIPES - 1;
    }
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, MEMBER_STACK);
    for (int i = 1; i < members; i++)
        if (!(m[i].started = pthread_create(&tid[i], &a, member_run, &m[i]) == 0))
            __atomic_sub_fetch(&team.active, 1, __ATOMIC_ACQ_REL);
    pthread_attr_destroy(&a);
    member_run(&m[0]);  /* this thread's stack is already a search's (pns.c) */
    for (int i = 1; i < members; i++)
        if (m[i].started)
            pthread_join(tid[i], NULL);
    /* the root as the member that solved it saw it; else the first's */
    child_t *root = &m[0].root;
    const char *why = NULL;
    for (int i = members - 1; i >= 0; i--) {
        if (i > 0 && !m[i].started)
            continue;
        if (m[i].root.pn == 0 || m[i].root.dn == 0)
            root = &m[i].root;
        if (m[i].first)
            why = m[i].D.S.stopped_by;
    }
    dfpn *D = &m[0].D;
    D->S.team = NULL;
    D->busy = NULL;
    pns_dfpn_checkpoint(D, s);
    r->status = root->pn == 0 ? PNS_PROVEN : root->dn == 0 ? PNS_DISPROVEN : PNS_UNKNOWN;
    r->pn = root->pn;
    r->dn = root->dn;
    pns_search_report(&D->S, r);
    for (int i = 1; i < members; i++) {
        r->nodes += m[i].D.S.nodes;
        r->endgame_nodes += m[i].D.S.endgame_nodes;
        r->path_dependent += m[i].D.S.path_dependent;
        r->peak_bytes += m[i].D.S.peak_bytes;
        if (!m[i].D.S.error[0] || r->error[0])
            continue;
        snprintf(r->error, sizeof r->error, "%s", m[i].D.S.error);
    }
    if (r->status != PNS_UNKNOWN)
        pns_dfpn_line(D, s, r);
    else
        r->stopped_by = why;
    for (int i = 0; i < members; i++)
        pns_dfpn_free(&m[i].D);
    free(m), free(busy), free(tid);
}
