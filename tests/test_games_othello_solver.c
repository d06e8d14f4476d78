/* tests/test_games_othello_solver.c - Othello's endgame solver against the naive
 * negamax: windows, threads, shared tables, its watch. */
#include "suites.h"
#include "../games/othello/othello_eval.h"
#include "ref.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void test_othello_order_noise(void)
{
    const char *sizes[] = { "othello:6x6", "othello:8x8" };
    unsigned long long seed = 99;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(sizes[i], NULL);
        uint64_t fitted_nodes = 0, noise_nodes = 0;
        for (int k = 0; k < 8; k++) {
            game_state s;
            test_random_position(g, &s, 14 + (int)(ref_rand(&seed) % 3), &seed);
            game_solver *fitted = game_solver_new(g, 4 << 20), *noisy = game_solver_new(g, 4 << 20);
            CU_ASSERT_PTR_NOT_NULL_FATAL(fitted);
            CU_ASSERT_PTR_NOT_NULL_FATAL(noisy);
            othello_solver_order(noisy, 7, 777 + (uint64_t)k);
            int a = game_solver_score(g, fitted, &s, -100, 100, &fitted_nodes);
            CU_ASSERT_EQUAL(game_solver_score(g, noisy, &s, -100, 100, &noise_nodes), a);
            game_solver_free(g, fitted);
            game_solver_free(g, noisy);
        }
        CU_ASSERT(noise_nodes > fitted_nodes);
        game_close(g);
    }
}

/* The solver's threads (YBWC: the moves after the first shared out among
 * idle threads, from 16 empties, or from 8 where the test says so, so that
 * helpers split again below splits): on positions of 16-18 empties of 6x6
 * and 8x8, a solver with 2 and with 3 threads gives the one-thread solver's
 * score in a full window and, in null and narrow windows, a bound on the
 * right side of it (fail-soft), with cutoffs stopping the others. */
static void test_othello_solver_threads(void)
{
    const char *sizes[] = { "othello:6x6", "othello:8x8" };
    unsigned long long seed = 5;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(sizes[i], NULL);
        game_solver *one = game_solver_new(g, 4 << 20), *two = game_solver_new(g, 4 << 20),
                    *three = game_solver_new(g, 4 << 20);
        CU_ASSERT_PTR_NOT_NULL_FATAL(one);
        CU_ASSERT_PTR_NOT_NULL_FATAL(two);
        CU_ASSERT_PTR_NOT_NULL_FATAL(three);
        CU_ASSERT_EQUAL(game_solver_threads(g, two, 2), 0);
        CU_ASSERT_EQUAL(game_solver_threads(g, three, 3), 0);
        /* splits everywhere, helpers' nodes splitting again; moves in a
         * random order, so that later moves cut off and stop the others */
        othello_solver_split_min(three, 8);
        othello_solver_order(three, 7, 99);
        for (int k = 0; k < 6; k++) {
            game_state s;
            test_random_position(g, &s, 16 + (int)(ref_rand(&seed) % 3), &seed);
            uint64_t nodes = 0;
            int want = game_solver_score(g, one, &s, -1000, 1000, &nodes);
            for (int w = 0; w < 6; w++) {
                game_solver *x = w % 2 ? three : two;
                int a = want - 6 + (int)(ref_rand(&seed) % 13), b = a + 1 + (int)(ref_rand(&seed) % 2);
                int v = game_solver_score(g, x, &s, a, b, &nodes);
                test_assert_fail_soft(v, a, b, want);
            }
            CU_ASSERT_EQUAL(game_solver_score(g, two, &s, -1000, 1000, &nodes), want);
            CU_ASSERT_EQUAL(game_solver_score(g, three, &s, -1000, 1000, &nodes), want);
        }
        game_solver_free(g, one);
        game_solver_free(g, two);
        game_solver_free(g, three);
        game_close(g);
    }
}

/* Solvers on one table (game_solver_share, as df-pn's threads use them):
 * what one stored, the other reads (a position one solved costs the other
 * fewer nodes than a fresh solver), two searching at once on their own
 * threads give the scores of a lone solver, and the owner outlives the
 * sharer it lent its table to. */
typedef struct {
    const game *g;
    game_solver *x;
    game_state s[4];
    int v[4];
} share_job;

static void *share_run(void *arg)
{
    share_job *j = arg;
    uint64_t nodes = 0;
    for (int k = 0; k < 4; k++)
        j->v[k] = game_solver_score(j->g, j->x, &j->s[k], -1000, 1000, &nodes);
    return NULL;
}

