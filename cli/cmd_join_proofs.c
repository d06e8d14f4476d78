/* cli/cmd_join_proofs.c - `pnsolve join-proofs GAME --out FILE CHILD...`:
 * one proof of a position from proofs of its children, so that a question
 * split by its first move (children searched on other cores or machines)
 * ends in one file for verify-proof. */
#include "cli.h"
#include "../pns/pns.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>

static const char help[] =
    "usage: pnsolve join-proofs GAME --out FILE [--position P] CHILD...\n"
    "Joins proofs written by 'pnsolve prove --position C --proof CHILD' for\n"
    "positions C one move after P (default the start) into one proof of P:\n"
    "where the claim's side moves at P, one child; else one child for every\n"
    "legal move. The children may ask either form of the same claim ('can\n"
    "Black force a win?' disproven = 'can White avoid losing?' proven).\n"
    "Score proofs join too: each CHILD file holds the two bounds of its score\n"
    "(prove --score --proof), one file per legal move; FILE gets P's two: at\n"
    "least the best child's score (its proof alone), less than the next\n"
    "possible score (every child's). A file may hold one bound (prove\n"
    "--question score:K --proof): FILE then has the bounds its children give.\n"
    "Join a deeper frontier level by level.\n"
    "Written to FILE.tmp and renamed when complete; check it with verify-proof.\n";

enum { OPT_OUT = 256 };

static const struct option join_long[] = {
    { "out", required_argument, NULL, OPT_OUT },
    { NULL, 0, NULL, 0 },
};

int cmd_join_proofs(int argc, char **argv)
{
    cli_game_opts go;
    const char *out_path = NULL;
    int first;
    if (cli_parse(argc, argv, &go, join_long, cli_store_string, &out_path, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first < 2 || !out_path)
        return cli_fail(EXIT_USAGE, "join-proofs: expected GAME, --out FILE and the children's proofs (try 'pnsolve join-proofs --help')");
    for (int k = first + 1; k < argc; k++) {
        cli_file files[] = { { "the game file", cli_game_file(argv[first]), 0 }, { "a child's proof", argv[k], 0 },
                             { "--out", out_path, 1 } };
        if (cli_distinct_files("join-proofs", files, 3))
            return EXIT_USAGE;
    }
    game *g;
    game_state root;
    int rc = cli_open_game(argv[first], go.variant, go.position, &g, &root);
    if (rc)
        return rc;
    int n = argc - first - 1;
    FILE **child = calloc((size_t)n, sizeof *child);
    if (!child)
        return game_close(g), cli_fail(1, "join-proofs: out of memory");
    char err[4400];
    for (int k = 0; k < n && rc == 0; k++)  /* read more than once: regular files */
        if (!(child[k] = util_open_input(argv[first + 1 + k], 0, err, sizeof err)))
            rc = cli_fail(cli_input_status(argv[first + 1 + k]), "join-proofs: cannot read %s", err);
    util_file out;
    if (!rc && util_file_create(&out, out_path, "w", err, sizeof err) != 0)
        rc = cli_fail(1, "join-proofs: cannot write: %s", err);
    if (!rc) {
        proof_join_info info;
        int joined = proof_join(g, &root, child, n, out.f, &info, err, sizeof err);
        if (joined != 0)
            util_file_commit(&out, 0, NULL, 0);
        if (joined == 0 && util_file_commit(&out, 1, err, sizeof err) == 0) {
            printf("joined %d proofs into %s\n", n, out_path);
            int possible = 0;  /* scores the game can end with between the bounds */
            for (long v = info.lower; info.has_lower && info.has_upper && v < info.upper; v++)
                possible += game_score_possible(g, (int)v);
            if (possible == 1)
                printf("score: %ld\n", info.lower);
            else if (info.has_lower || info.has_upper)
            {
                char lo[48] = "", hi[48] = "";
                if (info.has_lower)
                    snprintf(lo, sizeof lo, "at least %ld", info.lower);
                if (info.has_upper)
                    snprintf(hi, sizeof hi, "less than %ld", info.upper);
                printf("score bounds (side to move): %s%s%s\n", lo, *lo && *hi ? ", " : "", hi);
            }
        }
        else
            rc = cli_fail(1, "join-proofs: %s", err);
    }
    for (int k = 0; k < n; k++)
        if (child[k])
            fclose(child[k]);
    free(child);
    game_close(g);
    return rc;
}
