/* tests/test_api.c - the public API (api/pnsolve.h) as a user calls it:
 * scores of random Othello positions against the naive negamax written in
 * the tests, tic-tac-toe's draw, table probes against tb_probe, a proof
 * checked sound and a forged one refused, a cancelled search, and bad
 * games, positions and files refused with a reason. */
#include "ref.h"
#include "suites.h"
#include "../api/pnsolve.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_scores_against_negamax(void)
{
    char err[600];
    pnsolve_game *h = pnsolve_game_open("othello:4x4", NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    game *g = test_open("othello:4x4", NULL);
    int checked = 0;
    unsigned long long seed = 7;
    for (int k = 0; k < 12; k++) {
        game_state s;
        test_random_position(g, &s, 9 + k % 3, &seed);
        char text[256];
        game_format(g, &s, text, sizeof text);
        pnsolve_options o;
        pnsolve_options_default(&o);
        o.question = PNSOLVE_QUESTION_SCORE;
        o.memory_mb = 32;
        pnsolve_result r;
        CU_ASSERT_EQUAL_FATAL(pnsolve_prove(h, text, &o, &r, err, sizeof err), PNSOLVE_OK);
        CU_ASSERT_EQUAL(r.answer, PNSOLVE_PROVEN);
        CU_ASSERT_EQUAL(r.value, ref_negamax(text, -1000, 1000));
        /* the win question agrees with the score's sign */
        o.question = PNSOLVE_QUESTION_WIN;
        CU_ASSERT_EQUAL_FATAL(pnsolve_prove(h, text, &o, &r, err, sizeof err), PNSOLVE_OK);
        CU_ASSERT_EQUAL(r.answer, ref_negamax(text, -1000, 1000) > 0 ? PNSOLVE_PROVEN : PNSOLVE_DISPROVEN);
        checked++;
    }
    CU_ASSERT_EQUAL(checked, 12);
    game_close(g);
    pnsolve_game_close(h);
}

/* Tic-tac-toe is a draw, its line legal move by move; a search cancelled
 * before it starts stays open and says so. */
static void test_value_and_cancel(void)
{
    char err[600], start[64];
    pnsolve_game *h = pnsolve_game_open("tictactoe", NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_EQUAL(pnsolve_game_start(h, start, sizeof start), PNSOLVE_OK);
    pnsolve_options o;
    pnsolve_options_default(&o);
    o.question = PNSOLVE_QUESTION_VALUE;
    pnsolve_result r;
    CU_ASSERT_EQUAL_FATAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_EQUAL(r.answer, PNSOLVE_PROVEN);
    CU_ASSERT_EQUAL(r.value, 0);
    CU_ASSERT(r.line_len >= 1 && r.nodes > 0);
    game *g = test_open("tictactoe", NULL);
    game_state s = test_parse(g, start);
    char *save = NULL, *line = strdup(r.line);
    int played = 0;
    for (char *m = strtok_r(line, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        game_move mv;
        CU_ASSERT_EQUAL_FATAL(game_parse_move(g, &s, m, &mv, err, sizeof err), 0);
        game_play(g, &s, mv);
        played++;
    }
    CU_ASSERT_EQUAL(played, r.line_len);
    free(line);
    game_close(g);
    volatile int cancel = 1;
    o.question = PNSOLVE_QUESTION_WIN;
    o.cancel = &cancel;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_EQUAL(r.answer, PNSOLVE_OPEN);
    CU_ASSERT_STRING_EQUAL(r.stopped_by ? r.stopped_by : "", "interrupt");
    pnsolve_game_close(h);
}

/* Probes of every two-piece position of one material against tb_probe,
 * and a proof written through the API checked, then forged. */
static void test_tables_and_proofs(void)
{
    char dir[64], err[600], summary[600], path[96];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-api-%d", (int)getpid());
    game *g = test_open("jungle", NULL);
    tb_build_options bo = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 2, &bo, err, sizeof err), 0);
    pnsolve_game *h = pnsolve_game_open("jungle", NULL, err, sizeof err);
    pnsolve_tables *t = pnsolve_tables_open(h, dir, err, sizeof err);
    tb_set *ref = tb_open_lazy(g, dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int compared = 0, wins = 0;
    for (int a = 0; a < 49; a++)
        for (int b = 0; b < 49; b++) {
            char text[80], board[64] = "";
            if (a == b || a == 3 || b == 45 || a == 45 || b == 3)
                continue;
            /* rat of each side on squares a and b, White to move */
            char cells[49];
            memset(cells, 0, sizeof cells);
            cells[a] = 'R', cells[b] = 'r';
            size_t at = 0;
            for (int row = 6; row >= 0; row--) {
                int empty = 0;
                for (int col = 0; col < 7; col++) {
                    char c = cells[row * 7 + col];
                    if (!c) { empty++; continue; }
                    if (empty) board[at++] = (char)('0' + empty), empty = 0;
                    board[at++] = c;
                }
                if (empty) board[at++] = (char)('0' + empty);
                if (row) board[at++] = '/';
            }
            board[at] = 0;
            snprintf(text, sizeof text, "%s w", board);
            game_state s;
            if (game_parse(g, text, &s, err, sizeof err) != 0 || game_result_of(g, &s) != GAME_ONGOING)
                continue;
            tb_value v;
            int wdl, distance;
            CU_ASSERT_EQUAL_FATAL(tb_probe(ref, &s, &v, err, sizeof err), 1);
            CU_ASSERT_EQUAL_FATAL(pnsolve_tables_probe(t, text, &wdl, &distance, err, sizeof err), PNSOLVE_OK);
            CU_ASSERT_EQUAL(wdl, v.wdl == TB_WIN ? 1 : v.wdl == TB_LOSS ? -1 : 0);
            CU_ASSERT_EQUAL(distance, v.distance);
            wins += wdl > 0;
            compared++;
        }
    CU_ASSERT(compared > 1000 && wins > 0);
    int wdl, distance;
    CU_ASSERT_EQUAL(pnsolve_tables_probe(t, "7/7/7/3E3/7/3r3/R6 w", &wdl, &distance, err, sizeof err), PNSOLVE_ETABLE);
    CU_ASSERT_EQUAL(pnsolve_tables_probe(t, "7/7/7/7/7/3r3/R6", &wdl, &distance, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT(strlen(err) > 0);
    /* a proof through the API: sound; its last line turned: not */
    snprintf(path, sizeof path, "%s/win.proof", dir);
    pnsolve_options o;
    pnsolve_options_default(&o);
    o.proof_path = path;
    o.tb_dir = NULL;
    pnsolve_result r;
    CU_ASSERT_EQUAL_FATAL(pnsolve_prove(h, "7/3t3/7/7/7/3E3/7 w", &o, &r, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_EQUAL(r.answer, PNSOLVE_PROVEN);
    int sound = 0;
    CU_ASSERT_EQUAL(pnsolve_proof_check(path, NULL, &sound, summary, sizeof summary, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_EQUAL(sound, 1);
    CU_ASSERT(strstr(summary, "proven") != NULL);
    FILE *f = fopen(path, "a");
    fputs("0 - node\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(pnsolve_proof_check(path, NULL, &sound, summary, sizeof summary, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_EQUAL(sound, 0);
    CU_ASSERT(strlen(err) > 0);
    CU_ASSERT_EQUAL(pnsolve_proof_check(dir, NULL, &sound, summary, sizeof summary, err, sizeof err), PNSOLVE_EIO);
    tb_close(ref);
    pnsolve_tables_close(t);
    pnsolve_game_close(h);
    game_close(g);
    CU_ASSERT_EQUAL(test_remove_dir(dir), 0);
}

static void test_bad_input(void)
{
    char err[600] = "";
    CU_ASSERT_PTR_NULL(pnsolve_game_open("chess", NULL, err, sizeof err));
    CU_ASSERT(strstr(err, "chess") != NULL);
    pnsolve_game *h = pnsolve_game_open("othello:4x4", NULL, err, sizeof err);
    char buf[128];
    CU_ASSERT_EQUAL(pnsolve_position_check(h, "4x4:----/-OX-/-XO-/---- Q", buf, sizeof buf, err, sizeof err),
                    PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_position_check(h, NULL, buf, sizeof buf, err, sizeof err), PNSOLVE_OK);
    CU_ASSERT_STRING_EQUAL(buf, "4x4:----/-OX-/-XO-/---- X");
    pnsolve_options o;
    pnsolve_options_default(&o);
    o.question = PNSOLVE_QUESTION_VALUE;
    o.proof_path = "/tmp/never";
    pnsolve_result r;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    pnsolve_game_close(h);
    h = pnsolve_game_open("jungle", NULL, err, sizeof err);
    o.question = PNSOLVE_QUESTION_SCORE;
    o.proof_path = NULL;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT(strstr(err, "no scores") != NULL);
    pnsolve_game_close(h);
    CU_ASSERT_STRING_EQUAL(pnsolve_version(), PNSOLVE_VERSION);
}

static void *cancel_soon(void *arg)
{
    usleep(50000);
    __atomic_store_n((volatile int *)arg, 1, __ATOMIC_RELAXED);  /* what the header asks of a caller */
    return NULL;
}

/* A search stopped by a cancel set from another thread (ThreadSanitizer:
 * make check-tsan): open, stopped by the interrupt, not by its time. */
static void test_cancel_from_thread(void)
{
    char err[600];
    pnsolve_game *h = pnsolve_game_open("jungle", NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    pnsolve_options o;
    pnsolve_options_default(&o);
    o.memory_mb = 32;
    o.max_seconds = 60;
    volatile int cancel = 0;
    o.cancel = &cancel;
    pthread_t t;
    CU_ASSERT_EQUAL_FATAL(pthread_create(&t, NULL, cancel_soon, (void *)&cancel), 0);
    pnsolve_result r;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_OK);
    pthread_join(t, NULL);
    CU_ASSERT_EQUAL(r.answer, PNSOLVE_OPEN);
    CU_ASSERT_STRING_EQUAL(r.stopped_by ? r.stopped_by : "", "interrupt");
    pnsolve_game_close(h);
}

/* What the header does not allow refused, not crashed on or taken for
 * something else: NULLs, a question out of range, a memory size whose
 * bytes wrap, a table directory that is not there. */
static void test_misuse(void)
{
    char err[600] = "", buf[128];
    int wdl, dist, sound;
    pnsolve_options o;
    pnsolve_result r;
    pnsolve_options_default(NULL);
    pnsolve_options_default(&o);
    pnsolve_game *h = pnsolve_game_open("tictactoe", NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_PTR_NULL(pnsolve_game_name(NULL));
    CU_ASSERT_EQUAL(pnsolve_game_start(NULL, buf, sizeof buf), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_game_start(h, NULL, 0), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_position_check(NULL, NULL, buf, sizeof buf, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_prove(NULL, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, NULL, &r, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, NULL, err, sizeof err), PNSOLVE_EINVAL);
    o.question = (pnsolve_question)7;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT(strstr(err, "question 7") != NULL);
    o.question = (pnsolve_question)-1;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    o.question = PNSOLVE_QUESTION_WIN;
    o.memory_mb = (size_t)1 << 44;  /* 2^64 bytes: wrapped, it was a table of 0 bytes */
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT(strstr(err, "memory_mb") != NULL);
    o.memory_mb = SIZE_MAX;
    CU_ASSERT_EQUAL(pnsolve_prove(h, NULL, &o, &r, err, sizeof err), PNSOLVE_EINVAL);
    pnsolve_game_close(h);
    h = pnsolve_game_open("jungle", NULL, err, sizeof err);
    CU_ASSERT_PTR_NULL(pnsolve_tables_open(NULL, "/tmp", err, sizeof err));
    CU_ASSERT_PTR_NULL(pnsolve_tables_open(h, NULL, err, sizeof err));
    CU_ASSERT_PTR_NULL(pnsolve_tables_open(h, "/nonexistent/pnsolve-tables", err, sizeof err));
    CU_ASSERT(strstr(err, "/nonexistent/pnsolve-tables") != NULL);
    CU_ASSERT_PTR_NULL(pnsolve_tables_open(h, "/etc/passwd", err, sizeof err));
    CU_ASSERT(strstr(err, "not a directory") != NULL);
    /* eager: an empty directory and a damaged table are named at open */
    char dir[64], path[200], cmd[300];
    snprintf(dir, sizeof dir, "/tmp/pnsolve-api-misuse-%d", (int)getpid());
    mkdir(dir, 0777);
    CU_ASSERT_PTR_NULL(pnsolve_tables_open(h, dir, err, sizeof err));
    CU_ASSERT(strstr(err, "no table of jungle") != NULL);
    game *g = test_open("jungle", NULL);
    tb_build_options bo = { .threads = 2 };
    CU_ASSERT_EQUAL_FATAL(tb_build(g, dir, 2, &bo, err, sizeof err), 0);
    pnsolve_tables *t = pnsolve_tables_open(h, dir, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL(t);
    game_state two;
    CU_ASSERT_EQUAL(game_parse(g, "7/7/7/7/7/3r3/R6 w", &two, err, sizeof err), 0);
    tb_path(g, dir, game_tables(g)->material_of(g, &two), path, sizeof path);
    snprintf(cmd, sizeof cmd, "truncate -s 300 %s", path);
    CU_ASSERT_EQUAL(system(cmd), 0);
    CU_ASSERT_PTR_NULL(pnsolve_tables_open(h, dir, err, sizeof err));
    CU_ASSERT(strstr(err, path) != NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
    game_close(g);
    CU_ASSERT_EQUAL(pnsolve_tables_probe(NULL, NULL, &wdl, &dist, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_tables_probe(t, "7/7/7/7/7/3r3/R6 w", NULL, &dist, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_tables_probe(t, "7/7/7/7/7/3r3/R6 w", &wdl, NULL, err, sizeof err), PNSOLVE_EINVAL);
    pnsolve_tables_close(t);
    pnsolve_game_close(h);
    CU_ASSERT_EQUAL(pnsolve_proof_check(NULL, NULL, &sound, NULL, 0, err, sizeof err), PNSOLVE_EINVAL);
    CU_ASSERT_EQUAL(pnsolve_proof_check("/tmp/x", NULL, NULL, NULL, 0, err, sizeof err), PNSOLVE_EINVAL);
}

void suite_api(void)
{
    CU_pSuite s = CU_add_suite("api", NULL, NULL);
    CU_add_test(s, "scores of random 4x4 Othello positions equal naive negamax's; the win question their sign", test_scores_against_negamax);
    CU_add_test(s, "tic-tac-toe a draw with a legal line; a cancelled search open", test_value_and_cancel);
    CU_add_test(s, "probes equal tb_probe's; a proof checked sound, a forged one refused", test_tables_and_proofs);
    CU_add_test(s, "bad games, positions, questions and files refused with a reason", test_bad_input);
    CU_add_test(s, "NULLs, a question out of range, a wrapping memory size, a missing table directory refused",
                test_misuse);
    CU_add_test(s, "a cancel set from another thread stops the search", test_cancel_from_thread);
}
