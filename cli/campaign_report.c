/* cli/campaign_report.c - `campaign status` and `campaign verify`. */
#include "cli.h"
#include "campaign_cli.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One JSON object, typed: numbers where known, null where not (no -1),
 * the root's proofs as a list. */
static void print_json(const campaign *c, const campaign_state *st)
{
    const campaign_spec *s = campaign_spec_of(c);
    char q[64];
    printf("{\"game\":");
    cli_json_string(stdout, s->game);
    printf(",\"variant\":");
    cli_json_string(stdout, s->variant[0] ? s->variant : "default");
    printf(",\"question\":");
    cli_json_string(stdout, campaign_kind_word(s->kind, s->k, q, sizeof q));
    printf(",\"position\":");
    cli_json_string(stdout, s->position);
    printf(",\"depth\":%d,\"decided\":%s", s->depth, st->decided ? "true" : "false");
    if (st->decided && s->kind != CAMPAIGN_SCORE)
        printf(",\"proven\":%s", st->proven ? "true" : "false");
    else
        printf(",\"proven\":null");
    if (st->has_lower)
        printf(",\"score_at_least\":%d", st->lower);
    else
        printf(",\"score_at_least\":null");
    if (st->has_upper)
        printf(",\"score_below\":%d", st->upper);
    else
        printf(",\"score_below\":null");
    printf(",\"answered\":%ld,\"deeper\":%ld,\"in_flight\":%ld,\"open\":%ld,\"open_needed\":%ld,\"frontier\":%ld,"
           "\"search_seconds\":%.1f,\"eta_seconds\":",
           st->answered, st->deeper, st->in_flight, st->open, st->open_needed, st->frontier, st->seconds);
    if (st->eta >= 0)
        printf("%.0f", st->eta);
    else
        printf("null");
    printf(",\"proofs\":[");
    for (int i = 0, n = 0; i < 2; i++)
        if (st->decided && st->results[i][0]) {
            printf("%s", n++ ? "," : "");
            cli_json_string(stdout, st->results[i]);
        }
    printf("]}\n");
}

void campaign_cli_print_status(const campaign *c, const campaign_state *st, int json)
{
    if (json)
        return print_json(c, st);
    const campaign_spec *s = campaign_spec_of(c);
    char q[64];
    printf("campaign: %s, variant %s, from %s\nquestion %s, frontier %d moves deep (%ld positions)\n", s->game,
           s->variant[0] ? s->variant : "default", s->position, campaign_kind_word(s->kind, s->k, q, sizeof q), s->depth,
           st->frontier);
    printf("answered: %ld (%.1f s of search), split deeper: %ld, in flight or cut off: %ld\n", st->answered, st->seconds,
           st->deeper, st->in_flight);
    if (st->has_lower || st->has_upper) {
        printf("score:");
        if (st->has_lower)
            printf(" at least %d", st->lower);
        if (st->has_upper)
            printf("%s less than %d", st->has_lower ? "," : "", st->upper);
        printf("\n");
    }
    if (st->decided) {
        if (s->kind == CAMPAIGN_SCORE)
            printf("decided: score %d\npv: %s\n", st->lower, st->line);
        else
            printf("decided: %s\n", st->proven ? "proven" : "disproven");
        printf("proof: %s\n", st->result);
    } else if (st->eta >= 0) {
        printf("open: %ld questions (%ld at the fewest for the bound under way); about %.0f s left at the answers' "
               "rate on the last run's workers\n", st->open, st->open_needed, st->eta);
    } else {
        printf("open: %ld questions (%ld at the fewest for the bound under way)\n", st->open, st->open_needed);
    }
}

static void report_line(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "pnsolve: campaign verify: %s\n", line);
}

int campaign_cli_verify(const char *dir, int sample, const char *tb_dir)
{
    char err[CAMPAIGN_PATH_MAX + 2600];
    campaign *c = campaign_load(dir, err, sizeof err);
    campaign_checked k;
    if (!c || campaign_verify(c, sample, tb_dir, report_line, NULL, &k, err, sizeof err) != 0)
        return campaign_close(c), cli_fail(1, "campaign verify: %s: %s", dir, err);
    int bad = k.roots_bad || k.bad;
    printf("%s: %d root proof%s and %ld of %ld answers' proofs checked: %s\n", dir, k.roots, k.roots == 1 ? "" : "s",
           k.checked, k.answers, bad ? "FAILED" : "sound");
    campaign_close(c);
    return bad ? 1 : 0;
}
