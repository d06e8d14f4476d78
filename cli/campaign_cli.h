/* cli/campaign_cli.h - private to cli/: the campaign command's parts. */
#ifndef PNSOLVE_CLI_CAMPAIGN_H
#define PNSOLVE_CLI_CAMPAIGN_H

#include "prove_options.h"
#include "../campaign/campaign.h"

/* What answers a question: the game, prove's options, the tables. */
typedef struct {
    const game *g;
    const cli_prove_opts *opts;
    tb_set *tb;
    cli_progress *progress;  /* --progress: a line on the run every S seconds (NULL: none) */
} campaign_prover;

/* Answers q by one search with its proof (a campaign_answer_fn; ctx is a campaign_prover). */
void campaign_cli_answer(void *ctx, int worker, const campaign_question *q, campaign_answer *a);
/* The campaign of spec in dir, opened for a run; NULL after saying why (*rc: the exit code). */
campaign *campaign_cli_open(const char *dir, const campaign_spec *spec, int *rc);
/* Runs c on w, then says how it ended, with a progress line every
 * progress->every seconds (NULL or 0: none); an exit code. */
int campaign_cli_drive(campaign *c, const campaign_workers *w, cli_progress *progress);
/* Prints st as text or one JSON object. */
void campaign_cli_print_status(const campaign *c, const campaign_state *st, int json);
/* Checks the root's proof(s) and sample answers' proofs (-1: all); an exit code. */
int campaign_cli_verify(const char *dir, int sample, const char *tb_dir);

/* Under mpirun with several ranks: rank 0 runs c on the others, which
 * answer through pv until it ends them; an exit code. */
int campaign_mpi_run(const char *dir, const campaign_spec *spec, campaign_prover *pv);

#endif
