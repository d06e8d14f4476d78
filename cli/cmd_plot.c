/* cli/cmd_plot.c - `pnsolve plot TRACE`: root pn/dn over time as a PNG
 * (the thesis's figure 7.1), drawn by gnuplot. */
#include "cli.h"
#include "../util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: pnsolve plot TRACE.csv [TRACE.csv...] [--output FILE.png] [--x nodes|seconds]\n"
    "Draws the root proof and disproof numbers of 'prove --trace' files (log\n"
    "scale) against nodes searched (default) or seconds, each file's pair of\n"
    "lines named by the file, with gnuplot (apt-get install gnuplot-nox).\n"
    "Default output: the first TRACE.csv with .png added.\n";

enum { OPT_OUTPUT = 256, OPT_X };

void cli_trace_header(FILE *f) { fputs("seconds,nodes,pn,dn\n", f); }

void cli_trace_line(FILE *f, const pns_progress *pr)
{
    fprintf(f, "%.3f,%llu,%u,%u\n", pr->seconds, (unsigned long long)pr->nodes, pr->pn, pr->dn);
    fflush(f);
}

static const struct option plot_long[] = {
    { "output", required_argument, NULL, OPT_OUTPUT },
    { "x", required_argument, NULL, OPT_X },
    { NULL, 0, NULL, 0 },
};

typedef struct {
    const char *output;
    int seconds;  /* the x axis: seconds, else nodes */
} plot_opts;

static int on_option(int opt, const char *arg, void *ctx)
{
    plot_opts *p = ctx;
    if (opt == OPT_OUTPUT)
        return cli_store_string(opt, arg, &p->output);
    if (strcmp(arg, "nodes") == 0) p->seconds = 0;
    else if (strcmp(arg, "seconds") == 0) p->seconds = 1;
    else return -1;
    return 0;
}

int cmd_plot(int argc, char **argv)
{
    cli_game_opts go;
    plot_opts p = { NULL, 0 };
    int first;
    if (cli_parse(argc, argv, &go, plot_long, on_option, &p, &first) != 0)
        return EXIT_USAGE;
    if (go.help)
        return fputs(help, stdout), 0;
    if (argc - first < 1)
        return cli_fail(EXIT_USAGE, "plot: expected TRACE.csv (try 'pnsolve plot --help')");
    if (go.position || go.variant)
        return cli_fail(EXIT_USAGE, "plot: plots a trace: no --position or --variant");
    for (int i = first; i < argc; i++) {
        char why[4400];
        FILE *f = util_open_input(argv[i], 0, why, sizeof why);  /* gnuplot would wait on a FIFO */
        if (!f)
            return cli_fail(EXIT_USAGE, "plot: cannot read %s", why);
        util_close_input(f);
        if (strpbrk(argv[i], "'\"\n"))
            return cli_fail(EXIT_USAGE, "plot: file names with quotes are not supported");
    }
    for (int i = first; i < argc; i++) {
        cli_file files[] = { { "a trace", argv[i], 0 }, { "--output", p.output, 1 } };
        if (cli_distinct_files("plot", files, 2))
            return EXIT_USAGE;
    }
    if (p.output && strpbrk(p.output, "'\"\n"))
        return cli_fail(EXIT_USAGE, "plot: file names with quotes are not supported");
    char png[4200];
    snprintf(png, sizeof png, "%s.png", argv[first]);
    const char *output = p.output ? p.output : png;
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return cli_fail(1, "plot: gnuplot not found (apt-get install gnuplot-nox)");
    FILE *gp = popen("gnuplot", "w");
    if (!gp)
        return cli_fail(1, "plot: cannot run gnuplot");
    fprintf(gp,
            "set terminal png size 900,560\nset output '%s'\nset datafile separator ','\n"
            "set key top left noenhanced\nset logscale y\nset xlabel '%s'\nset ylabel 'root number'\n"
            "set title 'root proof and disproof numbers'\nplot ",
            output, p.seconds ? "seconds" : "nodes");
    int x = p.seconds ? 1 : 2;
    for (int i = first; i < argc; i++) {
        const char *name = argc - first > 1 ? argv[i] : "";
        fprintf(gp, "%s'%s' every ::1 using %d:3 with lines title '%s%sproof number', "
                    "'' every ::1 using %d:4 with lines title '%s%sdisproof number'",
                i > first ? ", " : "", argv[i], x, name, *name ? ": " : "", x, name, *name ? ": " : "");
    }
    fputc('\n', gp);
    if (pclose(gp) != 0)
        return cli_fail(1, "plot: gnuplot failed on '%s'", argv[first]);
    printf("wrote %s\n", output);
    return 0;
}
