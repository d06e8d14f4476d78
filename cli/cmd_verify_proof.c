/* cli/cmd_verify_proof.c - `pnsolve verify-proof FILE`: checks a proof from
 * the rules and the tables alone. */
#include "cli.h"
#include "../pns/pns.h"

#include <stdio.h>
#include <string.h>

static const char help[] =
    "usage: pnsolve verify-proof FILE [--tb-dir D]\n"
    "Checks a proof written by 'pnsolve prove --proof FILE' from the rules and\n"
    "the endgame tables (default ./tables) alone: every move legal, every\n"
    "defence answered, every leaf a game end, a table value, a repetition on\n"
    "its own path, or (score proofs) a position the checker searches itself or\n"
    "a symmetric image of a finished sibling, that supports the claim.\n"
    "Exit 0: sound; 1: the first flaw.\n";

enum { OPT_TBDIR = 256 };

static const struct option verify_long[] = {
    { "tb-dir", required_argument, NULL, OPT_TBDIR },
    { NULL, 0, NULL, 0 },
};

int cmd_verify_proof(int argc, char **argv)
{
    cli_game_opts go;
    const char *tb_dir = "tables";
    int first;
    if (cli_parse(argc, argv, &go, verify_long, cli_store_string, &tb_dir, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "verify-proof: expected FILE (try 'pnsolve verify-proof --help')");
    FILE *in = fopen(argv[first], "r");
    if (!in)
        return cli_fail(EXIT_USAGE, "verify-proof: cannot read '%s'", argv[first]);
    char summary[1024], err[512];
    int rc = pns_verify_proof(in, tb_dir, summary, sizeof summary, err, sizeof err);
    fclose(in);
    if (rc != 0)
        return cli_fail(1, "verify-proof: %s: %s", argv[first], err);
    printf("sound: %s\n", summary);
    return 0;
}
