/* cli/cmd_bdd.c - `pnsolve bdd othello:WxH --immediate-wins | --algo N`:
 * the seed's symbolic method (BDDs, symbolic/), its counts and BDD sizes
 * printed beside the thesis's tables (docs/othello.md), its sets checked
 * against the explicit strong solution (tb build) state by state. */
#include "cli.h"
#include "../render/render.h"
#include "../symbolic/symbolic.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"
#include "../util/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
    "usage: pnsolve bdd othello:WxH --immediate-wins | --layers | --algo N[,N...]|all\n"
    "                  [--nodes N] [--tables DIR] [--plot FILE.svg] [--save DIR [--save-every S] [--iterations N]]\n"
    "                  [--progress S | --progress-json]\n"
    "Van Dijk's symbolic method (Binary Decision Diagrams, BuDDy): a square is\n"
    "two variables (occupied, white; an empty square's colour held at 0), one\n"
    "more for the side to move; the moves as one relation per square and side\n"
    "plus the two passes, each over the squares it can change.\n"
    "--immediate-wins counts the states over and won by White, any board,\n"
    "either side to move, as the thesis's Table 7.3 counts them.\n"
    "--layers counts the states reachable from the start per disc count, one\n"
    "layer held at a time (what an explicit build of the board would hold).\n"
    "--algo N, his numbering: 1 the states reachable from the start (images\n"
    "until nothing is new); 2 the states from which each side can force a win\n"
    "by a backward fixpoint over every state of the board; 3 the same within\n"
    "the reachable states; 4 a sweep down the disc count over every state,\n"
    "one layer held at a time; 5 the sweep over the reachable states (found\n"
    "layer by layer forward). Prints each set's states (White's wins, Black's,\n"
    "the draws), the start's outcome, and each set's size in BDD nodes after\n"
    "every iteration with its peak. A list or 'all' runs several in turn.\n"
    "--tables DIR: checks every state of the explicit solution in DIR (tb\n"
    "build othello:WxH) against the sets of algorithms 2-5: the same outcome.\n"
    "--plot FILE.svg draws the sizes per iteration, log scale, one line per\n"
    "algorithm and side (as his Figure 7.2). --nodes N bounds BuDDy's table\n"
    "(default 50000000; past it the run stops and says so).\n"
    "--save DIR: algorithms 2-5 save their sets to DIR after an iteration,\n"
    "every S seconds (--save-every, default 600), as othello-WxH-algoN.bddsave;\n"
    "a run stopped (Ctrl-C, a kill, the node limit) goes on from its last\n"
    "save when started again with the same DIR; the save is removed when the\n"
    "run completes. --iterations N: save and stop after N iterations (exit 3),\n"
    "a slice of a run longer than one sitting.\n" CLI_PROGRESS_HELP;

enum { OPT_IMMEDIATE = 256, OPT_NODES, OPT_ALGO, OPT_TABLES, OPT_PLOT, OPT_LAYERS, OPT_SAVE, OPT_SAVE_EVERY, OPT_ITERATIONS };

static const struct option bdd_long[] = {
    { "immediate-wins", no_argument, NULL, OPT_IMMEDIATE },
    { "nodes", required_argument, NULL, OPT_NODES },
    { "algo", required_argument, NULL, OPT_ALGO },
    { "tables", required_argument, NULL, OPT_TABLES },
    { "plot", required_argument, NULL, OPT_PLOT },
    { "layers", no_argument, NULL, OPT_LAYERS },
    { "save", required_argument, NULL, OPT_SAVE },
    { "save-every", required_argument, NULL, OPT_SAVE_EVERY },
    { "iterations", required_argument, NULL, OPT_ITERATIONS },
    CLI_PROGRESS_OPTIONS,
    { NULL, 0, NULL, 0 },
};

typedef struct {
    int immediate, layers, nodes, algos[6];  /* algos[n]: run algorithm n */
    const char *tables, *plot, *save;
    double save_every;
    int iterations;
    cli_progress progress;
} bdd_opts;

/* "3", "1,3,5" or "all". */
static int parse_algos(const char *arg, int *algos)
{
    if (strcmp(arg, "all") == 0) {
        for (int n = 1; n <= 5; n++)
            algos[n] = 1;
        return 0;
    }
    for (const char *p = arg;; p++) {
        if (*p < '1' || *p > '5' || (p[1] && p[1] != ','))
            return -1;
        algos[*p - '0'] = 1;
        if (!*++p)
            return 0;
    }
}

