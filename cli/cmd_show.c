/* cli/cmd_show.c - `pnsolve show GAME`: diagram, side to move, legal moves. */
#include "cli.h"
#include "../render/render.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: pnsolve show GAME [MOVE...] [--position P] [--variant V] [--dot FILE|-]\n"
    "Prints the position's diagram, its notation, the side to move, its\n"
    "symmetry class (where the game has symmetries: the same for a position's\n"
    "images), the solver's estimate of the final score for the side to move\n"
    "(where the game has one: a guide for ordering moves, never a value), the\n"
    "scores a finished game can have (where it has scores) and the legal\n"
    "moves (or the result if the game is over), after playing the given moves\n"
    "from the position.  --dot FILE also writes every position reachable from\n"
    "it, with its moves, as a Graphviz graph (OR positions boxes, AND\n"
    "ellipses, finished games filled by result, moves back onto the path\n"
    "dashed: 'dot -Tsvg FILE' draws it; at most 2,000 positions).\n";

static const struct option show_long[] = { { "dot", required_argument, NULL, 256 }, { NULL, 0, NULL, 0 } };

int cmd_show(int argc, char **argv)
{
    cli_game_opts o;
    const char *dot = NULL;
    int first;
    if (cli_parse(argc, argv, &o, show_long, cli_store_string, &dot, &first) != 0)
        return EXIT_USAGE;
    if (o.help)
        return fputs(help, stdout), 0;
    if (argc - first < 1)
        return cli_fail(EXIT_USAGE, "show: expected GAME (see 'pnsolve show --help')");
    cli_file files[] = { { "the game file", cli_game_file(argv[first]), 0 }, { "--dot", dot, 1 } };
    if (cli_distinct_files("show", files, 2))
        return EXIT_USAGE;
    int aside = cli_stdout_aside(dot);  /* --dot -: the picture alone on standard output */
    game *g;
    game_state s;
    int rc = cli_open_game(argv[first], o.variant, o.position, &g, &s);
    if (rc)
        return rc;
    char buf[GAME_TEXT_MAX];
    for (int i = first + 1; i < argc; i++) {
        game_move m;
        char err[256];
        if (game_parse_move(g, &s, argv[i], &m, err, sizeof err) != 0) {
            game_close(g);
            return cli_fail(EXIT_USAGE, "show: move %d '%s': %s", i - first, argv[i], err);
        }
        game_play(g, &s, m);
    }
    game_diagram(g, &s, stdout);
    game_format(g, &s, buf, sizeof buf);
    printf("position: %s\n", buf);
    printf("to move: %s\n", g->ops->player[game_to_move(g, &s)]);
    if (game_has_symmetry(g)) {  /* equal for positions that are images of each other */
        game_key k = game_symmetric_key(g, &s);
        printf("symmetry class: %016llx%016llx\n", (unsigned long long)k.hi, (unsigned long long)k.lo);
    }
    game_solver *x = game_has_solver(g) ? game_solver_new(g, 0) : NULL;
    int estimate;
    if (x && game_solver_estimate(g, x, &s, &estimate))
        printf("estimate: %d\n", estimate);
    if (x)
        game_solver_free(g, x);
    if (g->score_bound > 0) {  /* "at least K" is "at least the next of these": frontier scripts share answers */
        printf("possible scores:");
        for (int v = -game_score_bound(g); v <= game_score_bound(g); v++)
            if (game_score_possible(g, v))
                printf(" %d", v);
        putchar('\n');
    }
    game_move list[GAME_MAX_MOVES];
    int n = game_moves(g, &s, list);
    if (n == 0) {
        game_result r = game_result_of(g, &s);
        if (r == GAME_DRAW)
            printf("game over: draw\n");
        else
            printf("game over: %s wins (score %d)\n", g->ops->player[r == GAME_WIN1], game_score(g, &s));
    } else {
        printf("moves (%d):", n);
        for (int i = 0; i < n; i++) {
            game_format_move(g, &s, list[i], buf, sizeof buf);
            printf(" %s", buf);
        }
        putchar('\n');
    }
    char err[4600];
    cli_stdout_back(aside);
    if (dot && render_dot_positions(g, &s, dot, err, sizeof err) != 0)
        rc = cli_fail(1, "show: %s", err);
    if (rc == 0 && dot && strcmp(dot, "-") != 0)
        printf("wrote %s\n", dot);
    game_close(g);
    return rc;
}
