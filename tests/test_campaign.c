/* tests/test_campaign.c - the proof-tree manager against naive search: the
 * scores of random Othello positions (ref_negamax) and tic-tac-toe values
 * (test_minimax), its joined proofs checked, questions split deeper,
 * a stopped campaign resumed with nothing asked twice, bad journals. */
#include "suites.h"
#include "ref.h"
#include "asker.h"
#include "../util/util.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs spec in dir with two worker threads; the state after. */
static int run(const char *dir, const campaign_spec *spec, test_asker *t, volatile int *stop, campaign_state *st)
{
    char err[4200];
    int usage;
    campaign *c = campaign_open(dir, spec, err, sizeof err, &usage);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    campaign_pool *p = campaign_pool_new(2, test_asker_answer, t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    campaign_workers w = campaign_pool_workers(p);
    int rc = campaign_run(c, &w, stop, NULL, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "\n    campaign: %s\n", err);
    if (stop)
        __atomic_store_n(stop, 1, __ATOMIC_RELAXED);  /* the questions still under way end */
    campaign_pool_free(p);
    CU_ASSERT_EQUAL(campaign_status(c, st, err, sizeof err), 0);
    campaign_close(c);
    return rc;
}

static int verify_file(const char *path)
{
    char err[512];
    FILE *f = util_open_input(path, 0, err, sizeof err);
    if (!f)
        return -1;
    int rc = proof_verify(f, NULL, NULL, 0, err, sizeof err);
    fclose(f);
    return rc;
}

static void spec_of(campaign_spec *s, const game *g, const char *spec, const game_state *root, campaign_kind kind, int k,
                    int depth)
{
    memset(s, 0, sizeof *s);
    snprintf(s->game, sizeof s->game, "%s", spec);
    game_format(g, root, s->position, sizeof s->position);
    s->kind = kind, s->k = k, s->depth = depth;
    snprintf(s->options, sizeof s->options, "--memory 16");
}

/* The exact score of a random position of board spec: the campaign's (both
 * bounds joined and checked) against ref_negamax; refuse_above forces splits. */
static void score_case(const char *spec, int empties, int depth, int refuse_above, unsigned long long *seed, long *deeper)
{
    game *g = test_open(spec, NULL);
    game_state s;
    test_random_position(g, &s, empties, seed);
    char text[GAME_TEXT_MAX], path[4300];
    game_format(g, &s, text, sizeof text);
    campaign_spec cs;
    spec_of(&cs, g, spec, &s, CAMPAIGN_SCORE, 0, depth);
    char *dir = test_asker_dir();
    test_asker t = { g, refuse_above, NULL, 0, 0 };
    campaign_state st;
    CU_ASSERT_EQUAL(run(dir, &cs, &t, NULL, &st), 0);
    CU_ASSERT(st.decided);
    CU_ASSERT_EQUAL(st.lower, ref_negamax(text, -1000, 1000));
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, i ? "upper.proof" : "lower.proof");
        CU_ASSERT_EQUAL(verify_file(path), 0);
    }
    *deeper += st.deeper;
    test_remove_dir(dir);
    free(dir);
    game_close(g);
}

static void test_scores(void)
{
    unsigned long long seed = 61;
    long deeper = 0;
    for (int i = 0; i < 6; i++)
        score_case(i % 2 ? "othello:4x5" : "othello:4x4", 9 + i % 3, 1 + i % 3, -1, &seed, &deeper);
    for (int i = 0; i < 4; i++)  /* no question above 7 empties is answered: the frontier goes deeper */
        score_case(i % 2 ? "othello:5x4" : "othello:4x4", 10, 0, 7, &seed, &deeper);
    CU_ASSERT(deeper > 0);
}

