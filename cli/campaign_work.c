/* cli/campaign_work.c - a campaign's questions answered by prove's search
 * in this process: on threads of its own, or as one rank of mpirun's. */
#include "cli.h"
#include "campaign_cli.h"
#include "../util/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void trace_line(const pns_progress *pr, void *ctx) { cli_trace_line(ctx, pr); }

void campaign_cli_answer(void *ctx, int worker, const campaign_question *q, campaign_answer *a)
{
    (void)worker;
    const campaign_prover *pv = ctx;
    pns_options o = pv->opts->o;
    o.tb = pv->tb, o.stop = &cli_stop, o.progress = NULL;
    /* a question asked again (after a stop) starts its trace again; one
     * that cannot be written costs only the trace */
    FILE *trace = q->trace[0] ? util_open_output(q->trace, NULL, 0) : NULL;
    if (trace) {
        cli_trace_header(trace);
        o.progress = trace_line, o.ctx = trace, o.progress_every = 1.0;
    }
    if (q->scores)
        o.question = PNS_SCORE, o.score_target = q->k;
    else
        o.question = q->k > 0 ? PNS_WIN : PNS_ADVANTAGE;
    memset(a, 0, sizeof *a);
    game_state s;
    char why[CAMPAIGN_PATH_MAX + 300];
    util_file f;
    if (game_parse(pv->g, q->position, &s, why, sizeof why) != 0 ||
        util_file_create(&f, q->proof, "w", why, sizeof why) != 0) {
        snprintf(a->why, sizeof a->why, "%.200s", why);
        return;
    }
    o.prover = game_to_move(pv->g, &s);  /* asked of the side to move, also where a graph's prover is player 0 */
    pns_result r;
    int rc = pwrite_proof(pv->g, &s, &o, f.f, &r);
    if (trace)
        fclose(trace);
    int kept = util_file_commit(&f, rc == 0, why, sizeof why) == 0 && rc == 0;
    a->answered = kept && r.status != PNS_UNKNOWN;
    a->proven = r.status == PNS_PROVEN;
    a->interrupted = cli_stop != 0;
    a->failed = !a->answered && r.nodes == 0 && r.status == PNS_UNKNOWN && !a->interrupted;
    a->nodes = r.nodes, a->solver_nodes = r.endgame_nodes, a->seconds = r.seconds;
    a->pn = r.pn, a->dn = r.dn;
    if (!a->answered && r.status != PNS_UNKNOWN && r.pv_len > 0)
        game_format_move(pv->g, &s, r.pv[0], a->best, sizeof a->best);
    if (!a->answered)
        snprintf(a->why, sizeof a->why, "%s%s", r.error[0] ? r.error : r.stopped_by ? "stopped by " : "its proof was not written",
                 !r.error[0] && r.stopped_by ? r.stopped_by : "");
}

campaign *campaign_cli_open(const char *dir, const campaign_spec *spec, int *rc)
{
    char err[CAMPAIGN_PATH_MAX + 512];
    int usage;
    campaign *c = campaign_open(dir, spec, err, sizeof err, &usage);
    if (!c) {
        *rc = cli_fail(usage ? EXIT_USAGE : 1, "campaign run: %s: %s", dir, err);
        return NULL;
    }
    /* a resume says what it found before it asks anything */
    campaign_state st;
    if (campaign_status(c, &st, err, sizeof err) == 0 && (st.answered || st.deeper || st.in_flight))
        printf("resuming %s: %ld answers kept, %ld questions open (%ld at the fewest), %ld in flight when it "
               "stopped (asked again as needed)\n", dir, st.answered, st.open, st.open_needed, st.in_flight);
    return c;
}

/* The workers as --progress sees them: the questions started and
 * answered this run, counted as they pass between the campaign and them
 * (threads or ranks alike). */
typedef struct {
    campaign_workers w;
    pthread_mutex_t lock;
    long before, started, answered, unanswered;
    uint64_t nodes;
    double t0, last_answer;
} drive_watch;

static int watched_start(void *ctx, int tag, const campaign_question *q)
{
    drive_watch *d = ctx;
    int rc = d->w.start(d->w.ctx, tag, q);
    pthread_mutex_lock(&d->lock);
    d->started += rc == 0;
    pthread_mutex_unlock(&d->lock);
    return rc;
}

static int watched_wait(void *ctx, int *tag, campaign_answer *a)
{
    drive_watch *d = ctx;
    int rc = d->w.wait(d->w.ctx, tag, a);
    if (rc == 0) {
        pthread_mutex_lock(&d->lock);
        if (a->answered)
            d->answered++;
        else
            d->unanswered++;
        d->nodes += a->nodes;
        d->last_answer = util_clock();
        pthread_mutex_unlock(&d->lock);
    }
    return rc;
}

static void say_drive(cli_progress *p, void *ctx)
{
    drive_watch *d = ctx;
    pthread_mutex_lock(&d->lock);
    drive_watch v = *d;
    pthread_mutex_unlock(&d->lock);
    double now = util_clock(), since = v.answered + v.unanswered ? now - v.last_answer : -1;
    long flight = v.started - v.answered - v.unanswered;
    char text[400], json[400], ago[64] = "none yet", since_json[32] = "null";
    if (since >= 0) {
        snprintf(ago, sizeof ago, "%.0f s ago", since);
        snprintf(since_json, sizeof since_json, "%.1f", since);
    }
    snprintf(text, sizeof text, "answers: %ld (%ld this run, %.3g nodes searched), %ld in flight, %ld not answered "
             "this run; the last answer %s; %.0f s", v.before + v.answered, v.answered, (double)v.nodes, flight,
             v.unanswered, ago, now - v.t0);
    snprintf(json, sizeof json, "\"answers\": %ld, \"answered_this_run\": %ld, \"nodes\": %llu, \"in_flight\": %ld, "
             "\"not_answered\": %ld, \"since_last_answer\": %s, \"seconds\": %.1f", v.before + v.answered,
             v.answered, (unsigned long long)v.nodes, flight, v.unanswered, since_json, now - v.t0);
    cli_progress_say(p, text, json);
}

int campaign_cli_drive(campaign *c, const campaign_workers *w, cli_progress *progress)
{
    char err[CAMPAIGN_PATH_MAX + 512];
    campaign_state st;
    drive_watch d = { .w = *w, .t0 = util_clock() };
    pthread_mutex_init(&d.lock, NULL);
    campaign_workers watched = { w->count, watched_start, watched_wait, &d };
    cli_ticker *ticker = NULL;
    if (progress && progress->every > 0) {
        if (campaign_status(c, &st, err, sizeof err) == 0)
            d.before = st.answered;
        ticker = cli_ticker_start(progress, say_drive, &d);
    }
    int rc = campaign_run(c, ticker ? &watched : w, &cli_stop, stdout, err, sizeof err);
    cli_ticker_stop(ticker);
    pthread_mutex_destroy(&d.lock);
    fflush(stdout);
    if (rc < 0)
        return cli_fail(1, "campaign run: %s", err);
    if (rc > 0 && cli_stop) {
        if (campaign_status(c, &st, err, sizeof err) == 0)
            printf("interrupted: %ld answers kept; the same command goes on from them\n", st.answered);
        return EXIT_INTERRUPTED;
    }
    return rc;
}
