/* cli/tb_layers_cmd.c - `pnsolve tb build|stats|verify|reach` for games
 * solved by layers (Othello to 40 squares): every reachable state and its
 * exact score (tblayers/); probing them is tb_probe.c's, as for any table. */
#include "cli.h"
#include "../util/util.h"

#include <stdlib.h>
#include <string.h>

/* A build refuses to score layers whose sets and scores would pass this
 * (the machines have 24 GB; 5x5 takes about 2). */
#define LAYERS_MEMORY ((uint64_t)20 << 30)

static int stats_cmd(const game *g, const tb_layers *t, int json)
{
    int n = tb_layers_count(t), area = g->width * g->height;
    tb_layer_stats sum = { 0 };
    if (json)
        printf("{\"game\":\"%s\",\"layers\":[", g->name);
    else
        printf("%s: every state reachable from the start, by discs on the board\n"
               "discs      states      moving   passing   finished        wins     draws      losses\n", g->name);
    for (int i = 0; i < n; i++) {
        tb_layer_stats st;
        tb_layers_stats(t, i, &st);
        if (json)
            printf("%s{\"discs\":%d,\"states\":%llu,\"moving\":%llu,\"passing\":%llu,\"finished\":%llu,\"wins\":%llu,"
                   "\"draws\":%llu,\"losses\":%llu}", i ? "," : "", area - st.empties, (unsigned long long)st.states,
                   (unsigned long long)st.moving, (unsigned long long)st.passing, (unsigned long long)st.finished,
                   (unsigned long long)st.wins, (unsigned long long)st.draws, (unsigned long long)st.losses);
        else
            printf("%5d %11llu %11llu %9llu %10llu %11llu %9llu %11llu\n", area - st.empties,
                   (unsigned long long)st.states, (unsigned long long)st.moving, (unsigned long long)st.passing,
                   (unsigned long long)st.finished, (unsigned long long)st.wins, (unsigned long long)st.draws,
                   (unsigned long long)st.losses);
        sum.states += st.states, sum.moving += st.moving, sum.passing += st.passing, sum.finished += st.finished;
        sum.wins += st.wins, sum.draws += st.draws, sum.losses += st.losses;
    }
    if (json)
        printf("],\"reachable_total\":%llu,\"moving\":%llu,\"passing\":%llu,\"finished\":%llu,\"wins\":%llu,"
               "\"draws\":%llu,\"losses\":%llu}\n", (unsigned long long)sum.states, (unsigned long long)sum.moving,
               (unsigned long long)sum.passing, (unsigned long long)sum.finished, (unsigned long long)sum.wins,
               (unsigned long long)sum.draws, (unsigned long long)sum.losses);
    else
        printf("total %11llu %11llu %9llu %10llu %11llu %9llu %11llu\n", (unsigned long long)sum.states,
               (unsigned long long)sum.moving, (unsigned long long)sum.passing, (unsigned long long)sum.finished,
               (unsigned long long)sum.wins, (unsigned long long)sum.draws, (unsigned long long)sum.losses);
    return 0;
}

/* The sweep of reach and build: Ctrl-C stops it, a line a layer on stderr. */
static tb_sweep_options sweep_options(int threads, uint64_t memory)
{
    cli_catch_interrupt();
    return (tb_sweep_options){ .threads = threads, .memory = memory, .max_sets = LAYERS_MEMORY, .stop = &cli_stop,
                               .log = stderr };
}

