/* tests/test_pns_score.c - the score search on Othello against the naive negamax. */
#include "suites.h"
#include "../pns/dfpn.h"  /* the searcher inside, tested directly */
#include "ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static void test_othello_scores(void)
{
    const char *sizes[] = { "othello:4x4", "othello:4x5" };
    const char *starts[] = { "4x4:----/-OX-/-XO-/---- X", "4x5:----/-OX-/-XO-/----/---- X" };
    for (int i = 0; i < 2; i++) {
        game *g = test_open(sizes[i], NULL);
        game_state s;
        game_start(g, &s);
        char text[GAME_TEXT_MAX];
        game_format(g, &s, text, sizeof text);
        CU_ASSERT_STRING_EQUAL(text, starts[i]);
        pns_options o;
        pns_defaults(&o);
        o.memory = 16 << 20;
        pns_result r;
        int score = 99, with_endgame = -99;
        CU_ASSERT_EQUAL(pns_score(g, &s, &o, -g->width * g->height, g->width * g->height, &score, &r), 0);
        if (i == 0) {
            CU_ASSERT_EQUAL(score, ref_negamax(starts[i], -1000, 1000));
        }
        /* the exact endgame search below 7 empties changes nothing */
        o.exact_empties = 7;
        CU_ASSERT_EQUAL(pns_score(g, &s, &o, -g->width * g->height, g->width * g->height, &with_endgame, &r), 0);
        CU_ASSERT_EQUAL(with_endgame, score);
        /* both bounds' proofs from the search's own table verify */
        o.proof_exact_empties = 6;
        FILE *proof = tmpfile();
        CU_ASSERT_PTR_NOT_NULL_FATAL(proof);
        CU_ASSERT_EQUAL(pwrite_score(g, &s, &o, -g->width * g->height, g->width * g->height, &with_endgame, &r, proof), 0);
        CU_ASSERT_EQUAL(with_endgame, score);
        rewind(proof);
        char summary[2048], err[512];
        CU_ASSERT_EQUAL(proof_verify(proof, NULL, summary, sizeof summary, err, sizeof err), 0);
        char want[64];
        snprintf(want, sizeof want, "at least %d ahead?' proven", score);
        CU_ASSERT_PTR_NOT_NULL(strstr(summary, want));
        snprintf(want, sizeof want, "at least %d ahead?' disproven", score + 2);  /* even boards: even scores */
        CU_ASSERT_PTR_NOT_NULL(strstr(summary, want));
        fclose(proof);
        o.proof_exact_empties = 0;
        o.exact_empties = 0;
        CU_ASSERT_EQUAL(pns_score(g, &s, &o, -g->width * g->height, g->width * g->height, &score, &r), 0);
        /* the line is a principal one: it ends the game at exactly the
         * score, and (4x4) every position on it has the score for the
         * root's mover by the naive negamax */
        game_state t = s;
        int wrong = 0;
        for (int k = 0; k <= r.pv_len; k++) {
            if (i == 0) {
                game_format(g, &t, text, sizeof text);
                int v = ref_negamax(text, -1000, 1000);
                wrong += (game_to_move(g, &t) == game_to_move(g, &s) ? v : -v) != score;
            }
            if (k < r.pv_len)
                game_play(g, &t, r.pv[k]);
        }
        CU_ASSERT_EQUAL(wrong, 0);
        CU_ASSERT_NOT_EQUAL(game_result_of(g, &t), GAME_ONGOING);
        CU_ASSERT_EQUAL(game_score(g, &t), score);
        game_close(g);
    }
}

/* As random_position, with the naive negamax's score for the side to move
 * in *want; 0 (no score) when the game ended first. */
static int random_open_position(const game *g, game_state *s, int empties, unsigned long long *seed, int *want)
{
    test_random_position(g, s, empties, seed);
    if (game_result_of(g, s) != GAME_ONGOING)
        return 0;
    char text[GAME_TEXT_MAX];
    game_format(g, s, text, sizeof text);
    *want = ref_negamax(text, -1000, 1000);
    return 1;
}

/* The checker's own search of 'exact' leaves (its move order by replies
 * from 7 empties) against the naive negamax: on random positions of 4-11
 * empties of four board shapes, "at least target?" for both players at the
 * score and one possible score either side of it. */

