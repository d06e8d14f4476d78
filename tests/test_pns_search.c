/* tests/test_pns_search.c - df-pn and best-first PNS on graphs and games: GHI,
 * threads, resumed tables, against the tables. */
#include "suites.h"
#include "../pns/dfpn.h"  /* the searcher inside, tested directly */
#include "graphs.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Options asking the prover (player 0) "win" or "advantage" in a table of memory bytes. */
static void question_options(pns_options *o, int advantage, size_t memory)
{
    pns_defaults(o);
    o->memory = memory;
    o->prover = 0;
    o->question = advantage ? PNS_ADVANTAGE : PNS_WIN;
}

/* The answer a search gives to the three-valued question, via two binary ones. */
static int engine_value(const game *g, pns_algo algo, pns_ghi ghi, int *win_status, int *adv_status)
{
    pns_options o;
    question_options(&o, 0, 1 << 20);
    o.algo = algo;
    o.ghi = ghi;
    o.max_nodes = 1000000;  /* naive df-pn need not terminate on a cyclic graph */
    game_state s;
    game_start(g, &s);
    pns_result w, a;
    o.question = PNS_WIN;
    pns_solve(g, &s, &o, &w);
    o.question = PNS_ADVANTAGE;
    pns_solve(g, &s, &o, &a);
    *win_status = w.status;
    *adv_status = a.status;
    if (w.status == PNS_PROVEN)
        return 1;
    if (w.status == PNS_DISPROVEN && a.status == PNS_PROVEN)
        return 0;
    if (w.status == PNS_DISPROVEN && a.status == PNS_DISPROVEN)
        return -1;
    return 9;
}

