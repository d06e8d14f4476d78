/* campaign/manager.c - the proof-tree manager's loop: walk the tree, hand
 * the open questions the walk needs to free workers, record each answer (or
 * split its position a move deeper), walk again; the bounds of the question
 * in turn; the state for `campaign status`. */
#include "internal.h"
#include "../util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *claim_words(const campaign *c, int k, char *buf, size_t len)
{
    if (c->scores)
        snprintf(buf, len, "at least %d", k);
    else
        snprintf(buf, len, "%s", k > 0 ? "win" : "avoid losing");
    return buf;
}

/* One answer recorded: its bounds known, or its position a move deeper. */
static int record(campaign *c, const cask *q, const campaign_answer *a, FILE *log, char *err, size_t errlen)
{
    cnode *n = c->node[q->node];
    char w[32], path[CAMPAIGN_PATH_MAX + 128];
    claim_words(c, q->k, w, sizeof w);
    if (a->interrupted)
        return 0;  /* asked again by the next run */
    if (a->failed)  /* every question would fail alike: no split a move deeper */
        return snprintf(err, errlen, "a worker could not search %s: %s", n->text, a->why), -1;
    if (a->answered) {
        campaign_answers_path(c, n, q->k, path, sizeof path);
        char why[CAMPAIGN_PATH_MAX + 1200];
        if (campaign_answers_claimed(c, n, q->k, a->proven, 0, path, NULL, why, sizeof why) != 0)
            return snprintf(err, errlen, "a worker's answer at %s: %s", n->text, why), -1;
        campaign_answers_add(c, n, q->k, a->proven, path);
        c->answered++, c->seconds += a->seconds;
        if (log)
            fprintf(log, "%s: '%s?' %s (%llu nodes, %.1f s)\n", n->text, w, a->proven ? "proven" : "disproven",
                    (unsigned long long)a->nodes, a->seconds);
        return campaign_journal_append(c, "answer %d %s %llu %llu %.3f %s\n", q->k, a->proven ? "proven" : "disproven",
                              (unsigned long long)a->nodes, (unsigned long long)a->solver_nodes, a->seconds, n->text) == 0
                   ? 0 : (snprintf(err, errlen, "cannot write the journal"), -1);
    }
    if (log)
        fprintf(log, "%s: '%s?' not answered (%s; the root's pn %u dn %u after %llu nodes): a move deeper\n", n->text, w,
                a->why, a->pn, a->dn, (unsigned long long)a->nodes);
    if (campaign_journal_append(c, "open %d %u %u %llu %.3f %s\n", q->k, a->pn, a->dn, (unsigned long long)a->nodes,
                                a->seconds, n->text) != 0)
        return snprintf(err, errlen, "cannot write the journal"), -1;
    if (a->best[0]) {
        snprintf(n->best, sizeof n->best, "%s", a->best);
        if (campaign_journal_append(c, "best %s %s\n", a->best, n->text) != 0)
            return snprintf(err, errlen, "cannot write the journal"), -1;
    }
    if (campaign_tree_deepen(c, n, err, errlen) != 0)
        return -1;
    c->deeper++;
    return campaign_journal_append(c, "deeper %s\n", c->node[q->node]->text) == 0 ? 0 : (snprintf(err, errlen, "cannot write the journal"), -1);
}

/* Starts the walk's open questions on free workers. */
static int start_asks(campaign *c, const campaign_workers *w, int k, int want, FILE *log, char *err, size_t errlen)
{
    static int next_tag;
    char cw[32], qw[32];
    for (int i = 0; i < c->nask && c->nflight < w->count; i++) {
        cnode *n = c->node[c->ask[i].node];
        campaign_question q = { .k = c->ask[i].k, .scores = c->scores };
        snprintf(q.position, sizeof q.position, "%s", n->text);
        campaign_answers_path(c, n, q.k, q.proof, sizeof q.proof);
        campaign_trace_path(c, n, q.k, q.trace, sizeof q.trace);
        int tag = next_tag++;
        if (campaign_journal_append(c, "ask %d %s\n", q.k, n->text) != 0 || campaign_flight_add(c, n->id, q.k, tag) != 0)
            return snprintf(err, errlen, "cannot write the journal"), -1;
        if (w->start(w->ctx, tag, &q) != 0)
            return snprintf(err, errlen, "a worker could not take a question"), -1;
        if (log)
            fprintf(log, "%s %s?: asking '%s?' at %s (%d running)\n", claim_words(c, k, cw, sizeof cw),
                    want ? "proven" : "disproven", claim_words(c, q.k, qw, sizeof qw), n->text, c->nflight);
    }
    return 0;
}

/* The caller's stop flag (Ctrl-C, or a worker's): read as an atomic, it is
 * set from other threads. */
