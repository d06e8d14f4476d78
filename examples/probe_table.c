/* examples/probe_table.c - an endgame table probed through the library: the
 * value of each position given, for the side to move.  Build against an
 * installed pnsolve, and make the tables first:
 *
 *     cc probe_table.c $(pkg-config --cflags --libs pnsolve) -o probe_table
 *     pnsolve tb build jungle --pieces 2 --dir tables
 *     ./probe_table jungle tables "7/7/7/7/7/3r3/R6 w"
 */
#include <pnsolve/pnsolve.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: probe_table GAME TABLE_DIR POSITION...\n");
        return 2;
    }
    char err[600];
    pnsolve_game *g = pnsolve_game_open(argv[1], NULL, err, sizeof err);
    pnsolve_tables *t = g ? pnsolve_tables_open(g, argv[2], err, sizeof err) : NULL;
    if (!t) {
        fprintf(stderr, "probe_table: %s\n", err);
        pnsolve_game_close(g);
        return 1;
    }
    int bad = 0;
    for (int i = 3; i < argc; i++) {
        int wdl, distance;
        if (pnsolve_tables_probe(t, argv[i], &wdl, &distance, err, sizeof err) != PNSOLVE_OK) {
            fprintf(stderr, "probe_table: %s: %s\n", argv[i], err);
            bad = 1;
            continue;
        }
        if (wdl == 0)
            printf("%s: draw\n", argv[i]);
        else
            printf("%s: %s in %d\n", argv[i], wdl > 0 ? "win" : "loss", distance);
    }
    pnsolve_tables_close(t);
    pnsolve_game_close(g);
    return bad;
}
