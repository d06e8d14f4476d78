/* cli/campaign_work.c - a campaign's questions answered by prove's search
 * in this process: on threads of its own, or as one rank of mpirun's. */
#include "cli.h"
#include "campaign_cli.h"
#include "../util/util.h"

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
    if (!c)
        *rc = cli_fail(usage ? EXIT_USAGE : 1, "campaign run: %s: %s", dir, err);
    return c;
}

int campaign_cli_drive(campaign *c, const campaign_workers *w)
{
    char err[CAMPAIGN_PATH_MAX + 512];
    int rc = campaign_run(c, w, &cli_stop, stdout, err, sizeof err);
    fflush(stdout);
    if (rc < 0)
        return cli_fail(1, "campaign run: %s", err);
    if (rc > 0 && cli_stop) {
        campaign_state st;
        if (campaign_status(c, &st, err, sizeof err) == 0)
            printf("interrupted: %ld answers kept; the same command goes on from them\n", st.answered);
        return EXIT_INTERRUPTED;
    }
    return rc;
}
