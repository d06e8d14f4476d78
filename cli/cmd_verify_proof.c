/* cli/cmd_verify_proof.c - `pnsolve verify-proof FILE`: checks a proof from
 * the rules and the tables alone. */
#include "cli.h"
#include "../pns/pns.h"
#include "../util/util.h"

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
    "usage: pnsolve verify-proof FILE|- [--tb-dir D [--verify-tables] [--threads T]]\n"
    "Checks a proof written by 'pnsolve prove --proof FILE' from the rules and\n"
    "the endgame tables alone: every move legal, every defence answered, every\n"
    "leaf a game end, a table value, a repetition on its own path, or (score\n"
    "proofs) a position the checker searches itself or a symmetric image of a\n"
    "finished sibling, that supports the claim (docs/proof-format.md).\n"
    "'-' reads the proof from standard input (xz -dc p.proof.xz | pnsolve\n"
    "verify-proof -); a FIFO or socket named as FILE is refused.\n"
    "  --tb-dir D         the tables a proof with 'tb' leaves rests on; each\n"
    "                     must have the hash the proof names (no default: a\n"
    "                     proof with table leaves is refused without it)\n"
    "  --verify-tables    also re-derive every value of those tables and of\n"
    "                     the smaller tables below them from their children\n"
    "  --threads T        threads for the exact leaves of score proofs and for\n"
    "                     --verify-tables (default: all cores)\n"
    CLI_PROGRESS_HELP
    "Exit 0: sound; 1: the first flaw; 2: usage.\n";

enum { OPT_TBDIR = 256, OPT_VERIFY_TABLES, OPT_THREADS };

static const struct option verify_long[] = {
    { "tb-dir", required_argument, NULL, OPT_TBDIR },
    { "verify-tables", no_argument, NULL, OPT_VERIFY_TABLES },
    { "threads", required_argument, NULL, OPT_THREADS },
    CLI_PROGRESS_OPTIONS,
    { NULL, 0, NULL, 0 },
};

/* The checker's options and how its progress is shown. */
typedef struct {
    proof_check_options co;
    cli_progress progress;
    double t0;
    long size;  /* bytes of the file, <= 0 unknown (a pipe) */
} verify_run;

static int on_option(int opt, const char *arg, void *ctx)
{
    verify_run *v = ctx;
    switch (opt) {
    case OPT_TBDIR: v->co.tb_dir = arg; return *arg ? 0 : -1;
    case OPT_VERIFY_TABLES: v->co.verify_tables = 1; return 0;
    case OPT_THREADS: return cli_int(arg, 1, 256, &v->co.threads);
    default: return cli_progress_option(&v->progress, opt, arg) == 0 ? 0 : -1;
    }
}

/* Lines checked, the share of the file and the time left. */
static void show_progress(uint64_t lines, long bytes, void *ctx)
{
    verify_run *v = ctx;
    double t = util_clock() - v->t0;
    char text[256], json[256];
    if (v->size > 0 && bytes > 0) {
        double frac = (double)bytes / (double)v->size, left = frac > 0 ? t * (1 - frac) / frac : 0;
        snprintf(text, sizeof text, "%12llu lines checked  %5.1f%% of the file  %6.0f s  eta %d:%02d",
                 (unsigned long long)lines, 100 * frac, t, (int)left / 60, (int)left % 60);
        snprintf(json, sizeof json, "\"lines\": %llu, \"share\": %.4f, \"seconds\": %.1f, \"eta\": %.0f",
                 (unsigned long long)lines, frac, t, left);
    } else {
        snprintf(text, sizeof text, "%12llu lines checked  %6.0f s", (unsigned long long)lines, t);
        snprintf(json, sizeof json, "\"lines\": %llu, \"seconds\": %.1f", (unsigned long long)lines, t);
    }
    cli_progress_say(&v->progress, text, json);
}

int cmd_verify_proof(int argc, char **argv)
{
    cli_game_opts go;
    verify_run v = { 0 };
    proof_check_options *co = &v.co;
    int first;
    if (cli_parse(argc, argv, &go, verify_long, on_option, &v, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "verify-proof: expected FILE (try 'pnsolve verify-proof --help')");
    if (co->verify_tables && !co->tb_dir)
        return cli_fail(EXIT_USAGE, "verify-proof: --verify-tables needs --tb-dir");
    if (go.position || go.variant)
        return cli_fail(EXIT_USAGE, "verify-proof: the game and position are the proof's own: no --position or --variant");
    const char *path = argv[first];
    char why[4400];
    FILE *in = util_open_input(path, 1, why, sizeof why);
    if (!in)
        return cli_fail(cli_input_status(path), "verify-proof: cannot read %s", why);
    if (co->verify_tables)
        co->report = stderr;
    char summary[8192], err[512];
    struct stat st;
    v.t0 = util_clock();
    v.size = fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) ? (long)st.st_size : 0;
    cli_progress_setup(&v.progress, "verify-proof");
    if (cli_progress_wanted(&v.progress)) {
        co->progress = show_progress;
        co->progress_ctx = &v;
    }
    int rc = proof_verify(in, co, summary, sizeof summary, err, sizeof err);
    if (util_clock() - v.t0 > 0.5)
        cli_progress_end(&v.progress);
    util_close_input(in);
    if (rc != 0)
        return cli_fail(1, "verify-proof: %s: %s", path, err);
    char shown[sizeof summary * 4];
    printf("sound: %s\n", util_escape(summary, shown, sizeof shown));
    return 0;
}