static void test_random_graphs(void)
{
    unsigned seed = 20261122;
    int wrong = 0, naive_wrong[2] = { 0, 0 }, draws = 0, graphs = test_slow() ? 10000 : 2500;
    for (int t = 0; t < graphs; t++) {
        char text[2048];
        random_graph(&seed, text, sizeof text);
        game *g = graph_from_text(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        int truth = graph_truth(g), ws, as;
        draws += truth == 0;
        for (int algo = 0; algo < 2; algo++) {
            int v = engine_value(g, algo ? PNS_BEST_FIRST : PNS_DFPN, PNS_GHI_SAFE, &ws, &as);
            if (v != truth && wrong++ < 5)
                fprintf(stderr, "\n%s: %d, truth %d, graph:\n%s", algo ? "pns" : "dfpn", v, truth, text);
            CU_ASSERT_EQUAL(v, truth);
            naive_wrong[algo] += engine_value(g, algo ? PNS_BEST_FIRST : PNS_DFPN, PNS_GHI_NAIVE, &ws, &as) != truth;
        }
        game_close(g);
    }
    /* the draws make the graphs interesting, and naive reuse must show GHI */
    CU_ASSERT(draws > graphs / 10);
    printf("\n    random graphs: %d draws; naive wrong on %d (df-pn) and %d (PNS) of %d ", draws, naive_wrong[0],
           naive_wrong[1], graphs);
}

static int expect_of(const char *path, char *naive, size_t len);
static int for_each_ghi_graph(void (*f)(const game *g, const char *path, int expect, const char *naive, void *ctx),
                              void *ctx);
static void ghi_threaded(const game *g, const char *path, int expect, const char *naive, void *ctx);

/* The three-valued answer of df-pn on `threads` threads in a table of
 * memory bytes, within max_nodes (9 where a question stayed open). */
static int threaded_value(const game *g, int threads, size_t memory, uint64_t max_nodes)
{
    pns_options o;
    question_options(&o, 0, memory);
    o.threads = threads;
    o.max_nodes = max_nodes;
    game_state s;
    game_start(g, &s);
    pns_result w, a;
    pns_solve(g, &s, &o, &w);
    o.question = PNS_ADVANTAGE;
    pns_solve(g, &s, &o, &a);
    if (w.status == PNS_PROVEN)
        return 1;
    if (w.status == PNS_DISPROVEN)
        return a.status == PNS_PROVEN ? 0 : a.status == PNS_DISPROVEN ? -1 : 9;
    return 9;
}

/* A game-like graph of n nodes: levels of OR and AND nodes in turn, w moves
 * each, mostly to the next level and one in 20 back to an earlier node
 * (cycles); the last level's moves end in wins, losses and draws.  The
 * leaves' share of wins varies, or every root would have one value. */
static void level_graph(unsigned seed, int n, int w, char *buf, size_t len)
{
    enum { LEVELS = 10 };
    int width = n / LEVELS, win = 40 + (int)(seed % 5) * 8;  /* wins more or less likely, by graph */
    size_t at = (size_t)snprintf(buf, len, "root N0_0\nW: win\nL: loss\nD: draw\n");
    for (int l = 0; l < LEVELS; l++)
        for (int i = 0; i < width; i++) {
            at += (size_t)snprintf(buf + at, len - at, "N%d_%d: %s", l, i, l % 2 ? "and" : "or");
            for (int k = 0; k < w; k++) {
                int r = rand_r(&seed) % 100, to = l + 1;
                if (l == LEVELS - 1) {
                    at += (size_t)snprintf(buf + at, len - at, " %s", r < win ? "W" : r < win + (100 - win) * 2 / 3 ? "L" : "D");
                    continue;
                }
                if (r < 5)
                    to = rand_r(&seed) % (l + 1);
                at += (size_t)snprintf(buf + at, len - at, " N%d_%d", to, rand_r(&seed) % width);
            }
            at += (size_t)snprintf(buf + at, len - at, "\n");
        }
}

/* Threads on one table give the exhaustive value of every small random
 * graph (they race to the answer: different interleavings, many runs), and
 * the one-thread value of large cyclic graphs in a table so small that the
 * threads overwrite each other's entries all the time. */
static void test_threads(void)
{
    unsigned seed = 20261125;
    int wrong = 0, graphs = test_slow() ? 3000 : 1000, large = test_slow() ? 24 : 8;
    for (int t = 0; t < graphs; t++) {
        char text[2048];
        random_graph(&seed, text, sizeof text);
        game *g = graph_from_text(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        int truth = graph_truth(g), v = threaded_value(g, 2 + t % 3, 1 << 20, 1000000);
        if (v != truth && wrong++ < 5)
            fprintf(stderr, "\n%d threads: %d, truth %d, graph:\n%s", 2 + t % 3, v, truth, text);
        CU_ASSERT_EQUAL(v, truth);
        game_close(g);
    }
    /* the hand-made GHI graphs, where a path-dependent result shared as if
     * it held on every path gives a wrong answer */
    for_each_ghi_graph(ghi_threaded, &wrong);
    static char text[1 << 18];
    int values[3] = { 0 }, open = 0;
    for (unsigned k = 1; k <= (unsigned)large; k++) {
        level_graph(k, 5000, 3, text, sizeof text);
        game *g = graph_from_text(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        int one = threaded_value(g, 1, 64 << 20, 2000000);
        if (one == 9) {
            open++;  /* a graph whose cycles df-pn does not get through soon */
        } else {
            values[one + 1]++;
            for (int threads = 2; threads <= 4; threads += 2)
                CU_ASSERT_EQUAL(threaded_value(g, threads, 16 << 10, 20000000), one);
        }
        game_close(g);
    }
    CU_ASSERT(values[0] > 0 && values[2] > 0 && open <= large / 3);
    printf("\n    large graphs: %d losses, %d draws, %d wins, %d open ", values[0], values[1], values[2], open);
}

/* Where sums saturate, df-pn still agrees with best-first PNS, and an
 * unbounded threshold stays unbounded (the old rule left a child its own
 * number + 1 below a saturated node: a billion Ostle nodes, no new position). */
static void test_saturated_sums(void)
{
    CU_ASSERT_EQUAL(dfpn_sum_threshold(PNS_INF, PNS_INF - 1, 5), PNS_INF);
    CU_ASSERT_EQUAL(dfpn_sum_threshold(100, 60, 10), 50);
    CU_ASSERT_EQUAL(dfpn_sum_threshold(PNS_INF - 1, 1, PNS_INF - 1), PNS_INF);
    static char text[1 << 16];
    uint64_t nodes = 0;
    for (unsigned seed = 1; seed <= 8; seed++) {
        dense_graph(seed, 60, 8, text, sizeof text);
        game *g = graph_from_text(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        game_state s;
        game_start(g, &s);
        for (int q = 0; q < 2; q++) {
            pns_options o;
            question_options(&o, q, 64 << 20);
            o.max_nodes = 20000000;
            pns_result d, b;
            pns_solve(g, &s, &o, &d);
            o.algo = PNS_BEST_FIRST;
            o.memory = 512 << 20;
            pns_solve(g, &s, &o, &b);
            CU_ASSERT(d.status != PNS_UNKNOWN);
            CU_ASSERT_EQUAL(d.status, b.status);
            nodes += d.nodes;
        }
        game_close(g);
    }
    printf("\n    dense cyclic graphs: %llu df-pn nodes ", (unsigned long long)nodes);
}

/* A search stopped after a few nodes and resumed in a table of another size
 * (bigger: every entry moves over; tiny: most are dropped) still answers
 * right, path-dependent entries included. */
static void test_resume_resized(void)
{
    unsigned seed = 20261123;
    char ck[] = "/tmp/pnsolve-ckpt-XXXXXX";
    int fd = mkstemp(ck);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    int resumed = 0, graphs = test_slow() ? 2000 : 500;
    for (int t = 0; t < graphs; t++) {
        char text[2048];
        random_graph(&seed, text, sizeof text);
        game *g = graph_from_text(text);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        int truth = graph_truth(g);
        game_state s;
        game_start(g, &s);
        for (int q = 0; q < 2; q++) {
            pns_options o;
            question_options(&o, q, 1 << 16);
            o.max_nodes = 3;
            o.checkpoint = ck;
            pns_result r;
            pns_solve(g, &s, &o, &r);
            if (r.status != PNS_UNKNOWN)
                continue;
            resumed++;
            o.checkpoint = NULL;
            o.resume = ck;
            o.max_nodes = 1000000;
            int want = q ? truth >= 0 : truth > 0;
            for (int k = 0; k < 2; k++) {
                o.memory = k ? 1 << 22 : 1 << 8;
                pns_solve(g, &s, &o, &r);
                CU_ASSERT_EQUAL(r.status, want ? PNS_PROVEN : PNS_DISPROVEN);
            }
        }
        game_close(g);
    }
    unlink(ck);
    CU_ASSERT(resumed > graphs / 4);
}

/* --- positions/ghi: hand-made graphs with their ground truth ------------- */

static int expect_of(const char *path, char *naive, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 9;
    char line[512];
    int v = 9;
    naive[0] = 0;
    while (fgets(line, sizeof line, f)) {
        char word[64];
        if (sscanf(line, "# expect: %63s", word) == 1)
            v = strcmp(word, "win") == 0 ? 1 : strcmp(word, "draw") == 0 ? 0 : strcmp(word, "loss") == 0 ? -1 : 9;
        if (strncmp(line, "# naive-wrong:", 14) == 0)
            snprintf(naive, len, "%s", line + 14);
    }
    fclose(f);
    return v;
}

/* Calls f on every graph of positions/ghi with its expected value and its
 * "naive-wrong" line; returns how many. */
static int for_each_ghi_graph(void (*f)(const game *g, const char *path, int expect, const char *naive, void *ctx),
                              void *ctx)
{
    DIR *d = opendir("positions/ghi");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)) != NULL) {
        if (!strstr(e->d_name, ".graph"))
            continue;
        char path[512], spec[600], err[256], naive[512];
        snprintf(path, sizeof path, "positions/ghi/%s", e->d_name);
        snprintf(spec, sizeof spec, "graph:%s", path);
        int expect = expect_of(path, naive, sizeof naive);
        game *g = game_open(spec, NULL, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        f(g, path, expect, naive, ctx);
        game_close(g);
        files++;
    }
    closedir(d);
    return files;
}

static void ghi_safe_and_naive(const game *g, const char *path, int expect, const char *naive, void *ctx)
{
    (void)ctx;
    CU_ASSERT_EQUAL(graph_truth(g), expect);
    for (int algo = 0; algo < 2; algo++) {
        int ws, as;
        int v = engine_value(g, algo ? PNS_BEST_FIRST : PNS_DFPN, PNS_GHI_SAFE, &ws, &as);
        if (v != expect)
            fprintf(stderr, "\n%s: safe %s gives %d, expected %d\n", path, algo ? "pns" : "dfpn", v, expect);
        CU_ASSERT_EQUAL(v, expect);
        int nv = engine_value(g, algo ? PNS_BEST_FIRST : PNS_DFPN, PNS_GHI_NAIVE, &ws, &as);
        int says_wrong = strstr(naive, algo ? "pns" : "dfpn") != NULL;
        if ((nv != expect) != says_wrong)
            fprintf(stderr, "\n%s: naive %s gives %d, expected %d\n", path, algo ? "pns" : "dfpn", nv, expect);
        CU_ASSERT_EQUAL(nv != expect, says_wrong);
    }
}

static void test_ghi_files(void) { CU_ASSERT(for_each_ghi_graph(ghi_safe_and_naive, NULL) >= 8); }

/* 60 runs on 2 to 4 threads in a 64 KB table; *ctx counts the wrong ones. */
static void ghi_threaded(const game *g, const char *path, int expect, const char *naive, void *ctx)
{
    (void)naive;
    int *wrong = ctx;
    for (int run = 0; run < 60; run++) {
        int v = threaded_value(g, 2 + run % 3, 1 << 16, 1000000);
        if (v != expect && (*wrong)++ < 5)
            fprintf(stderr, "\n%s: %d threads give %d, expected %d\n", path, 2 + run % 3, v, expect);
        CU_ASSERT_EQUAL(v, expect);
    }
}


static void test_against_tables(void)
{
    char dir[64], err[512];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-pns-test-%d", (int)getpid());
    game *g = test_open("jungle", NULL);
    tb_build_options bo = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &bo, err, sizeof err), 0);
    for (int algo = 0; algo < 2; algo++) {
        pns_options o;
        pns_defaults(&o);
        o.algo = algo ? PNS_BEST_FIRST : PNS_DFPN;
        o.memory = 16 << 20;
        o.max_nodes = 2000000;
        pns_validation v;
        int rc = pns_validate(g, dir, 3, algo ? 200 : 600, 11 + (uint64_t)algo, 0, &o, &v, stderr, err, sizeof err);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(v.disagree, 0);
        CU_ASSERT_EQUAL(v.agree + v.unknown, v.positions);
        CU_ASSERT(v.agree * 10 >= v.positions * 9);  /* PNS may run out of its 16 MB on a few draws */
        CU_ASSERT(v.positions == (algo ? 200u : 600u));
        if (algo == 0)
            CU_ASSERT_EQUAL(v.unknown, 0);
    }
    /* The depth-bounded search: every win and loss within 9 plies exact. */
    pns_options o;
    pns_defaults(&o);
    o.memory = 16 << 20;
    pns_validation v;
    CU_ASSERT_EQUAL(pns_validate(g, dir, 3, 400, 5, 9, &o, &v, stderr, err, sizeof err), 0);
    CU_ASSERT_EQUAL(v.positions, 400);
    CU_ASSERT_EQUAL(v.agree, 400);
    CU_ASSERT(v.wins_within > 50 && v.losses_within > 20);  /* both kinds of claims were checked */
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    game_close(g);
}

/* The score bisection of the engine against a naive exhaustive search. */

void suite_search(void)
{
    CU_pSuite s = CU_add_suite("search", NULL, NULL);
    CU_add_test(s, "hand-made GHI graphs: safe right, naive wrong where marked", test_ghi_files);
    CU_add_test(s, "random cyclic graphs (2,500; 10,000 slow) against exhaustive path search", test_random_graphs);
    CU_add_test(s, "dense cyclic graphs: df-pn as best-first PNS; unbounded thresholds stay unbounded", test_saturated_sums);
    CU_add_test(s, "threads on one table: exhaustive values of small graphs, one-thread values of large ones", test_threads);
    CU_add_test(s, "random graphs (500; 2,000 slow) resumed in a bigger and a smaller table", test_resume_resized);
    CU_add_test(s, "random 3-piece positions with their table withheld agree with it", test_against_tables);
}
