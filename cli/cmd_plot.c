/* cli/cmd_plot.c - `pnsolve plot TRACE`: root pn/dn over time as a PNG
 * (the thesis's figure 7.1), drawn by gnuplot. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: pnsolve plot TRACE.csv [--output FILE.png]\n"
    "Draws the root proof and disproof numbers of a 'prove --trace' file\n"
    "against nodes searched (log scale), with gnuplot (apt-get install\n"
    "gnuplot-nox).  Default output: TRACE.png.\n";

enum { OPT_OUTPUT = 256 };

static const struct option plot_long[] = {
    { "output", required_argument, NULL, OPT_OUTPUT },
    { NULL, 0, NULL, 0 },
};

int cmd_plot(int argc, char **argv)
{
    cli_game_opts go;
    const char *output = NULL;
    int first;
    if (cli_parse(argc, argv, &go, plot_long, cli_store_string, &output, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first != 1)
        return cli_fail(EXIT_USAGE, "plot: expected TRACE.csv (try 'pnsolve plot --help')");
    const char *trace = argv[first];
    if (access(trace, R_OK) != 0)
        return cli_fail(EXIT_USAGE, "plot: cannot read '%s'", trace);
    if (strpbrk(trace, "'\"\n") || (output && strpbrk(output, "'\"\n")))
        return cli_fail(EXIT_USAGE, "plot: file names with quotes are not supported");
    char png[4200];
    snprintf(png, sizeof png, "%s.png", trace);
    if (!output)
        output = png;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return cli_fail(1, "plot: gnuplot not found (apt-get install gnuplot-nox)");
    FILE *gp = popen("gnuplot", "w");
    if (!gp)
        return cli_fail(1, "plot: cannot run gnuplot");
    fprintf(gp,
            "set terminal png size 900,560\nset output '%s'\nset datafile separator ','\n"
            "set key top left\nset logscale y\nset xlabel 'nodes'\nset ylabel 'root number'\n"
            "set title 'root proof and disproof numbers'\n"
            "plot '%s' every ::1 using 2:3 with lines title 'proof number', "
            "'' every ::1 using 2:4 with lines title 'disproof number'\n",
            output, trace);
    if (pclose(gp) != 0)
        return cli_fail(1, "plot: gnuplot failed on '%s'", trace);
    printf("wrote %s\n", output);
    return 0;
}
