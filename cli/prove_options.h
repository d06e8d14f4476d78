/* cli/prove_options.h - private to cli/: the search options of `prove`,
 * which `campaign` passes on to every question it asks. */
#ifndef PNSOLVE_CLI_PROVE_OPTIONS_H
#define PNSOLVE_CLI_PROVE_OPTIONS_H

#include "cli.h"
#include "../pns/pns.h"

typedef struct {
    pns_options o;
    int question_set, json, no_tb, tb_decode, validate, within, score, exact_set, proof_exact_set, init_set, tty;
    uint64_t count, seed;
    double tb_cache_mb;        /* 0: the default */
    const char *tb_dir, *proof, *trace, *dot;
    FILE *trace_file;
    cli_progress progress;     /* --progress, --progress-json (prove) */
} cli_prove_opts;

enum { OPT_QUESTION = 256, OPT_ALGO, OPT_GHI, OPT_MEMORY, OPT_PROOF_MEMORY, OPT_EPSILON, OPT_INIT, OPT_NODES, OPT_TIME,
       OPT_TBDIR, OPT_NOTB, OPT_TBDECODE, OPT_PROOF, OPT_TRACE, OPT_JSON, OPT_VALIDATE, OPT_WITHIN, OPT_COUNT, OPT_SEED, OPT_CHECKPOINT,
       OPT_CHECKPOINT_EVERY, OPT_RESUME, OPT_SUM, OPT_SCORE, OPT_EXACT,
       OPT_PROOF_EXACT, OPT_THREADS, OPT_PROOF_TIME, OPT_DOT, OPT_TBCACHE };


/* prove's long options, for cli_parse (the last entry zero). */
extern const struct option cli_prove_long[];
/* cli_parse's on_extra for cli_prove_long: stores one option into the
 * cli_prove_opts at ctx; 0, or -1 for a value it refuses. */
int cli_prove_option(int opt, const char *arg, void *ctx);
/* A score question's options (the exact solver's lines, initial numbers)
 * where the command line left them. */
void cli_prove_score_options(cli_prove_opts *p);
/* The tables of --tb-dir (default ./tables where it exists) into *tb, the
 * threads' block caches sized by --tb-cache; 0, or an exit code (said). */
int cli_prove_tables(const game *g, const cli_prove_opts *p, tb_set **tb);

#endif
