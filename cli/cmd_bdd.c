/* cli/cmd_bdd.c - `pnsolve bdd othello:WxH --immediate-wins`: the seed's
 * symbolic method (BDDs, symbolic/), its counts printed beside the thesis's
 * tables (docs/othello.md). */
#include "cli.h"
#include "../symbolic/symbolic.h"
#include "../util/util.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: pnsolve bdd othello:WxH --immediate-wins | --algo 1 [--nodes N]\n"
    "Van Dijk's symbolic method (Binary Decision Diagrams, BuDDy): a square is\n"
    "two variables (occupied, white; an empty square's colour held at 0), one\n"
    "more for the side to move. --immediate-wins counts the states over and\n"
    "won by White, any board, either side to move, as the thesis's Table 7.3\n"
    "counts them, with the set's size in BDD nodes and the nodes in use in\n"
    "BuDDy's table at the end. --nodes N bounds that table (default 50000000; past it the\n"
    "run stops and says so). --algo 1, his first algorithm: the states\n"
    "reachable from the start (board and side to move), by images under the\n"
    "transition relation partitioned by square and pass until nothing is new,\n"
    "with the reached set's size after each image. Algorithms 2 to 5 are not\n"
    "built yet.\n";

enum { OPT_IMMEDIATE = 256, OPT_NODES, OPT_ALGO };

static const struct option bdd_long[] = {
    { "immediate-wins", no_argument, NULL, OPT_IMMEDIATE },
    { "nodes", required_argument, NULL, OPT_NODES },
    { "algo", required_argument, NULL, OPT_ALGO },
    { NULL, 0, NULL, 0 },
};

typedef struct {
    int immediate, nodes, algo;
} bdd_opts;

static int on_option(int opt, const char *arg, void *ctx)
{
    bdd_opts *o = ctx;
    switch (opt) {
    case OPT_IMMEDIATE: o->immediate = 1; return 0;
    case OPT_NODES: return cli_int(arg, 1000, 2000000000, &o->nodes);
    case OPT_ALGO: return cli_int(arg, 1, 5, &o->algo);
    default: return -1;
    }
}

int cmd_bdd(int argc, char **argv)
{
    cli_game_opts go;
    bdd_opts o = { 0 };
    int first;
    if (cli_parse(argc, argv, &go, bdd_long, on_option, &o, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "bdd: expected othello:WxH (see 'pnsolve bdd --help')");
    if (o.algo > 1)
        return cli_fail(EXIT_USAGE, "bdd: --algo %d: van Dijk's algorithms 2 to 5 are not built yet (1 is)", o.algo);
    if (!o.immediate == !o.algo)
        return cli_fail(EXIT_USAGE, "bdd: say what to compute: --immediate-wins or --algo 1");
    game *g;
    game_state s;
    int rc = cli_open_game(argv[first], go.variant, go.position, &g, &s);
    if (rc)
        return rc;
    /* the start from its notation ("4x4:----/-OX-/-XO-/---- X"; a reflection
     * of the board changes no count) */
    int w = g->width, h = g->height, othello = strncmp(g->name, "othello:", 8) == 0, board[64], n = 0;
    char text[GAME_TEXT_MAX];
    game_format(g, &s, text, sizeof text);
    for (const char *p = strchr(text, ':'); othello && p && *++p && *p != ' ';)
        if (*p != '/' && n < 64)
            board[n++] = *p == 'X' ? 0 : *p == 'O' ? 1 : -1;
    int white_to_move = othello && game_to_move(g, &s) == 1;
    game_close(g);
    if (othello && n != w * h)
        return cli_fail(1, "bdd: %s: its start has %d squares, not %d", argv[first], n, w * h);
    if (!othello)
        return cli_fail(EXIT_USAGE, "bdd: %s: the symbolic rules are Othello's (othello:WxH)", argv[first]);
    sym_count c;
    char err[300];
    double t0 = util_clock();
    if (o.algo == 1) {
        static sym_reach re;
        if (sym_reachable(w, h, board, white_to_move, o.nodes, &re, err, sizeof err) != 0)
            return cli_fail(1, "bdd: %s", err);
        for (int i = 0; i < re.iterations && i < SYM_MAX_ITERATIONS; i++)
            printf("image %d: reached set %d nodes\n", i + 1, re.nodes_at[i]);
        printf("reachable: %.0f states\n", re.states);
        printf("BDD: %d nodes, at most %d; %d images; %.1f s\n", re.nodes, re.peak_nodes, re.iterations,
               util_clock() - t0);
        return 0;
    }
    if (sym_immediate_wins(w, h, o.nodes, &c, err, sizeof err) != 0)
        return cli_fail(1, "bdd: %s", err);
    printf("immediately won by White: %.0f states\n", c.states);
    printf("BDD: %d nodes; %d in use in BuDDy's table at the end; %.1f s\n", c.nodes, c.table_nodes, util_clock() - t0);
    return 0;
}