static void test_othello_solver_share(void)
{
    game *g = test_open("othello:6x6", NULL);
    unsigned long long seed = 17;
    game_solver *owner = game_solver_new(g, 4 << 20);
    CU_ASSERT_PTR_NOT_NULL_FATAL(owner);
    game_solver *sharer = game_solver_share(g, owner);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sharer);
    share_job j[2] = { { .g = g, .x = owner }, { .g = g, .x = sharer } };
    for (int k = 0; k < 4; k++)
        test_random_position(g, &j[0].s[k], 15 + (int)(ref_rand(&seed) % 2), &seed);
    for (int k = 0; k < 4; k++)
        j[1].s[k] = j[0].s[3 - k];  /* the same positions, the other way round: both meet at once */
    pthread_t t;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, share_run, &j[1]), 0);
    share_run(&j[0]);
    pthread_join(t, NULL);
    for (int k = 0; k < 4; k++) {
        game_solver *fresh = game_solver_new(g, 4 << 20);
        uint64_t nodes = 0;
        int want = game_solver_score(g, fresh, &j[0].s[k], -1000, 1000, &nodes);
        CU_ASSERT_EQUAL(j[0].v[k], want);
        CU_ASSERT_EQUAL(j[1].v[3 - k], want);
        game_solver_free(g, fresh);
    }
    /* positions only the owner solved: the sharer reads them */
    for (int k = 0; k < 3; k++) {
        game_state s;
        test_random_position(g, &s, 15, &seed);
        game_solver *fresh = game_solver_new(g, 4 << 20);
        uint64_t owner_nodes = 0, fresh_nodes = 0, shared_nodes = 0;
        int want = game_solver_score(g, fresh, &s, -1000, 1000, &fresh_nodes);
        CU_ASSERT_EQUAL(game_solver_score(g, owner, &s, -1000, 1000, &owner_nodes), want);
        CU_ASSERT_EQUAL(game_solver_score(g, sharer, &s, -1000, 1000, &shared_nodes), want);
        CU_ASSERT(shared_nodes * 10 < fresh_nodes);
        game_solver_free(g, fresh);
    }
    game_solver_free(g, sharer);
    game_state s;
    test_random_position(g, &s, 12, &seed);
    game_solver *fresh = game_solver_new(g, 4 << 20);
    uint64_t nodes = 0;
    CU_ASSERT_EQUAL(game_solver_score(g, owner, &s, -1000, 1000, &nodes), game_solver_score(g, fresh, &s, -1000, 1000, &nodes));
    game_solver_free(g, fresh);
    game_solver_free(g, owner);
    game_close(g);
}

/* A watch that says stop from its stop_at-th question on (the solver's
 * threads ask it concurrently). */
typedef struct {
    int asked, stop_at;
} watch_count;

static int watch_stop(void *ctx)
{
    watch_count *w = ctx;
    return __atomic_add_fetch(&w->asked, 1, __ATOMIC_RELAXED) >= w->stop_at;
}

/* The solver's watch (Ctrl-C and --time in long solves): a solve the watch
 * stops answers GAME_SOLVER_STOPPED, and keeps nothing half-searched in its
 * table: afterwards, unwatched, the same solver (one thread, and two that
 * split everywhere) still gives every position's score and fail-soft bounds,
 * as a solver that was never stopped does.  Positions of 18-20 empties of
 * 6x6 and 8x8, stopped after 1 to 3 questions (4,096 nodes apart). */
