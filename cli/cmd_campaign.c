/* cli/cmd_campaign.c - `pnsolve campaign run|status|verify`: one question
 * proved through a frontier of positions N moves deep (campaign/), its
 * questions answered by threads of this process or, under mpirun or srun,
 * by other ranks (cli/campaign_mpi.c). */
#include "cli.h"
#include "campaign_cli.h"
#include "prove_options.h"
#include "../campaign/campaign.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: pnsolve campaign run DIR GAME [--position P] [--variant V] --question Q --depth N\n"
    "                            [--workers W] [--progress S | --progress-json] [prove's search options]\n"
    "       pnsolve campaign status DIR [--json]\n"
    "       pnsolve campaign verify DIR [--sample N | --all] [--tb-dir D]\n"
    "       pnsolve campaign import DIR GAME [run's options] PROOF...\n"
    "A proof-tree manager: the question asked of the position's side to move is\n"
    "split through the positions N moves deep (the frontier); where the side it\n"
    "is asked for moves, one child must hold (tried by known answers, the game's\n"
    "estimate, then the fewest replies), elsewhere every child.  Each frontier\n"
    "question is one `prove --question ... --proof` (its search options given\n"
    "here); a question that runs into its limits, or whose proof outgrows the\n"
    "writer (--proof-memory, --proof-time), is split a move deeper.  An answer\n"
    "answers every question it implies.  The proofs are joined into one proof of\n"
    "the root (DIR/result.proof, or DIR/lower.proof and DIR/upper.proof for a\n"
    "score), which verify-proof checks.\n"
    "  --question win|advantage|score:K   the question (score:K: at least K ahead)\n"
    "  --question score [--guess S]       the exact score: both bounds, the guess\n"
    "                                     (default 0) moved until they meet\n"
    "  --depth N                          the frontier's depth in moves\n"
    "  --workers W                        questions at once (default: the cores\n"
    "                                     over --threads); under mpirun or srun,\n"
    "                                     every rank but the first is a worker\n"
    "  --progress S, --progress-json      a timestamped line on stderr every S s\n"
    "                                     (JSON: every 10 s unless given): answers,\n"
    "                                     questions in flight, nodes searched\n"
    "DIR holds the campaign: DIR/journal (every question and answer, flushed as\n"
    "it comes), DIR/p/ (the answers' proofs), DIR/j/ (joined proofs).  Run the\n"
    "same command again to resume (Ctrl-C or a kill loses at most the questions\n"
    "in flight); other options than it started with are refused.  Workers write\n"
    "their proofs into DIR, which must be the same path on every machine.\n"
    "status: what is answered, open and in flight, the bounds so far, an ETA.\n"
    "verify: checks the root's proof(s) and a sample of the answers' proofs\n"
    "(--sample N, default 20) or all of them (--all) with verify-proof's checker.\n"
    "import: proof files of frontier questions (from an earlier run, another\n"
    "machine, or a proof-tree manager of one's own), each checked by the proof\n"
    "checker (with --tb-dir) and adopted as the answer of the position it proves;\n"
    "a run with the same options then asks only what they leave open.\n";

enum { OPT_CQUESTION = 512, OPT_DEPTH, OPT_WORKERS, OPT_GUESS, OPT_JSON_C, OPT_SAMPLE, OPT_ALL };

/* prove's options a campaign passes on to its questions (its own are the rest). */
static const char *const passed[] = { "algo", "ghi", "memory", "proof-memory", "proof-time", "epsilon", "init", "nodes",
                                      "time", "tb-dir", "no-tb", "tb-decode", "tb-cache", "sum", "exact-empties", "proof-exact",
                                      "threads", NULL };

typedef struct {
    campaign_spec spec;
    cli_prove_opts prove;
    int question_set, depth_set, guess_set, workers, json, sample, all;
    cli_progress progress;
    struct option table[32];
} campaign_opts;