/* Every reachable state, a layer at a time, saved compactly in dir. */
static int reach_cmd(const game *g, const char *dir, int json, int threads, uint64_t memory)
{
    char err[4600];
    if (cli_make_dir(dir) != 0)
        return cli_fail(1, "tb reach: cannot create '%s'", dir);
    tb_sweep_options o = sweep_options(threads, memory);
    tb_sweep_layer st[65];
    int n, area = g->width * g->height;
    double t0 = util_clock();
    int rc = tb_sweep(g, dir, &o, st, 65, &n, err, sizeof err);
    if (rc < 0)
        return cli_fail(1, "tb reach: %s", err);
    tb_sweep_layer sum = { 0 };
    if (json)
        printf("{\"game\":\"%s\",\"layers\":[", g->name);
    else
        printf("%s: the states reachable from the start, by discs on the board\n"
               "discs          states   up to symmetry          moving     passing    finished\n", g->name);
    for (int i = 0; i < n; i++) {
        if (json)
            printf("%s{\"discs\":%d,\"states\":%llu,\"ranks\":%llu,\"moving\":%llu,\"passing\":%llu,"
                   "\"finished\":%llu}", i ? "," : "", area - st[i].empties, (unsigned long long)st[i].states,
                   (unsigned long long)st[i].ranks, (unsigned long long)st[i].moving,
                   (unsigned long long)st[i].passing, (unsigned long long)st[i].finished);
        else
            printf("%5d %15llu %16llu %15llu %11llu %11llu\n", area - st[i].empties, (unsigned long long)st[i].states,
                   (unsigned long long)st[i].ranks, (unsigned long long)st[i].moving,
                   (unsigned long long)st[i].passing, (unsigned long long)st[i].finished);
        sum.states += st[i].states, sum.ranks += st[i].ranks, sum.moving += st[i].moving;
        sum.passing += st[i].passing, sum.finished += st[i].finished;
    }
    if (json)
        printf("],\"reachable_total\":%llu,\"ranks\":%llu,\"moving\":%llu,\"passing\":%llu,\"finished\":%llu,"
               "\"complete\":%s,\"seconds\":%.1f}\n", (unsigned long long)sum.states, (unsigned long long)sum.ranks,
               (unsigned long long)sum.moving, (unsigned long long)sum.passing, (unsigned long long)sum.finished,
               rc ? "false" : "true", util_clock() - t0);
    else
        printf("total %15llu %16llu %15llu %11llu %11llu%s\n", (unsigned long long)sum.states,
               (unsigned long long)sum.ranks, (unsigned long long)sum.moving, (unsigned long long)sum.passing,
               (unsigned long long)sum.finished, rc ? " (stopped: the layers above)" : "");
    return rc ? EXIT_INTERRUPTED : 0;
}

int cli_tb_layers(const game *g, const char *action, const char *dir, int json, int threads, uint64_t memory)
{
    char err[4600];
    if (strcmp(action, "reach") == 0)
        return reach_cmd(g, dir, json, threads, memory);
    if (strcmp(action, "build") == 0) {
        if (cli_make_dir(dir) != 0)
            return cli_fail(1, "tb build: cannot create '%s'", dir);
        double t0 = util_clock();
        tb_sweep_options o = sweep_options(threads, memory);
        int rc = tb_layers_build(g, dir, &o, LAYERS_MEMORY, err, sizeof err);
        if (rc < 0)
            return cli_fail(1, "tb build: %s", err);
        if (rc > 0)
            return cli_fail(EXIT_INTERRUPTED, "tb build: stopped after %.1f s; the layers done are kept in %s and a "
                            "later build goes on from them", util_clock() - t0, dir);
        fprintf(stderr, "every reachable state of %s solved in %.1f s, in %s\n", g->name, util_clock() - t0, dir);
        return 0;
    }
    if (strcmp(action, "stats") && strcmp(action, "verify"))
        return cli_fail(EXIT_USAGE, "tb %s: not for %s (build, probe, line, stats, verify, reach)", action, g->name);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    if (!t)
        return cli_fail(1, "tb %s: %s", action, err);
    int rc;
    if (strcmp(action, "stats") == 0) {
        rc = stats_cmd(g, t, json);
    } else {
        uint64_t wrong = tb_layers_verify(t, threads);
        if (wrong)
            printf("verify: %llu states disagree with their children\n", (unsigned long long)wrong);
        else
            printf("verify: every state agrees with its children\n");
        rc = wrong ? 1 : 0;
    }
    tb_layers_close(t);
    return rc;
}