static void test_othello_solver_watch(void)
{
    const char *sizes[] = { "othello:6x6", "othello:8x8" };
    unsigned long long seed = 31;
    int stopped = 0;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(sizes[i], NULL);
        game_solver *fresh = game_solver_new(g, 4 << 20), *one = game_solver_new(g, 4 << 20),
                    *two = game_solver_new(g, 4 << 20);
        CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
        CU_ASSERT_PTR_NOT_NULL_FATAL(one);
        CU_ASSERT_PTR_NOT_NULL_FATAL(two);
        CU_ASSERT_EQUAL(game_solver_threads(g, two, 2), 0);
        othello_solver_split_min(two, 8);
        for (int k = 0; k < 8; k++) {
            game_state s;
            test_random_position(g, &s, 18 + (int)(ref_rand(&seed) % 3), &seed);
            uint64_t nodes = 0;
            int want = game_solver_score(g, fresh, &s, -1000, 1000, &nodes);
            for (int j = 0; j < 2; j++) {
                game_solver *x = j ? two : one;
                for (int w = 0; w < 3; w++) {  /* stopped in a full window, then in null windows */
                    watch_count count = { 0, 1 + (k + w) % 3 };
                    game_solver_watch(g, x, watch_stop, &count);
                    int a = w == 0 ? -1000 : want - 4 + (int)(ref_rand(&seed) % 9), b = w == 0 ? 1000 : a + 1;
                    int v = game_solver_score(g, x, &s, a, b, &nodes);
                    if (v == GAME_SOLVER_STOPPED)
                        stopped++;
                    else
                        test_assert_fail_soft(v, a, b, want);
                }
                game_solver_watch(g, x, NULL, NULL);
                for (int w = 0; w < 3; w++) {
                    int a = want - 4 + (int)(ref_rand(&seed) % 9);
                    test_assert_fail_soft(game_solver_score(g, x, &s, a, a + 1, &nodes), a, a + 1, want);
                }
                CU_ASSERT_EQUAL(game_solver_score(g, x, &s, -1000, 1000, &nodes), want);
            }
        }
        game_solver_free(g, fresh);
        game_solver_free(g, one);
        game_solver_free(g, two);
        game_close(g);
    }
    CU_ASSERT(stopped >= 40);  /* of 96 solves: the watch did stop most */
}

/* Othello's exact endgame solver against the naive negamax on positions of
 * random games, full window and random windows (fail-soft: a value outside
 * the window bounds the score on its side), one solver for all positions so
 * that its table carries bounds from one question to the next. */
static void test_othello_solver(void)
{
    const char *sizes[] = { "othello:4x4", "othello:5x6", "othello:6x6", "othello:8x8" };
    unsigned long long seed = 77;
    for (int i = 0; i < 4; i++) {
        game *g = test_open(sizes[i], NULL);
        game_solver *x = game_solver_new(g, 1 << 20), *evaluated = game_solver_new(g, 1 << 20),
                    *noisy = game_solver_new(g, 1 << 20);
        CU_ASSERT_PTR_NOT_NULL_FATAL(x);
        CU_ASSERT_PTR_NOT_NULL_FATAL(evaluated);
        CU_ASSERT_PTR_NOT_NULL_FATAL(noisy);
        /* the evaluation's order at every depth the naive search reaches,
         * and noise in its place: neither may change a value */
        othello_solver_order(evaluated, 7, 0);
        othello_solver_order(noisy, 7, 12345 + (uint64_t)i);
        for (int k = 0; k < 60; k++) {
            game_state s;
            test_random_position(g, &s, 4 + (int)(ref_rand(&seed) % 8), &seed);  /* 4..11 empties: both orders, the table */
            char text[GAME_TEXT_MAX];
            game_format(g, &s, text, sizeof text);
            int want = ref_negamax(text, -1000, 1000);
            uint64_t nodes = 0;
            for (int w = 0; w < 6; w++) {  /* windows first: the table holds bounds only */
                int a = (int)(ref_rand(&seed) % 41) - 20, b = a + 1 + (int)(ref_rand(&seed) % 3);
                int v = game_solver_score(g, x, &s, a, b, &nodes);
                test_assert_fail_soft(v, a, b, want);
            }
            CU_ASSERT_EQUAL(game_solver_score(g, x, &s, -100, 100, &nodes), want);
            CU_ASSERT_EQUAL(game_solver_score(g, evaluated, &s, -100, 100, &nodes), want);
            CU_ASSERT_EQUAL(game_solver_score(g, noisy, &s, -100, 100, &nodes), want);
            CU_ASSERT(nodes > 0);
        }
        game_solver_free(g, x);
        game_solver_free(g, evaluated);
        game_solver_free(g, noisy);
        game_close(g);
    }
}

void suite_othello_solver(void)
{
    CU_pSuite s = CU_add_suite("othello solver", NULL, NULL);
    CU_add_test(s, "Othello's endgame solver against naive negamax, any window", test_othello_solver);
    CU_add_test(s, "Othello's solver: the evaluation orders, never decides (noise instead)", test_othello_order_noise);
    CU_add_test(s, "Othello's solver with threads: the scores and bounds of one thread", test_othello_solver_threads);
    CU_add_test(s, "Othello's solvers on one table: each reads what the other stored", test_othello_solver_share);
    CU_add_test(s, "Othello's solver stopped by its watch: nothing half-searched kept", test_othello_solver_watch);
}
