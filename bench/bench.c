/* bench/bench.c - `make bench`: the figures of docs/performance.md.
 *
 * Single thread but for the threads section.  "bulk" perft counts the legal moves at the last ply (the
 * usual perft convention and what the 50M leaves/s target means);
 * "full" perft plays every leaf move too, which is the cost a search pays per
 * node.  Each figure repeats its run until a second has passed.
 */
#include "../games/game.h"
#include "../ranking/ranking.h"
#include "../tablebase/tablebase.h"
#include "../tbbuild/tbbuild.h"
#include "../tblayers/tblayers.h"
#include "../tbreach/tbreach.h"
#include "../tbfile/tbfile.h"
#include "../pns/pns.h"
#include "../util/util.h"
#include "../puzzle/puzzle.h"

#include <pthread.h>
#include <string.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t perft_full(const game *g, const game_state *s, int depth)
{
    game_move list[GAME_MAX_MOVES];
    int n = game_moves(g, s, list);
    if (n == 0)
        return (uint64_t)g->ops->finished_is_perft_leaf;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        game_state t = *s;
        game_play(g, &t, list[i]);
        sum += depth == 1 ? 1 : perft_full(g, &t, depth - 1);
    }
    return sum;
}

static void bench_perft(const char *spec, int depth)
{
    char err[256];
    game *g = game_open(spec, NULL, err, sizeof err);
    if (!g) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    game_state s;
    game_start(g, &s);
    for (int full = 0; full < 2; full++) {
        uint64_t leaves = 0, total = 0;
        int runs = 0;
        double t0 = util_clock(), t;
        do {
            leaves = full ? perft_full(g, &s, depth) : game_perft(g, &s, depth, NULL);
            total += leaves;
            runs++;
            t = util_clock() - t0;
        } while (t < 1.0);
        printf("perft %-12s depth %2d %-4s %12llu leaves  %6.1f M leaves/s  (%d runs, %.2f s)\n", spec, depth,
               full ? "full" : "bulk", (unsigned long long)leaves, (double)total / t / 1e6, runs, t);
        fflush(stdout);
    }
    game_close(g);
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

/* The entries of g's table of mat (its state index made in memory). */
static uint64_t table_size(const game *g, int mat)
{
    tb_index *x = tb_index_open(g, NULL);
    const game_tb_index *ix = x ? tb_index_need(x, mat) : NULL;
    uint64_t n = ix ? game_tables(g)->size(g, ix, mat) : 0;
    tb_index_close(x);
    return n;
}

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int index_order(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The builder's work per frontier position, its table left out: the
 * indices of its predecessors from its own index, positions taken in index
 * order as a frontier bitmap gives them (the builder's yardstick for its
 * ranking; `tb build` adds the cells' misses and the first pass). */
static void bench_unmoves(rank_material m, uint64_t *idx, int n)
{
    char err[256];
    game *g = game_open("jungle", NULL, err, sizeof err);
    if (!g) {
        printf("un-move RrDTe: %s\n", err);
        return;
    }
    const game_tb_ops *ops = game_tables(g);
    qsort(idx, (size_t)n, sizeof *idx, index_order);
    uint64_t pred[GAME_MAX_PREDECESSORS], sink = 0, preds = 0;
    double t0 = util_clock(), t;
    long done = 0;
    do {
        for (int i = 0; i < n; i++) {
            int k = game_tb_build(ops)->unmoves_index(g, NULL, (int)m, idx[i], pred);
            preds += (uint64_t)k;
            sink += k ? pred[0] : 0;
        }
        done += n;
    } while ((t = util_clock() - t0) < 1.0);
    printf("un-move RrDTe, index order      %6.1f ns a position (%.2f predecessors)%s\n", t / (double)done * 1e9,
           (double)preds / (double)done, sink == 42 ? " " : "");
    game_close(g);
}

/* Ranks and unranks of random five-piece positions (RrDTe). */
static void bench_ranking(void)
{
    enum { N = 1 << 16 };
    static rank_position pos[N];
    static uint64_t idx[N];
    rank_material m;
    rank_material_parse("RrDTe", &m);
    uint64_t size = rank_size(m), sink = 0;
    for (int i = 0; i < N; i++) {
        idx[i] = next_random() % size;
        rank_unindex(m, idx[i], &pos[i]);
    }
    double t0 = util_clock(), t;
    long ops = 0;
    do {
        for (int i = 0; i < N; i++) {
            rank_position p = pos[i];
            rank_canonicalize(&p);
            sink += rank_index(&p);
        }
        ops += N;
    } while ((t = util_clock() - t0) < 1.0);
    printf("rank   RrDTe canonicalize+rank  %6.1f M/s\n", (double)ops / t / 1e6);
    t0 = util_clock();
    ops = 0;
    do {
        for (int i = 0; i < N; i++) {
            rank_position p;
            rank_unindex(m, idx[i], &p);
            sink += p.loc[4];
        }
        ops += N;
    } while ((t = util_clock() - t0) < 1.0);
    printf("unrank RrDTe                    %6.1f M/s\n", (double)ops / t / 1e6);
    rank_iter it;
    t0 = util_clock();
    rank_iter_start(&it, m, 0, size);
    ops = 0;
    do {
        for (int i = 0; i < N && rank_iter_next(&it); i++)
            sink += it.pos.loc[0];
        ops += N;
    } while ((t = util_clock() - t0) < 1.0);
    printf("enumerate RrDTe by increment    %6.1f M/s%s\n", (double)ops / t / 1e6, sink == 42 ? " " : "");
    bench_unmoves(m, idx, N);
}

/* Probes of the same tables compressed (tb compress): one cached block,
 * random positions, and a cycle through every block (more than the
 * per-thread cache holds, so nearly every probe decodes a block). */
static void bench_compressed_probe(game *g, const char *dir, const game_state *s, int n)
{
    char err[512];
    if (tb_compress(g, dir, NULL, NULL, err, sizeof err) < 0) {
        printf("tb compress failed: %s\n", err);
        return;
    }
    tb_set *t = tb_open_lazy(g, dir);
    tb_value v;
    long found = 0, ops = 0;
    double t0, el;
    for (int pass = 0; pass < 2; pass++) {
        ops = 0;
        t0 = util_clock();
        do {
            for (int i = 0; i < n; i++)
                found += tb_probe(t, &s[pass ? i : 0], &v, err, sizeof err);
            ops += n;
        } while ((el = util_clock() - t0) < 1.0);
        printf("tb probe compressed, %s: %.0f ns per probe\n", pass ? "random three-piece positions" : "one block (cached)",
               el / (double)ops * 1e9);
    }
    /* the first index of every block of every three-piece table */
    enum { MAX_BLOCKS = 4096 };
    static game_state first[MAX_BLOCKS];
    int mats[64], nm = game_tables(g)->materials(g, 3, mats, 64), nb = 0;
    for (int m = 0; m < nm; m++)
        for (uint64_t i = 0; i < table_size(g, mats[m]) && nb < MAX_BLOCKS; i += 1 << 14)
            game_tables(g)->unindex(g, tb_index_need(tb_set_index(t), mats[m]), mats[m], i, &first[nb++]);
    ops = 0;
    t0 = util_clock();
    do {
        for (int i = 0; i < nb; i++)
            found += tb_probe(t, &first[i], &v, err, sizeof err);
        ops += nb;
    } while ((el = util_clock() - t0) < 1.0);
    printf("tb probe compressed, cycling through %d blocks (cache 128 per thread): %.1f us per probe%s\n", nb,
           el / (double)ops * 1e6, found < 0 ? "!" : "");
    tb_close(t);
}

/* Builds the three-piece tables in a scratch directory, then probes. */
static void bench_tablebase(void)
{
    char dir[64], err[512];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-bench-%d", (int)getpid());
    game *g = game_open("jungle", NULL, err, sizeof err);
    rank_material mats[64];
    int n = rank_materials(3, mats, 64);
    uint64_t positions = 0;
    for (int i = 0; i < n; i++)
        positions += rank_size(mats[i]);
    for (int threads = 1; threads <= 2; threads++) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            return;
        tb_build_options o = { .threads = threads };
        double t0 = util_clock();
        if (tb_build(g, dir, 3, &o, err, sizeof err) != 0) {
            printf("tb build failed: %s\n", err);
            return;
        }
        double t = util_clock() - t0;
        printf("tb build jungle <= 3 pieces, %d thread%s: %llu positions in %.2f s, %.2f M positions/s (%.2f M per thread-s)\n",
               threads, threads > 1 ? "s" : "", (unsigned long long)positions, t, (double)positions / t / 1e6,
               (double)positions / t / 1e6 / threads);
    }
    /* Probe random three-piece positions with their tables loaded. */
    enum { N = 1 << 16 };
    static game_state s[N];
    for (int i = 0; i < N; i++) {
        rank_material mat = mats[10 + next_random() % (unsigned)(n - 10)];
        rank_position p;
        rank_unindex(mat, next_random() % rank_size(mat), &p);
        memset(&s[i], 0, sizeof s[i]);
        s[i].w[2] = ~0ULL;
        for (int k = 0; k < p.n; k++) {
            unsigned sq = (unsigned)rank_square(p.loc[k]);
            s[i].w[2] = (s[i].w[2] & ~(0xFFULL << (8 * p.piece[k]))) | (uint64_t)sq << (8 * p.piece[k]);
            s[i].w[p.piece[k] & 1] |= 1ULL << sq;
        }
        s[i].w[3] = (uint64_t)p.side;
    }
    tb_set *t = tb_open_lazy(g, dir);
    tb_value v;
    long found = 0, ops = 0;
    for (int i = 0; i < N; i++)
        found += tb_probe(t, &s[i], &v, err, sizeof err) == 1;
    double t0 = util_clock(), el;
    do {
        for (int i = 0; i < N; i++)
            found += tb_probe(t, &s[i], &v, err, sizeof err);
        ops += N;
    } while ((el = util_clock() - t0) < 1.0);
    printf("tb probe (tables loaded): %.0f ns per probe (%ld found)\n", el / (double)ops * 1e9, found);
    tb_close(t);
    bench_compressed_probe(g, dir, s, N);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    game_close(g);
}

/* Builds the tables named (every one with at most `pieces` pieces, or only
 * `only` and those it needs) in a child process, so that the peak RSS and
 * CPU time are the build's own; prints wall time, positions per core-second
 * of the table measured (entries; the run's total when only is NULL) and its
 * peak bytes per position: (peak RSS - the smaller tables it maps) / entries. */
/* Builds the tables of name up to pieces (only: one material and those it
 * needs) in dir in a child process, whose usage goes to *ru: 0, or -1. */
static int build_in_child(const char *name, int pieces, const char *only, const char *dir, struct rusage *ru)
{
    pid_t pid = fork();
    if (pid == 0) {
        char err[512];
        game *g = game_open(name, NULL, err, sizeof err);
        tb_build_options o = { .threads = 0, .only = only };
        _exit(g && tb_build(g, dir, pieces, &o, err, sizeof err) == 0 ? 0 : 1);
    }
    int status;
    return pid < 0 || wait4(pid, &status, 0, ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ? -1 : 0;
}

static void bench_build(const char *name, int pieces, const char *only, const char *dir, uint64_t entries,
                        uint64_t total, uint64_t mapped)
{
    double t0 = util_clock();
    struct rusage ru;
    if (build_in_child(name, pieces, only, dir, &ru) != 0) {
        printf("tb build %s failed\n", name);
        return;
    }
    double wall = util_clock() - t0;
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
                 (double)ru.ru_stime.tv_usec / 1e6;
    /* the child's peak counts the pages it shares with this process: the
     * section runs first, while this process is small */
    double peak = (double)ru.ru_maxrss * 1024.0;
    printf("tb build %s %s: %.2f s wall, %.2f M positions per core-second, peak RSS %.0f MB = %.2f bytes per "
           "position of %llu (%.0f MB of smaller tables mapped)\n",
           name, only ? only : "(all)", wall, (double)total / cpu / 1e6, peak / 1e6, (peak - (double)mapped) / (double)entries,
           (unsigned long long)entries, (double)mapped / 1e6);
}

/* One five-piece Jungle table (RrDdT, on the four-piece tables built first)
 * and Ostle's 4x4 tables to eight pieces (3+3, 3+4, 4+4), all threads. */
static void bench_build_tables(void)
{
    char dir[64], err[512], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-bench-build-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    game *g = game_open("jungle", NULL, err, sizeof err);
    struct rusage ru;
    if (!g || build_in_child("jungle", 4, NULL, dir, &ru) != 0) {
        printf("tb build jungle to four pieces failed\n");
    } else {
        int mat = game_tables(g)->material_parse(g, "RrDdT"), deps[16], nd = game_tables(g)->material_deps(g, mat, deps);
        uint64_t mapped = 0, size = table_size(g, mat);
        for (int i = 0; i < nd; i++)
            mapped += table_size(g, deps[i]);
        bench_build("jungle", 5, "RrDdT", dir, size, size, mapped);
    }
    game_close(g);
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
    g = game_open("ostle:4x4", NULL, err, sizeof err);
    if (g) {
        int mats[8], n = game_tables(g)->materials(g, 8, mats, 8);
        uint64_t total = 0, largest = 0;
        for (int i = 0; i < n; i++) {
            uint64_t size = table_size(g, mats[i]);
            total += size;
            largest = size > largest ? size : largest;
        }
        bench_build("ostle:4x4", 8, NULL, dir, largest, total, total - largest);
        game_close(g);
    }
    if (system(cmd) != 0)
        fprintf(stderr, "bench: could not remove %s\n", dir);
}

/* df-pn on Jungle Checkers middle-game positions: the start after 8 random
 * plies (fixed seed), no tables, 3 M nodes each, 256 MB table. */
static void bench_dfpn(void)
{
    char err[256];
    game *g = game_open("jungle", NULL, err, sizeof err);
    if (!g) {
        fprintf(stderr, "bench: %s\n", err);
        return;
    }
    uint64_t nodes = 0;
    double secs = 0;
    for (int k = 0; k < 4; k++) {
        game_state s;
        game_start(g, &s);
        for (int ply = 0; ply < 8; ply++) {
            game_move mv[GAME_MAX_MOVES];
            int n = game_moves(g, &s, mv);
            if (!n)
                break;
            game_play(g, &s, mv[next_random() % (uint64_t)n]);
        }
        pns_options o;
        pns_defaults(&o);
        o.max_nodes = 3000000;
        pns_result r;
        pns_solve(g, &s, &o, &r);
        nodes += r.nodes;
        secs += r.seconds;
        char text[GAME_TEXT_MAX];
        game_format(g, &s, text, sizeof text);
        printf("  df-pn %-34s %8llu nodes %6.2f s %5.2f M nodes/s, %llu path-dependent\n", text,
               (unsigned long long)r.nodes, r.seconds, r.nodes / r.seconds / 1e6, (unsigned long long)r.path_dependent);
    }
    printf("df-pn jungle middle game (4 positions, no tables): %llu nodes in %.2f s, %.2f M nodes/s; "
           "table entry %d bytes\n", (unsigned long long)nodes, secs, nodes / secs / 1e6, 32);
    pns_options o;
    pns_defaults(&o);
    o.algo = PNS_BEST_FIRST;
    o.max_nodes = 300000;
    game_state s;
    game_start(g, &s);
    pns_result r;
    pns_solve(g, &s, &o, &r);
    printf("best-first PNS jungle start: %llu expansions in %.2f s, %.2f M/s, %.1f bytes per expansion "
           "(tree nodes are 56 bytes; an expansion stores all children)\n",
           (unsigned long long)r.nodes, r.seconds, r.nodes / r.seconds / 1e6, (double)r.peak_bytes / (double)r.nodes);
    game_close(g);
}

/* Othello scores as `prove --score` runs them (exact endgame solver below
 * 14 empties, mobility): the 5x6 start and FFO #40 (20 empties). */
static void bench_othello(void)
{
    static const char *const runs[][2] = {
        { "othello:5x6", NULL },
        { "othello:8x8", "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X" },
    };
    for (int i = 0; i < 2; i++) {
        char err[256];
        game *g = game_open(runs[i][0], NULL, err, sizeof err);
        game_state s;
        if (!g || (runs[i][1] ? game_parse(g, runs[i][1], &s, err, sizeof err) != 0 : (game_start(g, &s), 0))) {
            fprintf(stderr, "bench: %s\n", err);
            game_close(g);
            return;
        }
        pns_options o;
        pns_defaults(&o);
        pns_score_defaults(&o);
        pns_result r;
        int score = 0, bound = game_score_bound(g);
        double t = util_clock();
        int rc = pns_score(g, &s, &o, -bound, bound, &score, &r);
        t = util_clock() - t;
        printf("othello score %-11s %s: %+d in %.2f s; df-pn %llu nodes (%.0f k/s), solver %llu nodes (%.1f M/s)\n",
               runs[i][0], runs[i][1] ? "FFO #40" : "start", rc == 0 ? score : 999, t, (unsigned long long)r.nodes,
               r.nodes / t / 1e3, (unsigned long long)r.endgame_nodes, r.endgame_nodes / t / 1e6);
        game_close(g);
    }
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* FFO #40-44 (positions/ffo/ffo40-44.obf), the yardstick: each
 * position solved by `prove --score --exact-empties 24` with fresh search
 * objects (all a fresh process would have but its start, a few ms), the
 * wall times summed; median of 3 sums, on 1 and on 2 threads (the
 * solver's own); a score other than the file's best is reported. */
static void bench_ffo(void)
{
    FILE *f = fopen("positions/ffo/ffo40-44.obf", "r");
    if (!f) {
        printf("ffo: positions/ffo/ffo40-44.obf not found: skipped\n");
        return;
    }
    char pos[8][128];
    int want[8], n = 0;
    char line[512];
    while (n < 8 && fgets(line, sizeof line, f))
        if (sscanf(line, "%127[^;]; %*[^:]:%d", pos[n], &want[n]) == 2)
            n++;
    fclose(f);
    char err[256];
    game *g = game_open("othello:8x8", NULL, err, sizeof err);
    if (!g)
        return;
    for (int threads = 1; threads <= 2; threads++) {
        double sums[3];
        uint64_t nodes = 0;
        int wrong = 0;
        for (int run = 0; run < 3; run++) {
            sums[run] = 0;
            nodes = 0;
            for (int i = 0; i < n; i++) {
                game_state s;
                if (game_parse(g, pos[i], &s, err, sizeof err) != 0) {
                    printf("ffo: %s\n", err);
                    game_close(g);
                    return;
                }
                pns_options o;
                pns_defaults(&o);
                pns_score_defaults(&o);
                o.exact_empties = 24;
                o.threads = threads;
                pns_result r;
                int score = 0;
                double t = util_clock();
                int rc = pns_score(g, &s, &o, -64, 64, &score, &r);
                sums[run] += util_clock() - t;
                nodes += r.endgame_nodes;
                wrong += rc != 0 || score != want[i];
            }
        }
        qsort(sums, 3, sizeof sums[0], by_value);  /* the middle is the median */
        printf("othello FFO #40-44 on %d thread%s: %.2f s summed (median of 3; %.2f-%.2f), solver %.1f M nodes%s\n",
               threads, threads > 1 ? "s" : "", sums[1], sums[0], sums[2], (double)nodes / 1e6,
               wrong ? "; A SCORE DIFFERS FROM THE FILE'S" : ", every score the file's");
    }
    game_close(g);
}

/* One search of the threads section: Othello's score or df-pn's question
 * on T threads; the wall time, and the answer in *answer. */
typedef struct {
    const char *spec, *position;
    int score;                  /* 1: pns_score over the whole range; 0: pns_solve */
} threads_run;

static double run_on_threads(const threads_run *run, int threads, int *answer, uint64_t *nodes)
{
    char err[256];
    game *g = game_open(run->spec, NULL, err, sizeof err);
    game_state s;
    if (!g || (run->position ? game_parse(g, run->position, &s, err, sizeof err) != 0 : (game_start(g, &s), 0))) {
        fprintf(stderr, "bench: %s\n", err);
        game_close(g);
        return -1;
    }
    pns_options o;
    pns_defaults(&o);
    if (run->score)
        pns_score_defaults(&o);
    o.threads = threads;
    pns_result r;
    double t = util_clock();
    if (run->score) {
        int bound = game_score_bound(g);
        *answer = pns_score(g, &s, &o, -bound, bound, answer, &r) == 0 ? *answer : 999;
    } else {
        pns_solve(g, &s, &o, &r);
        *answer = (int)r.status;
    }
    t = util_clock() - t;
    *nodes = r.nodes;
    if (threads > 1)
        printf("threads %-11s %d: %.2f s, %llu nodes; shared table %llu bucket accesses, %.4f%% met a store\n", run->spec,
               threads, t, (unsigned long long)r.nodes, (unsigned long long)r.tt_accesses,
               r.tt_accesses ? 100.0 * (double)r.tt_contended / (double)r.tt_accesses : 0.0);
    game_close(g);
    return t;
}

typedef struct {
    const threads_run *run;
    double seconds;
    int answer;
    uint64_t nodes;
} lone_search;

static void *lone(void *arg)
{
    lone_search *l = arg;
    l->seconds = run_on_threads(l->run, 1, &l->answer, &l->nodes);
    return NULL;
}

/* One search on 1 and on 2 threads, three times each in turns (this VM's
 * speed drifts over minutes), and the median wall time of each to the same
 * answer; then, for the Jungle search, two independent one-thread searches
 * side by side: the most two cores of this memory-bound machine give
 * (2 x the median on one thread / their wall time); and one run each on 4
 * and 8 threads, more than the cores, for the duplicated work of the
 * scaling model (docs/search.md).  jungle, othello: which searches. */
static void bench_threads(int jungle, int othello)
{
    static const threads_run runs[] = {
        /* can White force a win?  Found among random positions of RrDdTt
         * (six pieces) by df-pn with one thread, no tables and the default
         * 256 MB table: 70.6 M nodes, a minute on this machine */
        { "jungle", "4d2/7/5t1/6D/2r2T1/3R3/7 w", 0 },
        { "othello:6x6", NULL, 1 },
    };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        if (!(runs[i].score ? othello : jungle))
            continue;
        double t[2][3];
        int answer[2][3];
        uint64_t nodes[2][3];
        for (int k = 0; k < 3; k++)
            for (int th = 0; th < 2; th++)
                t[th][k] = run_on_threads(&runs[i], th + 1, &answer[th][k], &nodes[th][k]);
        int same = 1;
        for (int k = 0; k < 3; k++)
            for (int th = 0; th < 2; th++)
                same = same && answer[th][k] == answer[0][0] && t[th][k] >= 0;
        for (int th = 0; th < 2; th++) {
            printf("threads %-11s %d: %.2f s %.2f s %.2f s, nodes %llu %llu %llu\n", runs[i].spec, th + 1, t[th][0],
                   t[th][1], t[th][2], (unsigned long long)nodes[th][0], (unsigned long long)nodes[th][1],
                   (unsigned long long)nodes[th][2]);
            qsort(t[th], 3, sizeof t[th][0], by_value);
        }
        printf("threads %-11s answer %d%s; median %.2f s on 1 thread, %.2f s on 2: speed-up %.2fx\n", runs[i].spec,
               answer[0][0], same ? " every run" : ", BUT THE RUNS DISAGREE", t[0][1], t[1][1], t[0][1] / t[1][1]);
        if (runs[i].score)
            continue;
        pthread_t other;
        lone_search a = { &runs[i], 0, 0, 0 }, b = a;
        double wall = util_clock();
        if (pthread_create(&other, NULL, lone, &b) != 0)
            continue;
        lone(&a);
        pthread_join(other, NULL);
        wall = util_clock() - wall;
        printf("threads %-11s two lone searches side by side: %.2f s and %.2f s, both in %.2f s: %.2fx the work of "
               "one (the ceiling)\n", runs[i].spec, a.seconds, b.seconds, wall, 2 * t[0][1] / wall);
        for (int th = 4; th <= 8; th *= 2) {
            int ans;
            uint64_t n;
            double sec = run_on_threads(&runs[i], th, &ans, &n);
            printf("threads %-11s %d threads on 2 cores: answer %d in %.2f s, %.2fx the nodes of one thread\n",
                   runs[i].spec, th, ans, sec, (double)n / (double)nodes[0][0]);
        }
    }
}

static int count_puzzle(const game_state *s, const puzzle_problem *p, void *ctx)
{
    (void)s; (void)p;
    ++*(int *)ctx;
    return 0;
}

/* Composing: 100 Jungle mate-in-9 problems from the tables in
 * $PNSOLVE_TABLES (five pieces) or, without it, from three-piece tables built
 * here; 10 Ostle mate-in-7 problems from random games. */
static void bench_puzzles(void)
{
    char dir[64], err[512];
    const char *env = getenv("PNSOLVE_TABLES");
    int pieces = env ? 5 : 3;
    snprintf(dir, sizeof dir, "/tmp/pnsolve-bench-pz-%d", (int)getpid());
    game *g = game_open("jungle", NULL, err, sizeof err);
    if (!env) {
        tb_build_options o = { .threads = 2 };
        if (tb_build(g, dir, 3, &o, err, sizeof err) != 0) {
            printf("puzzles: tb build failed: %s\n", err);
            return;
        }
    }
    tb_set *tb = tb_open_lazy(g, env ? env : dir);
    pns_mate *m = pns_mate_new(g, tb, 64 << 20);
    int found = 0;
    puzzle_search q = { .n = 9, .side = -1, .pieces = pieces, .material = -1, .count = 100, .seed = 1,
                            .found = count_puzzle, .ctx = &found };
    double t0 = util_clock();
    int64_t looked = puzzle_find(m, tb, &q, err, sizeof err);
    double t = util_clock() - t0;
    printf("puzzles jungle mate-in-9, %d pieces (%s): %d sound in %.2f s, %lld positions looked at\n", pieces,
           env ? env : "scratch tables", found, t, (long long)looked);
    pns_mate_free(m);
    tb_close(tb);
    game_close(g);
    if (!env) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "bench: could not remove %s\n", dir);
    }
    g = game_open("ostle", NULL, err, sizeof err);
    m = pns_mate_new(g, NULL, 64 << 20);
    found = 0;
    q = (puzzle_search){ .n = 7, .side = -1, .material = -1, .count = 10, .seed = 1, .playout_plies = 60,
                             .found = count_puzzle, .ctx = &found };
    t0 = util_clock();
    looked = puzzle_find(m, NULL, &q, err, sizeof err);
    t = util_clock() - t0;
    printf("puzzles ostle mate-in-7 (random games): %d sound in %.2f s, %lld positions looked at, %.2f M nodes/s\n", found,
           t, (long long)looked, (double)pns_mate_nodes(m) / t / 1e6);
    pns_mate_free(m);
    game_close(g);
}

/* With arguments, only the sections named (perft, ranking, tables, build,
 * dfpn, othello, ffo, puzzles, threads, or threads-jungle and threads-othello
 * for its parts); without, all but threads (about 25 minutes: `make bench
 * BENCH=threads`, about 40). */
static int wanted(int argc, char **argv, const char *section)
{
    if (argc < 2)
        return strncmp(section, "threads", 7) != 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], section) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    /* first, while this process is small: a child's peak RSS counts the
     * pages it shares with it */
    if (wanted(argc, argv, "build"))
        bench_build_tables();
    if (wanted(argc, argv, "perft")) {
        bench_perft("othello:8x8", 9);
        bench_perft("jungle", 6);
        bench_perft("ostle", 6);
        bench_perft("othello:6x6", 10);
    }
    if (wanted(argc, argv, "ranking"))
        bench_ranking();
    if (wanted(argc, argv, "tables"))
        bench_tablebase();
    if (wanted(argc, argv, "dfpn"))
        bench_dfpn();
    if (wanted(argc, argv, "othello"))
        bench_othello();
    if (wanted(argc, argv, "ffo"))
        bench_ffo();
    if (wanted(argc, argv, "puzzles"))
        bench_puzzles();
    int all_threads = wanted(argc, argv, "threads");
    if (all_threads || wanted(argc, argv, "threads-jungle") || wanted(argc, argv, "threads-othello"))
        bench_threads(all_threads || wanted(argc, argv, "threads-jungle"), all_threads || wanted(argc, argv, "threads-othello"));
    return 0;
}