static int on_option(int opt, const char *arg, void *ctx)
{
    bdd_opts *o = ctx;
    switch (opt) {
    case OPT_IMMEDIATE: o->immediate = 1; return 0;
    case OPT_LAYERS: o->layers = 1; return 0;
    case OPT_NODES: return cli_int(arg, 1000, 2000000000, &o->nodes);
    case OPT_ALGO: return parse_algos(arg, o->algos);
    case OPT_TABLES: return cli_store_string(opt, arg, &o->tables);
    case OPT_PLOT: return cli_store_string(opt, arg, &o->plot);
    case OPT_SAVE: return cli_store_string(opt, arg, &o->save);
    case OPT_SAVE_EVERY: return cli_double(arg, 0, 1e9, &o->save_every);
    case OPT_ITERATIONS: return cli_int(arg, 1, 1000000, &o->iterations);
    default: return cli_progress_option(&o->progress, opt, arg) == 0 ? 0 : -1;
    }
}

/* board[row * w + column] of s, row 0 the notation's first
 * ("4x4:----/-OX-/-XO-/---- X"): -1 empty, 0 Black (X), 1 White (O). */
static void board_of(const game *g, const game_state *s, int *board)
{
    char text[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    int n = 0;
    for (const char *p = strchr(text, ':'); p && *++p && *p != ' ' && n < 64;)
        if (*p != '/')
            board[n++] = *p == 'X' ? 0 : *p == 'O' ? 1 : -1;
}

static void print_series(const char *what, const sym_series *s)
{
    printf("%s: %d iterations, peak %d nodes:", what, s->iterations, s->peak_nodes);
    for (int i = 0; i < s->iterations && i < SYM_MAX_ITERATIONS; i++)
        printf(" %d", s->nodes_at[i]);
    printf("\n");
}

typedef struct {
    const game *g;
    const sym_sets *k;
    long wrong;
    uint64_t checked, states;
} table_check;

static void check_state(void *ctx, const game_state *s, int score, int images)
{
    table_check *c = ctx;
    int board[64];
    board_of(c->g, s, board);
    int white = game_to_move(c->g, s) == 1;
    int want = score == 0 ? 0 : (score > 0) == white ? 1 : -1;
    int got = sym_sets_outcome(c->k, c->g->width, c->g->height, board, white);
    if (got != want && c->wrong++ < 3) {
        char text[GAME_TEXT_MAX];
        game_format(c->g, s, text, sizeof text);
        fprintf(stderr, "bdd: %s: the sets say %d, the tables' score %d\n", text, got, score);
    }
    c->checked++;
    c->states += (uint64_t)images;
}

/* Every state the explicit solution keeps (one per class of the start's
 * symmetries, *states the reachable states they stand for) against the
 * sets: the number that disagree, or -1 (said). */
static long check_tables(const game *g, const char *dir, const sym_sets *k, uint64_t *checked, uint64_t *states)
{
    char err[4600];
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    if (!t)
        return cli_fail(1, "bdd: %s", err), -1;
    table_check c = { .g = g, .k = k };
    for (int i = 0; i < tb_layers_count(t); i++)
        tb_layers_each(t, i, check_state, &c);
    tb_layers_close(t);
    *checked = c.checked;
    *states = c.states;
    return c.wrong;
}

static const char *const names[6] = { "", "reachable states (forward images)", "fixpoint over every state",
                                      "fixpoint within the reachable states", "sweep over every state",
                                      "sweep over the reachable states" };

/* The progress of one computation: what it is and since when. */
typedef struct {
    cli_progress *out;
    char what[64];
    double t0;
} bdd_watch;

static void show_progress(const sym_tick *t, void *ctx)
{
    bdd_watch *w = ctx;
    double secs = util_clock() - w->t0;
    char text[256], json[256];
    snprintf(text, sizeof text, "%s: %d iterations, the last set %d nodes; %d nodes in BuDDy's table; %.0f s", w->what,
             t->iterations, t->set_nodes, t->table_nodes, secs);
    snprintf(json, sizeof json, "\"what\": \"%s\", \"iterations\": %d, \"set_nodes\": %d, \"table_nodes\": %d, "
             "\"seconds\": %.1f", w->what, t->iterations, t->set_nodes, t->table_nodes, secs);
    cli_progress_say(w->out, text, json);
}

/* Progress for what comes next (said as `what`), when any is wanted. */
static void watch(bdd_watch *w, cli_progress *p, const char *what)
{
    snprintf(w->what, sizeof w->what, "%s", what);
    w->out = p;
    w->t0 = util_clock();
    sym_set_progress(cli_progress_wanted(p) ? show_progress : NULL, w);
}

static int run_algo(const game *g, const int *board, int white, int algo, bdd_opts *o, sym_result *res)
{
    char err[300], save[4200];
    sym_sets *k = NULL;
    bdd_watch w;
    char what[32];
    snprintf(what, sizeof what, "algorithm %d", algo);
    watch(&w, &o->progress, what);
    if (o->save) {
        snprintf(save, sizeof save, "%s/%s-algo%d.bddsave", o->save, g->name, algo);
        char *colon = strrchr(save, ':'), *slash = strrchr(save, '/');
        if (colon && colon > slash)
            *colon = '-';  /* othello:4x5 -> othello-4x5 (a path too long to hold it fails to open) */
        sym_set_save(save, o->save_every, o->iterations);
    }
    double t0 = util_clock();
    int failed = sym_solve(g->width, g->height, board, white, algo, o->nodes, res, o->tables && algo > 1 ? &k : NULL,
                           err, sizeof err);
    cli_progress_end(&o->progress);
    if (failed) {
        /* what was reached before the limit or the signal */
        print_series("  so far, reachable", &res->reach);
        print_series("  so far, White's set", &res->side[1]);
        print_series("  so far, Black's set", &res->side[0]);
        return cli_fail(cli_stop ? EXIT_INTERRUPTED : res->paused ? EXIT_PAUSED : 1, "bdd: algorithm %d: %s", algo, err);
    }
    double secs = util_clock() - t0;
    printf("algorithm %d (%s), %s: relation %d nodes\n", algo, names[algo], g->name, res->relation_nodes);
    if (algo != 2 && algo != 4)
        print_series(algo == 5 ? "  reachable, per layer" : "  reachable", &res->reach);
    if (algo == 1) {
        printf("  reachable: %.0f states\n", res->space);
    } else {
        print_series("  White's set", &res->side[1]);
        print_series("  Black's set", &res->side[0]);
        printf("  of %.0f states: White can force a win from %.0f, Black from %.0f, neither (draws) %.0f\n",
               res->space, res->side[1].states, res->side[0].states, res->draws);
        printf("  start: %s\n", res->start > 0 ? "White can force a win" : res->start < 0 ? "Black can force a win" : "a draw");
    }
    int peak = res->reach.peak_nodes;
    for (int p = 0; p < 2; p++)
        peak = res->side[p].peak_nodes > peak ? res->side[p].peak_nodes : peak;
    printf("  peak: %d nodes; %.1f s%s\n", peak, secs, res->resumed ? " (this run; it went on from a save)" : "");
    int rc = 0;
    if (k) {
        uint64_t checked;
        uint64_t states;
        long wrong = check_tables(g, o->tables, k, &checked, &states);
        if (wrong == 0)
            printf("  agrees with the tables on all %llu states they keep (one per symmetry class: %llu reachable "
                   "states)\n", (unsigned long long)checked, (unsigned long long)states);
        else if (wrong > 0)
            rc = cli_fail(1, "bdd: algorithm %d: %ld of the %llu states the tables keep disagree with them", algo,
                          wrong, (unsigned long long)checked);
        else
            rc = 1;
    }
    sym_sets_free(k);
    return rc;
}

/* Before a run of minutes: the tables there and the plot writable, so
 * that neither fails only after it.  0, or an exit code (said). */
static int inputs_ready(const game *g, const bdd_opts *o)
{
    char path[4400], err[4600];
    struct stat st;
    if (o->tables) {
        tb_layers_path(g, o->tables, path, sizeof path);
        int e = stat(o->tables, &st) != 0 ? errno : 0;
        if (e || !S_ISDIR(st.st_mode))
            return cli_fail(1, "bdd: %s is not solved in %s: %s", g->name, o->tables, e ? strerror(e) : "not a directory");
        if (access(path, R_OK) != 0)
            return cli_fail(1, "bdd: %s is not solved in %s (pnsolve tb build %s --dir %s)", g->name, o->tables,
                            g->name, o->tables);
    }
    util_file f;
    if (o->plot && util_file_create(&f, o->plot, "w", err, sizeof err) != 0)
        return cli_fail(1, "bdd: cannot write %s", err);
    if (o->plot)
        util_file_commit(&f, 0, NULL, 0);  /* a trial: nothing is left */
    return 0;
}

int cmd_bdd(int argc, char **argv)
{
    cli_game_opts go;
    bdd_opts o = { .save_every = 600 };
    int first;
    if (cli_parse(argc, argv, &go, bdd_long, on_option, &o, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "bdd: expected othello:WxH (see 'pnsolve bdd --help')");
    int any_algo = 0;
    for (int n = 1; n <= 5; n++)
        any_algo |= o.algos[n];
    if (o.immediate + o.layers + any_algo != 1)
        return cli_fail(EXIT_USAGE, "bdd: say what to compute: one of --immediate-wins, --layers, --algo N");
    if ((o.tables || o.plot || o.save) && !any_algo)
        return cli_fail(EXIT_USAGE, "bdd: --tables, --plot and --save go with --algo");
    if (o.iterations && !o.save)
        return cli_fail(EXIT_USAGE, "bdd: --iterations goes with --save DIR (the run goes on from its save)");
    game *g;
    game_state s;
    int rc = cli_open_game(argv[first], go.variant, go.position, &g, &s);
    if (rc)
        return rc;
    if (strncmp(g->name, "othello:", 8) != 0) {
        rc = cli_fail(EXIT_USAGE, "bdd: %s: the symbolic rules are Othello's (othello:WxH)", argv[first]);
        game_close(g);
        return rc;
    }
    if ((rc = inputs_ready(g, &o)) != 0) {
        game_close(g);
        return rc;
    }
    int board[64], white = game_to_move(g, &s) == 1;
    board_of(g, &s, board);
    cli_catch_interrupt();
    sym_set_stop(&cli_stop);
    cli_progress_setup(&o.progress, "bdd");
    bdd_watch w;
    if (o.immediate) {
        sym_count c;
        char err[300];
        double t0 = util_clock();
        watch(&w, &o.progress, "immediate wins");
        int failed = sym_immediate_wins(g->width, g->height, o.nodes, &c, err, sizeof err);
        cli_progress_end(&o.progress);
        if (failed)
            rc = cli_fail(1, "bdd: %s", err);
        else {
            printf("immediately won by White: %.0f states\n", c.states);
            printf("BDD: %d nodes; %d in use in BuDDy's table at the end; %.1f s\n", c.nodes, c.table_nodes,
                   util_clock() - t0);
        }
        game_close(g);
        return rc;
    }
    if (o.layers) {
        double states[65], total = 0;
        sym_series s;
        char err[300];
        double t0 = util_clock();
        watch(&w, &o.progress, "layers");
        int failed = sym_count_layers(g->width, g->height, board, white, o.nodes, states, &s, err, sizeof err);
        cli_progress_end(&o.progress);
        for (int n = 0, i = 0; n <= g->width * g->height; n++) {  /* the layers counted, all or before a stop */
            if (states[n] == 0)
                continue;
            printf("discs %2d: %.0f states, %d nodes\n", n, states[n], i < SYM_MAX_ITERATIONS ? s.nodes_at[i] : 0);
            total += states[n], i++;
        }
        if (failed)
            rc = cli_fail(cli_stop ? EXIT_INTERRUPTED : 1, "bdd: %s", err);
        else
            printf("reachable: %.0f states; widest layer %d nodes; %.1f s\n", total, s.peak_nodes, util_clock() - t0);
        game_close(g);
        return rc;
    }
    if (o.save && cli_make_dir(o.save) != 0) {
        rc = cli_fail(1, "bdd: %s: %s", o.save, strerror(errno));
        game_close(g);
        return rc;
    }
    static sym_result res[6];
    for (int n = 1; n <= 5 && rc == 0; n++)
        if (o.algos[n])
            rc = run_algo(g, board, white, n, &o, &res[n]);
    char err[4600];
    if (rc == 0 && o.plot && render_bdd_plot(o.plot, g->name, res, o.algos, err, sizeof err) != 0)
        rc = cli_fail(1, "bdd: %s", err);
    game_close(g);
    return rc;
}
