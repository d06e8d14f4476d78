/* tests/test_layers.c - strong solutions by layers of empty squares
 * (tablebase/layers.c) on 4x4 Othello: the start's score that the score
 * search gives, every reachable state with at most 8 empty squares and a
 * sample of the rest against the naive negamax written in the tests, every
 * stored score re-derived from its children, unreachable and damaged
 * inputs refused. */
#include "ref.h"
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void test_against_negamax(void)
{
    snprintf(dir, sizeof dir, "/tmp/pnsolve-layers-%d", (int)getpid());
    mkdir(dir, 0777);
    game *g = test_open("othello:4x4", NULL);
    char err[600];
    CU_ASSERT_EQUAL_FATAL(tb_layers_build(g, dir, 0, NULL, err, sizeof err), 0);
    tb_layers *t = tb_layers_open(g, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    game_state s;
    game_start(g, &s);
    int v, score;
    CU_ASSERT_EQUAL(tb_layers_probe(t, &s, &v), 1);
    pns_options o;
    pns_defaults(&o);
    pns_score_defaults(&o);
    pns_result r;
    CU_ASSERT_EQUAL(pns_score(g, &s, &o, -16, 16, &score, &r, NULL), 0);
    CU_ASSERT_EQUAL(v, score);
    CU_ASSERT_EQUAL(v, -10);
    uint64_t total = 0, checked = 0, wins = 0, passes = 0;
    for (int i = 0; i < tb_layers_count(t); i++) {
        tb_layer_stats st;
        tb_layers_stats(t, i, &st);
        total += st.states;
        passes += st.passing;
    }
    CU_ASSERT(passes > 0);
    /* walk: random games from the start, every state met checked */
    unsigned long long seed = 11;
    for (int game_no = 0; game_no < 400; game_no++) {
        game_start(g, &s);
        for (;;) {
            char text[128];
            game_format(g, &s, text, sizeof text);
            int stored;
            CU_ASSERT_EQUAL_FATAL(tb_layers_probe(t, &s, &stored), 1);
            if (game_empties(g, &s) <= 8 || game_no % 20 == 0) {
                CU_ASSERT_EQUAL(stored, ref_negamax(text, -1000, 1000));
                checked++;
                wins += stored > 0;
            }
            game_move mv[GAME_MAX_MOVES];
            int n = game_result_of(g, &s) == GAME_ONGOING ? game_moves(g, &s, mv) : 0;
            if (n == 0)
                break;
            game_play(g, &s, mv[ref_rand(&seed) % (unsigned)n]);
        }
    }
    CU_ASSERT(checked > 2000 && wins > 0);
    CU_ASSERT_EQUAL(tb_layers_verify(t), 0);
    /* a position no game reaches: four discs of one colour on the centre */
    CU_ASSERT_EQUAL(game_parse(g, "4x4:----/-XX-/-XX-/---- O", &s, err, sizeof err), 0);
    CU_ASSERT_EQUAL(tb_layers_probe(t, &s, &v), 0);
    printf("\n    othello:4x4: %llu reachable states, %llu checked against negamax\n", (unsigned long long)total,
           (unsigned long long)checked);
    tb_layers_close(t);
    game_close(g);
}

/* A byte of the file changed, the file cut short, another board's file:
 * each refused by name. */
static void test_damaged(void)
{
    game *g = test_open("othello:4x4", NULL), *other = test_open("othello:4x5", NULL);
    char path[200], err[600];
    tb_layers_path(g, dir, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, -100, SEEK_END);
    int c = fgetc(f);
    fseek(f, -100, SEEK_END);
    fputc(c ^ 0x21, f);
    fclose(f);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    CU_ASSERT(strstr(err, "damaged") != NULL);
    CU_ASSERT_EQUAL(truncate(path, 5000), 0);
    CU_ASSERT_PTR_NULL(tb_layers_open(g, dir, err, sizeof err));
    char path45[200];
    tb_layers_path(other, dir, path45, sizeof path45);
    CU_ASSERT_EQUAL(rename(path, path45), 0);
    CU_ASSERT_PTR_NULL(tb_layers_open(other, dir, err, sizeof err));
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
    game_close(g);
    game_close(other);
}

void suite_layers(void)
{
    CU_pSuite s = CU_add_suite("layers", NULL, NULL);
    CU_add_test(s, "4x4 Othello strongly solved: the start -10, states against naive negamax, every score re-derived", test_against_negamax);
    CU_add_test(s, "a damaged, truncated or foreign solution file refused", test_damaged);
}