static int stopped(volatile int *stop)
{
    return stop && __atomic_load_n(stop, __ATOMIC_RELAXED);
}

/* Waits for one answer and records it. */
static int collect(campaign *c, const campaign_workers *w, FILE *log, char *err, size_t errlen)
{
    int tag;
    campaign_answer a;
    if (w->wait(w->ctx, &tag, &a) != 0)
        return snprintf(err, errlen, "the workers stopped answering"), -1;
    for (int i = 0; i < c->nflight; i++)
        if (c->flight[i].tag == tag) {
            cask q = c->flight[i];
            campaign_flight_drop(c, q.node, q.k);
            return record(c, &q, &a, log, err, errlen);
        }
    return snprintf(err, errlen, "an answer to no question asked"), -1;
}

/* Until the root's "at least k" is decided (want 1: proven, 0: disproven),
 * or stopped: V_YES or V_NO with its proof in *file, V_OPEN when stopped or
 * (w NULL: status) when questions are needed (*need of them), -1 on error. */
static int settle(campaign *c, const campaign_workers *w, int k, int want, char **file, long *need, volatile int *stop,
                  FILE *log, char *err, size_t errlen)
{
    long shown = -1;
    for (;;) {
        campaign_decide_reset(c);
        c->memo_open = 1;  /* each transposition walked once: a walk is linear in the tree */
        int v = campaign_decide(c, 0, k, want, file, need, err, errlen);
        if (v == V_OPEN && c->nask == 0 && c->nflight == 0) {
            /* a question dropped under one path may be needed through another: walk every path */
            campaign_decide_reset(c);
            c->memo_open = 0;
            v = campaign_decide(c, 0, k, want, file, need, err, errlen);
        }
        if (v != V_OPEN || !w)
            return v;
        char cw[32];
        if (log && *need != shown)
            fprintf(log, "%s %s?: %ld open question%s at the fewest\n", claim_words(c, k, cw, sizeof cw),
                     want ? "proven" : "disproven", *need, *need == 1 ? "" : "s");
        shown = *need;
        if (!stopped(stop) && start_asks(c, w, k, want, log, err, errlen) != 0)
            return -1;
        if (c->nflight == 0)
            return stopped(stop) ? V_OPEN : (snprintf(err, errlen, "the root is open and no question is left to ask (a repetition above the frontier decides nothing: try another --depth)"), -1);
        if (collect(c, w, log, err, errlen) != 0)
            return -1;
        if (stopped(stop) && c->nflight == 0)
            return V_OPEN;
    }
}

/* DIR/NAME, a link to the proof file (relative: the directory moves whole). */
static int link_result(campaign *c, const char *name, const char *file, char *out, size_t len)
{
    char tmp[CAMPAIGN_PATH_MAX + 32];
    snprintf(out, len, "%s/%s", c->dir, name);
    if (c->read_only)
        return 0;
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    const char *rel = strncmp(file, c->dir, strlen(c->dir)) == 0 ? file + strlen(c->dir) + 1 : file;
    unlink(tmp);
    return symlink(rel, tmp) == 0 && rename(tmp, out) == 0 ? 0 : -1;
}

/* The principal line down the tree where both bounds of score s chose. */
static void score_line(campaign *c, int s, char *out, size_t len)
{
    int id = 0, lk = s, lw = 1, hk = s + 1, hw = 0;
    size_t used = 0;
    out[0] = 0;
    for (int steps = 0; steps < 64; steps++) {
        cnode *n = c->node[id];
        int ch = lw ? campaign_decide_chosen(c, id, lk, lw) : campaign_decide_chosen(c, id, hk, hw), i;
        for (i = 0; ch >= 0 && i < n->nkids && n->kids[i] != ch; i++)
            ;
        if (ch < 0 || i == n->nkids)
            return;
        char mv[GAME_TEXT_MAX];
        game_format_move(c->g, &n->s, n->kid_moves[i], mv, sizeof mv);
        if (used + strlen(mv) + 2 >= len)
            return;
        used += (size_t)snprintf(out + used, len - used, "%s%s", used ? " " : "", mv);
        campaign_tree_child_question(n, c->node[ch], lk, lw, &lk, &lw);
        campaign_tree_child_question(n, c->node[ch], hk, hw, &hk, &hw);
        id = ch;
    }
}

/* The exact score: the guess moved until "at least s" holds and "at least
 * s + 1" fails. */
