/* cli/cmd_perft.c - `pnsolve perft GAME DEPTH`: move sequence counts per depth. */
#include "cli.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char help[] =
    "usage: pnsolve perft GAME DEPTH [--position P] [--variant V]\n"
    "Prints 'perft D COUNT' for each depth 1..DEPTH (docs/rules.md conventions),\n"
    "then the leaves per second of the deepest count. Ctrl-C stops after the\n"
    "depths already printed.\n";

int cmd_perft(int argc, char **argv)
{
    cli_game_opts o;
    int first;
    if (cli_parse(argc, argv, &o, NULL, NULL, NULL, &first) != 0)
        return EXIT_USAGE;
    if (o.help)
        return fputs(help, stdout), 0;
    if (argc - first != 2)
        return cli_fail(EXIT_USAGE, "perft: expected GAME DEPTH (see 'pnsolve perft --help')");
    long depth;
    if (cli_long(argv[first + 1], 1, 40, &depth) != 0)
        return cli_fail(EXIT_USAGE, "perft: bad depth '%s' (1 to 40)", argv[first + 1]);
    game *g;
    game_state s;
    int rc = cli_open_game(argv[first], o.variant, o.position, &g, &s);
    if (rc)
        return rc;
    cli_catch_interrupt();
    uint64_t leaves = 0;
    double seconds = 0;
    for (int d = 1; d <= depth; d++) {
        double t0 = util_clock();
        leaves = game_perft(g, &s, d, &cli_stop);
        seconds = util_clock() - t0;
        if (cli_stop) {
            printf("interrupted during depth %d\n", d);
            game_close(g);
            return EXIT_INTERRUPTED;
        }
        printf("perft %d %llu\n", d, (unsigned long long)leaves);
        fflush(stdout);
    }
    printf("leaves per second: %.0f (%llu leaves in %.3f s)\n",
           seconds > 0 ? (double)leaves / seconds : 0.0, (unsigned long long)leaves, seconds);
    game_close(g);
    return 0;
}
