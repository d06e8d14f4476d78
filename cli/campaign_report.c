/* cli/campaign_report.c - `campaign status` and `campaign verify`. */
#include "cli.h"
#include "campaign_cli.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_json(const campaign *c, const campaign_state *st)
{
    const campaign_spec *s = campaign_spec_of(c);
    printf("{\"game\":");
    cli_json_string(stdout, s->game);
    printf(",\"position\":");
    cli_json_string(stdout, s->position);
    printf(",\"depth\":%d,\"decided\":%s", s->depth, st->decided ? "true" : "false");
    if (st->decided && s->kind != CAMPAIGN_SCORE)
        printf(",\"proven\":%s", st->proven ? "true" : "false");
    if (st->has_lower)
        printf(",\"score_at_least\":%d", st->lower);
    if (st->has_upper)
        printf(",\"score_below\":%d", st->upper);
    printf(",\"answered\":%ld,\"deeper\":%ld,\"in_flight\":%ld,\"open_needed\":%ld,\"frontier\":%ld,"
           "\"search_seconds\":%.1f,\"eta_seconds\":%.0f",
           st->answered, st->deeper, st->in_flight, st->open_needed, st->frontier, st->seconds, st->eta);
    if (st->decided) {
        printf(",\"proof\":");
        cli_json_string(stdout, st->result);
    }
    printf("}\n");
}

void campaign_cli_print_status(const campaign *c, const campaign_state *st, int json)
{
    if (json)
        return print_json(c, st);
    const campaign_spec *s = campaign_spec_of(c);
    char q[64];
    printf("campaign: %s %s, %s, frontier %d moves deep (%ld positions)\n", s->game, s->position,
           campaign_kind_word(s->kind, s->k, q, sizeof q), s->depth, st->frontier);
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
        printf("open: %ld questions at the fewest; about %.0f s left on the last run's workers\n", st->open_needed, st->eta);
    } else {
        printf("open: %ld questions at the fewest\n", st->open_needed);
    }
}

/* verify-proof's check of one file, and that it claims what it should. */
static int check(const char *path, const char *position, int proven, const proof_check_options *co, char *why, size_t len)
{
    char err[512], summary[2048];
    FILE *f = util_open_input(path, 0, err, sizeof err);
    if (!f)
        return snprintf(why, len, "%s", err), -1;
    int rc = proof_verify(f, co, summary, sizeof summary, err, sizeof err);
    fclose(f);
    if (rc != 0)
        return snprintf(why, len, "%s: %s", path, err), -1;
    if (position && (!strstr(summary, position) || !strstr(summary, proven ? "' proven (" : "' disproven (")))
        return snprintf(why, len, "%s: it proves %s, not what the journal says", path, summary), -1;
    return 0;
}

int campaign_cli_verify(const char *dir, int sample, const char *tb_dir)
{
    char err[CAMPAIGN_PATH_MAX + 2600];
    campaign *c = campaign_load(dir, err, sizeof err);
    campaign_state st;
    if (!c || campaign_status(c, &st, err, sizeof err) != 0)
        return campaign_close(c), cli_fail(1, "campaign verify: %s: %s", dir, err);
    proof_check_options co = { .tb_dir = tb_dir };
    int bad = 0, roots = 0;
    const char *names[] = { "result.proof", "lower.proof", "upper.proof" };
    for (int i = 0; i < 3; i++) {
        char path[CAMPAIGN_PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (access(path, F_OK) != 0)
            continue;
        roots++;
        if (check(path, NULL, 0, &co, err, sizeof err) != 0)
            bad++, fprintf(stderr, "pnsolve: campaign verify: %s\n", err);
    }
    long n = 0, checked = 0;
    int k, proven;
    char pos[GAME_TEXT_MAX];
    while (campaign_answer_proof(c, n, &k, &proven, pos, sizeof pos))
        n++;
    long step = sample < 0 || sample >= n ? 1 : n / (sample > 0 ? sample : 1);
    for (long i = 0; i < n && (sample < 0 || checked < sample); i += step) {
        const char *f = campaign_answer_proof(c, i, &k, &proven, pos, sizeof pos);
        checked++;
        if (check(f, pos, proven, &co, err, sizeof err) != 0)
            bad++, fprintf(stderr, "pnsolve: campaign verify: %s\n", err);
    }
    printf("%s: %d root proof%s and %ld of %ld answers' proofs checked: %s\n", dir, roots, roots == 1 ? "" : "s", checked, n,
           bad ? "FAILED" : "sound");
    campaign_close(c);
    return bad ? 1 : 0;
}