static int on_option(int opt, const char *arg, void *ctx)
{
    campaign_opts *c = ctx;
    switch (opt) {
    case OPT_CQUESTION:
        c->question_set = 1;
        if (strcmp(arg, "win") == 0) c->spec.kind = CAMPAIGN_WIN, c->spec.k = 1;
        else if (strcmp(arg, "advantage") == 0) c->spec.kind = CAMPAIGN_ADVANTAGE, c->spec.k = 0;
        else if (strcmp(arg, "score") == 0) c->spec.kind = CAMPAIGN_SCORE;
        else if (strncmp(arg, "score:", 6) == 0) {
            long k;
            if (cli_long(arg + 6, -1000000, 1000000, &k) != 0) return -1;
            c->spec.kind = CAMPAIGN_AT_LEAST, c->spec.k = (int)k;
        } else return -1;
        return 0;
    case OPT_DEPTH: c->depth_set = 1; return cli_int(arg, 0, 32, &c->spec.depth);
    case OPT_WORKERS: return cli_int(arg, 1, 4096, &c->workers);
    case OPT_GUESS: c->guess_set = 1; return cli_int(arg, -1000000, 1000000, &c->spec.k);
    case OPT_JSON_C: c->json = 1; return 0;
    case OPT_SAMPLE: return cli_int(arg, 0, 1 << 30, &c->sample);
    case OPT_ALL: c->all = 1; return 0;
    case CLI_OPT_PROGRESS:
    case CLI_OPT_PROGRESS_JSON: return cli_progress_option(&c->progress, opt, arg) == 0 ? 0 : -1;
    }
    /* one of prove's: kept as text too, the journal's record of the options */
    for (int i = 0; c->table[i].name; i++)
        if (c->table[i].val == opt) {
            size_t u = strlen(c->spec.options);
            snprintf(c->spec.options + u, sizeof c->spec.options - u, "%s--%s%s%s", u ? " " : "", c->table[i].name,
                     arg ? " " : "", arg ? arg : "");
            break;
        }
    return cli_prove_option(opt, arg, &c->prove);
}

