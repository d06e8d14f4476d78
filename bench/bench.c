/* bench/bench.c - `make bench`: the performance figures of the README.
 *
 * Single thread.  "bulk" perft counts the legal moves at the last ply (the
 * usual perft convention and what the README's 50M leaves/s target means);
 * "full" perft plays every leaf move too, which is the cost a search pays per
 * node.  Each figure repeats its run until a second has passed.
 */
#include "../games/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

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
        double t0 = now(), t;
        do {
            leaves = full ? perft_full(g, &s, depth) : game_perft(g, &s, depth, NULL);
            total += leaves;
            runs++;
            t = now() - t0;
        } while (t < 1.0);
        printf("perft %-12s depth %2d %-4s %12llu leaves  %6.1f M leaves/s  (%d runs, %.2f s)\n", spec, depth,
               full ? "full" : "bulk", (unsigned long long)leaves, (double)total / t / 1e6, runs, t);
        fflush(stdout);
    }
    game_close(g);
}

int main(void)
{
    bench_perft("othello:8x8", 9);
    bench_perft("jungle", 6);
    bench_perft("ostle", 6);
    bench_perft("othello:6x6", 10);
    return 0;
}