static void test_othello_score_reuse(void)
{
    const char *sizes[] = { "othello:4x5", "othello:5x5", "othello:4x6" };
    unsigned long long seed = 20261127;
    int asked = 0, proofs = 0;
    for (int i = 0; i < 3; i++) {
        game *g = test_open(sizes[i], NULL);
        int area = g->width * g->height;
        for (int k = 0; k < 60; k++) {
            game_state s;
            int want, score = 99;
            if (!random_open_position(g, &s, 8 + (int)(ref_rand(&seed) % 4), &seed, &want))
                continue;
            pns_options o;
            pns_defaults(&o);
            o.memory = 16 << 20;
            o.exact_empties = 4;
            o.proof_exact_empties = 3;
            o.init = (pns_init)(k % 3);  /* the estimate's numbers order the search, never decide it */
            pns_result r;
            FILE *proof = k % 4 == 0 ? tmpfile() : NULL;
            CU_ASSERT_EQUAL(pwrite_score(g, &s, &o, -area, area, &score, &r, proof), 0);
            CU_ASSERT_EQUAL(score, want);
            asked++;
            if (proof) {
                char summary[2048], err[512];
                rewind(proof);
                CU_ASSERT_EQUAL(proof_verify(proof, NULL, summary, sizeof summary, err, sizeof err), 0);
                proofs++;
                fclose(proof);
            }
        }
        game_close(g);
    }
    CU_ASSERT(asked >= 150);
    CU_ASSERT(proofs >= 40);
}

/* A lone "at least K?" (prove --question score:K) reads back what it
 * solved: on random positions of 8-11 empties, for K at, below and above
 * the naive negamax's score, the root's own entry afterwards answers K with
 * the right value.  (Entries were read against a target of 0, so a proof of
 * a target below 0 was invisible to the search and its proof writer, and
 * each question solved its positions again: 6x6 questions 200x slower.) */
static void test_othello_lone_question(void)
{
    const char *sizes[] = { "othello:4x5", "othello:5x5" };
    unsigned long long seed = 20261128;
    int asked = 0;
    for (int i = 0; i < 2; i++) {
        game *g = test_open(sizes[i], NULL);
        for (int k = 0; k < 30; k++) {
            game_state s;
            int want;
            if (!random_open_position(g, &s, 8 + (int)(ref_rand(&seed) % 4), &seed, &want))
                continue;
            for (int d = -2; d <= 2; d += 2) {
                pns_options o;
                pns_defaults(&o);
                pns_score_defaults(&o);
                o.memory = 16 << 20;
                o.exact_empties = 4;
                o.question = PNS_SCORE;
                o.score_target = want + d;
                dfpn D;
                CU_ASSERT_EQUAL_FATAL(pns_dfpn_init(&D, g, &s, &o), 0);
                CU_ASSERT_EQUAL_FATAL(pns_dfpn_start(&D, &s), 0);
                child_t root;
                CU_ASSERT(pns_dfpn_run(&D, &s, &root));
                CU_ASSERT_EQUAL(root.pn == 0, want >= want + d);
                const tt_entry *e = pns_dfpn_lookup(&D, game_key_of(g, &s));
                CU_ASSERT(e && (e->pn == 0) == (want >= want + d) && (e->pn == 0 || e->dn == 0));
                pns_dfpn_free(&D);
                asked++;
            }
        }
        game_close(g);
    }
    CU_ASSERT(asked >= 150);
}

/* Deeper than the naive negamax goes (14-16 empties on 6x6 and 8x8, where
 * the evaluation orders the moves by default): the solver with its
 * evaluation and with noise in its place agree on every score, and the
 * noise costs nodes (the fitted weights order better than chance). */

void suite_score(void)
{
    CU_pSuite s = CU_add_suite("score", NULL, NULL);
    CU_add_test(s, "Othello scores by bisection against naive negamax", test_othello_scores);
    CU_add_test(s, "Othello scores: entries of one question answer the next, against naive negamax", test_othello_score_reuse);
    CU_add_test(s, "a lone score question reads back what it solved", test_othello_lone_question);
}