static int score_bounds(campaign *c, const campaign_workers *w, volatile int *stop, FILE *log, campaign_state *st,
                        char *err, size_t errlen)
{
    int s = c->spec.k, bound = game_score_bound(c->g);
    char *file;
    long need;
    for (int turns = 0; turns < 4 * bound + 8; turns++) {
        int v = settle(c, w, s, 1, &file, &need, stop, log, err, errlen);
        if (v < 0 || v == V_OPEN)
            return st->open_needed = need, v < 0 ? -1 : 1;
        if (v == V_NO) {  /* less than s */
            st->has_upper = 1, st->upper = s;
            s = campaign_score_below(c, s);
            continue;
        }
        st->has_lower = 1, st->lower = s;
        link_result(c, "lower.proof", file, st->results[0], sizeof st->results[0]);
        v = settle(c, w, s + 1, 0, &file, &need, stop, log, err, errlen);
        if (v < 0 || v == V_OPEN)
            return st->open_needed = need, v < 0 ? -1 : 1;
        if (v == V_NO) {  /* at least s + 1: the next possible score up */
            s = campaign_score_up(c, s + 1);
            continue;
        }
        st->has_upper = 1, st->upper = s + 1;
        link_result(c, "upper.proof", file, st->results[1], sizeof st->results[1]);
        snprintf(st->result, sizeof st->result, "%s/lower.proof, upper.proof", c->dir);
        score_line(c, s, st->line, sizeof st->line);
        return st->decided = 1, 0;
    }
    return snprintf(err, errlen, "the score's bounds do not meet"), -1;
}

/* A one-sided question: proven, else disproven, each with its proof. */
static int one_bound(campaign *c, const campaign_workers *w, volatile int *stop, FILE *log, campaign_state *st,
                     char *err, size_t errlen)
{
    int k = c->spec.kind == CAMPAIGN_WIN ? 1 : c->spec.kind == CAMPAIGN_ADVANTAGE ? 0 : c->spec.k;
    char *file;
    long need;
    for (int want = 1; want >= 0; want--) {
        int v = settle(c, w, k, want, &file, &need, stop, log, err, errlen);
        if (v < 0 || v == V_OPEN)
            return st->open_needed = need, v < 0 ? -1 : 1;
        if (v == V_YES) {
            st->decided = 1, st->proven = want;
            link_result(c, "result.proof", file, st->results[0], sizeof st->results[0]);
            snprintf(st->result, sizeof st->result, "%s", st->results[0]);
            return 0;
        }
    }
    return snprintf(err, errlen, "the root's question is neither proven nor disproven by its answers"), -1;
}

static int bounds(campaign *c, const campaign_workers *w, volatile int *stop, FILE *log, campaign_state *st,
                  char *err, size_t errlen)
{
    memset(st, 0, sizeof *st);
    st->eta = -1;
    return c->spec.kind == CAMPAIGN_SCORE ? score_bounds(c, w, stop, log, st, err, errlen)
                                          : one_bound(c, w, stop, log, st, err, errlen);
}

int campaign_run(campaign *c, const campaign_workers *w, volatile int *stop, FILE *log, char *err, size_t errlen)
{
    campaign_state st;
    c->nflight = 0;  /* questions a killed run left: asked again as the walk needs them */
    if (campaign_journal_append(c, "run %d\noptions %s\n", w->count, c->spec.options) != 0)
        return snprintf(err, errlen, "cannot write the journal"), -1;
    int rc = bounds(c, w, stop, log, &st, err, errlen);
    if (rc == 0 && log) {
        char q[64];
        if (c->spec.kind == CAMPAIGN_SCORE)
            fprintf(log, "score: %d\npv: %s\n", st.lower, st.line);
        else
            fprintf(log, "%s: %s\n", campaign_kind_word(c->spec.kind, c->spec.k, q, sizeof q), st.proven ? "proven" : "disproven");
        fprintf(log, "proof: %s\n", st.result);
    }
    return rc;
}

int campaign_status(campaign *c, campaign_state *st, char *err, size_t errlen)
{
    long flight = c->nflight;
    int rc = bounds(c, NULL, NULL, NULL, st, err, errlen);
    if (rc < 0)
        return -1;
    st->deeper = c->deeper, st->in_flight = st->decided ? 0 : flight, st->seconds = c->seconds;
    for (int i = 0; i < c->n; i++) {
        const cnode *n = c->node[i];
        st->answered += (n->lo_file != NULL) + (n->hi_file != NULL);  /* as campaign_verify counts them */
        if (n->nkids < 0) {
            st->frontier++;
            st->open += !st->decided && !campaign_answers_settled(c, n);
        }
    }
    /* the time a question took so far, over every question left: the
     * fewest the bound needs would promise too little when they fail */
    if (!st->decided && c->answered > 0 && c->seconds > 0)
        st->eta = c->seconds / (double)c->answered * (double)st->open / (c->workers > 0 ? c->workers : 1);
    return 0;
}