static void test_values(void)
{
    game *g = test_open("tictactoe", NULL);
    unsigned long long seed = 7;
    for (int i = 0; i < 12; i++) {
        game_state s;
        if (!test_random_state(g, &seed, 1 + i % 5, &s))
            continue;
        int v = test_minimax(g, &s);
        for (int kind = CAMPAIGN_WIN; kind <= CAMPAIGN_ADVANTAGE; kind++) {
            campaign_spec cs;
            spec_of(&cs, g, "tictactoe", &s, kind, kind == CAMPAIGN_WIN, 1 + i % 3);
            char *dir = test_asker_dir(), path[4300];
            test_asker t = { g, -1, NULL, 0, 0 };
            campaign_state st;
            CU_ASSERT_EQUAL(run(dir, &cs, &t, NULL, &st), 0);
            CU_ASSERT(st.decided);
            CU_ASSERT_EQUAL(st.proven, kind == CAMPAIGN_WIN ? v == 1 : v >= 0);
            snprintf(path, sizeof path, "%s/result.proof", dir);
            CU_ASSERT_EQUAL(verify_file(path), 0);
            test_remove_dir(dir);
            free(dir);
        }
    }
    game_close(g);
}

/* The answers a journal holds, and whether one (k, position) is there twice. */
static int answers_in(const char *dir, int *twice)
{
    char path[4200], line[1024], seen[256][1024];
    snprintf(path, sizeof path, "%s/journal", dir);
    FILE *f = fopen(path, "r");
    int n = 0;
    *twice = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "answer ", 7) == 0 && n < 256) {
            char k[16], pos[600];
            sscanf(line, "answer %15s %*s %*s %*s %*s %599[^\n]", k, pos);
            snprintf(seen[n], sizeof seen[n], "%s %s", k, pos);
            for (int i = 0; i < n; i++)
                *twice |= strcmp(seen[i], seen[n]) == 0;
            n++;
        }
    if (f)
        fclose(f);
    return n;
}

static void test_resume(void)
{
    game *g = test_open("othello:4x5", NULL);
    game_state s;
    game_start(g, &s);
    campaign_spec cs;
    spec_of(&cs, g, "othello:4x5", &s, CAMPAIGN_SCORE, 0, 3);
    char *whole = test_asker_dir(), *parts = test_asker_dir();
    test_asker t = { g, -1, NULL, 0, 0 };
    campaign_state a, b;
    CU_ASSERT_EQUAL(run(whole, &cs, &t, NULL, &a), 0);
    int twice, runs = 0;
    volatile int stop = 0;
    do {  /* stopped after every three answers, then resumed */
        test_asker u = { g, -1, &stop, 3, 0 };
        stop = 0;
        run(parts, &cs, &u, &stop, &b);
        runs++;
    } while (!b.decided && runs < 100);
    CU_ASSERT(runs > 1);
    CU_ASSERT(b.decided);
    CU_ASSERT_EQUAL(a.lower, 16);
    CU_ASSERT_EQUAL(b.lower, a.lower);
    CU_ASSERT(answers_in(parts, &twice) > 0);
    CU_ASSERT(!twice);
    /* another spec in the same directory is refused, as is a damaged journal */
    char err[4200], path[4300];
    int usage;
    cs.depth = 2;
    CU_ASSERT_PTR_NULL(campaign_open(parts, &cs, err, sizeof err, &usage));
    CU_ASSERT(usage);
    snprintf(path, sizeof path, "%s/journal", parts);
    FILE *f = fopen(path, "a");
    fputs("answer 3 maybe 1 1 1 nowhere\n", f);
    fclose(f);
    CU_ASSERT_PTR_NULL(campaign_load(parts, err, sizeof err));
    CU_ASSERT(strstr(err, "journal line") != NULL);
    test_remove_dir(whole), test_remove_dir(parts);
    free(whole), free(parts);
    game_close(g);
}

void suite_campaign(void)
{
    CU_pSuite s = CU_add_suite("campaign", NULL, NULL);
    CU_add_test(s, "scores of random Othello positions through a frontier against naive negamax; both bounds' proofs verify",
                test_scores);
    CU_add_test(s, "tic-tac-toe win and advantage through a frontier against minimax; the joined proofs verify", test_values);
    CU_add_test(s, "a campaign stopped again and again resumes to the same score, nothing asked twice; bad journals refused",
                test_resume);
}
