/* tests/test_api_moves.c - the API's moves (pnsolve.h 1.1): legal moves and
 * play against the rules' own functions on random walks of four games;
 * every move's value from the tables against each child probed alone;
 * Othello 4x4's scores through the API against the naive negamax; every
 * move settled by search where no table covers the position (4x4 and 5x5
 * Othello against negamax, Jungle against its tables), a cancelled search
 * leaving its moves open. */
#include "ref.h"
#include "suites.h"
#include "../api/pnsolve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* pnsolve_moves and pnsolve_play at every position of a few random games
 * of spec, against game_moves, game_format_move and game_play. */
static void walk_game(const char *spec, int games, unsigned long long seed)
{
    char err[600], buf[8192], text[GAME_TEXT_MAX], after[PNSOLVE_TEXT_MAX];
    pnsolve_game *h = pnsolve_game_open(spec, NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    game *g = test_open(spec, NULL);
    for (int k = 0; k < games; k++) {
        game_state s;
        game_start(g, &s);
        for (int ply = 0; ply < 200; ply++) {
            game_format(g, &s, text, sizeof text);
            int count = -1, over, result, score;
            CU_ASSERT_EQUAL_FATAL(pnsolve_moves(h, text, buf, sizeof buf, &count, err, sizeof err), PNSOLVE_OK);
            CU_ASSERT_EQUAL_FATAL(pnsolve_position_over(h, text, &over, &result, &score, err, sizeof err), PNSOLVE_OK);
            game_result r = game_result_of(g, &s);
            CU_ASSERT_EQUAL(over, r != GAME_ONGOING);
            if (r != GAME_ONGOING) {
                CU_ASSERT_EQUAL(count, 0);
                CU_ASSERT_EQUAL(result, game_outcome_for(r, game_to_move(g, &s)));
                CU_ASSERT_EQUAL(pnsolve_play(h, text, "a1", after, sizeof after, err, sizeof err), PNSOLVE_EINVAL);
                break;
            }
            game_move mv[GAME_MAX_MOVES];
            int n = game_moves(g, &s, mv);
            CU_ASSERT_EQUAL_FATAL(count, n);
            char *save = NULL, *tok = strtok_r(buf, " ", &save);
            for (int i = 0; i < n; i++, tok = strtok_r(NULL, " ", &save)) {
                char want[GAME_TEXT_MAX];
                game_format_move(g, &s, mv[i], want, sizeof want);
                CU_ASSERT_PTR_NOT_NULL_FATAL(tok);
                CU_ASSERT_STRING_EQUAL(tok, want);
                game_state c = s;
                game_play(g, &c, mv[i]);
                game_format(g, &c, want, sizeof want);
                CU_ASSERT_EQUAL_FATAL(pnsolve_play(h, text, tok, after, sizeof after, err, sizeof err), PNSOLVE_OK);
                CU_ASSERT_STRING_EQUAL(after, want);
            }
            CU_ASSERT_PTR_NULL(tok);
            CU_ASSERT_EQUAL(pnsolve_play(h, text, "zz99", after, sizeof after, err, sizeof err), PNSOLVE_EINVAL);
            CU_ASSERT(strstr(err, "zz99") != NULL);
            CU_ASSERT_EQUAL(pnsolve_moves(h, text, buf, 2, &count, err, sizeof err), PNSOLVE_ESPACE);
            game_play(g, &s, mv[ref_rand(&seed) % (unsigned)n]);
        }
    }
    game_close(g);
    pnsolve_game_close(h);
}

static void test_moves_and_play(void)
{
    walk_game("jungle", 3, 1);
    walk_game("ostle:4x4", 3, 2);
    walk_game("othello:4x4", 5, 3);
    walk_game("tictactoe", 10, 4);
    /* which games end in a score: Othello's disc difference, up to its squares */
    static const struct { const char *spec; int bound; } scored[] = {
        { "jungle", 0 }, { "ostle:4x4", 0 }, { "tictactoe", 0 }, { "othello:4x4", 16 }, { "othello:6x5", 30 },
    };
    char err[600];
    for (size_t i = 0; i < sizeof scored / sizeof scored[0]; i++) {
        pnsolve_game *h = pnsolve_game_open(scored[i].spec, NULL, err, sizeof err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(h);
        CU_ASSERT_EQUAL(pnsolve_game_score_bound(h), scored[i].bound);
        pnsolve_game_close(h);
    }
    CU_ASSERT_EQUAL(pnsolve_game_score_bound(NULL), 0);
}

/* The value the move into child c has for the side that made it, from c's
 * own probe (finished: its result). */
static void expected_value(const game *g, tb_set *ref, const game_state *s, const game_state *c, int *wdl, int *dist)
{
    game_result r = game_result_of(g, c);
    if (r != GAME_ONGOING) {
        *wdl = game_outcome_for(r, game_to_move(g, s));
        *dist = *wdl ? 1 : 0;
        return;
    }
    tb_value v;
    char err[600];
    CU_ASSERT_EQUAL_FATAL(tb_probe(ref, c, &v, err, sizeof err), 1);
    int w = v.wdl == TB_WIN ? 1 : v.wdl == TB_LOSS ? -1 : 0;
    *wdl = game_to_move(g, c) != game_to_move(g, s) ? -w : w;
    *dist = w ? v.distance + 1 : 0;
}

/* Every move's value of random three-piece Jungle positions against each
 * child probed alone, best first; search settling the same values where
 * the tables are not given. */
static void test_probe_moves_tables(void)
{
    char dir[64], err[600];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-api-moves-%d", (int)getpid());
    game *g = test_open("jungle", NULL);
    tb_build_options bo = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 3, &bo, err, sizeof err), 0);
    pnsolve_game *h = pnsolve_game_open("jungle", NULL, err, sizeof err);
    pnsolve_tables *t = pnsolve_tables_open(h, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    tb_set *ref = tb_open_lazy(g, dir);
    unsigned long long seed = 9;
    uint64_t rng = 9;
    int checked = 0, searched = 0;
    pnsolve_move_value mv[GAME_MAX_MOVES], sv[GAME_MAX_MOVES];
    for (int k = 0; k < 60; k++) {
        tb_set *any = ref;
        game_state s;
        int mat = (int)(ref_rand(&seed) % 3) == 0 ? game_tables(g)->material_parse(g, "Rr")
                                                  : game_tables(g)->material_parse(g, "RrD");
        CU_ASSERT_EQUAL_FATAL(tb_draw_position(any, g, mat, &rng, &s), 0);
        char text[GAME_TEXT_MAX];
        game_format(g, &s, text, sizeof text);
        int count;
        CU_ASSERT_EQUAL_FATAL(pnsolve_tables_probe_moves(t, text, mv, GAME_MAX_MOVES, &count, err, sizeof err),
                              PNSOLVE_OK);
        CU_ASSERT_EQUAL(count, game_count(g, &s));
        long last = -1;
        for (int i = 0; i < count; i++) {
            game_state c = test_parse(g, mv[i].position);
            int wdl, dist;
            expected_value(g, ref, &s, &c, &wdl, &dist);
            CU_ASSERT(mv[i].known);
            CU_ASSERT_EQUAL(mv[i].wdl, wdl);
            CU_ASSERT_EQUAL(mv[i].distance, dist);
            long rank = wdl > 0 ? dist : wdl == 0 ? 1000 : 2000 - dist;
            CU_ASSERT(rank >= last);  /* best first */
            last = rank;
            checked++;
        }
        /* the first move keeps the position's own value */
        int wdl, dist;
        CU_ASSERT_EQUAL_FATAL(pnsolve_tables_probe(t, text, &wdl, &dist, err, sizeof err), PNSOLVE_OK);
        CU_ASSERT_EQUAL(mv[0].wdl, wdl);
        CU_ASSERT_EQUAL(mv[0].distance, dist);
        if (k % 10 == 0) {  /* search, no tables: the same win, draw or loss for each move */
            pnsolve_options o;
            pnsolve_options_default(&o);
            o.memory_mb = 16;
            CU_ASSERT_EQUAL_FATAL(pnsolve_search_moves(h, text, &o, sv, GAME_MAX_MOVES, &count, err, sizeof err),
                                  PNSOLVE_OK);
            for (int i = 0; i < count; i++)
                for (int j = 0; j < count; j++)
                    if (strcmp(sv[i].move, mv[j].move) == 0 && sv[i].known) {
                        CU_ASSERT_EQUAL(sv[i].wdl, mv[j].wdl);
                        searched++;
                    }
        }
    }
    printf("\n    %d move values against their children, %d by search against the tables ", checked, searched);
    CU_ASSERT(checked > 200 && searched > 10);
    int score;
    CU_ASSERT_EQUAL(pnsolve_tables_score(t, "7/7/7/7/7/3r3/R6 w", &score, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_tables_probe_moves(t, "7/7/7/7/7/3r3/R6 w", mv, 1, &score, err, sizeof err),
                    PNSOLVE_ESPACE);
    tb_close(ref);
    pnsolve_tables_close(t);
    pnsolve_game_close(h);
    game_close(g);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

/* Othello 4x4's strong solution through the API: the start's score and
 * every move's against negamax; pnsolve_search_moves settles the same
 * scores without tables, on 4x4 and on 5x5 positions of ten empties. */
static void test_scores_and_search(void)
{
    char dir[64], err[600], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-api-scores-%d", (int)getpid());
    game *g = test_open("othello:4x4", NULL);
    mkdir(dir, 0777);
    CU_ASSERT_EQUAL_FATAL(tb_layers_build(g, dir, &(tb_sweep_options){ .memory = 1 << 26 }, 0, err, sizeof err), 0);
    pnsolve_game *h = pnsolve_game_open("othello:4x4", NULL, err, sizeof err);
    pnsolve_tables *t = pnsolve_tables_open(h, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char start[PNSOLVE_TEXT_MAX];
    CU_ASSERT_EQUAL(pnsolve_game_start(h, start, sizeof start), PNSOLVE_OK);
    int score, count, scount;
    CU_ASSERT_EQUAL_FATAL(pnsolve_tables_score(t, start, &score, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_EQUAL(score, ref_negamax(start, -1000, 1000));
    pnsolve_move_value mv[GAME_MAX_MOVES], sv[GAME_MAX_MOVES];
    unsigned long long seed = 21;
    int positions = 0;
    for (int k = 0; k < 6; k++) {
        game_state s;
        test_random_position(g, &s, 8 + k, &seed);
        char text[GAME_TEXT_MAX];
        game_format(g, &s, text, sizeof text);
        if (pnsolve_tables_probe_moves(t, text, mv, GAME_MAX_MOVES, &count, err, sizeof err) != PNSOLVE_OK)
            continue;  /* not reachable from the start */
        CU_ASSERT_EQUAL_FATAL(pnsolve_search_moves(h, text, NULL, sv, GAME_MAX_MOVES, &scount, err, sizeof err),
                              PNSOLVE_OK);
        CU_ASSERT_EQUAL_FATAL(scount, count);
        positions += count > 0;
        for (int i = 0; i < count; i++) {
            int want = -ref_negamax(mv[i].position, -1000, 1000);  /* every Othello move passes the turn */
            CU_ASSERT(mv[i].known && mv[i].has_score && sv[i].known && sv[i].has_score);
            CU_ASSERT_EQUAL(mv[i].score, want);
            CU_ASSERT_EQUAL(sv[i].score, -ref_negamax(sv[i].position, -1000, 1000));
            CU_ASSERT_EQUAL(sv[i].score, mv[i].score);  /* the same order: scores best first */
            CU_ASSERT(sv[i].distance == -1 || sv[i].distance == 1);  /* search: no distance, but a last move's */
        }
    }
    CU_ASSERT(positions >= 4);
    pnsolve_tables_close(t);
    pnsolve_game_close(h);
    game_close(g);
    /* 5x5, no tables: each move's score by search against negamax */
    h = pnsolve_game_open("othello:5x5", NULL, err, sizeof err);
    g = test_open("othello:5x5", NULL);
    int settled = 0;
    for (int k = 0; k < 3; k++) {
        game_state s;
        test_random_position(g, &s, 10, &seed);
        char text[GAME_TEXT_MAX];
        game_format(g, &s, text, sizeof text);
        CU_ASSERT_EQUAL_FATAL(pnsolve_search_moves(h, text, NULL, sv, GAME_MAX_MOVES, &scount, err, sizeof err),
                              PNSOLVE_OK);
        for (int i = 0; i < scount; i++) {
            CU_ASSERT(sv[i].known);
            CU_ASSERT_EQUAL(sv[i].score, -ref_negamax(sv[i].position, -1000, 1000));
            settled += sv[i].known;
        }
    }
    CU_ASSERT(settled > 3);
    /* a cancelled search leaves every move open, never guessed */
    volatile int cancel = 1;
    pnsolve_options o;
    pnsolve_options_default(&o);
    o.cancel = &cancel;
    CU_ASSERT_EQUAL(pnsolve_search_moves(h, NULL, &o, sv, GAME_MAX_MOVES, &scount, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT(scount > 0);
    for (int i = 0; i < scount; i++)
        CU_ASSERT_EQUAL(sv[i].known, 0);
    game_close(g);
    pnsolve_game_close(h);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

void suite_api_moves(void)
{
    CU_pSuite s = CU_add_suite("api_moves", NULL, NULL);
    CU_add_test(s, "moves and play against the rules' own on random games of four games; a full buffer refused",
                test_moves_and_play);
    CU_add_test(s, "every move's value from the tables against each child probed alone, best first; search agrees",
                test_probe_moves_tables);
    CU_add_test(s, "Othello 4x4's scores through the API and by search, and 5x5 by search, against negamax",
                test_scores_and_search);
}
