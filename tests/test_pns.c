/* tests/test_pns.c - the proof-number engine against exhaustive path search
 * on game graphs (GHI) and against the endgame tables on Jungle Checkers. */
#include "suites.h"
#include "../pns/pns.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- ground truth: every path, no table (RULES.md section 4) ------------- */

/* Value for the prover (+1 win, 0 draw, -1 loss) of state s with path[0..depth). */
static int path_value(const game *g, const game_state *s, uint64_t *path, int depth)
{
    game_result r = game_result_of(g, s);
    if (r != GAME_ONGOING)
        return game_outcome_for(r, 0);
    for (int i = 0; i < depth; i++)
        if (path[i] == s->w[0])
            return 0;
    path[depth] = s->w[0];
    game_move mv[GAME_MAX_MOVES];
    int n = game_moves(g, s, mv), or_node = game_to_move(g, s) == 0;
    int best = or_node ? -2 : 2;
    for (int i = 0; i < n; i++) {
        game_state c = *s;
        game_play(g, &c, mv[i]);
        int v = path_value(g, &c, path, depth + 1);
        best = or_node ? (v > best ? v : best) : (v < best ? v : best);
    }
    return best;
}

static int graph_truth(const game *g)
{
    game_state s;
    game_start(g, &s);
    uint64_t path[4096];
    return path_value(g, &s, path, 0);
}

/* The answer a search gives to the three-valued question, via two binary ones. */
static int engine_value(const game *g, pns_algo algo, pns_ghi ghi, int *win_status, int *adv_status)
{
    pns_options o;
    pns_defaults(&o);
    o.algo = algo;
    o.ghi = ghi;
    o.memory = 1 << 20;
    o.prover = 0;
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

static game *graph_from_text(const char *text)
{
    char path[] = "/tmp/pnsolve-graph-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "graph:%s", path);
    game *g = game_open(spec, NULL, err, sizeof err);
    unlink(path);
    return g;
}

/* A random graph of 2..9 nodes with cycles, terminals and dead ends. */
static void random_graph(unsigned *seed, char *buf, size_t len)
{
    int n = 2 + rand_r(seed) % 8;
    size_t at = (size_t)snprintf(buf, len, "root N0\n");
    for (int i = 0; i < n; i++) {
        int k = rand_r(seed) % 10;
        if (i > 0 && k == 0) {
            static const char *const ends[] = { "win", "loss", "draw" };
            at += (size_t)snprintf(buf + at, len - at, "N%d: %s\n", i, ends[rand_r(seed) % 3]);
            continue;
        }
        at += (size_t)snprintf(buf + at, len - at, "N%d: %s", i, k < 6 ? "or" : "and");
        int kids = rand_r(seed) % 4;
        for (int c = 0; c < kids; c++)
            at += (size_t)snprintf(buf + at, len - at, " N%d", rand_r(seed) % n);
        at += (size_t)snprintf(buf + at, len - at, "\n");
    }
}

static void test_random_graphs(void)
{
    unsigned seed = 20261122;
    int wrong = 0, naive_wrong[2] = { 0, 0 }, draws = 0;
    for (int t = 0; t < 10000; t++) {
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
    CU_ASSERT(draws > 1000);
    printf("\n    random graphs: %d draws; naive wrong on %d (df-pn) and %d (PNS) of 10000 ", draws, naive_wrong[0],
           naive_wrong[1]);
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

static void test_ghi_files(void)
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
        game_close(g);
        files++;
    }
    closedir(d);
    CU_ASSERT(files >= 8);
}

void suite_pns(void)
{
    CU_pSuite s = CU_add_suite("pns", NULL, NULL);
    CU_add_test(s, "hand-made GHI graphs: safe right, naive wrong where marked", test_ghi_files);
    CU_add_test(s, "10,000 random cyclic graphs against exhaustive path search", test_random_graphs);
}
