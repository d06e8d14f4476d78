/* cli/main.c - the pnsolve command: dispatch to one command per file. */
#include "cli.h"
#include "../api/pnsolve.h"

#include <stdio.h>
#include <string.h>

static const struct { const char *name; int (*run)(int, char **); const char *summary; } commands[] = {
    { "perft", cmd_perft, "count move sequences to a depth (move generator check and speed)" },
    { "show", cmd_show, "print a position: diagram, side to move, legal moves" },
    { "tb", cmd_tb, "endgame tables: build, probe, verify, stats" },
    { "prove", cmd_prove, "prove who wins from a position (df-pn or best-first PNS)" },
    { "verify-proof", cmd_verify_proof, "check a proof file from the rules and tables alone" },
    { "join-proofs", cmd_join_proofs, "one proof of a position from proofs of its children" },
    { "campaign", cmd_campaign, "one question proved through a frontier, on threads or MPI ranks" },
    { "puzzles", cmd_puzzles, "compose mate-in-N problems (tables or search), text, JSON or SVG" },
    { "solve-puzzle", cmd_solve_puzzle, "check a mate-in-N problem: the claim, cooks, duals, tries" },
    { "bdd", cmd_bdd, "van Dijk's symbolic method on Othello: immediate wins counted with BDDs" },
    { "plot", cmd_plot, "draw a search trace (root pn/dn over nodes) as a PNG with gnuplot" },
    { "engine", cmd_engine, "a JSON line protocol on stdin and stdout for GUIs and scripts" },
    { "serve", cmd_serve, "an explorer in the browser: a JSON API and one page over the tables, proofs and campaigns" },
};

static void usage(FILE *out)
{
    fputs("usage: pnsolve COMMAND [options]\n\n"
          "Solves board games: proves who wins, builds tablebases, composes puzzles.\n"
          "'pnsolve --version' prints the version.\n\n"
          "Commands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-13s %s\n", commands[i].name, commands[i].summary);
    char names[512];
    game_names(names, sizeof names);
    fprintf(out, "\nGames: %s\n"
                 "Run 'pnsolve COMMAND --help' for a command's options.\n", names);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_fail(EXIT_USAGE, "no command given (try 'pnsolve --help')");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)
        return usage(stdout), 0;
    if (strcmp(argv[1], "--version") == 0)
        return printf("pnsolve %s\n", pnsolve_version()), 0;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    return cli_fail(EXIT_USAGE, "unknown command '%s' (try 'pnsolve --help')", argv[1]);
}