/* The campaign's own options, then the prove options it passes on. */
static void make_table(campaign_opts *c)
{
    static const struct option own[] = {
        { "question", required_argument, NULL, OPT_CQUESTION }, { "depth", required_argument, NULL, OPT_DEPTH },
        { "workers", required_argument, NULL, OPT_WORKERS },    { "guess", required_argument, NULL, OPT_GUESS },
        { "json", no_argument, NULL, OPT_JSON_C },              { "sample", required_argument, NULL, OPT_SAMPLE },
        { "all", no_argument, NULL, OPT_ALL },                  CLI_PROGRESS_OPTIONS,
    };
    int n = 0;
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        c->table[n++] = own[i];
    for (int i = 0; cli_prove_long[i].name; i++)
        for (int j = 0; passed[j]; j++)
            if (strcmp(cli_prove_long[i].name, passed[j]) == 0)
                c->table[n++] = cli_prove_long[i];
    c->table[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* A subcommand's options: 0 to go on, else 1 with the exit code in *rc
 * (0 after --help). */
static int parse(int argc, char **argv, campaign_opts *c, cli_game_opts *go, int *first, int *rc)
{
    memset(c, 0, sizeof *c);
    pns_defaults(&c->prove.o);
    make_table(c);
    if (cli_parse(argc, argv, go, c->table, on_option, c, first) != 0)
        return *rc = EXIT_USAGE, 1;
    if (go->help)
        return fputs(help, stdout), *rc = 0, 1;
    return 0;
}

/* The campaign of spec in dir to its end or Ctrl-C, on workers threads (0:
 * the cores over --threads), or on the ranks of mpirun/srun; an exit code. */
static int run_campaign(const char *dir, const campaign_spec *spec, campaign_prover *pv, int workers)
{
    cli_catch_interrupt();
    if (cli_mpi_size() > 1)
        return campaign_mpi_run(dir, spec, pv);
    if (workers <= 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int t = pv->opts->o.threads > 1 ? pv->opts->o.threads : 1;
        workers = cores / t > 0 ? (int)(cores / t) : 1;
    }
    int rc = 0;
    campaign *c = campaign_cli_open(dir, spec, &rc);
    if (!c)
        return rc;
    campaign_pool *p = campaign_pool_new(workers, campaign_cli_answer, pv);
    if (!p)
        return campaign_close(c), cli_fail(1, "campaign run: cannot start %d worker threads", workers);
    campaign_workers w = campaign_pool_workers(p);
    rc = campaign_cli_drive(c, &w, pv->progress);
    cli_stop = 1;  /* searches still under way are not needed: they end at their next look */
    campaign_pool_free(p);
    campaign_close(c);
    return rc;
}

/* The spec of run's arguments (DIR GAME ...) into c->spec; 0, or an exit code (said). */
static int spec_of(char **argv, int first, campaign_opts *c, const cli_game_opts *go, game **g)
{
    if (!c->question_set || !c->depth_set)
        return cli_fail(EXIT_USAGE, "campaign: expected DIR GAME, --question and --depth (try 'pnsolve campaign --help')");
    if (c->guess_set && c->spec.kind != CAMPAIGN_SCORE)
        return cli_fail(EXIT_USAGE, "campaign run: --guess is for --question score");
    game_state root;
    int rc = cli_open_game(argv[first + 1], go->variant, go->position, g, &root);
    if (rc)
        return rc;
    snprintf(c->spec.game, sizeof c->spec.game, "%s", argv[first + 1]);
    snprintf(c->spec.variant, sizeof c->spec.variant, "%s", go->variant ? go->variant : "");
    game_format(*g, &root, c->spec.position, sizeof c->spec.position);
    return 0;
}

static int run(int argc, char **argv)
{
    campaign_opts c;
    cli_game_opts go;
    int first, rc;
    if (parse(argc, argv, &c, &go, &first, &rc))
        return rc;
    if (argc - first != 2)
        return cli_fail(EXIT_USAGE, "campaign run: expected DIR GAME, --question and --depth (try 'pnsolve campaign --help')");
    game *g;
    rc = spec_of(argv, first, &c, &go, &g);
    if (rc)
        return rc;
    if (c.spec.kind == CAMPAIGN_SCORE || c.spec.kind == CAMPAIGN_AT_LEAST)
        cli_prove_score_options(&c.prove);
    cli_progress_setup(&c.progress, "campaign run");
    campaign_prover pv = { g, &c.prove, NULL, &c.progress };
    rc = cli_prove_tables(g, &c.prove, &pv.tb);
    if (rc == 0)
        rc = run_campaign(argv[first], &c.spec, &pv, c.workers);
    tb_close(pv.tb);
    game_close(g);
    return rc;
}

static int import(int argc, char **argv)
{
    campaign_opts c;
    cli_game_opts go;
    int first, rc;
    if (parse(argc, argv, &c, &go, &first, &rc))
        return rc;
    if (argc - first < 3)
        return cli_fail(EXIT_USAGE, "campaign import: expected DIR GAME and proof files");
    game *g;
    rc = spec_of(argv, first, &c, &go, &g);
    if (rc)
        return rc;
    game_close(g);
    char err[CAMPAIGN_PATH_MAX + 1200];
    int usage, bad = 0;
    campaign *cp = campaign_open(argv[first], &c.spec, err, sizeof err, &usage);
    if (!cp)
        return cli_fail(usage ? EXIT_USAGE : 1, "campaign import: %s: %s", argv[first], err);
    for (int i = first + 2; i < argc; i++)
        if (campaign_import(cp, argv[i], c.prove.tb_dir, err, sizeof err) != 0)
            bad++, cli_fail(1, "campaign import: %s", err);
    printf("imported %d of %d proofs into %s\n", argc - first - 2 - bad, argc - first - 2, argv[first]);
    campaign_close(cp);
    return bad ? 1 : 0;
}

static int status(int argc, char **argv)
{
    campaign_opts c;
    cli_game_opts go;
    int first, rc;
    if (parse(argc, argv, &c, &go, &first, &rc))
        return rc;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "campaign status: expected DIR");
    char err[CAMPAIGN_PATH_MAX + 512];
    campaign *cp = campaign_load(argv[first], err, sizeof err);
    campaign_state st;
    if (!cp || campaign_status(cp, &st, err, sizeof err) != 0)
        return campaign_close(cp), cli_fail(1, "campaign status: %s: %s", argv[first], err);
    campaign_cli_print_status(cp, &st, c.json);
    campaign_close(cp);
    return 0;
}

static int verify(int argc, char **argv)
{
    campaign_opts c;
    cli_game_opts go;
    int first, rc;
    if (parse(argc, argv, &c, &go, &first, &rc))
        return rc;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "campaign verify: expected DIR");
    return campaign_cli_verify(argv[first], c.all ? -1 : c.sample ? c.sample : 20, c.prove.tb_dir);
}

int cmd_campaign(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
        return fputs(help, stdout), 0;
    if (argc < 2)
        return cli_fail(EXIT_USAGE, "campaign: expected run, status, verify or import (try 'pnsolve campaign --help')");
    static char name[32];  /* what the option parser's messages name: "campaign run" */
    snprintf(name, sizeof name, "campaign %.20s", argv[1]);
    const char *sub = argv[1];
    argv[1] = name;
    if (strcmp(sub, "run") == 0)
        return run(argc - 1, argv + 1);
    if (strcmp(sub, "status") == 0)
        return status(argc - 1, argv + 1);
    if (strcmp(sub, "verify") == 0)
        return verify(argc - 1, argv + 1);
    if (strcmp(sub, "import") == 0)
        return import(argc - 1, argv + 1);
    return cli_fail(EXIT_USAGE, "campaign: unknown subcommand '%s' (run, status, verify or import)", sub);
}
